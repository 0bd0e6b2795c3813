package incremental

import "math"

// The carried residual bound (definitions §2.2, rewire-3). The dense residual
// check of fastResidual reads all of X and the graph, about a fifth of an
// update's time on Cora's largest SCC. Between two dense checks the engine
// carries a bound instead: after an update whose low-rank correction Δ solves
// M'Δ + ΔM'ᵀ = −((M'−M)Y + Y(M'−M)ᵀ) with the ADI residual r_ADI and
// compression dropping eigenvalues of at most δ, the new residual is
//
//	Res' = Res + R_ADI + (M'E + EM'ᵀ) + rounding,   ‖E‖₂ ≤ δ,
//
// so ρ' ≤ ρ + r_ADI + 2‖M'‖₂δ + ϑ, with ‖M'‖₂ ≤ ‖L‖₂ + 1 ≤
// √(‖L‖₁‖L‖∞) + 1 (mNormBound) and ϑ the rounding of the update (the
// right-hand side from X, the shifted solves, the addition to X). ϑ is
// calibrated at the dense checks: driftSafety times the largest growth of the
// measured residual per update beyond the carried ADI terms, and at least
// driftFloor·ε·n. A dense check measures ρ again after denseCheckEvery
// updates, whenever the carried bound would pass maxResidual, after an exact
// solve, and whenever a decision is not certain under the carried bound
// (fastCertify measures before it solves exactly). A dense check that finds
// the measured residual above the bound carried to it counts a BoundMiss in
// FastStats and recalibrates ϑ from it. The scores themselves are read from
// the same X as before, so the decisions and their scores change only where
// an exact solve happens at another iteration.

// denseCheckEvery is the number of updates after which the residual is
// measured densely again (a variable so that tests can measure every update).
var denseCheckEvery = 8

// driftSafety multiplies the growth of the measured residual per update
// that the dense checks observe, for the rounding allowance ϑ.
const driftSafety = 4.0

// driftFloor is ϑ's least value, in units of ε·n.
const driftFloor = 1.0

// mNormBound returns √(‖L‖₁‖L‖∞) + 1 ≥ ‖M‖₂ for M = ΠL + J/n, L the
// out-degree Laplacian of the out-neighbour lists rows (local ids, no
// self-loops): ‖L‖∞ = 2·max out-degree, ‖L‖₁ = max over nodes of out-degree
// plus in-degree, ‖Π‖₂ = 1. O(n + arcs).
func mNormBound(rows [][]int) float64 {
	in := make([]int, len(rows))
	for _, r := range rows {
		for _, k := range r {
			in[k]++
		}
	}
	var inf, one int
	for a, r := range rows {
		inf = max(inf, 2*len(r))
		one = max(one, len(r)+in[a])
	}
	return math.Sqrt(float64(inf)*float64(one)) + 1
}

// carried is the bound on the residual of an SCC after an update that left
// the ADI residual adiRes and dropped eigenvalues of at most dropped in its
// compression, from the current bound f.rho (see above). O(1).
func (f *fastSCC) carried(adiRes, dropped float64) (rho, terms float64) {
	terms = adiRes + 2*f.mnorm*dropped
	return f.rho + terms + f.drift, terms
}

// measured records a dense check's residual rho after the updates since the
// last one: it recalibrates the rounding allowance from the growth beyond
// the carried ADI terms, counts a miss when rho exceeds the bound carried to
// it (bounded is false when the check follows an exact solve or comes
// first), and starts a new window. O(1).
func (f *fastSCC) measured(rho float64, n int, bounded bool, st *FastStats) {
	st.DenseChecks++
	if bounded && rho > f.rho {
		st.BoundMisses++
	}
	floor := driftFloor * 0x1p-52 * float64(n)
	if f.since > 0 {
		growth := (rho - f.lastMeas - f.window) / float64(f.since)
		f.drift = math.Max(floor, math.Max(f.drift/2, driftSafety*growth))
	} else {
		f.drift = math.Max(f.drift, floor)
	}
	f.rho, f.lastMeas, f.window, f.since = rho, rho, 0, 0
}

// exactWindow starts a new window after an exact solve of the SCC (ρ = 0):
// its next update is checked densely.
func (f *fastSCC) exactWindow() {
	f.rho, f.lastMeas, f.window, f.since = 0, 0, 0, 0
	f.checkNext, f.fromExact = true, true
}
