package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/ohmgnn/ohm/linalg"
)

// TUDataset is a graph-classification dataset of the TU Dortmund collection
// (definitions §1.5), in PyTorch Geometric's collated layout: the graphs'
// nodes, arcs and features stored one graph after another, as
// InMemoryDataset holds them, with the slices that cut them apart.
type TUDataset struct {
	// Name is the dataset's name as the TU collection spells it ("MUTAG").
	Name string
	// NodePtr has one entry per graph plus one: graph i's nodes are rows
	// NodePtr[i]..NodePtr[i+1]-1 of X (PyG's slices["x"]).
	NodePtr []int
	// EdgePtr likewise cuts the arcs: graph i's are EdgePtr[i]..EdgePtr[i+1]-1
	// (PyG's slices["edge_index"]).
	EdgePtr []int
	// Src and Dst are the arcs, each graph's with its own node ids
	// 0..n_i-1 (PyG's collated edge_index), sorted by (Src, Dst) within a
	// graph: self-loops removed and duplicates merged, as PyG does.
	Src, Dst []int
	// X is the node features, row-major, NodePtr[len]×NumFeatures: the node
	// attributes (with TUOptions.NodeAttr) then the one-hot node labels,
	// PyG's order; the constant 1 when that leaves no column. Values are
	// float32 values (PyG's dtype) held as float64.
	X           []float64
	NumFeatures int
	// EdgeAttr is the arc features, row-major, len(Src)×NumEdgeFeatures:
	// the edge attributes (with TUOptions.EdgeAttr) then the one-hot edge
	// labels; empty (NumEdgeFeatures 0) when the dataset has neither.
	// Merged duplicate arcs have their rows summed (PyG's coalesce).
	EdgeAttr        []float64
	NumEdgeFeatures int
	// EdgeType marks each arc: 0 an arc of the dataset, 1 an arc rewiring
	// added (Rewired); nil for a dataset as read from its files.
	EdgeType []int
	// Y is each graph's class, 0..NumClasses-1: the rank of its label
	// among the distinct labels, sorted (PyG's unique(return_inverse)).
	Y          []int
	NumClasses int
	// NumNodeAttributes, NumNodeLabels, NumEdgeAttributes and NumEdgeLabels
	// are the columns each part contributes (PyG's TUDataset properties),
	// the attributes counted whether or not X and EdgeAttr hold them.
	NumNodeAttributes, NumNodeLabels, NumEdgeAttributes, NumEdgeLabels int
}

// TUOptions choose the optional columns of a TUDataset, as PyG's
// TUDataset(use_node_attr=..., use_edge_attr=...).
type TUOptions struct {
	// NodeAttr puts the node attributes in X, before the one-hot labels.
	NodeAttr bool
	// EdgeAttr puts the edge attributes in EdgeAttr, before the labels.
	EdgeAttr bool
}

// Len returns the number of graphs.
func (d *TUDataset) Len() int { return len(d.Y) }

// NumNodes returns the node count of graph i.
func (d *TUDataset) NumNodes(i int) int { return d.NodePtr[i+1] - d.NodePtr[i] }

// NumArcs returns the arc count of graph i (PyG's num_edges: both arcs of
// every undirected edge).
func (d *TUDataset) NumArcs(i int) int { return d.EdgePtr[i+1] - d.EdgePtr[i] }

// TotalNodes returns the node count of the whole dataset.
func (d *TUDataset) TotalNodes() int { return d.NodePtr[len(d.NodePtr)-1] }

// Graph returns graph i in its directed form (definitions §1.1): its arcs
// as PyG's edge_index holds them. Its undirected form is
// Graph(i).Undirected(). O(n_i + m_i log m_i).
func (d *TUDataset) Graph(i int) *linalg.Graph { return d.graph(i, true) }

// graph is graph i in the given form, built from its arcs (checked when
// read: no memory probe per graph, the dataset is in memory already).
func (d *TUDataset) graph(i int, directed bool) *linalg.Graph {
	g := linalg.NewGraph(d.NumNodes(i), directed)
	for k := d.EdgePtr[i]; k < d.EdgePtr[i+1]; k++ {
		g.AddEdge(d.Src[k], d.Dst[k])
	}
	return g
}

