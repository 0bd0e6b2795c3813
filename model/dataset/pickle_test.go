package dataset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/linalg/graphio"
)

// pickleWriter writes protocol-2 pickles with the layout Python 2's cPickle
// gives the Planetoid files (data/README.md): every GLOBAL and REDUCE result
// memoised with BINPUT (LONG_BINPUT past 255), repeated globals and dtypes
// fetched with BINGET.
type pickleWriter struct {
	b    []byte
	memo int
	seen map[string]int // global or dtype -> memo index
}

func newPickleWriter() *pickleWriter {
	return &pickleWriter{b: []byte{opProto, 2}, seen: make(map[string]int)}
}

func (w *pickleWriter) op(b ...byte) { w.b = append(w.b, b...) }

// put memoises the top of the stack and returns its memo index.
func (w *pickleWriter) put() int {
	w.memo++
	if w.memo < 256 {
		w.op(opBinPut, byte(w.memo))
	} else {
		w.op(opLongBinPut)
		w.b = binary.LittleEndian.AppendUint32(w.b, uint32(w.memo))
	}
	return w.memo
}

// cached pushes a memoised object by key, or emits it with emit and
// memoises it.
func (w *pickleWriter) cached(key string, emit func()) {
	if i, ok := w.seen[key]; ok {
		w.op(opBinGet, byte(i))
		return
	}
	emit()
	w.seen[key] = w.put()
}

func (w *pickleWriter) global(module, name string) {
	w.cached(module+"."+name, func() { w.op(opGlobal); w.op([]byte(module + "\n" + name + "\n")...) })
}

func (w *pickleWriter) int(x int) {
	switch {
	case x >= 0 && x < 256:
		w.op(opBinInt1, byte(x))
	case x >= 0 && x < 65536:
		w.op(opBinInt2, byte(x), byte(x>>8))
	default:
		w.op(opBinInt)
		w.b = binary.LittleEndian.AppendUint32(w.b, uint32(int32(x)))
	}
}

func (w *pickleWriter) str(s []byte) {
	if len(s) < 256 {
		w.op(opShortBinString, byte(len(s)))
	} else {
		w.op(opBinString)
		w.b = binary.LittleEndian.AppendUint32(w.b, uint32(len(s)))
	}
	w.op(s...)
}

// array writes a numpy array of the given shape, dtype code and raw data.
func (w *pickleWriter) array(shape []int, code string, raw []byte) {
	w.global("numpy.core.multiarray", "_reconstruct")
	w.global("numpy", "ndarray")
	w.int(0)
	w.op(opTuple1)
	w.str([]byte("b"))
	w.op(opTuple3, opReduce)
	w.put()
	w.op(opMark)
	w.int(1)
	for _, d := range shape {
		w.int(d)
	}
	w.op(opTuple1 + byte(len(shape)) - 1)
	if i, ok := w.seen["dtype "+code]; ok {
		w.op(opBinGet, byte(i))
	} else {
		w.global("numpy", "dtype")
		w.str([]byte(code))
		w.int(0)
		w.int(1)
		w.op(opTuple3, opReduce)
		w.seen["dtype "+code] = w.put()
		w.op(opMark)
		w.int(3)
		w.str([]byte("<"))
		w.op(opNone, opNone, opNone)
		w.int(-1)
		w.int(-1)
		w.int(0)
		w.op(opTuple, opBuild)
	}
	w.op(opNewFalse)
	w.str(raw)
	w.op(opTuple, opBuild)
}

func (w *pickleWriter) stop() []byte {
	w.op(opStop)
	return w.b
}

func pickleI4(xs ...int) []byte {
	var b []byte
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, uint32(int32(x)))
	}
	return b
}

func pickleF4(xs ...float64) []byte {
	var b []byte
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(x)))
	}
	return b
}

// densePickle is a pickled int32 array of shape (rows, cols), like ind.*.y.
func densePickle(rows, cols int, vals ...int) []byte {
	w := newPickleWriter()
	w.array([]int{rows, cols}, "i4", pickleI4(vals...))
	return w.stop()
}

