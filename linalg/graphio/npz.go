package graphio

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/sbinet/npyio/npz"

	"github.com/ohmgnn/ohm/internal/atomicfile"
	"github.com/ohmgnn/ohm/linalg"
)

// Member keys of a graph archive (definitions §1).
const (
	KeyEdgeIndex = "edge_index"
	KeyNumNodes  = "num_nodes"
)

// NPZ is an open .npz archive (a ZIP of .npy members, as numpy.savez and
// numpy.savez_compressed write it). Members are found by key: Array("x")
// opens member "x.npy" (or "x" when stored without the suffix, as numpy also
// allows).
type NPZ struct {
	path   string
	zr     *npz.Reader
	closer io.Closer
}

// OpenNPZ opens the .npz file at path. A missing file is an error wrapping
// os.ErrNotExist; a file that is not a ZIP archive is a *FormatError.
func OpenNPZ(path string) (*NPZ, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	z, err := NewNPZ(path, f, st.Size())
	if err != nil {
		f.Close()
		return nil, err
	}
	z.closer = f
	return z, nil
}

// NewNPZ reads an .npz archive of the given size from r; path only names it
// in errors.
func NewNPZ(path string, r io.ReaderAt, size int64) (*NPZ, error) {
	zr, err := npz.NewReader(r, size)
	if err != nil {
		return nil, &FormatError{Path: path, Offset: -1, Msg: "not an .npz (ZIP) archive", Err: unwrapAll(err)}
	}
	return &NPZ{path: path, zr: zr}, nil
}

// unwrapAll drops npyio's wrapping so that messages stay short.
func unwrapAll(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}

// Close closes the file opened by OpenNPZ (a no-op for NewNPZ).
func (z *NPZ) Close() error {
	if z.closer == nil {
		return nil
	}
	c := z.closer
	z.closer = nil
	return c.Close()
}

// Path returns the archive path given when it was opened.
func (z *NPZ) Path() string { return z.path }

// Members returns the member names in archive order.
func (z *NPZ) Members() []string { return slices.Clone(z.zr.Keys()) }

// member returns the stored member name for key, or "".
func (z *NPZ) member(key string) string {
	keys := z.zr.Keys()
	if slices.Contains(keys, key+".npy") {
		return key + ".npy"
	}
	if slices.Contains(keys, key) {
		return key
	}
	return ""
}

// Has reports whether the archive holds the array key.
func (z *NPZ) Has(key string) bool { return z.member(key) != "" }

// Array reads and checks the header of the array key. A missing array is a
// *FormatError naming member key+".npy".
func (z *NPZ) Array(key string) (*Array, error) {
	m := z.member(key)
	if m == "" {
		keys := make([]string, 0, len(z.zr.Keys()))
		for _, k := range z.zr.Keys() {
			keys = append(keys, strings.TrimSuffix(k, ".npy"))
		}
		return nil, &FormatError{Path: z.path, Member: key + ".npy", Offset: -1,
			Msg: fmt.Sprintf("missing array %s (archive holds %s)", key, listOrNone(keys))}
	}
	rc, err := z.zr.Open(m)
	if err != nil {
		return nil, &FormatError{Path: z.path, Member: m, Offset: -1, Msg: "cannot open member", Err: unwrapAll(err)}
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxMemberSize+1))
	if err != nil {
		return nil, &FormatError{Path: z.path, Member: m, Offset: -1, Msg: "cannot read member", Err: err}
	}
	if len(b) > maxMemberSize {
		return nil, &FormatError{Path: z.path, Member: m, Offset: -1, Msg: "member larger than 2 GiB"}
	}
	return newArray(z.path, m, b)
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "no arrays"
	}
	return strings.Join(s, ", ")
}

// Edges reads the array key as an edge list of shape (2, E), int64 or int32
// (either byte order, C or Fortran order), row 0 the sources and row 1 the
// targets as in PyTorch Geometric's edge_index. Every id must lie in
// [0, numNodes).
func (z *NPZ) Edges(key string, numNodes int) ([]linalg.Edge, error) {
	a, err := z.Array(key)
	if err != nil {
		return nil, err
	}
	return a.Edges(numNodes)
}

