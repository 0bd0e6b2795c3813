package dataset

// A small, opcode-limited reader for the Python-2 protocol-2 pickles of the
// Planetoid datasets (data/README.md, "File formats"), and the conversion of
// the three object kinds they hold (numpy arrays, scipy csr_matrix,
// collections.defaultdict(list)) into plain Go values.
//
// Why not github.com/nlpodyssey/gopickle: v0.2.0 decodes the valid files, but on
// untrusted bytes it (a) dies with an unrecoverable "fatal error: runtime: out of
// memory" on an 11-byte input (protocol-4 BINBYTES8 with a 2^40 length: it
// allocates the declared length before reading), (b) panics on opcode 0xff (its
// dispatch table has 255 entries), (c) resolves collections.OrderedDict,
// __builtin__.object and copy_reg._reconstructor itself before calling the
// FindClass hook, so an allow-list cannot refuse them, and (d) reports a
// truncated file as a bare io.EOF with no position. Making it safe would need a
// pre-scanner that already is the lexer of a reader, so this file implements the
// 28 opcodes the README lists, and nothing else:
//
//   - every other opcode is refused ("unsupported opcode");
//   - GLOBAL accepts only the classes of the allow-list below; anything else
//     ("unexpected class os.system") is refused when it is read, and nothing is
//     ever executed: REDUCE, NEWOBJ and BUILD only construct the handful of
//     passive Go types of this file, after checking their arguments;
//   - string payloads are read in bounded chunks, so memory use follows the
//     bytes actually present, never a declared length;
//   - the machine is iterative (no recursion), so nesting depth cannot
//     overflow the Go stack.
//
// Every malformed input gives a *graphio.FormatError whose Offset is the byte
// offset of the opcode being executed (for a truncated file: the offset where
// the data ran out, i.e. how far the reader got). As a last line of defence the
// decode functions recover from a panic and report it as a FormatError whose
// message starts with "internal decoder error"; that would be a bug here, and
// the fuzz test FuzzPlanetoidPickle fails on it.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ohmgnn/ohm/linalg/graphio"
)

// Opcodes of pickle protocol 2 that occur in the Planetoid files.
const (
	opProto          = 0x80
	opGlobal         = 'c'
	opBinPut         = 'q'
	opLongBinPut     = 'r'
	opBinGet         = 'h'
	opMark           = '('
	opStop           = '.'
	opEmptyTuple     = ')'
	opTuple          = 't'
	opTuple1         = 0x85
	opTuple2         = 0x86
	opTuple3         = 0x87
	opEmptyDict      = '}'
	opSetItems       = 'u'
	opEmptyList      = ']'
	opAppend         = 'a'
	opAppends        = 'e'
	opNone           = 'N'
	opNewTrue        = 0x88
	opNewFalse       = 0x89
	opBinInt         = 'J'
	opBinInt1        = 'K'
	opBinInt2        = 'M'
	opShortBinString = 'U'
	opBinString      = 'T'
	opReduce         = 'R'
	opNewObj         = 0x81
	opBuild          = 'b'
)

var opNames = map[byte]string{
	opProto: "PROTO", opGlobal: "GLOBAL", opBinPut: "BINPUT", opLongBinPut: "LONG_BINPUT",
	opBinGet: "BINGET", opMark: "MARK", opStop: "STOP", opEmptyTuple: "EMPTY_TUPLE",
	opTuple: "TUPLE", opTuple1: "TUPLE1", opTuple2: "TUPLE2", opTuple3: "TUPLE3",
	opEmptyDict: "EMPTY_DICT", opSetItems: "SETITEMS", opEmptyList: "EMPTY_LIST",
	opAppend: "APPEND", opAppends: "APPENDS", opNone: "NONE", opNewTrue: "NEWTRUE",
	opNewFalse: "NEWFALSE", opBinInt: "BININT", opBinInt1: "BININT1", opBinInt2: "BININT2",
	opShortBinString: "SHORT_BINSTRING", opBinString: "BINSTRING", opReduce: "REDUCE",
	opNewObj: "NEWOBJ", opBuild: "BUILD",
}

// The classes a Planetoid pickle may name (the aliases are the module names
// newer scipy (>= 1.8) and numpy (>= 2) write for the same classes).
const (
	clsReconstruct = "numpy.core.multiarray._reconstruct"
	clsNDArray     = "numpy.ndarray"
	clsDType       = "numpy.dtype"
	clsCSR         = "scipy.sparse.csr.csr_matrix"
	clsDefaultDict = "collections.defaultdict"
	clsList        = "__builtin__.list"
)

var allowedGlobals = map[string]string{
	"numpy.core.multiarray._reconstruct":  clsReconstruct,
	"numpy._core.multiarray._reconstruct": clsReconstruct,
	"numpy.ndarray":                       clsNDArray,
	"numpy.dtype":                         clsDType,
	"scipy.sparse.csr.csr_matrix":         clsCSR,
	"scipy.sparse._csr.csr_matrix":        clsCSR,
	"collections.defaultdict":             clsDefaultDict,
	"__builtin__.list":                    clsList,
}

// maxGlobalLine bounds a GLOBAL module or name line.
const maxGlobalLine = 256

