package graphio

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

func TestNPZRoundTrip(t *testing.T) {
	cases := []struct {
		name  string
		n     int
		arcs  []linalg.Edge
		extra map[string][]linalg.Edge
	}{
		{"empty graph", 0, nil, nil},
		{"isolated nodes only", 4, nil, nil},
		{"directed with self-loops", 5, es(0, 1, 1, 0, 2, 2, 4, 3, 3, 3), nil},
		{"duplicates kept in order", 3, es(2, 1, 0, 1, 2, 1), nil},
		{"with extra arrays", 6, es(0, 1, 1, 0, 5, 5),
			map[string][]linalg.Edge{"added": es(0, 5, 5, 0), "removed": {}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "g.npz")
			if err := WriteNPZ(path, c.n, c.arcs, c.extra); err != nil {
				t.Fatal(err)
			}
			n, arcs, err := ReadNPZ(path)
			if err != nil {
				t.Fatal(err)
			}
			if n != c.n || !slices.Equal(arcs, c.arcs) && !(len(arcs) == 0 && len(c.arcs) == 0) {
				t.Fatalf("read back n=%d arcs=%v, want n=%d arcs=%v", n, arcs, c.n, c.arcs)
			}
			z, err := OpenNPZ(path)
			if err != nil {
				t.Fatal(err)
			}
			defer z.Close()
			wantMembers := []string{"edge_index.npy", "num_nodes.npy"}
			for _, k := range []string{"added", "removed"} {
				if _, ok := c.extra[k]; ok {
					wantMembers = append(wantMembers, k+".npy")
				}
			}
			if got := z.Members(); !slices.Equal(got, wantMembers) {
				t.Errorf("members %v, want %v", got, wantMembers)
			}
			for k, want := range c.extra {
				got, err := z.Edges(k, c.n)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) || len(want) > 0 && !slices.Equal(got, want) {
					t.Errorf("%s = %v, want %v", k, got, want)
				}
			}
		})
	}
}

// TestNPZLayout checks the bytes numpy will see: a ZIP of format 1.0 .npy
// members with 64-byte aligned headers, edge_index '<i8' (2, E) in C order
// and num_nodes an int64 scalar.
func TestNPZLayout(t *testing.T) {
	var b bytes.Buffer
	arcs := es(0, 1, 1, 2, 2, 2)
	if err := EncodeNPZ(&b, 3, arcs, map[string][]linalg.Edge{"added": es(0, 2)}); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		header string
		data   []byte
	}{
		"edge_index.npy": {"{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }", le64(0, 1, 2, 1, 2, 2)},
		"num_nodes.npy":  {"{'descr': '<i8', 'fortran_order': False, 'shape': (), }", le64(3)},
		"added.npy":      {"{'descr': '<i8', 'fortran_order': False, 'shape': (2, 1), }", le64(0, 2)},
	}
	for _, f := range zr.File {
		w, ok := want[f.Name]
		if !ok {
			t.Errorf("unexpected member %s", f.Name)
			continue
		}
		delete(want, f.Name)
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		m, _ := io.ReadAll(rc)
		rc.Close()
		if string(m[:8]) != "\x93NUMPY\x01\x00" {
			t.Errorf("%s: magic/version % x", f.Name, m[:8])
		}
		hlen := int(m[8]) | int(m[9])<<8
		if (10+hlen)%64 != 0 {
			t.Errorf("%s: header block of %d bytes is not 64-byte aligned", f.Name, 10+hlen)
		}
		h := string(m[10 : 10+hlen])
		if !strings.HasPrefix(h, w.header) || strings.TrimLeft(h[len(w.header):], " ") != "\n" {
			t.Errorf("%s: header %q, want %q + spaces + newline", f.Name, h, w.header)
		}
		if !bytes.Equal(m[10+hlen:], w.data) {
			t.Errorf("%s: data % x, want % x", f.Name, m[10+hlen:], w.data)
		}
	}
	for k := range want {
		t.Errorf("member %s missing", k)
	}
	// The same graph always gives the same bytes.
	var b2 bytes.Buffer
	if err := EncodeNPZ(&b2, 3, arcs, map[string][]linalg.Edge{"added": es(0, 2)}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), b2.Bytes()) {
		t.Error("EncodeNPZ is not deterministic")
	}
}