// oneHotPickle is a pickled int32 one-hot array with the given classes per
// row (-1: an all-zero row).
func oneHotPickle(classes int, labels ...int) []byte {
	vals := make([]int, len(labels)*classes)
	for i, c := range labels {
		if c >= 0 {
			vals[i*classes+c] = 1
		}
	}
	return densePickle(len(labels), classes, vals...)
}

// csrPickle is a pickled float32 scipy csr_matrix, like ind.*.x.
func csrPickle(rows, cols int, indptr, indices []int, data []float64) []byte {
	w := newPickleWriter()
	w.op(opGlobal)
	w.op([]byte("scipy.sparse.csr\ncsr_matrix\n")...)
	w.put()
	w.op(opEmptyTuple, opNewObj)
	w.put()
	w.op(opEmptyDict)
	w.put()
	w.op(opMark)
	key := func(k string) { w.str([]byte(k)); w.put() }
	key("format")
	w.str([]byte("csr"))
	key("_shape")
	w.int(rows)
	w.int(cols)
	w.op(opTuple2)
	key("indptr")
	w.array([]int{len(indptr)}, "i4", pickleI4(indptr...))
	key("_cs_matrix__has_sorted_indices")
	w.op(opNewTrue)
	key("indices")
	w.array([]int{len(indices)}, "i4", pickleI4(indices...))
	key("maxprint")
	w.int(50)
	key("data")
	w.array([]int{len(data)}, "f4", pickleF4(data...))
	w.op(opSetItems, opBuild)
	return w.stop()
}

// csrRowsPickle is csrPickle from a row list of (column, value) pairs.
func csrRowsPickle(cols int, rows ...[]float64) []byte {
	indptr := []int{0}
	var indices []int
	var data []float64
	for _, r := range rows {
		for k := 0; k < len(r); k += 2 {
			indices = append(indices, int(r[k]))
			data = append(data, r[k+1])
		}
		indptr = append(indptr, len(indices))
	}
	return csrPickle(len(rows), cols, indptr, indices, data)
}

// graphPickle is a pickled defaultdict(list), like ind.*.graph: keys in the
// given order, one APPEND for a single neighbour, MARK..APPENDS for more,
// SETITEMS every 1000 keys.
func graphPickle(keys []int, lists [][]int) []byte {
	w := newPickleWriter()
	w.global("collections", "defaultdict")
	w.global("__builtin__", "list")
	w.op(opTuple1, opReduce)
	w.put()
	for i, k := range keys {
		if i%1000 == 0 {
			if i > 0 {
				w.op(opSetItems)
			}
			w.op(opMark)
		}
		w.int(k)
		w.op(opEmptyList)
		w.put()
		switch l := lists[i]; len(l) {
		case 0:
		case 1:
			w.int(l[0])
			w.op(opAppend)
		default:
			w.op(opMark)
			for _, v := range l {
				w.int(v)
			}
			w.op(opAppends)
		}
	}
	if len(keys) > 0 {
		w.op(opSetItems)
	}
	return w.stop()
}

// pickleWantFormatError checks that err is a *graphio.FormatError for path at
// offset off (or, if line > 0, at that line) whose message contains msg.
func pickleWantFormatError(t *testing.T, err error, path string, off int64, line int, msg string) {
	t.Helper()
	var fe *graphio.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T), want a *graphio.FormatError", err, err)
	}
	if fe.Path != path {
		t.Errorf("Path = %q, want %q", fe.Path, path)
	}
	if line > 0 {
		if fe.Line != line {
			t.Errorf("Line = %d, want %d (%v)", fe.Line, line, err)
		}
	} else if fe.Offset != off {
		t.Errorf("Offset = %d, want %d (%v)", fe.Offset, off, err)
	}
	if !strings.Contains(fe.Msg, msg) {
		t.Errorf("Msg = %q, want it to contain %q", fe.Msg, msg)
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("Error() = %q does not name %q", err.Error(), path)
	}
}