// pyGlobal is a class or function named by GLOBAL; kind is its canonical
// name (one of the cls* constants), name what the file said.
type pyGlobal struct{ kind, name string }

// pyTuple is a Python tuple.
type pyTuple []any

// pyList is a Python list; off is the offset of the opcode that created it.
type pyList struct {
	items []any
	off   int64
}

// dictKey is a hashable Python key: an int (bools count as 0/1, as in
// Python) or a str.
type dictKey struct {
	isStr bool
	i     int
	s     string
}

// pyDict is a dict (factory == "") or a defaultdict(list) (factory ==
// clsList), in insertion order; setting an existing key replaces its value in
// place, as Python does. offs[i] is the offset of the SETITEMS that set item i.
type pyDict struct {
	factory string
	keys    []any
	vals    []any
	offs    []int64
	index   map[dictKey]int
}

func (d *pyDict) set(k, v any, off int64) error {
	var key dictKey
	switch k := k.(type) {
	case int:
		key.i = k
	case bool:
		if k {
			key.i = 1
		}
	case []byte:
		key = dictKey{isStr: true, s: string(k)}
	default:
		return fmt.Errorf("dataset: unsupported dict key type %s", pyTypeName(k))
	}
	if d.index == nil {
		d.index = make(map[dictKey]int)
	}
	if i, ok := d.index[key]; ok {
		d.vals[i], d.offs[i] = v, off
		return nil
	}
	d.index[key] = len(d.keys)
	d.keys = append(d.keys, k)
	d.vals = append(d.vals, v)
	d.offs = append(d.offs, off)
	return nil
}

// get returns the value of a str key.
func (d *pyDict) get(s string) (any, bool) {
	i, ok := d.index[dictKey{isStr: true, s: s}]
	if !ok {
		return nil, false
	}
	return d.vals[i], true
}

// pyDType is a numpy.dtype: code is "i4", "i8", "f4" or "f8"; order is the
// byte order set by BUILD (0 before).
type pyDType struct {
	code  string
	size  int
	float bool
	order byte
}

// pyNDArray is a numpy.ndarray: created empty by _reconstruct, filled by
// BUILD (off is that BUILD's offset).
type pyNDArray struct {
	built bool
	shape []int
	dtype *pyDType
	data  []byte
	off   int64
}

// pyCSR is a scipy.sparse.csr_matrix: created by NEWOBJ, its __dict__ filled
// by BUILD (off is the last BUILD's offset).
type pyCSR struct {
	attrs *pyDict
	off   int64
}

func pyTypeName(v any) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case bool:
		return "bool"
	case int:
		return "int"
	case []byte:
		return "str"
	case pyTuple:
		return "tuple"
	case *pyList:
		return "list"
	case *pyDict:
		if v.factory != "" {
			return "collections.defaultdict"
		}
		return "dict"
	case pyGlobal:
		return "class " + v.name
	case *pyDType:
		return "numpy.dtype"
	case *pyNDArray:
		return "numpy.ndarray"
	case *pyCSR:
		return "scipy.sparse.csr_matrix"
	}
	return fmt.Sprintf("%T", v)
}

// unpickler is the pickle machine. Offsets are byte offsets from the start of
// the input.
type unpickler struct {
	path  string
	r     *bufio.Reader
	pos   int64  // bytes consumed so far
	op    int64  // offset of the opcode being executed
	name  string // its name
	stack []any
	marks []int // stack heights at each MARK
	memo  map[uint32]any
}

// errAt returns a FormatError at the current opcode.
func (u *unpickler) errAt(format string, args ...any) error {
	return &graphio.FormatError{Path: u.path, Offset: u.op, Msg: fmt.Sprintf(format, args...)}
}

// readErr turns a read error into a truncation FormatError or an I/O error.
func (u *unpickler) readErr(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		msg := "truncated pickle: unexpected end of data"
		if u.name != "" {
			msg += fmt.Sprintf(" (in %s at offset %d)", u.name, u.op)
		}
		return &graphio.FormatError{Path: u.path, Offset: u.pos, Msg: msg}
	}
	return fmt.Errorf("%s: reading pickle at offset %d: %w", u.path, u.pos, err)
}

func (u *unpickler) readByte() (byte, error) {
	b, err := u.r.ReadByte()
	if err != nil {
		return 0, u.readErr(err)
	}
	u.pos++
	return b, nil
}

// readN reads exactly n bytes in growing chunks (4 KiB doubling up to 1 MiB),
// so that a huge declared length in a short input costs no more memory than
// twice the bytes actually present.
func (u *unpickler) readN(n int) ([]byte, error) {
	var buf []byte
	for len(buf) < n {
		k := min(n-len(buf), max(len(buf), 4096), 1<<20)
		buf = slices.Grow(buf, k)
		m, err := io.ReadFull(u.r, buf[len(buf):len(buf)+k])
		buf = buf[:len(buf)+m]
		u.pos += int64(m)
		if err != nil {
			return nil, u.readErr(err)
		}
	}
	return buf, nil
}