// Graphs returns every graph, undirected (the form rewiring uses: the
// arcs' pairs, as Graph(i).Undirected()) unless directed. Their lists are
// packed in a few shared blocks (linalg.CloneArena), each with room for
// more neighbours: fewer allocations than graph by graph, and a batch that
// rewires them in place (rewire.ManyOptions.InPlace) adds edges without
// allocating. O(total size).
func (d *TUDataset) Graphs(directed bool) []*linalg.Graph {
	gs := make([]*linalg.Graph, d.Len())
	var a linalg.CloneArena
	for i := range gs {
		gs[i] = a.Clone(d.graph(i, directed))
	}
	return gs
}

// ClassCounts returns how many graphs carry each class.
func (d *TUDataset) ClassCounts() []int {
	c := make([]int, d.NumClasses)
	for _, y := range d.Y {
		c[y]++
	}
	return c
}

// LoadTU reads the TU dataset name from rawDir (PyG's <root>/<name>/raw/:
// name_A.txt, name_graph_indicator.txt, name_graph_labels.txt and, when
// present, name_node_labels.txt, name_node_attributes.txt,
// name_edge_labels.txt, name_edge_attributes.txt) and builds it as PyG's
// TUDataset does (definitions §1.5). Malformed files give a *TUFormatError
// naming the file and line. O(size of the files).
func LoadTU(rawDir, name string, opt TUOptions) (*TUDataset, error) {
	path := func(part string) string { return tuFileName(rawDir, name, part) }
	has := func(part string) bool { _, err := os.Stat(path(part)); return err == nil }
	for _, part := range []string{"A", "graph_indicator", "graph_labels"} {
		if !has(part) {
			if part == "graph_labels" && has("graph_attributes") {
				return nil, fmt.Errorf("dataset: %s: graph attributes (a regression dataset) are not supported: ohm reads graph labels", path("graph_attributes"))
			}
			return nil, fmt.Errorf("dataset: %s: missing (a TU dataset needs %s_A.txt, %s_graph_indicator.txt and %s_graph_labels.txt)", path(part), name, name, name)
		}
	}
	r := &tuReader{}
	batch := r.ints(path("graph_indicator"), 1)
	arcs := r.ints(path("A"), 2)
	labels := r.ints(path("graph_labels"), 1)
	if r.err != nil {
		return nil, r.err
	}
	d := &TUDataset{Name: name}
	if err := d.setGraphs(path("graph_indicator"), batch, path("graph_labels"), labels); err != nil {
		return nil, err
	}
	if err := checkArcs(path("A"), arcs, batch.vals); err != nil {
		return nil, err
	}
	n, m := len(batch.vals), len(arcs.vals)/2
	var nodeAttr, nodeLab, edgeAttr, edgeLab tuColumns
	if has("node_attributes") {
		nodeAttr = r.floats(path("node_attributes"), n, "nodes")
	}
	if has("node_labels") {
		nodeLab = r.oneHot(path("node_labels"), n, "nodes")
	}
	if has("edge_attributes") {
		edgeAttr = r.floats(path("edge_attributes"), m, "arcs")
	}
	if has("edge_labels") {
		edgeLab = r.oneHot(path("edge_labels"), m, "arcs")
	}
	if r.err != nil {
		return nil, r.err
	}
	d.NumNodeAttributes, d.NumNodeLabels = nodeAttr.cols, nodeLab.cols
	d.NumEdgeAttributes, d.NumEdgeLabels = edgeAttr.cols, edgeLab.cols
	if !opt.NodeAttr {
		nodeAttr = tuColumns{}
	}
	if !opt.EdgeAttr {
		edgeAttr = tuColumns{}
	}
	d.X, d.NumFeatures = concatColumns(n, nodeAttr, nodeLab)
	if d.NumFeatures == 0 { // no node labels: the constant 1 (FoSR's, BORF's)
		d.X, d.NumFeatures = slices.Repeat([]float64{1}, n), 1
	}
	ea, eaCols := concatColumns(m, edgeAttr, edgeLab)
	return d, d.setArcs(path("A"), arcs, batch.vals, ea, eaCols)
}

