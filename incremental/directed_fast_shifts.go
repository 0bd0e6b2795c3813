package incremental

import "math"

// The interval of the ADI shifts (definitions §2.2). The shifts are
// Wachspress's for an interval [a, b] meant to hold the real parts of M's
// eigenvalues; their number grows with log(b/a). They need not bound the
// spectrum rigorously: the ADI's residual, not the interval, decides when
// an update has converged (an interval too narrow only costs steps). So
// the interval is taken from estimates, not from the rigorous but loose
// bounds of Gershgorin (b = 2·max out-degree, about twice max Re λ on
// Cora's SCC) and of a power iteration with a safety factor 2 (a): on
// Cora's 2485-node SCC the spectrum is real to 3·10⁻³ in [0.028, 169];
// the old interval was [0.0075, 333] (47 shifts), the new one is
// [0.0134, 176] (43 shifts, about 43 steps per update instead of 48).

// shiftTopSafety multiplies the power-iteration estimate of ‖L‖₂ for the
// top b of the shift interval (max Re λ(M) ≤ max(1, ‖L‖₂)).
const shiftTopSafety = 1.05

// shiftBottomSafety multiplies 1/(2λ_max(Y)), a lower bound on the real
// parts of M's eigenvalues other than 1 (see the fast mode's description),
// for the bottom a of the shift interval.
const shiftBottomSafety = 0.9

// lapNormSteps is the number of power-iteration steps of lapNorm from its
// previous vector (twice as many from the first).
const lapNormSteps = 15

// lapNorm returns an estimate (from below, converging) of ‖L‖₂ for the
// out-Laplacian L of the out-neighbour lists rows (local ids), by the power
// iteration on LᵀL from the vector of the previous estimate, kept in f.
// O(lapNormSteps·(n + arcs)).
func (f *fastSCC) lapNorm(rows [][]int) float64 {
	n := len(rows)
	steps := lapNormSteps
	if len(f.lvec) != n {
		f.lvec = make([]float64, n)
		for i := range f.lvec {
			f.lvec[i] = math.Cos(float64(i)+1) + 0.5*math.Sin(5*float64(i))
		}
		steps *= 2
	}
	x, y := f.lvec, make([]float64, n)
	var sigma float64
	for range steps {
		nx := 0.0
		for _, v := range x {
			nx += v * v
		}
		nx = math.Sqrt(nx)
		if nx == 0 || math.IsNaN(nx) {
			break
		}
		for i := range x {
			x[i] /= nx
		}
		// y = L x, then x = Lᵀ y; ‖y‖ = ‖Lx‖ for the unit x.
		var ny float64
		for i, r := range rows {
			v := float64(len(r)) * x[i]
			for _, j := range r {
				v -= x[j]
			}
			y[i] = v
			ny += v * v
		}
		sigma = math.Max(sigma, math.Sqrt(ny))
		for i, r := range rows {
			x[i] = float64(len(r)) * y[i]
		}
		for i, r := range rows {
			for _, j := range r {
				x[j] -= y[i]
			}
		}
	}
	return sigma
}
