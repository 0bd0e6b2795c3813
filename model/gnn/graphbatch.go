package gnn

import (
	"github.com/james-bowman/sparse"
	"gonum.org/v1/gonum/mat"
)

// GraphData is a GraphSet with every graph's operators for one GraphKind,
// built once and shared read-only by concurrent runs.
type GraphData struct {
	Set  *GraphSet
	Kind GraphKind

	ops []opKind
	op  [][]*sparse.CSR // op[g][k]: operator ops[k] of graph g
	opT [][]*sparse.CSR // their transposes
}

// NewGraphData validates s and builds the operators that models of kind k
// need on every graph. O(total nodes + arcs·log).
func NewGraphData(s *GraphSet, k GraphKind) (*GraphData, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	d := &GraphData{Set: s, Kind: k, ops: opsOf(k)}
	d.op = make([][]*sparse.CSR, len(s.Graphs))
	d.opT = make([][]*sparse.CSR, len(s.Graphs))
	for gi := range s.Graphs {
		for _, o := range d.ops {
			a := graphOperator(&s.Graphs[gi], o)
			d.op[gi] = append(d.op[gi], a)
			d.opT[gi] = append(d.opT[gi], transposeCSR(a))
		}
	}
	return d, nil
}

// Batch is a mini-batch of graphs as one disjoint union: their nodes
// stacked in batch order, every operator block-diagonal.
type Batch struct {
	Graphs []int      // indices into the GraphSet, in batch order
	Ptr    []int      // graph b's nodes are rows Ptr[b] … Ptr[b+1]−1
	X      *mat.Dense // stacked features, (total nodes)×F
	Labels []int      // Labels[b] is graph b's class
	Op     []*sparse.CSR
	OpT    []*sparse.CSR
}

// N returns the number of nodes in the batch.
func (b *Batch) N() int { return b.Ptr[len(b.Ptr)-1] }

// NewBatch collates the given graphs of d into one batch (PyG's Batch:
// nodes renumbered by offsets, operators block-diagonal). O(nodes·F + arcs).
func (d *GraphData) NewBatch(graphs []int) *Batch {
	s := d.Set
	b := &Batch{Graphs: graphs, Ptr: make([]int, len(graphs)+1), Labels: make([]int, len(graphs))}
	for i, g := range graphs {
		b.Ptr[i+1] = b.Ptr[i] + s.Graphs[g].N
		b.Labels[i] = s.Graphs[g].Label
	}
	n := b.N()
	x := make([]float64, 0, n*s.Features)
	for _, g := range graphs {
		x = append(x, s.Graphs[g].X...)
	}
	if n > 0 {
		b.X = mat.NewDense(n, s.Features, x)
	}
	for k := range d.ops {
		b.Op = append(b.Op, blockDiag(d.op, graphs, k, n))
		b.OpT = append(b.OpT, blockDiag(d.opT, graphs, k, n))
	}
	return b
}

// blockDiag returns the n×n block-diagonal CSR matrix of ops[g][k] for g in
// graphs, in order. O(n + nnz).
func blockDiag(ops [][]*sparse.CSR, graphs []int, k, n int) *sparse.CSR {
	nnz := 0
	for _, g := range graphs {
		nnz += ops[g][k].NNZ()
	}
	ia := make([]int, 1, n+1)
	ja := make([]int, 0, nnz)
	data := make([]float64, 0, nnz)
	off := 0
	for _, g := range graphs {
		r := ops[g][k].RawMatrix()
		base := len(ja)
		for i := range r.I {
			ia = append(ia, base+r.Indptr[i+1])
		}
		for _, j := range r.Ind[:r.Indptr[r.I]] {
			ja = append(ja, j+off)
		}
		data = append(data, r.Data[:r.Indptr[r.I]]...)
		off += r.I
	}
	return sparse.NewCSR(n, n, ia, ja, data)
}
