package graphio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/sbinet/npyio/npy"

	"github.com/ohmgnn/ohm/linalg"
)

// This file holds the .npy layer: a strict parser of the .npy header, the
// Array type that exposes a decoded member, and the header writer.
//
// Reading. The element data are decoded by github.com/sbinet/npyio, but that
// package's header parser panics or misreads on malformed headers (a missing
// '\n', keys in another order, no trailing ", " before '}') and zero-fills
// truncated data silently. So every member is first read whole into memory,
// its header parsed here by a small parser of the Python literal that numpy
// writes (any key order, ' or " quotes, optional trailing comma, Python 2 "L"
// suffixes), its size checked against the shape, and only then handed to npyio
// with a canonical header in front of the untouched data bytes.
//
// Writing. npyio always writes version 2.0 headers, aligns them to 16 rather
// than 64 bytes, and can write a 2-D array only as a float64 mat.Dense, so
// int64 arrays of shape (2, E) are written here: format 1.0, header
// "{'descr': '<i8', 'fortran_order': False, 'shape': (2, E), }" padded with
// spaces to a multiple of 64 bytes and ended by '\n', exactly as numpy ≥ 1.14
// writes it.

// npyMagic starts every .npy file.
var npyMagic = []byte("\x93NUMPY")

// maxMemberSize bounds how much of one archive member is read into memory.
const maxMemberSize = 1 << 31

// MaxNodes is the largest node count (and so the largest id + 1) the readers
// accept, linalg.MaxNodes; larger counts are reported as malformed input
// rather than attempted.
const MaxNodes = linalg.MaxNodes

// dtype is a parsed numpy dtype descriptor.
type dtype struct {
	descr string // normalised: "<i8", ">i4", "|u1", "|b1", ...
	kind  byte   // 'b' bool, 'i' signed, 'u' unsigned, 'f' float, 'c' complex
	size  int    // bytes per element
	big   bool   // big-endian
}

// name is numpy's name for the dtype ("int64", "bool", ...).
func (d dtype) name() string {
	switch d.kind {
	case 'b':
		return "bool"
	case 'i':
		return fmt.Sprintf("int%d", 8*d.size)
	case 'u':
		return fmt.Sprintf("uint%d", 8*d.size)
	case 'f':
		return fmt.Sprintf("float%d", 8*d.size)
	case 'c':
		return fmt.Sprintf("complex%d", 8*d.size)
	}
	return d.descr
}

func (d dtype) String() string { return d.descr + " (" + d.name() + ")" }

// parseDtype parses a simple numpy dtype descriptor such as "<i8" or "|b1".
func parseDtype(s string) (dtype, error) {
	if len(s) < 2 {
		return dtype{}, fmt.Errorf("dtype %q is not a numpy type descriptor", s) // reason: hdrErr says "graphio:"
	}
	order, rest := s[0], s[1:]
	switch order {
	case '<', '>', '|':
	default:
		return dtype{}, fmt.Errorf("dtype %q has no byte-order prefix '<', '>' or '|'", s) // reason: hdrErr says "graphio:"
	}
	kind := rest[0]
	size, err := strconv.Atoi(rest[1:])
	if err != nil {
		return dtype{}, fmt.Errorf("dtype %q is not supported", s) // reason: hdrErr says "graphio:"
	}
	ok := false
	switch kind {
	case 'b':
		ok = size == 1
	case 'i', 'u':
		ok = size == 1 || size == 2 || size == 4 || size == 8
	case 'f':
		ok = size == 2 || size == 4 || size == 8
	case 'c':
		ok = size == 8 || size == 16
	}
	if !ok {
		return dtype{}, fmt.Errorf("dtype %q is not supported", s) // reason: hdrErr says "graphio:"
	}
	d := dtype{kind: kind, size: size, big: order == '>'}
	switch {
	case size == 1:
		d.big = false
		d.descr = "|" + rest
	case order == '|':
		return dtype{}, fmt.Errorf("dtype %q: a %d-byte type needs '<' or '>'", s, size) // reason: hdrErr says "graphio:"
	default:
		d.descr = string(order) + rest
	}
	return d, nil
}