// TestNPZAcceptedVariants reads layouts that numpy, older numpy, torch or
// other writers produce.
func TestNPZAcceptedVariants(t *testing.T) {
	want := es(0, 1, 2, 0, 1, 1)
	ei := le64(0, 2, 1, 1, 0, 1)
	cases := []struct {
		name    string
		deflate bool
		members []member
	}{
		{"int64 stored", false, []member{{"edge_index.npy", rawNPY(dict("<i8", "(2, 3)"), ei)}, numNodesNPY(3)}},
		{"int64 deflated", true, []member{{"edge_index.npy", rawNPY(dict("<i8", "(2, 3)"), ei)}, numNodesNPY(3)}},
		{"int32", false, []member{{"edge_index.npy", rawNPY(dict("<i4", "(2, 3)"), le32(0, 2, 1, 1, 0, 1))}, numNodesNPY(3)}},
		{"big-endian int64", false, []member{{"edge_index.npy", rawNPY(dict(">i8", "(2, 3)"), be64(0, 2, 1, 1, 0, 1))}, numNodesNPY(3)}},
		{"fortran order", false, []member{{"edge_index.npy", rawNPY(
			"{'descr': '<i8', 'fortran_order': True, 'shape': (2, 3), }", le64(0, 1, 2, 0, 1, 1))}, numNodesNPY(3)}},
		{"num_nodes (1,) int32", false, []member{{"edge_index.npy", rawNPY(dict("<i8", "(2, 3)"), ei)},
			{"num_nodes.npy", rawNPY(dict("<i4", "(1,)"), le32(3))}}},
		{"num_nodes uint8", false, []member{{"edge_index.npy", rawNPY(dict("<i8", "(2, 3)"), ei)},
			{"num_nodes.npy", rawNPY(dict("|u1", "()"), []byte{3})}}},
		{"other key order, double quotes, no trailing comma, Python 2 longs", false, []member{
			{"edge_index.npy", rawNPY(`{"shape": (2L, 3L), "fortran_order": False, "descr": "<i8"}`, ei)}, numNodesNPY(3)}},
		{"format 2.0", false, []member{{"edge_index.npy", rawNPYv2(dict("<i8", "(2, 3)"), ei)}, numNodesNPY(3)}},
		{"members without .npy suffix, other order", false, []member{
			{"num_nodes", rawNPY(dict("<i8", "()"), le64(3))}, {"edge_index", rawNPY(dict("<i8", "(2, 3)"), ei)}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := zipOf(t, c.deflate, c.members...)
			n, arcs, err := DecodeNPZ("x.npz", bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatal(err)
			}
			if n != 3 || !slices.Equal(arcs, want) {
				t.Fatalf("n=%d arcs=%v, want 3 %v", n, arcs, want)
			}
		})
	}
}

