package laplace

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
)

// DiagEstimate is Hutchinson's estimate of the diagonal of L⁺ with its
// standard error per node.
type DiagEstimate struct {
	Mean, StdErr []float64
}

// walkTerms is T, the last power of the truncated random-walk series that
// serves as the control variate of EstimateDiag.
const walkTerms = 4

// EstimateDiag estimates L⁺_ii for every node by Hutchinson's method with k
// probes v of independent random signs (drawn from seed and the probe),
// each solve to relative residual tol on up to workers goroutines.
//
// A plain Hutchinson estimate, mean over probes of v_i·(L⁺v)_i, errs with
// variance Σ_{j≠i} (L⁺_ij)²/k, dominated by i's neighbourhood: on an
// expander of mean degree 20 about 4 % of L⁺_ii with 128 probes, more than
// the spread of the eccentricities the sketch engine must rank. So the
// estimate takes a control variate whose diagonal is known exactly: the
// truncated random-walk series of the Laplacian's inverse,
//
//	P = D^{-1/2} (Σ_{t=0..T} S^t) D^{-1/2} − T·J_c/vol_c,
//	S = D^{-1/2} A D^{-1/2}, T = 4,
//
// (L = D^{1/2}(I − S)D^{1/2}, so L⁺ and Σ_t D^{-1/2} S^t D^{-1/2} share the
// walks of length at most T; J_c/vol_c, the all-ones block of each
// component over its volume Σ d_i, takes out the part of each S^t on the
// stationary vector, which L⁺ does not have). Then L⁺_ii = P_ii + E[v_i·((L⁺ − P)v)_i] and
// the error has variance Σ_{j≠i} (L⁺ − P)_ij²/k: the walks shorter than T,
// which carry most of the off-diagonal mass near i, no longer count. P_ii
// = (1 + (S²)_ii + (S³)_ii + (S⁴)_ii)/d_i − T/vol_c comes from i's two-hop row of S²
// (O(Σ_j d_j²) in all), P v from T products with S per probe. The sample
// variance gives the standard error. Isolated nodes get 0. Measured
// against a dense L⁺ (TestEstimateDiagControlVariate): 11× less
// root-mean-square error than plain Hutchinson on an expander of mean
// degree 16, 3× on a Barabási–Albert graph, the same on a random geometric
// graph (whose off-diagonal mass is in long walks).
//
// k solves and k·T products with A; O(n) memory beyond the solver's per
// worker.
func EstimateDiag(s *Solver, k int, seed uint64, tol float64, workers int) (DiagEstimate, error) {
	if k < 2 {
		return DiagEstimate{}, fmt.Errorf("laplace: diagonal estimate with %d probes", k)
	}
	n := s.n
	probe := func(q int, b []float64) {
		r := rand.New(rand.NewPCG(seed, 0xd1a9+uint64(q)))
		for i := range b {
			b[i] = 1
			if r.Uint64()&1 == 1 {
				b[i] = -1
			}
		}
	}
	w := s.walkSeries()
	sum, sum2 := make([]float64, n), make([]float64, n)
	var mu sync.Mutex
	use := func(q int, x []float64) {
		sign := make([]float64, n)
		probe(q, sign)
		pv := w.apply(sign)
		mu.Lock()
		defer mu.Unlock()
		for i, v := range x {
			t := sign[i] * (v - pv[i])
			sum[i] += t
			sum2[i] += t * t
		}
	}
	if _, err := s.SolveMany(k, probe, use, tol, 10*n+100, workers); err != nil {
		return DiagEstimate{}, fmt.Errorf("diagonal estimate: %w", err)
	}
	d := DiagEstimate{Mean: sum, StdErr: sum2}
	fk := float64(k)
	for i := range n {
		m := sum[i] / fk
		v := max(0, (sum2[i]/fk-m*m)*fk/(fk-1))
		d.Mean[i], d.StdErr[i] = w.diag[i]+m, math.Sqrt(v/fk)
	}
	return d, nil
}

// walkSeries is the control variate P of EstimateDiag: its exact diagonal
// and the scaling D^{-1/2} (0 for isolated nodes).
type walkSeries struct {
	s     *Solver
	isqrt []float64 // d_i^{-1/2}, 0 when d_i = 0
	diag  []float64 // P_ii
	ivol  []float64 // 1/vol_c per component (0 for an isolated node's)
}

// walkSeries computes P's diagonal from each node's two-hop row r = S² e_i:
// (S²)_ii = r_i, (S³)_ii = Σ_{j~i} S_ij r_j, (S⁴)_ii = Σ_k r_k².
// O(Σ_j d_j²) time, O(n) memory.
func (s *Solver) walkSeries() *walkSeries {
	n := s.n
	w := &walkSeries{s: s, isqrt: make([]float64, n), diag: make([]float64, n)}
	for i := range n {
		d := 0
		for _, j := range w.s.neighbours(i) {
			if int(j) != i {
				d++
			}
		}
		if d > 0 {
			w.isqrt[i] = 1 / math.Sqrt(float64(d))
		}
	}
	w.ivol = make([]float64, s.count)
	for i := range n {
		if w.isqrt[i] > 0 {
			w.ivol[s.comp[i]] += 1 / (w.isqrt[i] * w.isqrt[i])
		}
	}
	for c, v := range w.ivol {
		if v > 0 {
			w.ivol[c] = 1 / v
		}
	}
	r := make([]float64, n)
	var touched []int32
	for i := range n {
		if w.isqrt[i] == 0 {
			continue
		}
		touched = touched[:0]
		for _, j := range w.s.neighbours(i) {
			if int(j) == i {
				continue
			}
			sij := w.isqrt[i] * w.isqrt[j]
			for _, k := range w.s.neighbours(int(j)) {
				if k == j {
					continue
				}
				if r[k] == 0 {
					touched = append(touched, k)
				}
				r[k] += sij * w.isqrt[j] * w.isqrt[k]
			}
		}
		s3, s4 := 0.0, 0.0
		for _, j := range w.s.neighbours(i) {
			if int(j) != i {
				s3 += w.isqrt[i] * w.isqrt[j] * r[j]
			}
		}
		for _, k := range touched {
			s4 += r[k] * r[k]
		}
		w.diag[i] = (1+r[i]+s3+s4)*w.isqrt[i]*w.isqrt[i] - walkTerms*w.ivol[s.comp[i]]
		for _, k := range touched {
			r[k] = 0
		}
	}
	return w
}

// apply returns P v: T products with S. O(T·m).
func (w *walkSeries) apply(v []float64) []float64 {
	n := len(v)
	y := make([]float64, n)
	acc := make([]float64, n)
	next := make([]float64, n)
	for i := range n {
		y[i] = w.isqrt[i] * v[i]
		acc[i] = y[i]
	}
	for range walkTerms {
		for i := range n {
			t := 0.0
			for _, j := range w.s.neighbours(i) {
				if int(j) != i {
					t += w.isqrt[j] * y[j]
				}
			}
			next[i] = w.isqrt[i] * t
		}
		y, next = next, y
		for i := range n {
			acc[i] += y[i]
		}
	}
	sum := make([]float64, len(w.ivol))
	for i, c := range w.s.comp {
		sum[c] += v[i]
	}
	for i, c := range w.s.comp {
		acc[i] = acc[i]*w.isqrt[i] - walkTerms*w.ivol[c]*sum[c]
	}
	return acc
}

// neighbours is i's neighbour list, grounded nodes included.
func (s *Solver) neighbours(i int) []int32 { return s.full[s.fst[i]:s.fst[i+1]] }