// npyHeader is the parsed header of one .npy member.
type npyHeader struct {
	dt      dtype
	fortran bool
	shape   []int // nil for a 0-d array
	dataOff int   // offset of the element data in the member
}

// headerError is a header problem at a byte offset inside the member.
type headerError struct {
	off int
	msg string
}

func (e *headerError) Error() string { return e.msg }

func hdrErr(off int, format string, args ...any) *headerError {
	return &headerError{off: off, msg: fmt.Sprintf(format, args...)}
}

// parseNPYHeader parses and checks the header of the .npy bytes b.
func parseNPYHeader(b []byte) (*npyHeader, *headerError) {
	if len(b) < len(npyMagic) || !bytes.Equal(b[:len(npyMagic)], npyMagic) {
		return nil, hdrErr(0, "not a .npy array (no \\x93NUMPY magic)")
	}
	if len(b) < 8 {
		return nil, hdrErr(len(b), "truncated .npy header")
	}
	major, minor := b[6], b[7]
	var hlen, start int
	switch major {
	case 1:
		if len(b) < 10 {
			return nil, hdrErr(len(b), "truncated .npy header")
		}
		hlen, start = int(binary.LittleEndian.Uint16(b[8:10])), 10
	case 2, 3:
		if len(b) < 12 {
			return nil, hdrErr(len(b), "truncated .npy header")
		}
		h := binary.LittleEndian.Uint32(b[8:12])
		if uint64(h) > uint64(len(b)) {
			return nil, hdrErr(8, "header length %d exceeds the member size %d", h, len(b))
		}
		hlen, start = int(h), 12
	default:
		return nil, hdrErr(6, "unsupported .npy format version %d.%d", major, minor)
	}
	if minor != 0 {
		return nil, hdrErr(7, "unsupported .npy format version %d.%d", major, minor)
	}
	if hlen > len(b)-start {
		return nil, hdrErr(start, "header length %d exceeds the member size %d", hlen, len(b))
	}
	text := b[start : start+hlen]
	if hlen == 0 || text[hlen-1] != '\n' {
		return nil, hdrErr(start, "header does not end with a newline")
	}
	p := &dictParser{s: string(text[:hlen-1]), base: start}
	h, err := p.parse()
	if err != nil {
		return nil, err
	}
	h.dataOff = start + hlen
	return h, nil
}

// dictParser parses the Python dict literal of a .npy header.
type dictParser struct {
	s    string
	i    int
	base int // offset of s in the member, for error offsets
}

func (p *dictParser) errf(format string, args ...any) *headerError {
	return hdrErr(p.base+p.i, "header: "+format, args...)
}

func (p *dictParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

// eat skips spaces and consumes c if it is next.
func (p *dictParser) eat(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *dictParser) str() (string, *headerError) {
	p.space()
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", p.errf("expected a quoted string")
	}
	q := p.s[p.i]
	j := strings.IndexByte(p.s[p.i+1:], q)
	if j < 0 {
		return "", p.errf("unterminated string")
	}
	v := p.s[p.i+1 : p.i+1+j]
	if strings.IndexByte(v, '\\') >= 0 {
		return "", p.errf("escapes in strings are not supported")
	}
	p.i += j + 2
	return v, nil
}

func (p *dictParser) word() string {
	p.space()
	j := p.i
	for j < len(p.s) && (p.s[j] >= 'A' && p.s[j] <= 'Z' || p.s[j] >= 'a' && p.s[j] <= 'z') {
		j++
	}
	w := p.s[p.i:j]
	p.i = j
	return w
}