func (u *unpickler) readLine() (string, error) {
	var line []byte
	for {
		b, err := u.readByte()
		if err != nil {
			return "", err
		}
		if b == '\n' {
			return string(line), nil
		}
		if len(line) >= maxGlobalLine {
			return "", u.errAt("GLOBAL name longer than %d bytes", maxGlobalLine)
		}
		line = append(line, b)
	}
}

func (u *unpickler) uint(n int) (uint32, error) {
	b, err := u.readN(n)
	if err != nil {
		return 0, err
	}
	var x uint32
	for i := n - 1; i >= 0; i-- {
		x = x<<8 | uint32(b[i])
	}
	return x, nil
}

// floor is the stack height below which the current opcode may not pop: the
// last MARK, as in Python, where MARK starts a fresh stack.
func (u *unpickler) floor() int {
	if len(u.marks) == 0 {
		return 0
	}
	return u.marks[len(u.marks)-1]
}

func (u *unpickler) push(v any) { u.stack = append(u.stack, v) }

func (u *unpickler) pop() (any, error) {
	if len(u.stack) <= u.floor() {
		return nil, u.errAt("%s: stack underflow", u.name)
	}
	v := u.stack[len(u.stack)-1]
	u.stack = u.stack[:len(u.stack)-1]
	return v, nil
}

func (u *unpickler) top() (any, error) {
	if len(u.stack) <= u.floor() {
		return nil, u.errAt("%s: stack underflow", u.name)
	}
	return u.stack[len(u.stack)-1], nil
}

// popMark pops the items above the last MARK and the MARK itself.
func (u *unpickler) popMark() ([]any, error) {
	if len(u.marks) == 0 {
		return nil, u.errAt("%s: no MARK on the stack", u.name)
	}
	m := u.marks[len(u.marks)-1]
	u.marks = u.marks[:len(u.marks)-1]
	items := slices.Clone(u.stack[m:])
	u.stack = u.stack[:m]
	return items, nil
}

// unpickle runs the machine to STOP and returns the result and the offset of
// the STOP opcode. Bytes after STOP are not read (Python ignores them too).
func unpickle(path string, r io.Reader) (result any, stopOff int64, err error) {
	u := &unpickler{path: path, r: bufio.NewReader(r), memo: make(map[uint32]any)}
	defer func() {
		if p := recover(); p != nil {
			result, err = nil, &graphio.FormatError{Path: path, Offset: u.op,
				Msg: fmt.Sprintf("internal decoder error (please report): %v", p)}
		}
	}()
	for {
		u.op, u.name = u.pos, ""
		code, err := u.readByte()
		if err != nil {
			if fe, ok := err.(*graphio.FormatError); ok {
				fe.Msg = "truncated pickle: unexpected end of data (no STOP opcode)"
			}
			return nil, 0, err
		}
		name, ok := opNames[code]
		if !ok {
			return nil, 0, u.errAt("unsupported opcode 0x%02x (not used by Planetoid pickles)", code)
		}
		u.name = name
		if code == opStop {
			v, err := u.pop()
			if err != nil {
				return nil, 0, err
			}
			return v, u.op, nil
		}
		if err := u.step(code); err != nil {
			return nil, 0, err
		}
	}
}

// step executes one opcode other than STOP, by family: the stream's
// framing (PROTO, GLOBAL), the memo, tuples and marks, dicts, lists,
// constants and ints, strings, and the object opcodes (REDUCE, NEWOBJ,
// BUILD).
func (u *unpickler) step(code byte) error {
	switch code {
	case opProto:
		return u.proto()
	case opGlobal:
		return u.global()
	case opBinPut, opLongBinPut, opBinGet:
		return u.memoOp(code)
	case opMark, opEmptyTuple, opTuple, opTuple1, opTuple2, opTuple3:
		return u.tupleOp(code)
	case opEmptyDict, opSetItems:
		return u.dictOp(code)
	case opEmptyList, opAppend, opAppends:
		return u.listOp(code)
	case opNone, opNewTrue, opNewFalse, opBinInt, opBinInt1, opBinInt2:
		return u.constOp(code)
	case opShortBinString, opBinString:
		return u.stringOp(code)
	case opReduce:
		return u.reduce()
	case opNewObj:
		return u.newObj()
	case opBuild:
		return u.build()
	default:
		return u.errAt("unsupported opcode 0x%02x", code)
	}
}

// proto implements PROTO: only protocol 2 is accepted.
func (u *unpickler) proto() error {
	v, err := u.readByte()
	if err != nil {
		return err
	}
	if v != 2 {
		return u.errAt("unsupported pickle protocol %d (want 2)", v)
	}
	return nil
}

// global implements GLOBAL: it pushes the class named by the module and
// name lines when the allow-list has it, and refuses any other.
func (u *unpickler) global() error {
	module, err := u.readLine()
	if err != nil {
		return err
	}
	name, err := u.readLine()
	if err != nil {
		return err
	}
	full := module + "." + name
	kind, ok := allowedGlobals[full]
	if !ok {
		return u.errAt("unexpected class %s: a Planetoid pickle may only name numpy arrays, "+
			"scipy csr matrices and collections.defaultdict(list)", pyPrintable(full))
	}
	u.push(pyGlobal{kind: kind, name: full})
	return nil
}

