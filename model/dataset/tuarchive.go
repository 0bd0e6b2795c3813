package dataset

import (
	"fmt"
	"io"
	"slices"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
)

// Array keys of a collated graph-classification archive (definitions
// §1.6) beside graphio.KeyEdgeIndex, KeyX and KeyY.
const (
	KeyEdgeAttr = "edge_attr" // float32 (or float64), arcs × d_e; absent when d_e = 0
	KeyEdgeType = "edge_type" // int64, arcs: 0 an arc of the dataset, 1 one rewiring added
	KeyPtr      = "ptr"       // int64, graphs + 1: PyG's slices["x"]
	KeyEdgePtr  = "edge_ptr"  // int64, graphs + 1: PyG's slices["edge_index"]
)

// IsTUArchive reports whether the .npz archive at path is a collated
// graph-classification archive (it holds ptr).
func IsTUArchive(path string) bool {
	z, err := graphio.OpenNPZ(path)
	if err != nil {
		return false
	}
	defer z.Close()
	return z.Has(KeyPtr)
}

// Rewired returns d with graph i replaced by gs[i] (same node count, any
// form): its arcs (both arcs of every undirected edge, sorted), each arc of
// d keeping its edge_attr row and EdgeType 0, each other arc taking the
// row fill and EdgeType 1 (definitions §1.6). fill has NumEdgeFeatures
// values, or one value for every column, or none for zeros. X, Y and the
// counts are shared with d. O(total arcs · d_e).
func (d *TUDataset) Rewired(gs []*linalg.Graph, fill []float64) (*TUDataset, error) {
	if len(gs) != d.Len() {
		return nil, fmt.Errorf("dataset: %s: %d graphs for %d", d.Name, len(gs), d.Len())
	}
	row, err := fillRow(fill, d.NumEdgeFeatures)
	if err != nil {
		return nil, err
	}
	out := *d
	out.Src, out.Dst, out.EdgeAttr, out.EdgeType = nil, nil, nil, nil
	out.EdgePtr = make([]int, d.Len()+1)
	cols := d.NumEdgeFeatures
	for i, g := range gs {
		if g.N() != d.NumNodes(i) {
			return nil, fmt.Errorf("dataset: %s: graph %d has %d nodes, the dataset's %d", d.Name, i, g.N(), d.NumNodes(i))
		}
		kept := make(map[linalg.Edge]int, d.NumArcs(i))
		for k := d.EdgePtr[i]; k < d.EdgePtr[i+1]; k++ {
			kept[linalg.Edge{U: d.Src[k], V: d.Dst[k]}] = k
		}
		arcs := g.Arcs()
		slices.SortFunc(arcs, func(a, b linalg.Edge) int { return (a.U-b.U)*g.N() + a.V - b.V })
		for _, a := range arcs {
			if a.U == a.V {
				continue // the dataset has none, and rewiring adds none
			}
			out.Src, out.Dst = append(out.Src, a.U), append(out.Dst, a.V)
			if k, ok := kept[a]; ok {
				out.EdgeType = append(out.EdgeType, 0)
				out.EdgeAttr = append(out.EdgeAttr, d.EdgeAttr[k*cols:(k+1)*cols]...)
			} else {
				out.EdgeType = append(out.EdgeType, 1)
				out.EdgeAttr = append(out.EdgeAttr, row...)
			}
		}
		out.EdgePtr[i+1] = len(out.Src)
	}
	return &out, nil
}

// fillRow is the edge_attr row of an added arc: fill as given (cols
// values), one value repeated, or zeros.
func fillRow(fill []float64, cols int) ([]float64, error) {
	switch len(fill) {
	case 0:
		return make([]float64, cols), nil
	case cols:
		return slices.Clone(fill), nil
	case 1:
		return slices.Repeat(fill, cols), nil
	}
	return nil, fmt.Errorf("dataset: edge fill of %d values: the dataset's edge_attr has %d columns (give %d values, or one for all)", len(fill), cols, cols)
}

// EncodeTUArchive writes d as a collated archive (definitions §1.6): x,
// edge_index (per-graph ids), edge_attr (when d has edge features),
// edge_type (EdgeType, zeros when nil), y, ptr and edge_ptr. Floats are
// float32 when every value is exactly one, else float64. The same dataset
// always gives the same bytes. O(size).
func EncodeTUArchive(w io.Writer, d *TUDataset) error {
	a := len(d.Src)
	ei := make([]int64, 2*a)
	et := make([]int64, a)
	for k := range a {
		ei[k], ei[a+k] = int64(d.Src[k]), int64(d.Dst[k])
		if d.EdgeType != nil {
			et[k] = int64(d.EdgeType[k])
		}
	}
	arrays := []*graphio.Array{
		floatArray(KeyX, []int{d.TotalNodes(), d.NumFeatures}, d.X),
		graphio.NewInt64Array(graphio.KeyEdgeIndex, []int{2, a}, ei),
	}
	if d.NumEdgeFeatures > 0 {
		arrays = append(arrays, floatArray(KeyEdgeAttr, []int{a, d.NumEdgeFeatures}, d.EdgeAttr))
	}
	arrays = append(arrays,
		graphio.NewInt64Array(KeyEdgeType, []int{a}, et),
		graphio.NewInt64Array(KeyY, []int{d.Len()}, int64s(d.Y)),
		graphio.NewInt64Array(KeyPtr, []int{d.Len() + 1}, int64s(d.NodePtr)),
		graphio.NewInt64Array(KeyEdgePtr, []int{d.Len() + 1}, int64s(d.EdgePtr)))
	return graphio.EncodeNPZArrays(w, arrays...)
}