func (p *dictParser) shape() ([]int, *headerError) {
	if !p.eat('(') {
		return nil, p.errf("'shape' is not a tuple")
	}
	shape := []int{}
	for {
		if p.eat(')') {
			break
		}
		p.space()
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		if j == p.i {
			return nil, p.errf("'shape' holds something other than a non-negative integer")
		}
		v, err := strconv.Atoi(p.s[p.i:j])
		if err != nil || v > maxMemberSize {
			return nil, p.errf("'shape' dimension %s is too large", p.s[p.i:j])
		}
		p.i = j
		if p.i < len(p.s) && (p.s[p.i] == 'L' || p.s[p.i] == 'l') { // Python 2 long
			p.i++
		}
		shape = append(shape, v)
		if p.eat(')') {
			break
		}
		if !p.eat(',') {
			return nil, p.errf("expected ',' or ')' in 'shape'")
		}
	}
	if len(shape) == 1 && !strings.HasSuffix(strings.TrimRight(p.s[:p.i-1], " "), ",") {
		// "(5)" is an int in Python, not a tuple; numpy always writes "(5,)".
		return nil, p.errf("'shape' (%d) is not a tuple: want (%d,)", shape[0], shape[0])
	}
	if len(shape) == 0 {
		return nil, nil
	}
	return shape, nil
}

func (p *dictParser) parse() (*npyHeader, *headerError) {
	h := &npyHeader{}
	var seen [3]bool
	if !p.eat('{') {
		return nil, p.errf("not a dictionary")
	}
	for {
		if p.eat('}') {
			break
		}
		p.space()
		kpos := p.i
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if !p.eat(':') {
			return nil, p.errf("expected ':' after key %q", key)
		}
		k, err := p.value(h, key)
		if err != nil {
			return nil, err
		}
		if k < 0 {
			p.i = kpos
			return nil, p.errf("unexpected key %q", key)
		}
		if seen[k] {
			p.i = kpos
			return nil, p.errf("key %q appears twice", key)
		}
		seen[k] = true
		if p.eat('}') {
			break
		}
		if !p.eat(',') {
			return nil, p.errf("expected ',' or '}'")
		}
	}
	p.space()
	if p.i != len(p.s) {
		return nil, p.errf("unexpected text after the dictionary")
	}
	for k, name := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return nil, p.errf("missing key %q", name)
		}
	}
	return h, nil
}

// value parses the value of the header key key into h and returns the
// key's number (0 descr, 1 fortran_order, 2 shape), −1 for another key
// (its value left unread).
func (p *dictParser) value(h *npyHeader, key string) (int, *headerError) {
	switch key {
	case "descr":
		p.space()
		vpos := p.i
		v, err := p.str()
		if err != nil {
			if p.i < len(p.s) && (p.s[p.i] == '[' || p.s[p.i] == '(') {
				return 0, p.errf("structured dtypes are not supported")
			}
			return 0, err
		}
		dt, derr := parseDtype(v)
		if derr != nil {
			return 0, hdrErr(p.base+vpos, "header: %v", derr)
		}
		h.dt = dt
		return 0, nil
	case "fortran_order":
		switch w := p.word(); w {
		case "True":
			h.fortran = true
		case "False":
			h.fortran = false
		default:
			return 1, p.errf("'fortran_order' is %q, not True or False", w)
		}
		return 1, nil
	case "shape":
		s, err := p.shape()
		if err != nil {
			return 2, err
		}
		h.shape = s
		return 2, nil
	}
	return -1, nil
}

// Array is one array of an .npz archive: its header and raw element bytes.
// NPZ.Array reads one, with its header checked and its data size matching
// the shape; Int64s, Int, Mask or Edges decode it and return a *FormatError
// naming the archive and member when it is not of the kind asked for.
// NewInt64Array and NewMaskArray build one for EncodeNPZArrays. The exported
// fields describe the array; changing them is not supported.
type Array struct {
	Path    string // archive path as given by the caller
	Member  string // archive member, e.g. "edge_index.npy"
	Descr   string // normalised numpy dtype descriptor: "<i8", "|u1", "|b1", ...
	Fortran bool   // data stored in Fortran (column-major) order
	Shape   []int  // dimensions; nil for a 0-d array

	dt      dtype
	dataOff int
	data    []byte
}

// Len returns the number of elements (1 for a 0-d array).
func (a *Array) Len() int {
	n := 1
	for _, d := range a.Shape {
		n *= d
	}
	return n
}

// ShapeString formats the shape as Python does: "()", "(5,)", "(2, 7)".
func (a *Array) ShapeString() string { return shapeString(a.Shape) }

