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

// EstimateDiag estimates L⁺_ii for every node by Hutchinson's method with k
// probes v of independent random signs (drawn from seed and the probe):
// L⁺_ii ≈ mean over probes of v_i·(L⁺v)_i, each solve to relative residual
// tol on up to workers goroutines. The error of node i has variance
// Σ_{j≠i} (L⁺_ij)²/k, which the sample variance estimates: on expanders the
// off-diagonal entries are small and the estimate is a few times sharper
// than a Johnson–Lindenstrauss sketch's ‖Z e_i‖² (relative error √(2/k)).
// k solves, O(n) memory beyond the solver's.
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
	sum, sum2 := make([]float64, n), make([]float64, n)
	var mu sync.Mutex
	sign := make([]float64, n)
	use := func(q int, x []float64) {
		mu.Lock()
		defer mu.Unlock()
		probe(q, sign)
		for i, v := range x {
			t := sign[i] * v
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
		d.Mean[i], d.StdErr[i] = m, math.Sqrt(v/fk)
	}
	return d, nil
}
