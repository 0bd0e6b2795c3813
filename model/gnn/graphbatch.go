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
	return d.fillBatch(&Batch{}, graphs)
}

// fillBatch collates graphs into b, reusing the storage of b's slices (a
// trainer's training batch, collated afresh for every batch of every
// epoch), and returns b. The previous contents of b are lost.
// O(nodes·F + arcs).
func (d *GraphData) fillBatch(b *Batch, graphs []int) *Batch {
	s := d.Set
	b.Graphs = graphs
	b.Ptr = resize(b.Ptr, len(graphs)+1)
	b.Labels = resize(b.Labels, len(graphs))
	b.Ptr[0] = 0
	for i, g := range graphs {
		b.Ptr[i+1] = b.Ptr[i] + s.Graphs[g].N
		b.Labels[i] = s.Graphs[g].Label
	}
	n := b.N()
	var x []float64
	if b.X != nil {
		x = b.X.RawMatrix().Data[:0]
	}
	for _, g := range graphs {
		x = append(x, s.Graphs[g].X...)
	}
	b.X = nil
	if n > 0 {
		b.X = mat.NewDense(n, s.Features, x)
	}
	b.Op, b.OpT = resizeCSR(b.Op, len(d.ops)), resizeCSR(b.OpT, len(d.ops))
	for k := range d.ops {
		b.Op[k] = blockDiag(b.Op[k], d.op, graphs, k, n)
		b.OpT[k] = blockDiag(b.OpT[k], d.opT, graphs, k, n)
	}
	return b
}

// resize returns s with length n, reusing its storage when it can.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// resizeCSR returns s with length n, its existing entries kept.
func resizeCSR(s []*sparse.CSR, n int) []*sparse.CSR {
	for len(s) < n {
		s = append(s, nil)
	}
	return s[:n]
}

// blockDiag returns the n×n block-diagonal CSR matrix of ops[g][k] for g in
// graphs, in order, on the storage of old when it is not nil. O(n + nnz).
func blockDiag(old *sparse.CSR, ops [][]*sparse.CSR, graphs []int, k, n int) *sparse.CSR {
	nnz := 0
	for _, g := range graphs {
		nnz += ops[g][k].NNZ()
	}
	var ia, ja []int
	var data []float64
	if old != nil {
		r := old.RawMatrix()
		ia, ja, data = r.Indptr[:0], r.Ind[:0], r.Data[:0]
	}
	if cap(ia) < n+1 {
		ia = make([]int, 0, n+1)
	}
	if cap(ja) < nnz {
		ja, data = make([]int, 0, nnz), make([]float64, 0, nnz)
	}
	ia = append(ia, 0)
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