func TestNPZErrors(t *testing.T) {
	const unknownKey = "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 2), 'x': 1}"
	ei := rawNPY(dict("<i8", "(2, 2)"), le64(0, 1, 1, 2))
	good := member{"edge_index.npy", ei}
	cases := []struct {
		name    string
		data    []byte // raw file; when nil, zipOf(members)
		members []member
		member  string // FormatError.Member
		offset  int64  // FormatError.Offset; -2 = do not check
		msg     string // substring of FormatError.Msg
	}{
		{name: "not a zip", data: []byte("0 1\n1 2\n"), member: "", offset: -1, msg: "not an .npz (ZIP) archive"},
		{name: "empty file", data: []byte{}, member: "", offset: -1, msg: "not an .npz"},
		{name: "no edge_index", members: []member{numNodesNPY(3)},
			member: "edge_index.npy", offset: -1, msg: "missing array edge_index (archive holds num_nodes)"},
		{name: "no num_nodes", members: []member{good},
			member: "num_nodes.npy", offset: -1, msg: "missing array num_nodes"},
		{name: "float64 edge_index", members: []member{{"edge_index.npy", rawNPY(dict("<f8", "(2, 2)"), le64(0, 0, 0, 0))}, numNodesNPY(3)},
			member: "edge_index.npy", offset: -1, msg: "dtype <f8 (float64): want int64 or int32"},
		{name: "uint8 edge_index", members: []member{{"edge_index.npy", rawNPY(dict("|u1", "(2, 2)"), []byte{0, 1, 1, 2})}, numNodesNPY(3)},
			member: "edge_index.npy", offset: -1, msg: "dtype |u1 (uint8): want int64 or int32"},
		{name: "transposed shape", members: []member{{"edge_index.npy", rawNPY(dict("<i8", "(3, 2)"), le64(0, 1, 1, 2, 2, 0))}, numNodesNPY(3)},
			member: "edge_index.npy", offset: -1, msg: "shape (3, 2): want (2, E)"},
		{name: "1-D shape", members: []member{{"edge_index.npy", rawNPY(dict("<i8", "(4,)"), le64(0, 1, 1, 2))}, numNodesNPY(3)},
			member: "edge_index.npy", offset: -1, msg: "shape (4,): want (2, E)"},
		{name: "negative id", members: []member{{"edge_index.npy", rawNPY(dict("<i8", "(2, 2)"), le64(0, 1, -1, 2))}, numNodesNPY(3)},
			member: "edge_index.npy", offset: 128 + 16, msg: "negative node id -1 at edge_index[1, 0]"},
		{name: "id >= num_nodes", members: []member{{"edge_index.npy", rawNPY(dict("<i8", "(2, 2)"), le64(0, 3, 1, 2))}, numNodesNPY(3)},
			member: "edge_index.npy", offset: 128 + 8, msg: "node id 3 at edge_index[0, 1] is not below num_nodes 3"},
		{name: "id >= num_nodes, fortran order", members: []member{{"edge_index.npy", rawNPY(
			"{'descr': '<i8', 'fortran_order': True, 'shape': (2, 2), }", le64(0, 1, 1, 7))}, numNodesNPY(3)},
			member: "edge_index.npy", offset: 128 + 24, msg: "node id 7 at edge_index[1, 1] is not below num_nodes 3"},
		{name: "num_nodes shape (2,)", members: []member{good, {"num_nodes.npy", rawNPY(dict("<i8", "(2,)"), le64(3, 3))}},
			member: "num_nodes.npy", offset: -1, msg: "shape (2,): want a scalar"},
		{name: "num_nodes negative", members: []member{good, numNodesNPY(-4)},
			member: "num_nodes.npy", offset: 128, msg: "num_nodes -4 is outside [0, 2147483647]"},
		{name: "num_nodes float", members: []member{good, {"num_nodes.npy", rawNPY(dict("<f8", "()"), le64(0))}},
			member: "num_nodes.npy", offset: -1, msg: "dtype <f8 (float64) is not an integer type"},
		{name: "truncated data", members: []member{{"edge_index.npy", rawNPY(dict("<i8", "(2, 2)"), le64(0, 1, 1))}, numNodesNPY(3)},
			member: "edge_index.npy", offset: 128 + 24, msg: "truncated data: shape (2, 2) of int64 needs 32 bytes, the member holds 24"},
		{name: "trailing bytes", members: []member{{"edge_index.npy", append(rawNPY(dict("<i8", "(2, 2)"), le64(0, 1, 1, 2)), 9)}, numNodesNPY(3)},
			member: "edge_index.npy", offset: 128 + 32, msg: "1 bytes after the data"},
		{name: "bad magic", members: []member{{"edge_index.npy", []byte("NUMPY and more")}, numNodesNPY(3)},
			member: "edge_index.npy", offset: 0, msg: "not a .npy array"},
		{name: "bad version", members: []member{{"edge_index.npy", append([]byte("\x93NUMPY\x07\x00"), ei[8:]...)}, numNodesNPY(3)},
			member: "edge_index.npy", offset: 6, msg: "unsupported .npy format version 7.0"},
		{name: "header length past end", members: []member{{"edge_index.npy", []byte("\x93NUMPY\x01\x00\xff\x00{}")}, numNodesNPY(3)},
			member: "edge_index.npy", offset: 10, msg: "header length 255 exceeds the member size"},
		{name: "header without newline", members: []member{{"edge_index.npy", []byte("\x93NUMPY\x01\x00\x02\x00{}")}, numNodesNPY(3)},
			member: "edge_index.npy", offset: 10, msg: "header does not end with a newline"},
		{name: "header missing shape", members: []member{{"edge_index.npy", rawNPY("{'descr': '<i8', 'fortran_order': False}", nil)}, numNodesNPY(3)},
			member: "edge_index.npy", offset: -2, msg: `missing key "shape"`},
		{name: "header unknown key", members: []member{{"edge_index.npy", rawNPY(unknownKey, nil)}, numNodesNPY(3)},
			member: "edge_index.npy", offset: 10 + int64(strings.Index(unknownKey, "'x'")), msg: `unexpected key "x"`},
		{name: "header structured dtype", members: []member{{"edge_index.npy", rawNPY("{'descr': [('a', '<i8')], 'fortran_order': False, 'shape': (2,), }", nil)}, numNodesNPY(3)},
			member: "edge_index.npy", offset: -2, msg: "structured dtypes are not supported"},
		{name: "header (5) is not a tuple", members: []member{{"edge_index.npy", rawNPY("{'descr': '<i8', 'fortran_order': False, 'shape': (5), }", nil)}, numNodesNPY(3)},
			member: "edge_index.npy", offset: -2, msg: "'shape' (5) is not a tuple: want (5,)"},
		{name: "header fortran_order bad", members: []member{{"edge_index.npy", rawNPY("{'descr': '<i8', 'fortran_order': 0, 'shape': (2, 2), }", nil)}, numNodesNPY(3)},
			member: "edge_index.npy", offset: -2, msg: "'fortran_order' is \"\", not True or False"},
		{name: "unknown dtype", members: []member{{"edge_index.npy", rawNPY(dict("<x8", "(2, 2)"), nil)}, numNodesNPY(3)},
			member: "edge_index.npy", offset: 10 + 10, msg: `dtype "<x8" is not supported`},
		{name: "huge shape", members: []member{{"edge_index.npy", rawNPY(dict("<i8", "(2147483648, 2147483648)"), nil)}, numNodesNPY(3)},
			member: "edge_index.npy", offset: 128, msg: "shape (2147483648, 2147483648) is too large"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := c.data
			if b == nil {
				b = zipOf(t, false, c.members...)
			}
			// Through a file (ReadNPZ) and through a reader (DecodeNPZ).
			path := filepath.Join(t.TempDir(), "bad.npz")
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, read := range []func() error{
				func() error { _, _, err := ReadNPZ(path); return err },
				func() error { _, _, err := DecodeNPZ(path, bytes.NewReader(b), int64(len(b))); return err },
			} {
				err := read()
				if err == nil {
					t.Fatal("no error")
				}
				fe := asFormatError(t, err, path)
				if fe.Member != c.member {
					t.Errorf("Member = %q, want %q (%v)", fe.Member, c.member, err)
				}
				if c.offset != -2 && fe.Offset != c.offset {
					t.Errorf("Offset = %d, want %d (%v)", fe.Offset, c.offset, err)
				}
				if fe.Line != 0 {
					t.Errorf("Line = %d, want 0", fe.Line)
				}
				if !strings.Contains(fe.Msg, c.msg) {
					t.Errorf("Msg = %q, want it to contain %q", fe.Msg, c.msg)
				}
				if !strings.HasPrefix(err.Error(), path) {
					t.Errorf("Error() = %q does not start with the path", err)
				}
			}
		})
	}
}

