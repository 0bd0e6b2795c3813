package dataset

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/james-bowman/sparse"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
)

// Array keys of a dataset archive beside graphio.KeyEdgeIndex and
// graphio.KeyNumNodes: PyTorch Geometric's names of a Data object's fields.
const (
	KeyX         = "x"          // features, float32 or float64, n×d
	KeyY         = "y"          // labels, integers ≥ 0, n
	KeyTrainMask = "train_mask" // bool, n (one split) or n×k (k splits)
	KeyValMask   = "val_mask"
	KeyTestMask  = "test_mask"
)

// ArchiveKeys lists the arrays of a dataset archive in the order they are
// written and hashed.
var ArchiveKeys = []string{graphio.KeyEdgeIndex, graphio.KeyNumNodes, KeyX, KeyY, KeyTrainMask, KeyValMask, KeyTestMask}

var maskKeys = []string{KeyTrainMask, KeyValMask, KeyTestMask}

// maxLabel bounds the labels of an archive, so that a wrong array does not
// ask for absurd numbers of classes.
const maxLabel = 1<<16 - 1

// Archive is a dataset read from an .npz archive by ReadArchive.
type Archive struct {
	*Dataset
	// SHA256 is the hex SHA-256 of the archive's arrays (ArchiveKeys, those
	// present, in that order; each as its key, dtype, storage order, shape
	// and element bytes): the same arrays give the same hash whatever the
	// ZIP's compression and timestamps, and any other content another.
	SHA256 string
	// HasSplits reports whether the archive holds split masks (else
	// Dataset.Splits is empty; see SplitRule).
	HasSplits bool
}