// memoOp implements the memo opcodes: BINPUT and LONG_BINPUT store the
// top of the stack under a 1- or 4-byte index, BINGET pushes a stored
// item.
func (u *unpickler) memoOp(code byte) error {
	if code == opBinGet {
		i, err := u.uint(1)
		if err != nil {
			return err
		}
		v, ok := u.memo[i]
		if !ok {
			return u.errAt("BINGET %d: no such memo entry", i)
		}
		u.push(v)
		return nil
	}
	n := 1
	if code == opLongBinPut {
		n = 4
	}
	i, err := u.uint(n)
	if err != nil {
		return err
	}
	v, err := u.top()
	if err != nil {
		return err
	}
	u.memo[i] = v
	return nil
}

// tupleOp implements MARK and the tuple opcodes: EMPTY_TUPLE, TUPLE (the
// items above the last MARK) and TUPLE1–3 (the top one to three items).
func (u *unpickler) tupleOp(code byte) error {
	switch code {
	case opMark:
		u.marks = append(u.marks, len(u.stack))
	case opEmptyTuple:
		u.push(pyTuple{})
	case opTuple:
		items, err := u.popMark()
		if err != nil {
			return err
		}
		u.push(pyTuple(items))
	default: // opTuple1, opTuple2, opTuple3
		n := int(code-opTuple1) + 1
		if len(u.stack)-u.floor() < n {
			return u.errAt("%s: stack underflow", u.name)
		}
		t := slices.Clone(u.stack[len(u.stack)-n:])
		u.stack = u.stack[:len(u.stack)-n]
		u.push(pyTuple(t))
	}
	return nil
}

// dictOp implements EMPTY_DICT and SETITEMS (the key–value pairs above
// the last MARK set in the dict below them).
func (u *unpickler) dictOp(code byte) error {
	if code == opEmptyDict {
		u.push(&pyDict{})
		return nil
	}
	items, err := u.popMark()
	if err != nil {
		return err
	}
	if len(items)%2 != 0 {
		return u.errAt("SETITEMS: odd number of items (%d) after MARK", len(items))
	}
	t, err := u.top()
	if err != nil {
		return err
	}
	d, ok := t.(*pyDict)
	if !ok {
		return u.errAt("SETITEMS on a %s, want a dict", pyTypeName(t))
	}
	for i := 0; i < len(items); i += 2 {
		if err := d.set(items[i], items[i+1], u.op); err != nil {
			return u.errAt("SETITEMS: %v", err)
		}
	}
	return nil
}

// listOp implements EMPTY_LIST, APPEND (the top item onto the list below
// it) and APPENDS (the items above the last MARK onto the list below
// them).
func (u *unpickler) listOp(code byte) error {
	switch code {
	case opEmptyList:
		u.push(&pyList{off: u.op})
	case opAppend:
		v, err := u.pop()
		if err != nil {
			return err
		}
		l, err := u.topList()
		if err != nil {
			return err
		}
		l.items = append(l.items, v)
	default: // opAppends
		items, err := u.popMark()
		if err != nil {
			return err
		}
		l, err := u.topList()
		if err != nil {
			return err
		}
		l.items = append(l.items, items...)
	}
	return nil
}

// topList returns the list on top of the stack for APPEND or APPENDS.
func (u *unpickler) topList() (*pyList, error) {
	t, err := u.top()
	if err != nil {
		return nil, err
	}
	l, ok := t.(*pyList)
	if !ok {
		return nil, u.errAt("%s to a %s, want a list", u.name, pyTypeName(t))
	}
	return l, nil
}

// constOp implements the constants NONE, NEWTRUE and NEWFALSE and the
// ints BININT (4 bytes, signed), BININT1 and BININT2 (1 and 2 bytes,
// unsigned).
func (u *unpickler) constOp(code byte) error {
	switch code {
	case opNone:
		u.push(nil)
	case opNewTrue:
		u.push(true)
	case opNewFalse:
		u.push(false)
	case opBinInt:
		x, err := u.uint(4)
		if err != nil {
			return err
		}
		u.push(int(int32(x)))
	default: // opBinInt1, opBinInt2
		n := 1
		if code == opBinInt2 {
			n = 2
		}
		x, err := u.uint(n)
		if err != nil {
			return err
		}
		u.push(int(x))
	}
	return nil
}

// stringOp implements SHORT_BINSTRING (a 1-byte length) and BINSTRING (a
// 4-byte signed one): it pushes the payload as a []byte, read in bounded
// chunks (readN).
func (u *unpickler) stringOp(code byte) error {
	n := 1
	if code == opBinString {
		n = 4
	}
	x, err := u.uint(n)
	if err != nil {
		return err
	}
	size := int(x)
	if code == opBinString {
		if int32(x) < 0 {
			return u.errAt("BINSTRING: negative length %d", int32(x))
		}
		size = int(int32(x))
	}
	b, err := u.readN(size)
	if err != nil {
		return err
	}
	u.push(b)
	return nil
}

// pop2 pops the top of the stack, then the item below it.
func (u *unpickler) pop2() (top, below any, err error) {
	if top, err = u.pop(); err != nil {
		return nil, nil, err
	}
	if below, err = u.pop(); err != nil {
		return nil, nil, err
	}
	return top, below, nil
}

