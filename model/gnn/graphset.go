package gnn

import (
	"fmt"
	"math"
	"slices"

	"github.com/james-bowman/sparse"

	"github.com/ohmgnn/ohm/model/dataset"
)

// NumRelations is the number of edge types the relational layers (R-GCN,
// R-GIN) distinguish: 0 for an arc of the original graph, 1 for an arc a
// rewiring added (definitions §4.4), as FoSR's code passes edge_type.
const NumRelations = 2

// GraphItem is one graph of a graph-classification dataset.
type GraphItem struct {
	// N is the number of nodes.
	N int
	// X holds the N×F node features, row-major.
	X []float64
	// Src and Dst are the arcs, PyG's edge_index (both arcs of every
	// undirected edge): messages flow from Src[k] to Dst[k].
	Src, Dst []int
	// Type is the relation of every arc (0 original, 1 added); nil means
	// all 0.
	Type []int
	// Label is the graph's class.
	Label int
}

// GraphSet is a graph-classification dataset prepared for training: read-only
// once built and shared by concurrent runs.
type GraphSet struct {
	Name     string
	Features int // F, the width of every graph's X
	Classes  int // C
	Graphs   []GraphItem
}

// Validate reports the first problem of s: no graphs, fewer than two classes,
// a label, arc or relation out of range, or features of the wrong size.
// O(total nodes·F + arcs).
func (s *GraphSet) Validate() error {
	switch {
	case len(s.Graphs) == 0:
		return fmt.Errorf("gnn: dataset %s has no graphs", s.Name)
	case s.Features < 1:
		return fmt.Errorf("gnn: dataset %s has no feature columns", s.Name)
	case s.Classes < 2:
		return fmt.Errorf("gnn: dataset %s has %d class(es): graph classification needs at least 2", s.Name, s.Classes)
	}
	seen := make([]bool, s.Classes)
	for gi, g := range s.Graphs {
		if g.Label < 0 || g.Label >= s.Classes {
			return fmt.Errorf("gnn: dataset %s: graph %d has label %d outside [0, %d)", s.Name, gi, g.Label, s.Classes)
		}
		seen[g.Label] = true
		if len(g.X) != g.N*s.Features {
			return fmt.Errorf("gnn: dataset %s: graph %d has %d feature values for %d nodes × %d features", s.Name, gi, len(g.X), g.N, s.Features)
		}
		if len(g.Src) != len(g.Dst) || (g.Type != nil && len(g.Type) != len(g.Src)) {
			return fmt.Errorf("gnn: dataset %s: graph %d: arc arrays of different lengths", s.Name, gi)
		}
		for k := range g.Src {
			if u, v := g.Src[k], g.Dst[k]; u < 0 || u >= g.N || v < 0 || v >= g.N {
				return fmt.Errorf("gnn: dataset %s: graph %d: arc %d→%d outside [0, %d)", s.Name, gi, u, v, g.N)
			}
			if g.Type != nil && (g.Type[k] < 0 || g.Type[k] >= NumRelations) {
				return fmt.Errorf("gnn: dataset %s: graph %d: arc %d has relation %d outside [0, %d)", s.Name, gi, k, g.Type[k], NumRelations)
			}
		}
	}
	for c, ok := range seen {
		if !ok {
			return fmt.Errorf("gnn: dataset %s: no graph has class %d of %d: graph classification needs every class present", s.Name, c, s.Classes)
		}
	}
	return nil
}

// opKind names one sparse operator a graph layer propagates with.
type opKind int

const (
	opNorm  opKind = iota // GCN's Â = D̃^{-1/2}(A+I)D̃^{-1/2}, every arc
	opSumI                // GIN's A + I, every arc
	opMean0               // R-GCN's mean over relation 0's in-arcs
	opMean1               // … relation 1
	opSumI0               // R-GIN's A_0 + I
	opSumI1               // R-GIN's A_1 + I
	numOps
)