func TestPickleDecodeValid(t *testing.T) {
	t.Run("dense", func(t *testing.T) {
		m, err := decodeDense("y", bytes.NewReader(densePickle(2, 3, 0, 0, 1, 1, 0, -7)))
		if err != nil {
			t.Fatal(err)
		}
		if m.rows != 2 || m.cols != 3 || !slices.Equal(m.vals, []float64{0, 0, 1, 1, 0, -7}) {
			t.Errorf("got %d×%d %v", m.rows, m.cols, m.vals)
		}
	})
	t.Run("dense f8 and i8", func(t *testing.T) {
		for _, code := range []string{"f8", "i8"} {
			var raw []byte
			for _, x := range []float64{1, -2, 0, 3} {
				if code == "f8" {
					raw = binary.LittleEndian.AppendUint64(raw, math.Float64bits(x))
				} else {
					raw = binary.LittleEndian.AppendUint64(raw, uint64(int64(x)))
				}
			}
			w := newPickleWriter()
			w.array([]int{2, 2}, code, raw)
			m, err := decodeDense("y", bytes.NewReader(w.stop()))
			if err != nil {
				t.Fatal(code, err)
			}
			if !slices.Equal(m.vals, []float64{1, -2, 0, 3}) {
				t.Errorf("%s: got %v", code, m.vals)
			}
		}
	})
	t.Run("csr", func(t *testing.T) {
		m, err := decodeCSR("x", bytes.NewReader(csrRowsPickle(4, []float64{1, 1, 3, 0.5}, nil, []float64{0, 2})))
		if err != nil {
			t.Fatal(err)
		}
		if m.rows != 3 || m.cols != 4 || !slices.Equal(m.indptr, []int{0, 2, 2, 3}) ||
			!slices.Equal(m.indices, []int{1, 3, 0}) || !slices.Equal(m.data, []float64{1, 0.5, 2}) {
			t.Errorf("got %+v", m)
		}
	})
	t.Run("csr unsorted, duplicate and zero entries", func(t *testing.T) {
		// Row 0: columns 3, 1, 3 (summed to 2), 0 (explicit zero, dropped).
		m, err := decodeCSR("x", bytes.NewReader(csrRowsPickle(4, []float64{3, 1, 1, 1, 3, 1, 0, 0}, []float64{2, 1})))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.indptr, []int{0, 2, 3}) || !slices.Equal(m.indices, []int{1, 3, 2}) ||
			!slices.Equal(m.data, []float64{1, 2, 1}) {
			t.Errorf("got %+v", m)
		}
	})
	t.Run("graph", func(t *testing.T) {
		// 300 keys push the memo past 255 (LONG_BINPUT); key 1 is set twice
		// (the later list replaces the earlier, as in a Python dict).
		keys := []int{0, 1, 70000}
		lists := [][]int{{1}, {0, 2, 2}, {}}
		for k := 2; k < 300; k++ {
			keys = append(keys, k)
			lists = append(lists, []int{k - 1, k + 1})
		}
		keys = append(keys, 1)
		lists = append(lists, []int{5})
		b := graphPickle(keys, lists)
		if !bytes.Contains(b, []byte{opLongBinPut}) {
			t.Fatal("test pickle has no LONG_BINPUT")
		}
		a, err := decodeAdjacency("g", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if len(a.keys) != 301 || a.keys[1] != 1 || !slices.Equal(a.lists[1], []int{5}) ||
			a.keys[2] != 70000 || len(a.lists[2]) != 0 || !slices.Equal(a.lists[300], []int{298, 300}) {
			t.Errorf("got keys %v... lists %v...", a.keys[:4], a.lists[:4])
		}
	})
}

