package gnn

import (
	"fmt"
	"math/rand/v2"

	"github.com/james-bowman/sparse"
	"gonum.org/v1/gonum/mat"
)

// Conv is a graph-convolution layer with a hand-written backward pass.
//
// Forward takes an n×in input, dense (*mat.Dense) or sparse (*sparse.CSR,
// the first layer's features), caches what Backward needs and returns the
// n×out output; the returned matrix belongs to the layer and is overwritten
// by the next Forward. Backward takes dL/d(output) of the last Forward, sets
// the Grad of every parameter and returns dL/d(input) when needInput is true
// (nil otherwise, and always nil for a sparse input); the returned matrix
// belongs to the layer.
type Conv interface {
	Forward(x mat.Matrix) *mat.Dense
	Backward(dy *mat.Dense, needInput bool) *mat.Dense
	Params() []*Param
	// Dims returns the input and output widths.
	Dims() (in, out int)
}

// GCNLayer is the GCN layer of definitions §4: H' = Â·H·W + b, computed as Â·(H·W)
// (PyG's order: the product is taken at the narrower width when out ≤ in).
// W is in×out (Glorot-uniform), b is 1×out (zero).
//
// Cost per Forward: O(nnz(H)·out) for H·W (nnz(H) = n·in for a dense H,
// zeros skipped) plus O(nnz(Â)·out). Backward costs the same plus
// O(n·in·out) for dL/dH.
type GCNLayer struct {
	A *sparse.CSR // Â (n×n), shared
	W *Param      // in×out weight
	B *Param      // 1×out bias

	at      *sparse.CSR // Âᵀ (transposeCSR), for the backward gather; shared
	in, out int
	x       mat.Matrix // cached input
	m, z    *mat.Dense // H·W and the output
	dm, dx  *mat.Dense
	ws      scratch
	team    *team // nil: the caller's goroutine (a graph model's team)
}

// newGCNLayer returns a GCN layer over the operator Â (see GCNOperator)
// and its transpose at (shared by a Model's layers) with in inputs and out
// outputs, its weights drawn from rng. Parameter names start with prefix.
func newGCNLayer(a, at *sparse.CSR, in, out int, rng *rand.Rand, prefix string) *GCNLayer {
	l := &GCNLayer{A: a, at: at, in: in, out: out,
		W: newParam(prefix+".weight", in, out), B: newParam(prefix+".bias", 1, out)}
	glorot(rawDense(l.W.Value), in, out, rng)
	return l
}

// Dims returns the input and output widths.
func (l *GCNLayer) Dims() (in, out int) { return l.in, l.out }

// Params returns W and b.
func (l *GCNLayer) Params() []*Param { return []*Param{l.W, l.B} }

// Forward returns Â·(x·W) + b.
func (l *GCNLayer) Forward(x mat.Matrix) *mat.Dense {
	n := checkInput(x, l.A, l.in)
	l.x = x
	l.m = ensure(l.m, n, l.out)
	l.z = ensure(l.z, n, l.out)
	m, z := rawDense(l.m), rawDense(l.z)
	if xd, ok := x.(*mat.Dense); ok && l.team != nil {
		xd = contiguous(xd)
		l.team.mulNN(m, rawDense(xd), rawDense(l.W.Value), n, l.in, l.out, &l.ws)
	} else {
		mulInput(m, x, rawDense(l.W.Value), l.out, &l.ws)
	}
	l.team.csrMul(whole(z, l.out), l.A.RawMatrix(), whole(m, l.out), l.out, false, rawDense(l.B.Value))
	return l.z
}

// Backward sets dW = xᵀ·(Âᵀ·dy) and db = 1ᵀ·dy, and returns
// dx = (Âᵀ·dy)·Wᵀ when needInput and x was dense.
func (l *GCNLayer) Backward(dy *mat.Dense, needInput bool) *mat.Dense {
	n, _ := l.z.Dims()
	g := rawDense(contiguous(dy))
	l.dm = ensure(l.dm, n, l.out)
	dm := rawDense(l.dm)
	l.team.spmmTBy(whole(dm, l.out), l.A.RawMatrix(), l.at.RawMatrix(), whole(g, l.out), l.out, &l.ws)
	l.team.colSums(rawDense(l.B.Grad), g, n, l.out)
	if xd, ok := l.x.(*mat.Dense); ok && l.team != nil {
		xd = contiguous(xd)
		l.team.mulTN(rawDense(l.W.Grad), rawDense(xd), dm, n, l.in, l.out, &l.ws)
	} else {
		inputGradW(rawDense(l.W.Grad), l.x, dm, l.out, &l.ws)
	}
	if !needInput {
		return nil
	}
	if _, ok := l.x.(*mat.Dense); !ok {
		return nil
	}
	l.dx = ensure(l.dx, n, l.in)
	l.team.mulNT(rawDense(l.dx), dm, rawDense(l.W.Value), n, l.in, l.out, &l.ws)
	return l.dx
}

// checkInput panics unless x is a dense or CSR matrix with as many rows as
// the n×n operator a and width in; it returns n.
func checkInput(x mat.Matrix, a *sparse.CSR, in int) int {
	n, _ := a.Dims()
	r, c := x.Dims()
	if r != n || c != in {
		panic(fmt.Sprintf("gnn: input is %d×%d, layer wants %d×%d", r, c, n, in))
	}
	switch x.(type) {
	case *mat.Dense, *sparse.CSR:
	default:
		panic(fmt.Sprintf("gnn: unsupported input type %T", x))
	}
	return n
}

// mulInput sets dst = x·w for a dense or CSR x (n×k) and a row-major w (k×m).
// O(nnz(x)·m).
func mulInput(dst []float64, x mat.Matrix, w []float64, m int, s *scratch) {
	switch x := x.(type) {
	case *sparse.CSR:
		csrMul(whole(dst, m), x.RawMatrix(), whole(w, m), m, false, nil)
	case *mat.Dense:
		x = contiguous(x)
		n, k := x.Dims()
		mulNN(dst, rawDense(x), w, n, k, m, s)
	}
}

// inputGradW sets dw = xᵀ·g for a dense or CSR x (n×k) and a row-major g
// (n×m). O(nnz(x)·m).
func inputGradW(dw []float64, x mat.Matrix, g []float64, m int, s *scratch) {
	switch x := x.(type) {
	case *sparse.CSR:
		spmmT(whole(dw, m), x.RawMatrix(), whole(g, m), m)
	case *mat.Dense:
		x = contiguous(x)
		n, k := x.Dims()
		mulTN(dw, rawDense(x), g, n, k, m, s)
	}
}
