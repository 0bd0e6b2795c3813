package gnn

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// PairNorm is the normalisation of Zhao & Akoglu in the paper's form
// (definitions §4):
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
	// Scale is s (1 by default in definitions §4).
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
	sigma := []float64{0}
	pairNormForward(rawDense(p.y), rawDense(x), n, m, p.Scale, sigma, p.colMeans(m))
	p.sigma = sigma[0]
	return p.y
}

// pairNormForward sets y to s·(x − x̄)/σ for each of the S = len(sigma)
// runs of x (n×m each, side by side, see mulNNb) and sets sigma[r] to run
// r's σ; mean is an S·m work buffer. Each run sees the operations, in the
// order, of S = 1. O(S·n·m).
func pairNormForward(y, x []float64, n, m int, scale float64, sigma, mean []float64) {
	S := len(sigma)
	clear(mean[:S*m])
	for r := range S {
		sumRows(mean[r*m:(r+1)*m], strided{x, S * m, r * m}, n, m)
	}
	for k := range mean[:S*m] {
		mean[k] /= float64(n)
	}
	clear(sigma)
	ss := sigma // Σ c² per run, turned into σ below
	for i := range n {
		for r := range S {
			yi, xi, mr := y[(i*S+r)*m:(i*S+r+1)*m], x[(i*S+r)*m:(i*S+r+1)*m], mean[r*m:(r+1)*m]
			acc := ss[r]
			for k := range yi {
				c := xi[k] - mr[k]
				yi[k] = c
				acc += c * c
			}
			ss[r] = acc
		}
	}
	f := mean[:S] // reused: the runs' factors s/σ (the means are no longer needed)
	for r := range S {
		sigma[r] = math.Sqrt(2 * ss[r] / float64(n))
		f[r] = 0
		if sigma[r] > 0 {
			f[r] = scale / sigma[r]
		}
	}
	if S == 1 {
		scaleAll(y[:n*m], f[0])
		return
	}
	for i := range n {
		for r := range S {
			yi, fr := y[(i*S+r)*m:(i*S+r+1)*m], f[r]
			for k := range yi {
				yi[k] *= fr
			}
		}
	}
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
	pairNormBackward(rawDense(p.dx), rawDense(contiguous(dy)), rawDense(p.y), n, m, p.Scale,
		[]float64{p.sigma}, p.colMeans(m), []float64{0})
	return p.dx
}

// pairNormBackward sets dx to dL/dx for dL/dy = g and the output y of a
// forward pass with the given scale, for each of the S = len(sigma) runs
// side by side (σ per run); mean (S·m) and gy (S) are work buffers. Each
// run sees the operations, in the order, of S = 1. O(S·n·m).
func pairNormBackward(dx, g, y []float64, n, m int, scale float64, sigma, mean, gy []float64) {
	S := len(sigma)
	clear(gy[:S])
	for i := range n {
		for r := range S {
			gi, yi := g[(i*S+r)*m:(i*S+r+1)*m], y[(i*S+r)*m:(i*S+r+1)*m]
			acc := gy[r] // ⟨g, y⟩ summed in row-major order
			for k := range gi {
				acc += gi[k] * yi[k]
			}
			gy[r] = acc
		}
	}
	clear(mean[:S*m])
	for i := range n {
		for r := range S {
			di, gi, yi := dx[(i*S+r)*m:(i*S+r+1)*m], g[(i*S+r)*m:(i*S+r+1)*m], y[(i*S+r)*m:(i*S+r+1)*m]
			if sigma[r] == 0 || scale == 0 {
				clear(di)
				continue
			}
			a := scale / sigma[r]
			b := 2 * gy[r] / (float64(n) * scale * scale)
			for k := range di {
				di[k] = a * (gi[k] - b*yi[k])
			}
		}
	}
	for r := range S {
		if sigma[r] == 0 || scale == 0 {
			continue
		}
		// The column means, rows in order; then dx − mean as dx + (−mean)
		// (axpy(row, −1, mean) rounds the same: (−1)·mean is exact).
		mr := mean[r*m : (r+1)*m]
		sumRows(mr, strided{dx, S * m, r * m}, n, m)
		for k := range mr {
			mr[k] = -(mr[k] / float64(n))
		}
		addToRows(strided{dx, S * m, r * m}, n, m, mr)
	}
}
