package gnn

import (
	"math"
	"sync"

	"github.com/james-bowman/sparse"

	"github.com/ohmgnn/ohm/linalg"
)

// Operators are the sparse propagation matrices that a model of one Kind
// needs on one graph. They are read-only once built and may be shared by any
// number of concurrent runs and layers.
type Operators struct {
	// Kind is the model kind the operators were built for.
	Kind Kind
	// N is the number of nodes.
	N int
	// Norm is GCN's Â (nil for DirGCN).
	Norm *sparse.CSR
	// In and Out are DirGCN's D_in⁻¹A_in and D_out⁻¹A_out (nil for GCN).
	In, Out *sparse.CSR

	tOnce            sync.Once
	normT, inT, outT *sparse.CSR // transposes for the backward gathers
}

// transposes returns Âᵀ (GCN) or the transposes of In and Out (DirGCN),
// built on the first call (transposeCSR, O(n + nnz)) and shared by every
// layer and run on these operators; safe for concurrent use.
func (o *Operators) transposes() (normT, inT, outT *sparse.CSR) {
	o.tOnce.Do(func() {
		if o.Norm != nil {
			o.normT = transposeCSR(o.Norm)
		}
		if o.In != nil {
			o.inT = transposeCSR(o.In)
		}
		if o.Out != nil {
			o.outT = transposeCSR(o.Out)
		}
	})
	return o.normT, o.inT, o.outT
}

// NewOperators builds the operators of kind k on g: Â = GCNOperator(g) for
// GCN, DirOperators(g) for DirGCN. O(n + m) (plus O(m) hashing when GCN
// symmetrizes a directed g).
func NewOperators(g *linalg.Graph, k Kind) *Operators {
	ops := &Operators{Kind: k, N: g.N()}
	switch k {
	case GCN:
		ops.Norm = GCNOperator(g)
	case DirGCN:
		ops.In, ops.Out = DirOperators(g)
	default:
		panic("gnn: unknown model kind")
	}
	return ops
}

// GCNOperator returns Â = D̃^{-1/2}(A+I)D̃^{-1/2} of the undirected form of g
// (a directed g is symmetrized first, definitions §4) as an n×n CSR matrix with
// sorted, unique column indices.
//
// Self-loops follow PyG's gcn_norm, which calls add_remaining_self_loops:
// every node gets exactly one self-loop of weight 1, added only where none
// exists, so an existing self-loop is not doubled. Hence (A+I)_ii = 1 for
// every node whether or not the graph has a loop there, and
// d̃_i = (number of neighbours of i other than i) + 1 ≥ 1. O(n + m).
func GCNOperator(g *linalg.Graph) *sparse.CSR {
	if g.Directed() {
		g = g.Undirected()
	}
	n := g.N()
	inv := make([]float64, n) // d̃_i^{-1/2}
	nnz := n
	for i := range n {
		d := len(g.Out(i)) + 1
		inv[i] = 1 / math.Sqrt(float64(d))
		nnz += d - 1
	}
	ia := make([]int, n+1)
	ja := make([]int, 0, nnz)
	data := make([]float64, 0, nnz)
	for i := range n {
		placed := false
		for _, j := range g.Out(i) {
			if !placed && j > i {
				ja, data = append(ja, i), append(data, inv[i]*inv[i])
				placed = true
			}
			ja, data = append(ja, j), append(data, inv[i]*inv[j])
		}
		if !placed {
			ja, data = append(ja, i), append(data, inv[i]*inv[i])
		}
		ia[i+1] = len(ja)
	}
	return sparse.NewCSR(n, n, ia, ja, data)
}

// DirOperators returns DirGCN's row-normalised in- and out-operators on the
// arcs of g: in = D_in⁻¹A_in with (A_in)_ij = 1 iff j→i, and out = D_out⁻¹A_out
// with (A_out)_ij = 1 iff i→j. A self-loop i→i is an arc like any other (PyG's
// edge_index holds it), so it appears in both and counts in both degrees. A
// row of zero degree is empty and contributes zero. For an undirected g the
// arc set is symmetric (both arcs of every edge), so in = out = D⁻¹A. Column
// indices are sorted and unique. O(n + m).
func DirOperators(g *linalg.Graph) (in, out *sparse.CSR) {
	return rowNormalised(g, g.In), rowNormalised(g, g.Out)
}

// rowNormalised returns the CSR matrix whose row i holds 1/|S_i| at the
// columns S_i = nb(i) ∪ {i if i has a self-loop}.
func rowNormalised(g *linalg.Graph, nb func(int) []int) *sparse.CSR {
	n := g.N()
	ia := make([]int, n+1)
	var ja []int
	for i := range n {
		loop := g.HasSelfLoop(i)
		for _, j := range nb(i) {
			if loop && j > i {
				ja = append(ja, i)
				loop = false
			}
			ja = append(ja, j)
		}
		if loop {
			ja = append(ja, i)
		}
		ia[i+1] = len(ja)
	}
	data := make([]float64, len(ja))
	for i := range n {
		if d := ia[i+1] - ia[i]; d > 0 {
			w := 1 / float64(d)
			for q := ia[i]; q < ia[i+1]; q++ {
				data[q] = w
			}
		}
	}
	return sparse.NewCSR(n, n, ia, ja, data)
}

// RowNormalize returns a copy of the features x with every row divided by
// its sum, as PyG's NormalizeFeatures does for non-negative features; a row
// whose sum is zero (in particular an all-zero row) is left as it is. The
// sparsity pattern is kept (index arrays are copied). O(nnz).
func RowNormalize(x *sparse.CSR) *sparse.CSR {
	raw := x.RawMatrix()
	ia := append([]int(nil), raw.Indptr...)
	ja := append([]int(nil), raw.Ind...)
	data := append([]float64(nil), raw.Data...)
	for i := range raw.I {
		var s float64
		for q := ia[i]; q < ia[i+1]; q++ {
			s += data[q]
		}
		if s != 0 {
			for q := ia[i]; q < ia[i+1]; q++ {
				data[q] /= s
			}
		}
	}
	return sparse.NewCSR(raw.I, raw.J, ia, ja, data)
}
