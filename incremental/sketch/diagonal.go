package sketch

import (
	"math"

	"github.com/ohmgnn/ohm/linalg/laplace"
)

// estimateDiagonal sets D̂_i, the estimate of L⁺_ii, and σ_i, its standard
// error: exact for the exact anchors (their columns), else Hutchinson's
// estimate (laplace.EstimateDiag, Probes solves, with a walk-series
// control variate) combined with the sketch's ‖Z e_i‖² by inverse-variance
// weights (both unbiased). It sets inX. O(Probes) solves.
func (e *Engine) estimateDiagonal(rs *roundStart) error {
	n, k := e.g.N(), e.opt.Rows
	hd, err := laplace.EstimateDiag(e.solver, e.opt.Probes, e.opt.Seed+uint64(e.round), 1e-4, max(1, e.opt.Workers))
	if err != nil {
		return err
	}
	e.solves += e.opt.Probes
	rs.inX = make(map[int]int, len(rs.X))
	for q, a := range rs.X {
		rs.inX[a] = q
	}
	diag, cols := rs.diag, rs.cols
	e.dhat, e.sd = make([]float64, n), make([]float64, n)
	for i := range n {
		dh, sd := hd.Mean[i], 0.0
		if q, ok := rs.inX[i]; ok {
			dh = cols[q*n+i]
		} else if vh, vj := hd.StdErr[i]*hd.StdErr[i], 2*diag[i]*diag[i]/float64(k); vh > 0 && vj > 0 {
			w := 1/vh + 1/vj
			dh, sd = (hd.Mean[i]/vh+diag[i]/vj)/w, math.Sqrt(1/w)
		}
		e.dhat[i], e.sd[i] = dh, sd
	}
	return nil
}