func floatArray(key string, shape []int, v []float64) *graphio.Array {
	descr := "<f8"
	if graphio.ExactFloat32(v) {
		descr = "<f4"
	}
	return graphio.NewFloatArray(key, descr, shape, v)
}

func int64s(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// ReadTUArchive reads a collated archive that EncodeTUArchive wrote (or
// PyG code following docs/python.md) back into a TUDataset named name,
// checking every shape and id: ptr and edge_ptr non-decreasing from 0 to
// the rows of x and the arcs, each graph's arc ids inside its node range,
// edge_type 0 or 1, y ≥ 0 (NumClasses = max + 1). Malformed content is a
// *graphio.FormatError naming the member. O(size).
func ReadTUArchive(path, name string) (*TUDataset, error) {
	z, err := graphio.OpenNPZ(path)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	arr := map[string]*graphio.Array{}
	for _, k := range []string{KeyX, graphio.KeyEdgeIndex, KeyEdgeAttr, KeyEdgeType, KeyY, KeyPtr, KeyEdgePtr} {
		if !z.Has(k) {
			if k == KeyEdgeAttr || k == KeyEdgeType {
				continue
			}
			return nil, &graphio.FormatError{Path: path, Offset: -1, Msg: "no " + k + " array: not a collated graph-classification archive"}
		}
		if arr[k], err = z.Array(k); err != nil {
			return nil, err
		}
	}
	d := &TUDataset{Name: name}
	if d.NodePtr, err = ptrArray(arr[KeyPtr], -1); err != nil {
		return nil, err
	}
	g := len(d.NodePtr) - 1
	if d.EdgePtr, err = ptrArray(arr[KeyEdgePtr], g); err != nil {
		return nil, err
	}
	if err := d.readTUNodes(arr[KeyX], arr[KeyY]); err != nil {
		return nil, err
	}
	return d, d.readTUArcs(arr[graphio.KeyEdgeIndex], arr[KeyEdgeAttr], arr[KeyEdgeType])
}

// ptrArray reads a slices array: int64, from 0, non-decreasing; graphs + 1
// entries unless graphs < 0.
func ptrArray(a *graphio.Array, graphs int) ([]int, error) {
	v, err := a.Int64s()
	if err != nil {
		return nil, err
	}
	if len(a.Shape) != 1 || len(v) < 1 || graphs >= 0 && len(v) != graphs+1 {
		return nil, formatErr(a, "shape %s: want (graphs + 1,)", a.ShapeString())
	}
	out := make([]int, len(v))
	for i, x := range v {
		if i == 0 && x != 0 || i > 0 && x < v[i-1] {
			return nil, formatErr(a, "entry %d is %d: the slices start at 0 and never decrease", i, x)
		}
		out[i] = int(x)
	}
	return out, nil
}

// readTUNodes reads x (ptr's last entry rows) and y (one label a graph).
func (d *TUDataset) readTUNodes(x, y *graphio.Array) error {
	n := d.TotalNodes()
	if len(x.Shape) != 2 || x.Shape[0] != n {
		return formatErr(x, "shape %s: want (%d, d): one row per node of ptr", x.ShapeString(), n)
	}
	var err error
	if d.X, err = x.Float64s(); err != nil {
		return err
	}
	d.NumFeatures = x.Shape[1]
	if d.Y, d.NumClasses, err = readLabels(y, len(d.NodePtr)-1); err != nil {
		return err
	}
	return nil
}

// readTUArcs reads edge_index (per-graph ids), edge_attr and edge_type.
func (d *TUDataset) readTUArcs(ei, ea, et *graphio.Array) error {
	a := d.EdgePtr[len(d.EdgePtr)-1]
	v, err := ei.Int64s()
	if err != nil {
		return err
	}
	if len(ei.Shape) != 2 || ei.Shape[0] != 2 || ei.Shape[1] != a {
		return formatErr(ei, "shape %s: want (2, %d): the arcs of edge_ptr", ei.ShapeString(), a)
	}
	d.Src, d.Dst = make([]int, a), make([]int, a)
	for i := range d.Len() {
		for k := d.EdgePtr[i]; k < d.EdgePtr[i+1]; k++ {
			u, w := v[k], v[a+k]
			if u < 0 || w < 0 || u >= int64(d.NumNodes(i)) || w >= int64(d.NumNodes(i)) {
				return formatErr(ei, "arc %d (%d, %d) of graph %d: ids must lie in [0, %d)", k, u, w, i, d.NumNodes(i))
			}
			d.Src[k], d.Dst[k] = int(u), int(w)
		}
	}
	if ea != nil {
		if len(ea.Shape) != 2 || ea.Shape[0] != a {
			return formatErr(ea, "shape %s: want (%d, d_e)", ea.ShapeString(), a)
		}
		if d.EdgeAttr, err = ea.Float64s(); err != nil {
			return err
		}
		d.NumEdgeFeatures = ea.Shape[1]
	}
	if et != nil {
		t, err := et.Int64s()
		if err != nil {
			return err
		}
		if len(et.Shape) != 1 || len(t) != a {
			return formatErr(et, "shape %s: want (%d,)", et.ShapeString(), a)
		}
		d.EdgeType = make([]int, a)
		for k, x := range t {
			if x != 0 && x != 1 {
				return formatErr(et, "entry %d is %d: want 0 (an arc of the dataset) or 1 (added)", k, x)
			}
			d.EdgeType[k] = int(x)
		}
	}
	return nil
}

func errNoEdgeAttr(name string) error {
	return fmt.Errorf("dataset: %s has no edge_attr to fill", name)
}