// reduce implements REDUCE for the three allowed callables.
func (u *unpickler) reduce() error {
	a, f, err := u.pop2()
	if err != nil {
		return err
	}
	args, ok := a.(pyTuple)
	if !ok {
		return u.errAt("REDUCE: arguments are a %s, want a tuple", pyTypeName(a))
	}
	g, ok := f.(pyGlobal)
	if !ok {
		return u.errAt("REDUCE: cannot call a %s", pyTypeName(f))
	}
	switch g.kind {
	case clsReconstruct:
		// _reconstruct(ndarray, (0,), 'b'): an empty array for BUILD to fill.
		if len(args) != 3 {
			return u.errAt("REDUCE %s: %d arguments, want 3", g.name, len(args))
		}
		if c, ok := args[0].(pyGlobal); !ok || c.kind != clsNDArray {
			return u.errAt("REDUCE %s: first argument is a %s, want class numpy.ndarray",
				g.name, pyTypeName(args[0]))
		}
		u.push(&pyNDArray{})
	case clsDType:
		// dtype('i4', 0, 1)
		if len(args) != 3 {
			return u.errAt("REDUCE %s: %d arguments, want 3", g.name, len(args))
		}
		s, ok := args[0].([]byte)
		if !ok {
			return u.errAt("REDUCE %s: type code is a %s, want a str", g.name, pyTypeName(args[0]))
		}
		dt := &pyDType{code: string(s)}
		switch dt.code {
		case "i4":
			dt.size = 4
		case "i8":
			dt.size = 8
		case "f4":
			dt.size, dt.float = 4, true
		case "f8":
			dt.size, dt.float = 8, true
		default:
			return u.errAt("unsupported dtype %q (want i4, i8, f4 or f8)", dt.code)
		}
		u.push(dt)
	case clsDefaultDict:
		// defaultdict(list)
		if len(args) != 1 {
			return u.errAt("REDUCE %s: %d arguments, want 1", g.name, len(args))
		}
		if c, ok := args[0].(pyGlobal); !ok || c.kind != clsList {
			return u.errAt("REDUCE %s: default factory is a %s, want class __builtin__.list",
				g.name, pyTypeName(args[0]))
		}
		u.push(&pyDict{factory: clsList})
	default:
		return u.errAt("REDUCE: calling %s is not allowed", g.name)
	}
	return nil
}

// newObj implements NEWOBJ for csr_matrix.__new__(csr_matrix).
func (u *unpickler) newObj() error {
	a, c, err := u.pop2()
	if err != nil {
		return err
	}
	args, ok := a.(pyTuple)
	if !ok {
		return u.errAt("NEWOBJ: arguments are a %s, want a tuple", pyTypeName(a))
	}
	g, ok := c.(pyGlobal)
	if !ok || g.kind != clsCSR {
		return u.errAt("NEWOBJ: cannot create a %s (only scipy.sparse csr_matrix)", pyTypeName(c))
	}
	if len(args) != 0 {
		return u.errAt("NEWOBJ %s: %d arguments, want none", g.name, len(args))
	}
	u.push(&pyCSR{})
	return nil
}

// build implements BUILD: dtype and ndarray __setstate__, csr_matrix
// __dict__.update.
func (u *unpickler) build() error {
	state, err := u.pop()
	if err != nil {
		return err
	}
	obj, err := u.top()
	if err != nil {
		return err
	}
	switch o := obj.(type) {
	case *pyDType:
		// (3, '<', None, None, None, -1, -1, 0)
		t, ok := state.(pyTuple)
		if !ok || len(t) != 8 {
			return u.errAt("BUILD numpy.dtype: state is a %s, want an 8-tuple", pyDescribe(state))
		}
		if v, ok := t[0].(int); !ok || v != 3 {
			return u.errAt("BUILD numpy.dtype: unsupported state version %s, want 3", pyShort(t[0]))
		}
		order, ok := t[1].([]byte)
		if !ok || len(order) != 1 {
			return u.errAt("BUILD numpy.dtype: byte order is a %s, want a 1-character str", pyTypeName(t[1]))
		}
		if order[0] != '<' {
			return u.errAt("unsupported byte order %q for dtype %s (want little-endian '<')", order, o.code)
		}
		o.order = order[0]
	case *pyNDArray:
		return u.buildArray(o, state)
	case *pyCSR:
		d, ok := state.(*pyDict)
		if !ok || d.factory != "" {
			return u.errAt("BUILD csr_matrix: state is a %s, want a dict", pyTypeName(state))
		}
		if o.attrs == nil {
			o.attrs = &pyDict{}
		}
		for i, k := range d.keys {
			if err := o.attrs.set(k, d.vals[i], d.offs[i]); err != nil {
				return u.errAt("BUILD csr_matrix: %v", err)
			}
		}
		o.off = u.op
	default:
		return u.errAt("BUILD on a %s is not supported", pyTypeName(obj))
	}
	return nil
}