// setGraphs checks the graph indicator (1-based, non-decreasing, every
// graph 1..G holding a node, G the graph labels' count) and sets NodePtr,
// Y and NumClasses.
func (d *TUDataset) setGraphs(indPath string, ind tuInts, labPath string, lab tuInts) error {
	g := len(lab.vals)
	d.NodePtr = make([]int, g+1)
	prev := 1
	for i, b := range ind.vals {
		switch {
		case b < 1 || b > g:
			return &TUFormatError{indPath, i + 1, fmt.Sprintf("graph %d out of range [1, %d] (%s has %d labels)", b, g, filepath.Base(labPath), g)}
		case b < prev:
			return &TUFormatError{indPath, i + 1, fmt.Sprintf("graph %d after graph %d: the indicator must be non-decreasing", b, prev)}
		case b > prev+1 || i == 0 && b > 1:
			return &TUFormatError{indPath, i + 1, fmt.Sprintf("graph %d has no node (graph %d follows graph %d)", b-1, b, prev)}
		}
		prev = b
		d.NodePtr[b]++
	}
	if len(ind.vals) == 0 || prev < g {
		return &TUFormatError{indPath, len(ind.vals) + 1, fmt.Sprintf("graph %d has no node (the file ends; %s has %d labels)", prev+1, filepath.Base(labPath), g)}
	}
	for i := range g {
		d.NodePtr[i+1] += d.NodePtr[i]
	}
	distinct := slices.Compact(slices.Sorted(slices.Values(lab.vals)))
	d.NumClasses = len(distinct)
	d.Y = make([]int, g)
	for i, y := range lab.vals {
		d.Y[i], _ = slices.BinarySearch(distinct, y)
	}
	return nil
}

// checkArcs checks the arcs: ids in range, both ends in one graph.
func checkArcs(path string, arcs tuInts, batch []int) error {
	n := len(batch)
	for k := range len(arcs.vals) / 2 {
		u, v := arcs.vals[2*k], arcs.vals[2*k+1]
		for _, id := range [2]int{u, v} {
			if id < 1 || id > n {
				return &TUFormatError{path, k + 1, fmt.Sprintf("node %d out of range [1, %d]", id, n)}
			}
		}
		if batch[u-1] != batch[v-1] {
			return &TUFormatError{path, k + 1, fmt.Sprintf("arc %d, %d joins graph %d and graph %d", u, v, batch[u-1], batch[v-1])}
		}
	}
	return nil
}

// setArcs drops the self-loops of the checked arcs, sorts and merges duplicates (summing their attribute rows)
// and stores them with per-graph ids, setting EdgePtr and EdgeAttr.
func (d *TUDataset) setArcs(path string, arcs tuInts, batch []int, attr []float64, cols int) error {
	n, m := len(batch), len(arcs.vals)/2
	order := make([]int, 0, m)
	for k := range m {
		if arcs.vals[2*k] != arcs.vals[2*k+1] {
			order = append(order, k)
		}
	}
	key := func(k int) int { return (arcs.vals[2*k]-1)*n + arcs.vals[2*k+1] - 1 }
	sort.SliceStable(order, func(a, b int) bool { return key(order[a]) < key(order[b]) })
	d.EdgePtr = make([]int, d.Len()+1)
	d.NumEdgeFeatures = cols
	for j, k := range order {
		if j > 0 && key(k) == key(order[j-1]) { // a duplicate: PyG's coalesce sums
			row := d.EdgeAttr[len(d.EdgeAttr)-cols:]
			for c := range cols {
				row[c] = float64(float32(row[c] + attr[k*cols+c]))
			}
			continue
		}
		u, v := arcs.vals[2*k]-1, arcs.vals[2*k+1]-1
		gr := batch[u] - 1
		d.Src = append(d.Src, u-d.NodePtr[gr])
		d.Dst = append(d.Dst, v-d.NodePtr[gr])
		d.EdgePtr[gr+1]++
		d.EdgeAttr = append(d.EdgeAttr, attr[k*cols:(k+1)*cols]...)
	}
	for i := range d.Len() {
		d.EdgePtr[i+1] += d.EdgePtr[i]
	}
	return nil
}

// TUFormatError is a malformed TU file: the file, the 1-based line and
// what is wrong there.
type TUFormatError struct {
	File   string
	Line   int
	Reason string
}

func (e *TUFormatError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason)
}

// IsTUFormatError reports whether err is (or wraps) a *TUFormatError.
func IsTUFormatError(err error) bool {
	var fe *TUFormatError
	return errors.As(err, &fe)
}
