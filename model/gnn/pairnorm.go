package gnn

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// PairNorm is the normalisation of Zhao & Akoglu in the paper's form
// (SPEC §4):
//
//	H' = s·(H − H̄) / σ,   σ = √((1/n²) Σ_ij ‖h_i − h_j‖²) = √((2/n) Σ_i ‖h_i − h̄‖²)
//
// where H̄ repeats the column mean h̄ in every row. PyG's PairNorm divides by
// √(ε + (1/n) Σ_i ‖h_i − h̄‖²) instead, i.e. it equals this one with scale
// s·√2 (up to its ε). When all rows are equal (σ = 0) the output is zero and
// Backward passes no gradient; no ε is added otherwise. Forward and Backward
// cost O(n·m) for an n×m input; the matrices returned belong to the PairNorm
// and are overwritten by its next call.
type PairNorm struct {
	// Scale is s (1 by default in SPEC §4).
	Scale float64

	y, dx *mat.Dense
	sigma float64
	mean  []float64
}

// NewPairNorm returns a PairNorm with scale s.
func NewPairNorm(s float64) *PairNorm { return &PairNorm{Scale: s} }

// Forward returns s·(x − x̄)/σ.
func (p *PairNorm) Forward(x *mat.Dense) *mat.Dense {
	x = contiguous(x)
	n, m := x.Dims()
	p.y = ensure(p.y, n, m)
	xs, y := rawDense(x), rawDense(p.y)
	mean := p.colMeans(m)
	colSums(mean, xs, n, m)
	for k := range mean {
		mean[k] /= float64(n)
	}
	var ss float64
	for i := range n {
		yi, xi := y[i*m:(i+1)*m], xs[i*m:(i+1)*m]
		for k := range yi {
			c := xi[k] - mean[k]
			yi[k] = c
			ss += c * c
		}
	}
	p.sigma = math.Sqrt(2 * ss / float64(n))
	f := 0.0
	if p.sigma > 0 {
		f = p.Scale / p.sigma
	}
	for k := range y {
		y[k] *= f
	}
	return p.y
}

// colMeans returns a buffer of length m.
func (p *PairNorm) colMeans(m int) []float64 {
	if len(p.mean) != m {
		p.mean = make([]float64, m)
	}
	return p.mean
}

// Backward returns dL/dx for dL/dy = dy of the last Forward. With c = x − x̄
// and y = s·c/σ:
//
//	dL/dc = (s/σ)·(dy − (2/(n·s²))·⟨dy, y⟩·y),   dL/dx = dL/dc − column means of dL/dc.
func (p *PairNorm) Backward(dy *mat.Dense) *mat.Dense {
	n, m := p.y.Dims()
	p.dx = ensure(p.dx, n, m)
	dx, y, g := rawDense(p.dx), rawDense(p.y), rawDense(contiguous(dy))
	if p.sigma == 0 || p.Scale == 0 {
		clear(dx)
		return p.dx
	}
	a := p.Scale / p.sigma
	b := 2 * dot(g, y) / (float64(n) * p.Scale * p.Scale)
	for k := range dx {
		dx[k] = a * (g[k] - b*y[k])
	}
	mean := p.colMeans(m)
	colSums(mean, dx, n, m)
	for k := range mean {
		mean[k] /= float64(n)
	}
	for i := range n {
		axpy(dx[i*m:(i+1)*m], -1, mean)
	}
	return p.dx
}