// Edges decodes a (2, E) int64 or int32 array as arcs (see NPZ.Edges).
func (a *Array) Edges(numNodes int) ([]linalg.Edge, error) {
	if a.dt.kind != 'i' || (a.dt.size != 8 && a.dt.size != 4) {
		return nil, a.errf("dtype %s: want int64 or int32", a.dt)
	}
	if len(a.Shape) != 2 || a.Shape[0] != 2 {
		return nil, a.errf("shape %s: want (2, E)", a.ShapeString())
	}
	v, err := a.Int64s()
	if err != nil {
		return nil, err
	}
	e := a.Shape[1]
	arcs := make([]linalg.Edge, e)
	for r := range 2 {
		for c := range e {
			x := v[r*e+c]
			switch {
			case x < 0:
				return nil, a.errAt(a.offsetOf(r*e+c), "negative node id %d at %s[%d, %d]",
					x, strings.TrimSuffix(a.Member, ".npy"), r, c)
			case x >= int64(numNodes):
				return nil, a.errAt(a.offsetOf(r*e+c), "node id %d at %s[%d, %d] is not below num_nodes %d",
					x, strings.TrimSuffix(a.Member, ".npy"), r, c, numNodes)
			}
			if r == 0 {
				arcs[c].U = int(x)
			} else {
				arcs[c].V = int(x)
			}
		}
	}
	return arcs, nil
}

// NumNodes reads the num_nodes array: an integer scalar (shape () or (1,))
// in [0, MaxNodes].
func (z *NPZ) NumNodes() (int, error) {
	a, err := z.Array(KeyNumNodes)
	if err != nil {
		return 0, err
	}
	v, err := a.Int()
	if err != nil {
		return 0, err
	}
	if v < 0 || v > MaxNodes {
		return 0, a.errAt(a.dataOff, "num_nodes %d is outside [0, %d]", v, MaxNodes)
	}
	return int(v), nil
}

// ReadNPZ reads a graph archive: num_nodes (required) and edge_index (2, E),
// int64 or int32, PyG convention, row 0 sources and row 1 targets. The arcs
// are returned as stored, duplicates and self-loops included. Malformed
// content is a *FormatError naming the member; a missing file an error
// wrapping os.ErrNotExist.
func ReadNPZ(path string) (numNodes int, arcs []linalg.Edge, err error) {
	z, err := OpenNPZ(path)
	if err != nil {
		return 0, nil, err
	}
	defer z.Close()
	return decodeNPZ(z)
}

// DecodeNPZ is ReadNPZ on an archive of the given size read from r; path
// only names it in errors.
func DecodeNPZ(path string, r io.ReaderAt, size int64) (numNodes int, arcs []linalg.Edge, err error) {
	z, err := NewNPZ(path, r, size)
	if err != nil {
		return 0, nil, err
	}
	return decodeNPZ(z)
}

func decodeNPZ(z *NPZ) (int, []linalg.Edge, error) {
	if !z.Has(KeyEdgeIndex) {
		_, err := z.Array(KeyEdgeIndex)
		return 0, nil, err
	}
	n, err := z.NumNodes()
	if err != nil {
		return 0, nil, err
	}
	arcs, err := z.Edges(KeyEdgeIndex, n)
	if err != nil {
		return 0, nil, err
	}
	return n, arcs, nil
}

// NewInt64Array returns an int64 array with the given shape (C order) for
// EncodeNPZArrays; key names it (member key+".npy"). It panics if len(v) does
// not match the shape.
func NewInt64Array(key string, shape []int, v []int64) *Array {
	n := 1
	for _, d := range shape {
		n *= d
	}
	if n != len(v) || n < 0 {
		panic(fmt.Sprintf("graphio: %d values for shape %s", len(v), shapeString(shape)))
	}
	data := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(data[8*i:], uint64(x))
	}
	dt, _ := parseDtype("<i8")
	return &Array{Member: key + ".npy", Descr: dt.descr, Shape: slices.Clone(shape), dt: dt, data: data}
}

// NewMaskArray returns a one-dimensional mask array for EncodeNPZArrays,
// stored as descr "|b1" (bool) or "|u1" (uint8); it panics on another descr.
func NewMaskArray(key, descr string, m []bool) *Array {
	if descr != "|b1" && descr != "|u1" {
		panic("graphio: mask descr must be |b1 or |u1, not " + descr)
	}
	dt, _ := parseDtype(descr)
	data := make([]byte, len(m))
	for i, b := range m {
		if b {
			data[i] = 1
		}
	}
	return &Array{Member: key + ".npy", Descr: dt.descr, Shape: []int{len(m)}, dt: dt, data: data}
}

func edgeArray(key string, numNodes int, arcs []linalg.Edge) (*Array, error) {
	v := make([]int64, 2*len(arcs))
	for i, e := range arcs {
		if e.U < 0 || e.U >= numNodes || e.V < 0 || e.V >= numNodes {
			return nil, fmt.Errorf("graphio: %s arc %d (%d, %d): node id out of range [0, %d)", key, i, e.U, e.V, numNodes)
		}
		v[i], v[len(arcs)+i] = int64(e.U), int64(e.V)
	}
	return NewInt64Array(key, []int{2, len(arcs)}, v), nil
}