func TestPickleDecodeErrors(t *testing.T) {
	y := densePickle(2, 3, 1, 0, 0, 0, 0, 1)
	x := csrRowsPickle(3, []float64{0, 1}, []float64{2, 1})
	g := graphPickle([]int{0, 1}, [][]int{{1}, {0}})
	mutate := func(b []byte, old, new string) []byte {
		if !bytes.Contains(b, []byte(old)) {
			t.Fatalf("mutate: %q not found", old)
		}
		return bytes.Replace(slices.Clone(b), []byte(old), []byte(new), 1)
	}
	cat := func(parts ...string) []byte { return []byte(strings.Join(parts, "")) }
	type decoder func(string, []byte) error
	dense := func(p string, b []byte) error { _, err := decodeDense(p, bytes.NewReader(b)); return err }
	csr := func(p string, b []byte) error { _, err := decodeCSR(p, bytes.NewReader(b)); return err }
	graph := func(p string, b []byte) error { _, err := decodeAdjacency(p, bytes.NewReader(b)); return err }
	// yBig's 280 data bytes need a BINSTRING (y's 24 a SHORT_BINSTRING).
	yBig := oneHotPickle(7, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2)
	idx := bytes.Index(y, []byte{opNewFalse, opShortBinString, 24})
	badLen := slices.Clone(y) // declare 20 data bytes instead of 24, drop 4
	badLen[idx+2] = 20
	badLen = slices.Delete(badLen, idx+3, idx+7)
	idx = bytes.Index(yBig, []byte{opNewFalse, opBinString}) + 1
	huge := slices.Clone(yBig[:idx+5])
	binary.LittleEndian.PutUint32(huge[idx+1:], 0x7fffffff)
	huge = append(huge, "only a few bytes"...)

	// Special offsets: the STOP opcode, the BUILD or SETITEMS just before it,
	// and "anywhere inside the input".
	const offStop, offLast, offAny = -1, -2, -3
	tests := []struct {
		name string
		dec  decoder
		in   []byte
		off  int64
		msg  string
	}{
		{"empty", dense, nil, 0, "truncated pickle: unexpected end of data"},
		{"truncated in BINSTRING", dense, yBig[:len(yBig)-10], int64(len(yBig) - 10), "truncated pickle: unexpected end of data (in BINSTRING"},
		{"truncated before STOP", dense, y[:len(y)-1], int64(len(y) - 1), "truncated pickle: unexpected end of data (no STOP"},
		{"truncated in GLOBAL", csr, x[:10], 10, "truncated pickle"},
		{"truncated graph", graph, g[:len(g)-4], int64(len(g) - 4), "truncated pickle"},
		{"huge BINSTRING length", dense, huge, int64(len(huge)), "truncated pickle"},
		{"unexpected class os.system", dense, []byte("\x80\x02cos\nsystem\n(U\x02lstR."), 2, "unexpected class os.system"},
		{"unexpected class builtin eval", graph, mutate(g, "__builtin__\nlist", "__builtin__\neval"), int64(bytes.Index(g, []byte("c__builtin__"))), "unexpected class __builtin__.eval"},
		{"unexpected class copy_reg", dense, []byte("\x80\x02ccopy_reg\n_reconstructor\n."), 2, "unexpected class copy_reg._reconstructor"},
		{"unexpected class OrderedDict", graph, []byte("\x80\x02ccollections\nOrderedDict\n)R."), 2, "unexpected class collections.OrderedDict"},
		{"GLOBAL name too long", dense, cat("\x80\x02c", strings.Repeat("a", 300)), 2, "GLOBAL name longer"},
		{"unsupported opcode", dense, []byte("\x80\x02K\x01\xff"), 4, "unsupported opcode 0xff"},
		{"protocol 3 opcode", dense, []byte("\x80\x02C\x01a."), 2, "unsupported opcode 0x43"},
		{"protocol 4", dense, []byte("\x80\x04."), 0, "unsupported pickle protocol 4"},
		{"wrong dtype", dense, mutate(y, "U\x02i4", "U\x02U8"), int64(bytes.Index(y, []byte("U\x02i4")) + 9), "unsupported dtype \"U8\""},
		{"big-endian dtype", dense, mutate(y, "U\x01<", "U\x01>"), int64(bytes.Index(y, []byte("tb\x89")) + 1), "unsupported byte order"},
		{"data length != rows*cols*itemsize", dense, badLen, offLast, "dtype/shape mismatch: array of shape [2 3] and dtype i4 needs 24 data bytes, got 20"},
		{"3-D array", dense, mutate(y, "K\x02K\x03\x86", "K\x02K\x03K\x01\x87"), offLast, "3 dimensions"},
		{"1-D array as labels", dense, func() []byte { w := newPickleWriter(); w.array([]int{3}, "i4", pickleI4(1, 2, 3)); return w.stop() }(), offLast, "want 2-D"},
		{"csr instead of array", dense, x, offStop, "top-level object is a scipy.sparse.csr_matrix, want a numpy.ndarray"},
		{"array instead of csr", csr, y, offStop, "top-level object is a numpy.ndarray, want a scipy.sparse csr_matrix"},
		{"array instead of graph", graph, y, offStop, "top-level object is a numpy.ndarray, want a collections.defaultdict(list)"},
		{"int at top level", dense, []byte("\x80\x02K\x05."), 4, "top-level object is a int"},
		{"BINGET of missing memo", dense, []byte("\x80\x02h\x07."), 2, "BINGET 7: no such memo entry"},
		{"TUPLE without MARK", dense, []byte("\x80\x02K\x01t."), 4, "TUPLE: no MARK"},
		{"STOP on empty stack", dense, []byte("\x80\x02."), 2, "STOP: stack underflow"},
		{"TUPLE2 underflow", dense, []byte("\x80\x02(K\x01\x86."), 5, "TUPLE2: stack underflow"},
		{"SETITEMS odd", graph, []byte("\x80\x02}(K\x01u."), 6, "odd number of items"},
		{"SETITEMS on a list", graph, []byte("\x80\x02](K\x01K\x02u."), 8, "SETITEMS on a list"},
		{"APPEND to a dict", graph, []byte("\x80\x02}K\x01a."), 5, "APPEND to a dict"},
		{"REDUCE of a non-class", dense, []byte("\x80\x02K\x01)R."), 5, "REDUCE: cannot call a int"},
		{"REDUCE of ndarray", dense, []byte("\x80\x02cnumpy\nndarray\n)R."), 18, "calling numpy.ndarray is not allowed"},
		{"NEWOBJ of ndarray", dense, []byte("\x80\x02cnumpy\nndarray\n)\x81."), 18, "NEWOBJ: cannot create a class numpy.ndarray"},
		{"BUILD on an int", dense, []byte("\x80\x02K\x01Nb."), 5, "BUILD on a int is not supported"},
		{"negative BINSTRING length", dense, []byte("\x80\x02T\xff\xff\xff\xff."), 2, "negative length"},
		{"csr index out of range", csr, csrRowsPickle(3, []float64{5, 1}), offAny, "column index 5 in row 0 out of range [0, 3)"},
		{"csr indptr decreasing", csr, csrPickle(2, 3, []int{0, 2, 1}, []int{0, 1}, []float64{1, 1}), offAny, "csr_matrix indptr runs from 0 to 1, want 0 to nnz=2"},
		{"csr indptr not monotone", csr, csrPickle(3, 3, []int{0, 2, 1, 2}, []int{0, 1}, []float64{1, 1}), offAny, "not non-decreasing at row 1"},
		{"csr data length", csr, csrPickle(1, 3, []int{0, 2}, []int{0, 1}, []float64{1}), offAny, "csr_matrix data has length 1, want 2"},
		{"csr format", csr, mutate(x, "U\x03csr", "U\x03csc"), offLast, "csr_matrix format is \"csc\""},
		{"csr float indptr", csr, mutate(x, "U\x02i4", "U\x02f4"), offLast, "want integers"},
		{"graph key not an int", graph, mutate(g, "K\x00]", "U\x01a]"), offLast, "graph key \"a\" is a str"},
		{"graph list holds a str", graph, mutate(g, "K\x01a", "U\x01za"), int64(bytes.Index(g, []byte("]"))), "holds a str"},
		{"graph value not a list", graph, []byte("\x80\x02ccollections\ndefaultdict\nc__builtin__\nlist\n\x85R(K\x00K\x01u."), 52, "graph entry of node 0 is a int, want a list"},
		{"defaultdict(int)", graph, []byte("\x80\x02ccollections\ndefaultdict\ncnumpy\ndtype\n\x85R."), 41, "default factory is a class numpy.dtype"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := "/data/ind.test." + tc.name
			err := tc.dec(path, tc.in)
			if err == nil {
				t.Fatal("no error")
			}
			switch tc.off {
			case offStop:
				tc.off = int64(len(tc.in) - 1)
			case offLast:
				tc.off = int64(len(tc.in) - 2)
			case offAny:
				var fe *graphio.FormatError
				if errors.As(err, &fe) {
					if fe.Offset <= 0 || fe.Offset >= int64(len(tc.in)) {
						t.Errorf("Offset = %d outside the input (%d bytes)", fe.Offset, len(tc.in))
					}
					tc.off = fe.Offset
				}
			}
			pickleWantFormatError(t, err, path, tc.off, 0, tc.msg)
		})
	}
}