// pyShort formats a decoded value for an error message, briefly: ints, bools,
// None, short strs and small tuples of those by value, anything else by type.
func pyShort(v any) string {
	if t, ok := v.(pyTuple); ok && len(t) <= 4 {
		parts := make([]string, len(t))
		for i, x := range t {
			if _, nested := x.(pyTuple); nested {
				parts[i] = "tuple"
			} else {
				parts[i] = pyShort(x)
			}
		}
		if len(t) == 1 {
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	switch v := v.(type) {
	case nil:
		return "None"
	case bool:
		if v {
			return "True"
		}
		return "False"
	case int:
		return strconv.Itoa(v)
	case []byte:
		if len(v) > 32 {
			return fmt.Sprintf("%q...", v[:32])
		}
		return fmt.Sprintf("%q", v)
	}
	return pyDescribe(v)
}

// pyPrintable returns s as is when it is printable ASCII, else Go-quoted.
func pyPrintable(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return strconv.Quote(s)
		}
	}
	return s
}

func pyDescribe(v any) string {
	if t, ok := v.(pyTuple); ok {
		return fmt.Sprintf("%d-tuple", len(t))
	}
	return pyTypeName(v)
}

// buildArray applies ndarray.__setstate__((1, shape, dtype, is_fortran, raw)).
func (u *unpickler) buildArray(a *pyNDArray, state any) error {
	t, ok := state.(pyTuple)
	if !ok || len(t) != 5 {
		return u.errAt("BUILD numpy.ndarray: state is a %s, want a 5-tuple", pyDescribe(state))
	}
	if v, ok := t[0].(int); !ok || v != 1 {
		return u.errAt("BUILD numpy.ndarray: unsupported state version %s, want 1", pyShort(t[0]))
	}
	st, ok := t[1].(pyTuple)
	if !ok {
		return u.errAt("BUILD numpy.ndarray: shape is a %s, want a tuple", pyTypeName(t[1]))
	}
	if len(st) > 2 {
		return u.errAt("BUILD numpy.ndarray: %d dimensions, want 1 or 2", len(st))
	}
	shape := make([]int, len(st))
	count := 1
	for i, x := range st {
		n, ok := x.(int)
		if !ok || n < 0 {
			return u.errAt("BUILD numpy.ndarray: bad shape entry %s", pyShort(x))
		}
		shape[i] = n
		if n != 0 && count > math.MaxInt32/n {
			return u.errAt("BUILD numpy.ndarray: shape %v is too large", shape)
		}
		count *= n
	}
	dt, ok := t[2].(*pyDType)
	if !ok {
		return u.errAt("BUILD numpy.ndarray: dtype is a %s, want numpy.dtype", pyTypeName(t[2]))
	}
	if dt.order == 0 {
		return u.errAt("BUILD numpy.ndarray: dtype %s has no byte order (it was never built)", dt.code)
	}
	fortran, ok := t[3].(bool)
	if !ok {
		return u.errAt("BUILD numpy.ndarray: is_fortran is a %s, want a bool", pyTypeName(t[3]))
	}
	if fortran && len(shape) > 1 {
		return u.errAt("BUILD numpy.ndarray: Fortran (column-major) order is not supported")
	}
	raw, ok := t[4].([]byte)
	if !ok {
		return u.errAt("BUILD numpy.ndarray: data is a %s, want a str", pyTypeName(t[4]))
	}
	if want := count * dt.size; len(raw) != want {
		return u.errAt("dtype/shape mismatch: array of shape %v and dtype %s needs %d data bytes, got %d",
			shape, dt.code, want, len(raw))
	}
	if a.built {
		return u.errAt("BUILD numpy.ndarray: array is built twice")
	}
	*a = pyNDArray{built: true, shape: shape, dtype: dt, data: raw, off: u.op}
	return nil
}

// ----- conversion of decoded objects into Go values -----

// pickledCSR is a decoded scipy.sparse.csr_matrix. Each row's column indices
// are strictly increasing and data holds no zeros (duplicates are summed and
// explicit zeros dropped, as scipy's todense() and PyG see them).
type pickledCSR struct {
	rows, cols int
	indptr     []int
	indices    []int
	data       []float64
	off        int64 // offset of the BUILD that set the matrix's attributes
}

// pickledDense is a decoded 2-D numpy array, row-major.
type pickledDense struct {
	rows, cols int
	vals       []float64
	off        int64 // offset of the array's BUILD
}

// pickledAdjacency is a decoded defaultdict(list) of ints, in stream order.
type pickledAdjacency struct {
	keys  []int
	lists [][]int
	offs  []int64 // offset of each list's EMPTY_LIST (or of its SETITEMS)
}