// opsOf returns the operators a layer kind propagates with.
func opsOf(k GraphKind) []opKind {
	switch k {
	case GraphGCN:
		return []opKind{opNorm}
	case GraphGIN:
		return []opKind{opSumI}
	case GraphRGCN:
		return []opKind{opMean0, opMean1}
	case GraphRGIN:
		return []opKind{opSumI0, opSumI1}
	}
	panic("gnn: unknown graph model kind")
}

// graphOperator returns operator k of g as an N×N CSR matrix whose row i
// aggregates the arcs into i, in PyG's message direction (Src → Dst):
//
//   - opNorm: gcn_norm with add_remaining_self_loops: (A+I)_ij counts the
//     arcs j→i (a duplicate arc twice), every node gets exactly one
//     self-loop of weight 1 (existing ones are replaced), d_i is row i's
//     sum (the in-degree), entry (i, j) times d_i^{-1/2}·d_j^{-1/2};
//   - opSumI: the arc counts plus 1 on the diagonal (GINConv, eps 0: an
//     existing self-loop makes the diagonal 2);
//   - opMean0/1: the arcs of that relation, row i divided by its count
//     (RGCNConv's mean aggregation; an empty row stays empty);
//   - opSumI0/1: the arcs of that relation plus the identity.
//
// Column indices are sorted and unique. O(N + arcs·log).
func graphOperator(g *GraphItem, k opKind) *sparse.CSR {
	rel := -1
	switch k {
	case opMean0, opSumI0:
		rel = 0
	case opMean1, opSumI1:
		rel = 1
	}
	cnt := make([]map[int]float64, g.N)
	for i := range cnt {
		cnt[i] = map[int]float64{}
	}
	for a := range g.Src {
		t := 0
		if g.Type != nil {
			t = g.Type[a]
		}
		if rel >= 0 && t != rel {
			continue
		}
		cnt[g.Dst[a]][g.Src[a]]++
	}
	switch k {
	case opNorm:
		for i := range cnt {
			cnt[i][i] = 1 // existing loops are replaced by one of weight 1
		}
	case opSumI, opSumI0, opSumI1:
		for i := range cnt {
			cnt[i][i]++
		}
	}
	deg := make([]float64, g.N)
	for i, row := range cnt {
		for _, w := range row {
			deg[i] += w
		}
	}
	ia := make([]int, g.N+1)
	var ja []int
	var data []float64
	for i, row := range cnt {
		cols := make([]int, 0, len(row))
		for j := range row {
			cols = append(cols, j)
		}
		slices.Sort(cols)
		for _, j := range cols {
			w := row[j]
			switch k {
			case opNorm:
				w = w * (1 / math.Sqrt(deg[j])) * (1 / math.Sqrt(deg[i]))
			case opMean0, opMean1:
				w /= deg[i]
			}
			ja, data = append(ja, j), append(data, w)
		}
		ia[i+1] = len(ja)
	}
	return sparse.NewCSR(g.N, g.N, ia, ja, data)
}

// NewGraphSet returns the graphs of the TU dataset d with their features,
// arcs, relations (d.EdgeType: 1 for an arc a rewiring added; all 0 when d
// has none) and classes. The slices are d's, shared. O(graphs).
func NewGraphSet(d *dataset.TUDataset) *GraphSet {
	s := &GraphSet{Name: d.Name, Features: d.NumFeatures, Classes: d.NumClasses, Graphs: make([]GraphItem, d.Len())}
	for i := range s.Graphs {
		lo, hi := d.EdgePtr[i], d.EdgePtr[i+1]
		s.Graphs[i] = GraphItem{N: d.NumNodes(i), X: d.X[d.NodePtr[i]*d.NumFeatures : d.NodePtr[i+1]*d.NumFeatures],
			Src: d.Src[lo:hi:hi], Dst: d.Dst[lo:hi:hi], Label: d.Y[i]}
		if len(d.EdgeType) == len(d.Src) && len(d.Src) > 0 {
			s.Graphs[i].Type = d.EdgeType[lo:hi:hi]
		}
	}
	return s
}