// zipTime is the fixed modification time of every member, so that the same
// graph always gives the same bytes.
var zipTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// EncodeNPZArrays writes the arrays as a deflate-compressed .npz archive (as
// numpy.savez_compressed does), members in the order given. Each array's
// header is format 1.0, C order, 64-byte aligned.
func EncodeNPZArrays(w io.Writer, arrays ...*Array) error {
	zw := zip.NewWriter(w)
	seen := map[string]bool{}
	for _, a := range arrays {
		if seen[a.Member] {
			return fmt.Errorf("graphio: member %s given twice", a.Member)
		}
		seen[a.Member] = true
		if a.Fortran {
			return fmt.Errorf("graphio: member %s: writing Fortran order is not supported", a.Member)
		}
		if len(a.data) != a.Len()*a.dt.size {
			return fmt.Errorf("graphio: member %s: %d data bytes for shape %s of %s", a.Member, len(a.data), a.ShapeString(), a.dt.name())
		}
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: a.Member, Method: zip.Deflate, Modified: zipTime})
		if err != nil {
			return err
		}
		var hdr bytes.Buffer
		writeNPYHeader(&hdr, a.Descr, false, a.Shape)
		if _, err := fw.Write(hdr.Bytes()); err != nil {
			return err
		}
		if _, err := fw.Write(a.data); err != nil {
			return err
		}
	}
	return zw.Close()
}

// WriteNPZArrays writes the arrays to path atomically (see atomicfile.WriteFile).
func WriteNPZArrays(path string, arrays ...*Array) error {
	return atomicfile.WriteFile(path, func(w io.Writer) error { return EncodeNPZArrays(w, arrays...) })
}

// EncodeNPZ writes a graph archive: edge_index as int64 of shape (2, E) (row 0
// sources, row 1 targets, the arcs in the order given), num_nodes as an int64
// scalar of shape (), then every extra edge list as an int64 (2, k) array
// under its key, keys in sorted order. With numpy,
// torch.from_numpy(np.load(f)["edge_index"]) is PyG's edge_index. Ids outside
// [0, numNodes) and keys that clash with the graph's own are errors.
func EncodeNPZ(w io.Writer, numNodes int, arcs []linalg.Edge, extra map[string][]linalg.Edge) error {
	if numNodes < 0 || numNodes > MaxNodes {
		return fmt.Errorf("graphio: node count %d outside [0, %d]", numNodes, MaxNodes)
	}
	ei, err := edgeArray(KeyEdgeIndex, numNodes, arcs)
	if err != nil {
		return err
	}
	arrays := []*Array{ei, NewInt64Array(KeyNumNodes, nil, []int64{int64(numNodes)})}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k == "" || k == KeyEdgeIndex || k == KeyNumNodes || strings.ContainsAny(k, "/\\") || strings.HasSuffix(k, ".npy") {
			return fmt.Errorf("graphio: invalid extra array key %q", k)
		}
		a, err := edgeArray(k, numNodes, extra[k])
		if err != nil {
			return err
		}
		arrays = append(arrays, a)
	}
	return EncodeNPZArrays(w, arrays...)
}

// WriteNPZ writes a graph archive (see EncodeNPZ) to path atomically: an
// existing file is replaced only once the new one is complete on disk.
func WriteNPZ(path string, numNodes int, arcs []linalg.Edge, extra map[string][]linalg.Edge) error {
	return atomicfile.WriteFile(path, func(w io.Writer) error { return EncodeNPZ(w, numNodes, arcs, extra) })
}

// WriteGraphNPZ writes a graph archive like WriteNPZ (edge_index, num_nodes)
// followed by more arrays of any kind, e.g. node labels y; atomically.
func WriteGraphNPZ(path string, numNodes int, arcs []linalg.Edge, more ...*Array) error {
	return atomicfile.WriteFile(path, func(w io.Writer) error { return EncodeGraphNPZ(w, numNodes, arcs, more...) })
}

// EncodeGraphNPZ writes the archive of WriteGraphNPZ to w.
func EncodeGraphNPZ(w io.Writer, numNodes int, arcs []linalg.Edge, more ...*Array) error {
	if numNodes < 0 || numNodes > MaxNodes {
		return fmt.Errorf("graphio: node count %d outside [0, %d]", numNodes, MaxNodes)
	}
	ei, err := edgeArray(KeyEdgeIndex, numNodes, arcs)
	if err != nil {
		return err
	}
	arrays := append([]*Array{ei, NewInt64Array(KeyNumNodes, nil, []int64{int64(numNodes)})}, more...)
	return EncodeNPZArrays(w, arrays...)
}