// pickleErr returns a FormatError at off.
func pickleErr(path string, off int64, format string, args ...any) error {
	return &graphio.FormatError{Path: path, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// numbers returns the array's elements as float64 and, for integer dtypes,
// as int (ints is nil for float dtypes).
func (a *pyNDArray) numbers() (vals []float64, ints []int) {
	n := len(a.data) / a.dtype.size
	vals = make([]float64, n)
	if !a.dtype.float {
		ints = make([]int, n)
	}
	for i := range n {
		b := a.data[i*a.dtype.size:]
		switch a.dtype.code {
		case "i4":
			x := int32(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
			ints[i], vals[i] = int(x), float64(x)
		case "i8":
			x := int64(pickleLE64(b))
			ints[i], vals[i] = int(x), float64(x)
		case "f4":
			vals[i] = float64(math.Float32frombits(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24))
		case "f8":
			vals[i] = math.Float64frombits(pickleLE64(b))
		}
	}
	return vals, ints
}

func pickleLE64(b []byte) uint64 {
	var x uint64
	for i := 7; i >= 0; i-- {
		x = x<<8 | uint64(b[i])
	}
	return x
}

// pyArray1D checks that v is a built 1-D array of length n (n < 0: any).
func pyArray1D(path string, off int64, what string, v any, n int) (*pyNDArray, error) {
	a, ok := v.(*pyNDArray)
	if !ok {
		return nil, pickleErr(path, off, "csr_matrix %s is a %s, want a numpy.ndarray", what, pyTypeName(v))
	}
	if !a.built {
		return nil, pickleErr(path, off, "csr_matrix %s: array was never built", what)
	}
	if len(a.shape) != 1 {
		return nil, pickleErr(path, a.off, "csr_matrix %s has shape %v, want 1-D", what, a.shape)
	}
	if n >= 0 && a.shape[0] != n {
		return nil, pickleErr(path, a.off, "csr_matrix %s has length %d, want %d", what, a.shape[0], n)
	}
	return a, nil
}

// decodeCSR decodes a pickled scipy.sparse.csr_matrix (ind.*.x, tx, allx).
func decodeCSR(path string, r io.Reader) (*pickledCSR, error) {
	v, stop, err := unpickle(path, r)
	if err != nil {
		return nil, err
	}
	c, ok := v.(*pyCSR)
	if !ok {
		return nil, pickleErr(path, stop, "top-level object is a %s, want a scipy.sparse csr_matrix", pyTypeName(v))
	}
	if c.attrs == nil {
		return nil, pickleErr(path, stop, "csr_matrix has no state (no BUILD)")
	}
	off := c.off
	rows, cols, err := csrShape(path, c)
	if err != nil {
		return nil, err
	}
	pa, ia, da, err := csrArrays(path, c, rows)
	if err != nil {
		return nil, err
	}
	_, indptr := pa.numbers()
	_, indices := ia.numbers()
	data, _ := da.numbers()
	nnz := len(indices)
	if indptr[0] != 0 || indptr[rows] != nnz {
		return nil, pickleErr(path, pa.off, "csr_matrix indptr runs from %d to %d, want 0 to nnz=%d",
			indptr[0], indptr[rows], nnz)
	}
	m := &pickledCSR{rows: rows, cols: cols, off: off}
	m.indptr = make([]int, 1, rows+1)
	m.indices = make([]int, 0, nnz)
	m.data = make([]float64, 0, nnz)
	var row []csrEntry
	for i := range rows {
		lo, hi := indptr[i], indptr[i+1]
		if hi < lo || hi > nnz {
			return nil, pickleErr(path, pa.off, "csr_matrix indptr is not non-decreasing at row %d (%d, %d)", i, lo, hi)
		}
		sorted, err := csrCheckRow(path, ia.off, indices[lo:hi], i, cols)
		if err != nil {
			return nil, err
		}
		if sorted {
			m.appendSorted(indices[lo:hi], data[lo:hi])
		} else {
			row = m.appendUnsorted(row, indices[lo:hi], data[lo:hi])
		}
		m.indptr = append(m.indptr, len(m.indices))
	}
	return m, nil
}

// csrAttr returns the attribute k of the csr_matrix's state, an error
// when it lacks it.
func csrAttr(path string, c *pyCSR, k string) (any, error) {
	x, ok := c.attrs.get(k)
	if !ok {
		return nil, pickleErr(path, c.off, "csr_matrix state lacks %q", k)
	}
	return x, nil
}

// csrShape checks the csr_matrix's format (when it names one: 'csr') and
// returns its _shape, two non-negative ints.
func csrShape(path string, c *pyCSR) (rows, cols int, err error) {
	off := c.off
	if f, ok := c.attrs.get("format"); ok {
		if s, ok := f.([]byte); !ok || string(s) != "csr" {
			return 0, 0, pickleErr(path, off, "csr_matrix format is %s, want 'csr'", pyShort(f))
		}
	}
	sv, err := csrAttr(path, c, "_shape")
	if err != nil {
		return 0, 0, err
	}
	st, ok := sv.(pyTuple)
	if !ok || len(st) != 2 {
		return 0, 0, pickleErr(path, off, "csr_matrix _shape is a %s, want a 2-tuple", pyDescribe(sv))
	}
	rows, ok1 := st[0].(int)
	cols, ok2 := st[1].(int)
	if !ok1 || !ok2 || rows < 0 || cols < 0 {
		return 0, 0, pickleErr(path, off, "csr_matrix _shape %s is not two non-negative ints", pyShort(st))
	}
	return rows, cols, nil
}

// csrArrays returns the csr_matrix's indptr (rows+1 entries), indices and
// data (as many as indices) arrays, 1-D and built, indptr and indices of
// integer dtypes.
func csrArrays(path string, c *pyCSR, rows int) (pa, ia, da *pyNDArray, err error) {
	off := c.off
	pv, err := csrAttr(path, c, "indptr")
	if err != nil {
		return nil, nil, nil, err
	}
	if pa, err = pyArray1D(path, off, "indptr", pv, rows+1); err != nil {
		return nil, nil, nil, err
	}
	iv, err := csrAttr(path, c, "indices")
	if err != nil {
		return nil, nil, nil, err
	}
	if ia, err = pyArray1D(path, off, "indices", iv, -1); err != nil {
		return nil, nil, nil, err
	}
	dv, err := csrAttr(path, c, "data")
	if err != nil {
		return nil, nil, nil, err
	}
	if da, err = pyArray1D(path, off, "data", dv, ia.shape[0]); err != nil {
		return nil, nil, nil, err
	}
	if pa.dtype.float || ia.dtype.float {
		return nil, nil, nil, pickleErr(path, off, "csr_matrix indptr/indices have dtypes %s/%s, want integers",
			pa.dtype.code, ia.dtype.code)
	}
	return pa, ia, da, nil
}

// csrCheckRow checks that row i's column indices lie in [0, cols) (an
// error at off, the indices array's BUILD, when not) and reports whether
// they are strictly increasing.
func csrCheckRow(path string, off int64, indices []int, i, cols int) (bool, error) {
	sorted := true
	for k, j := range indices {
		if j < 0 || j >= cols {
			return false, pickleErr(path, off, "csr_matrix column index %d in row %d out of range [0, %d)",
				j, i, cols)
		}
		if k > 0 && j <= indices[k-1] {
			sorted = false
		}
	}
	return sorted, nil
}

// csrEntry is one stored entry of a csr_matrix row.
type csrEntry struct {
	col int
	val float64
}

// appendSorted appends a row with strictly increasing column indices to
// m, its zeros dropped.
func (m *pickledCSR) appendSorted(indices []int, data []float64) {
	for k, j := range indices {
		if data[k] != 0 {
			m.indices = append(m.indices, j)
			m.data = append(m.data, data[k])
		}
	}
}

// appendUnsorted appends a row with unsorted or duplicate columns to m:
// sorted, duplicates summed (as scipy's todense does), then zeros
// dropped. row is a work buffer, returned for the next row.
func (m *pickledCSR) appendUnsorted(row []csrEntry, indices []int, data []float64) []csrEntry {
	row = row[:0]
	for k, j := range indices {
		row = append(row, csrEntry{j, data[k]})
	}
	slices.SortStableFunc(row, func(a, b csrEntry) int { return a.col - b.col })
	for k := 0; k < len(row); {
		e := row[k]
		for k++; k < len(row) && row[k].col == e.col; k++ {
			e.val += row[k].val
		}
		if e.val != 0 {
			m.indices = append(m.indices, e.col)
			m.data = append(m.data, e.val)
		}
	}
	return row
}

// decodeDense decodes a pickled 2-D numpy array (ind.*.y, ty, ally).
func decodeDense(path string, r io.Reader) (*pickledDense, error) {
	v, stop, err := unpickle(path, r)
	if err != nil {
		return nil, err
	}
	a, ok := v.(*pyNDArray)
	if !ok {
		return nil, pickleErr(path, stop, "top-level object is a %s, want a numpy.ndarray", pyTypeName(v))
	}
	if !a.built {
		return nil, pickleErr(path, stop, "numpy.ndarray was never built (no BUILD)")
	}
	if len(a.shape) != 2 {
		return nil, pickleErr(path, a.off, "numpy.ndarray has shape %v, want 2-D (rows, classes)", a.shape)
	}
	vals, _ := a.numbers()
	return &pickledDense{rows: a.shape[0], cols: a.shape[1], vals: vals, off: a.off}, nil
}

// decodeAdjacency decodes a pickled defaultdict(list) of int node ids
// (ind.*.graph).
func decodeAdjacency(path string, r io.Reader) (*pickledAdjacency, error) {
	v, stop, err := unpickle(path, r)
	if err != nil {
		return nil, err
	}
	d, ok := v.(*pyDict)
	if !ok || d.factory == "" {
		return nil, pickleErr(path, stop, "top-level object is a %s, want a collections.defaultdict(list)", pyTypeName(v))
	}
	adj := &pickledAdjacency{
		keys:  make([]int, len(d.keys)),
		lists: make([][]int, len(d.keys)),
		offs:  make([]int64, len(d.keys)),
	}
	for i, k := range d.keys {
		key, ok := k.(int)
		if !ok {
			return nil, pickleErr(path, d.offs[i], "graph key %s is a %s, want an int node id", pyShort(k), pyTypeName(k))
		}
		l, ok := d.vals[i].(*pyList)
		if !ok {
			return nil, pickleErr(path, d.offs[i], "graph entry of node %d is a %s, want a list", key, pyTypeName(d.vals[i]))
		}
		nb := make([]int, len(l.items))
		for j, x := range l.items {
			n, ok := x.(int)
			if !ok {
				return nil, pickleErr(path, l.off, "graph entry of node %d holds a %s, want int node ids", key, pyTypeName(x))
			}
			nb[j] = n
		}
		adj.keys[i], adj.lists[i], adj.offs[i] = key, nb, l.off
	}
	return adj, nil
}