// ReadArchive reads a dataset from an .npz archive named name: the graph
// (edge_index 2×E and num_nodes, as graphio.ReadNPZ; Graph is its arcs as a
// directed graph, duplicates coalesced, self-loops kept, and the undirected
// form Graph.Undirected() as for every dataset), the raw features x (float32
// or float64, shape (n, d), d ≥ 1; not normalised: training row-normalises
// them as it does every dataset's), the labels y (integers in [0, 65535],
// shape (n,) or (n, 1); NumClasses = max + 1) and, optionally, the split
// masks train_mask, val_mask and test_mask (bool or uint8 0/1, all three of
// shape (n,) for one split or (n, k) for k splits, PyG's layout; each split
// must select at least one node of each part). Malformed content is a
// *graphio.FormatError naming the member. O(n·d + E).
func ReadArchive(path, name string) (*Archive, error) {
	z, err := graphio.OpenNPZ(path)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	h := sha256.New()
	arrays := map[string]*graphio.Array{}
	for _, k := range ArchiveKeys {
		if !z.Has(k) {
			continue
		}
		a, err := z.Array(k)
		if err != nil {
			return nil, err
		}
		arrays[k] = a
		fmt.Fprintf(h, "%s\n%s\n%t\n%s\n", k, a.Descr, a.Fortran, a.ShapeString())
		binary.Write(h, binary.LittleEndian, uint64(len(a.RawData())))
		h.Write(a.RawData())
	}
	for _, k := range []string{graphio.KeyEdgeIndex, graphio.KeyNumNodes, KeyX, KeyY} {
		if arrays[k] == nil {
			_, err := z.Array(k) // the error naming what is missing and what the archive holds
			return nil, err
		}
	}
	n, err := z.NumNodes()
	if err != nil {
		return nil, err
	}
	arcs, err := arrays[graphio.KeyEdgeIndex].Edges(n)
	if err != nil {
		return nil, err
	}
	g, err := linalg.FromEdges(n, true, arcs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	x, err := readFeatures(arrays[KeyX], n)
	if err != nil {
		return nil, err
	}
	labels, classes, err := readLabels(arrays[KeyY], n)
	if err != nil {
		return nil, err
	}
	d := &Dataset{Name: name, Graph: g, Features: x, Labels: labels, NumClasses: classes}
	if d.Splits, err = readMasks(path, arrays, n); err != nil {
		return nil, err
	}
	return &Archive{Dataset: d, SHA256: hex.EncodeToString(h.Sum(nil)), HasSplits: d.Splits != nil}, nil
}

func formatErr(a *graphio.Array, format string, args ...any) error {
	return &graphio.FormatError{Path: a.Path, Member: a.Member, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

// readFeatures reads x as a CSR of its non-zero values, column indices
// ascending.
func readFeatures(a *graphio.Array, n int) (*sparse.CSR, error) {
	if len(a.Shape) != 2 || a.Shape[0] != n || a.Shape[1] < 1 {
		return nil, formatErr(a, "shape %s: want (%d, d), d ≥ 1: one row of features per node", a.ShapeString(), n)
	}
	v, err := a.Float64s()
	if err != nil {
		return nil, err
	}
	cols := a.Shape[1]
	ia := make([]int, n+1)
	var ja []int
	var data []float64
	for i := range n {
		for j, x := range v[i*cols : (i+1)*cols] {
			if x != 0 {
				ja, data = append(ja, j), append(data, x)
			}
		}
		ia[i+1] = len(ja)
	}
	return sparse.NewCSR(n, cols, ia, ja, data), nil
}

// readLabels reads y and returns the labels and the number of classes.
func readLabels(a *graphio.Array, n int) ([]int, int, error) {
	if !(len(a.Shape) == 1 && a.Shape[0] == n) && !(len(a.Shape) == 2 && a.Shape[0] == n && a.Shape[1] == 1) {
		return nil, 0, formatErr(a, "shape %s: want (%d,): one label per node", a.ShapeString(), n)
	}
	v, err := a.Int64s()
	if err != nil {
		return nil, 0, err
	}
	labels := make([]int, n)
	classes := 0
	for i, y := range v {
		if y < 0 || y > maxLabel {
			return nil, 0, formatErr(a, "label %d of node %d is outside [0, %d]", y, i, maxLabel)
		}
		labels[i] = int(y)
		classes = max(classes, int(y)+1)
	}
	return labels, classes, nil
}

// readMasks reads the split masks: nil when the archive has none.
func readMasks(path string, arrays map[string]*graphio.Array, n int) ([]Split, error) {
	var have []string
	for _, k := range maskKeys {
		if arrays[k] != nil {
			have = append(have, k)
		}
	}
	switch len(have) {
	case 0:
		return nil, nil
	case len(maskKeys):
	default:
		return nil, &graphio.FormatError{Path: path, Offset: -1,
			Msg: fmt.Sprintf("holds %v but not all of train_mask, val_mask and test_mask", have)}
	}
	first := arrays[KeyTrainMask]
	k := 1
	switch {
	case len(first.Shape) == 1 && first.Shape[0] == n:
	case len(first.Shape) == 2 && first.Shape[0] == n && first.Shape[1] >= 1:
		k = first.Shape[1]
	default:
		return nil, formatErr(first, "shape %s: want (%d,) for one split or (%d, k) for k splits", first.ShapeString(), n, n)
	}
	splits := make([]Split, k)
	for _, key := range maskKeys {
		a := arrays[key]
		if !slices.Equal(a.Shape, first.Shape) {
			return nil, formatErr(a, "shape %s differs from train_mask's %s", a.ShapeString(), first.ShapeString())
		}
		m, err := a.Bools()
		if err != nil {
			return nil, err
		}
		for s := range k {
			var ids []int
			for i := range n {
				if m[i*k+s] {
					ids = append(ids, i)
				}
			}
			if len(ids) == 0 {
				where := key
				if len(a.Shape) == 2 {
					where = fmt.Sprintf("%s[:, %d]", key, s)
				}
				return nil, formatErr(a, "%s selects no node (split %d)", where, s)
			}
			switch key {
			case KeyTrainMask:
				splits[s].Train = ids
			case KeyValMask:
				splits[s].Val = ids
			default:
				splits[s].Test = ids
			}
		}
	}
	return splits, nil
}

// WriteArchive writes d as a dataset archive that ReadArchive reads back
// exactly: the graph g (nil: d.Graph, the directed form) as edge_index and
// num_nodes (graphio.WriteGraphNPZ: g.Arcs(), both arcs of every undirected
// edge), the raw features x (n×d; float32 when every value is exactly a
// float32, as PyG holds them, else float64), the labels y (int64, n) and the
// split masks (bool, n for one split, n×k for k, PyG's layout; none when d
// has no splits). Atomic. O(n·d + E).
func WriteArchive(path string, d *Dataset, g *linalg.Graph) error {
	if g == nil {
		g = d.Graph
	}
	n := d.N()
	if g.N() != n || len(d.Labels) != n {
		return fmt.Errorf("dataset: %s: graph of %d nodes, %d labels, %d nodes", d.Name, g.N(), len(d.Labels), n)
	}
	rows, cols := d.Features.Dims()
	if rows != n {
		return fmt.Errorf("dataset: %s: %d feature rows for %d nodes", d.Name, rows, n)
	}
	x := make([]float64, n*cols)
	raw := d.Features.RawMatrix()
	for i := range n {
		for q := raw.Indptr[i]; q < raw.Indptr[i+1]; q++ {
			x[i*cols+raw.Ind[q]] = raw.Data[q]
		}
	}
	descr := "<f8"
	if graphio.ExactFloat32(x) {
		descr = "<f4"
	}
	y := make([]int64, n)
	for i, l := range d.Labels {
		y[i] = int64(l)
	}
	arrays := []*graphio.Array{graphio.NewFloatArray(KeyX, descr, []int{n, cols}, x), graphio.NewInt64Array(KeyY, []int{n}, y)}
	if k := len(d.Splits); k > 0 {
		shape := []int{n, k}
		if k == 1 {
			shape = []int{n}
		}
		for _, key := range maskKeys {
			m := make([]bool, n*k)
			for s, sp := range d.Splits {
				ids := sp.Train
				switch key {
				case KeyValMask:
					ids = sp.Val
				case KeyTestMask:
					ids = sp.Test
				}
				for _, i := range ids {
					m[i*k+s] = true
				}
			}
			arrays = append(arrays, graphio.NewBoolArray(key, shape, m))
		}
	}
	return graphio.WriteGraphNPZ(path, n, g.Arcs(), arrays...)
}
