package dataset

import (
	"github.com/ohmgnn/ohm/incremental/tarjan"
)

// TUStats describes a graph-classification dataset: sizes over its graphs,
// classes, and the graphs and nodes rewiring has rules for (definitions
// §3.8).
type TUStats struct {
	Graphs int `json:"graphs"`
	// Nodes and Edges spread over the graphs; Edges counts undirected
	// edges (E0 of the undirected form, §1.1), Arcs PyG's edge_index
	// columns.
	Nodes          SizeSpread `json:"nodes"`
	Edges          SizeSpread `json:"edges"`
	TotalNodes     int        `json:"total_nodes"`
	TotalArcs      int        `json:"total_arcs"`
	Features       int        `json:"features"`
	EdgeFeatures   int        `json:"edge_features"`
	Classes        int        `json:"classes"`
	ClassCounts    []int      `json:"class_counts"`
	Disconnected   int        `json:"disconnected_graphs"` // graphs of more than one component
	IsolatedNodes  int        `json:"isolated_nodes"`      // nodes without a neighbour, all graphs
	NoEdgeGraphs   int        `json:"no_edge_graphs"`
	OneNodeGraphs  int        `json:"one_node_graphs"`
	AddedArcs      int        `json:"added_arcs"` // arcs of edge_type 1 (a rewired archive)
	IsolatedGraphs int        `json:"graphs_with_isolated_nodes"`
}

// SizeSpread is the least, mean and largest of a size over the graphs.
type SizeSpread struct {
	Min  int     `json:"min"`
	Mean float64 `json:"mean"`
	Max  int     `json:"max"`
}

// Stats describes d. O(total size).
func (d *TUDataset) Stats() TUStats {
	s := TUStats{Graphs: d.Len(), TotalNodes: d.TotalNodes(), TotalArcs: len(d.Src), Features: d.NumFeatures,
		EdgeFeatures: d.NumEdgeFeatures, Classes: d.NumClasses, ClassCounts: d.ClassCounts()}
	nodes, edges := make([]int, d.Len()), make([]int, d.Len())
	for i := range d.Len() {
		g := d.graph(i, false)
		nodes[i], edges[i] = g.N(), g.E0()
		_, count := tarjan.SCC(g)
		if count > 1 {
			s.Disconnected++
		}
		iso := 0
		for u := range g.N() {
			if len(g.Neighbours(u)) == 0 {
				iso++
			}
		}
		s.IsolatedNodes += iso
		if iso > 0 {
			s.IsolatedGraphs++
		}
		if g.E0() == 0 {
			s.NoEdgeGraphs++
		}
		if g.N() == 1 {
			s.OneNodeGraphs++
		}
	}
	for _, t := range d.EdgeType {
		s.AddedArcs += t
	}
	s.Nodes, s.Edges = sizeSpread(nodes), sizeSpread(edges)
	return s
}

func sizeSpread(v []int) SizeSpread {
	if len(v) == 0 {
		return SizeSpread{}
	}
	s := SizeSpread{Min: v[0], Max: v[0]}
	sum := 0
	for _, x := range v {
		s.Min, s.Max = min(s.Min, x), max(s.Max, x)
		sum += x
	}
	s.Mean = float64(sum) / float64(len(v))
	return s
}

// CheckFill reports a fill for added arcs' edge_attr (Rewired) that does
// not fit d: more than one value but not one per column, or any value when
// d has no edge features.
func (d *TUDataset) CheckFill(fill []float64) error {
	if len(fill) > 0 && d.NumEdgeFeatures == 0 {
		return errNoEdgeAttr(d.Name)
	}
	_, err := fillRow(fill, d.NumEdgeFeatures)
	return err
}