func TestNPZCorruptMember(t *testing.T) {
	b := zipOf(t, true, member{"edge_index.npy", rawNPY(dict("<i8", "(2, 2)"), le64(0, 1, 1, 2))}, numNodesNPY(3))
	// Flip a byte inside the first member's compressed data: the deflate
	// stream or its CRC check fails.
	bad := slices.Clone(b)
	bad[30+len("edge_index.npy")+5] ^= 0xff
	_, _, err := DecodeNPZ("c.npz", bytes.NewReader(bad), int64(len(bad)))
	fe := asFormatError(t, err, "c.npz")
	if fe.Member != "edge_index.npy" || !strings.Contains(fe.Msg, "cannot read member") {
		t.Errorf("got %v", err)
	}
}

func TestNPZMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.npz")
	_, _, err := ReadNPZ(path)
	if !os.IsNotExist(err) || !strings.Contains(err.Error(), path) {
		t.Fatalf("got %v, want a not-exist error naming %s", err, path)
	}
}

func TestNPZMasks(t *testing.T) {
	m := []bool{true, false, false, true, true}
	var b bytes.Buffer
	if err := EncodeNPZArrays(&b, NewMaskArray("a", "|u1", m), NewMaskArray("b", "|b1", m)); err != nil {
		t.Fatal(err)
	}
	z, err := NewNPZ("m.npz", bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b"} {
		a, err := z.Array(k)
		if err != nil {
			t.Fatal(err)
		}
		got, err := a.Mask()
		if err != nil || !slices.Equal(got, m) {
			t.Errorf("%s: %v %v, want %v", k, got, err, m)
		}
	}
	bad := zipOf(t, false,
		member{"two.npy", rawNPY(dict("|u1", "(3,)"), []byte{0, 2, 1})},
		member{"int.npy", rawNPY(dict("<i8", "(1,)"), le64(1))},
		member{"flat.npy", rawNPY(dict("|b1", "(1, 1)"), []byte{1})})
	z, err = NewNPZ("m.npz", bytes.NewReader(bad), int64(len(bad)))
	if err != nil {
		t.Fatal(err)
	}
	for k, msg := range map[string]string{
		"two":  "value 2 at index 1 is not 0 or 1",
		"int":  "dtype <i8 (int64): want a mask of bool (|b1) or uint8 (|u1)",
		"flat": "shape (1, 1): want a one-dimensional mask",
	} {
		a, err := z.Array(k)
		if err != nil {
			t.Fatal(err)
		}
		_, err = a.Mask()
		fe := asFormatError(t, err, "m.npz")
		if fe.Member != k+".npy" || !strings.Contains(fe.Msg, msg) {
			t.Errorf("%s: got %v, want %q", k, err, msg)
		}
	}
}

func TestWriteNPZRejects(t *testing.T) {
	for name, f := range map[string]func(w io.Writer) error{
		"id out of range":    func(w io.Writer) error { return EncodeNPZ(w, 2, es(0, 2), nil) },
		"negative id":        func(w io.Writer) error { return EncodeNPZ(w, 2, es(-1, 0), nil) },
		"extra out of range": func(w io.Writer) error { return EncodeNPZ(w, 2, nil, map[string][]linalg.Edge{"added": es(5, 0)}) },
		"reserved key":       func(w io.Writer) error { return EncodeNPZ(w, 2, nil, map[string][]linalg.Edge{"num_nodes": nil}) },
		"empty key":          func(w io.Writer) error { return EncodeNPZ(w, 2, nil, map[string][]linalg.Edge{"": nil}) },
		"negative count":     func(w io.Writer) error { return EncodeNPZ(w, -1, nil, nil) },
	} {
		if err := f(io.Discard); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