func shapeString(shape []int) string {
	switch len(shape) {
	case 0:
		return "()"
	case 1:
		return fmt.Sprintf("(%d,)", shape[0])
	}
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.Itoa(d)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// TypeName is numpy's name of the element type ("int64", "bool", ...).
func (a *Array) TypeName() string { return a.dt.name() }

func (a *Array) errAt(off int, format string, args ...any) *FormatError {
	return &FormatError{Path: a.Path, Member: a.Member, Offset: int64(off), Msg: fmt.Sprintf(format, args...)}
}

func (a *Array) errf(format string, args ...any) *FormatError {
	return a.errAt(-1, format, args...)
}

// newArray parses member bytes b into an Array, checking that the data size
// matches the header.
func newArray(path, member string, b []byte) (*Array, error) {
	h, herr := parseNPYHeader(b)
	if herr != nil {
		return nil, &FormatError{Path: path, Member: member, Offset: int64(herr.off), Msg: herr.msg}
	}
	a := &Array{Path: path, Member: member, Descr: h.dt.descr, Fortran: h.fortran, Shape: h.shape,
		dt: h.dt, dataOff: h.dataOff, data: b[h.dataOff:]}
	n := 1
	for _, d := range h.shape {
		if d != 0 && n > maxMemberSize/d {
			return nil, a.errAt(h.dataOff, "shape %s is too large", a.ShapeString())
		}
		n *= d
	}
	want := n * h.dt.size
	switch have := len(a.data); {
	case have < want:
		return nil, a.errAt(len(b), "truncated data: shape %s of %s needs %d bytes, the member holds %d",
			a.ShapeString(), h.dt.name(), want, have)
	case have > want:
		return nil, a.errAt(h.dataOff+want, "%d bytes after the data of shape %s", have-want, a.ShapeString())
	}
	return a, nil
}

// npyReader hands the array to npyio with a canonical header in front of the
// raw data (see the comment at the top of this file).
func (a *Array) npyReader() (*npy.Reader, error) {
	var hdr bytes.Buffer
	writeNPYHeader(&hdr, a.Descr, a.Fortran, a.Shape)
	r, err := npy.NewReader(io.MultiReader(&hdr, bytes.NewReader(a.data)))
	if err != nil {
		return nil, a.errf("npy reader: %v", err)
	}
	if r.Header.Descr.Type != a.Descr || r.Header.Descr.Fortran != a.Fortran || len(r.Header.Descr.Shape) != len(a.Shape) {
		return nil, a.errf("npy reader disagrees on the header %s", r.Header)
	}
	return r, nil
}

// rawInts decodes the integer elements in storage order with npyio.
func (a *Array) rawInts() ([]int64, error) {
	if a.dt.kind != 'i' && a.dt.kind != 'u' {
		return nil, a.errf("dtype %s is not an integer type", a.dt)
	}
	r, err := a.npyReader()
	if err != nil {
		return nil, err
	}
	n := a.Len()
	out := make([]int64, n)
	var rerr error
	switch int(a.dt.kind)<<4 | a.dt.size {
	case 'i'<<4 | 1:
		v := make([]int8, n)
		rerr = r.Read(&v)
		for i, x := range v {
			out[i] = int64(x)
		}
	case 'i'<<4 | 2:
		v := make([]int16, n)
		rerr = r.Read(&v)
		for i, x := range v {
			out[i] = int64(x)
		}
	case 'i'<<4 | 4:
		v := make([]int32, n)
		rerr = r.Read(&v)
		for i, x := range v {
			out[i] = int64(x)
		}
	case 'i'<<4 | 8:
		rerr = r.Read(&out)
	case 'u'<<4 | 1:
		v := make([]uint8, n)
		rerr = r.Read(&v)
		for i, x := range v {
			out[i] = int64(x)
		}
	case 'u'<<4 | 2:
		v := make([]uint16, n)
		rerr = r.Read(&v)
		for i, x := range v {
			out[i] = int64(x)
		}
	case 'u'<<4 | 4:
		v := make([]uint32, n)
		rerr = r.Read(&v)
		for i, x := range v {
			out[i] = int64(x)
		}
	case 'u'<<4 | 8:
		v := make([]uint64, n)
		rerr = r.Read(&v)
		for i, x := range v {
			if x > math.MaxInt64 {
				return nil, a.errAt(a.dataOff+8*i, "value %d at flat index %d does not fit int64", x, i)
			}
			out[i] = int64(x)
		}
	}
	if rerr != nil && rerr != io.EOF {
		return nil, a.errf("npy reader: %v", rerr)
	}
	if len(out) != n {
		return nil, a.errf("npy reader returned %d of %d elements", len(out), n)
	}
	return out, nil
}

// storageIndex maps a C-order (row-major) flat index to the index of the
// element in storage order.
func (a *Array) storageIndex(c int) int {
	if !a.Fortran || len(a.Shape) < 2 {
		return c
	}
	// Unravel c in C order, then ravel in Fortran order.
	f, stride := 0, 1
	idx := make([]int, len(a.Shape))
	for k := len(a.Shape) - 1; k >= 0; k-- {
		idx[k] = c % a.Shape[k]
		c /= a.Shape[k]
	}
	for k, i := range idx {
		f += i * stride
		stride *= a.Shape[k]
	}
	return f
}

// offsetOf returns the byte offset in the member of the element at C-order
// flat index c.
func (a *Array) offsetOf(c int) int { return a.dataOff + a.storageIndex(c)*a.dt.size }

// Int64s returns the elements of an integer array (any signed or unsigned
// width, either byte order) in C (row-major) order, whatever the storage
// order.
func (a *Array) Int64s() ([]int64, error) {
	raw, err := a.rawInts()
	if err != nil {
		return nil, err
	}
	if !a.Fortran || len(a.Shape) < 2 {
		return raw, nil
	}
	out := make([]int64, len(raw))
	for c := range out {
		out[c] = raw[a.storageIndex(c)]
	}
	return out, nil
}

// Int returns the value of a 0-d or one-element integer array.
func (a *Array) Int() (int64, error) {
	if a.Len() != 1 || len(a.Shape) > 1 {
		return 0, a.errf("shape %s: want a scalar, shape () or (1,)", a.ShapeString())
	}
	v, err := a.Int64s()
	if err != nil {
		return 0, err
	}
	return v[0], nil
}

// Mask returns a one-dimensional mask stored as bool (|b1) or uint8 (|u1);
// every byte must be 0 or 1.
func (a *Array) Mask() ([]bool, error) {
	if a.Descr != "|b1" && a.Descr != "|u1" {
		return nil, a.errf("dtype %s: want a mask of bool (|b1) or uint8 (|u1)", a.dt)
	}
	if len(a.Shape) != 1 {
		return nil, a.errf("shape %s: want a one-dimensional mask", a.ShapeString())
	}
	for i, x := range a.data {
		if x > 1 {
			return nil, a.errAt(a.dataOff+i, "value %d at index %d is not 0 or 1", x, i)
		}
	}
	r, err := a.npyReader()
	if err != nil {
		return nil, err
	}
	m := make([]bool, len(a.data))
	var rerr error
	if a.Descr == "|b1" {
		rerr = r.Read(&m)
	} else {
		v := make([]uint8, len(a.data))
		rerr = r.Read(&v)
		for i, x := range v {
			m[i] = x == 1
		}
	}
	if rerr != nil && rerr != io.EOF {
		return nil, a.errf("npy reader: %v", rerr)
	}
	return m, nil
}

// writeNPYHeader writes a format 1.0 .npy header (see the top of this file).
func writeNPYHeader(w *bytes.Buffer, descr string, fortran bool, shape []int) {
	f := "False"
	if fortran {
		f = "True"
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr, f, shapeString(shape))
	total := len(npyMagic) + 4 + len(dict) + 1
	pad := (64 - total%64) % 64
	w.Write(npyMagic)
	w.Write([]byte{1, 0})
	var l [2]byte
	binary.LittleEndian.PutUint16(l[:], uint16(len(dict)+pad+1))
	w.Write(l[:])
	w.WriteString(dict)
	w.WriteString(strings.Repeat(" ", pad))
	w.WriteByte('\n')
}
