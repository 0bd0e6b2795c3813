package laplace

// The coarse correction of the preconditioner. Grounding one node per
// component leaves the component's constant vector (0 at the grounded
// node) as a direction of tiny energy: 1ᵀA1 is only the grounded node's
// degree, against n_c times the mean degree for a vector of the same norm
// that varies. IC(0) hardly touches that direction and conjugate gradients
// stalls on it: on a 10⁵-node SBM, IC(0)-CG reaches 1e-3 in 4 iterations,
// then needs 9 more for 1e-4. Adding the exact solve on the span of the
// component indicators,
//
//	M⁻¹ = (F Fᵀ)⁻¹ + Σ_c 1_c (1_cᵀ A 1_c)⁻¹ 1_cᵀ,
//
// (the additive two-level method with one aggregate per component; still
// symmetric positive definite) removes the stall: 1e-4 in 4 iterations and
// 1e-7 in 8 instead of 14. Finer aggregates (greedy aggregation of
// neighbourhoods, 1 759 of them on that SBM) were measured too and did
// worse (10 iterations to 1e-7): the additive correction over-corrects
// once its aggregates are small.

// buildCoarse sets the correction's weights 1/(1_cᵀ A 1_c), A's entries
// summed over the component's non-grounded nodes: the number of edges to
// the grounded node. O(n + m).
func (s *Solver) buildCoarse() {
	energy := make([]float64, s.count)
	for i := range s.n {
		if !s.isGround(i) {
			energy[s.comp[i]] += s.deg[i] - float64(s.start[i+1]-s.start[i])
		}
	}
	s.coarse = make([]float64, s.count)
	for c, e := range energy {
		if e > 0 {
			s.coarse[c] = 1 / e
		}
	}
}

// correct adds Σ_c 1_c (1_cᵀ A 1_c)⁻¹ 1_cᵀ r to z for a block of c
// right-hand sides. O(n·c).
func (s *Solver) correct(z, r []float64, c int) {
	sum := make([]float64, s.count*c)
	if c == block { // fixed-size arrays: the same sums, checked once per node
		for i := range s.n {
			if k := int(s.comp[i]); s.ground[k] != i {
				acc, ri := (*[block]float64)(sum[k*block:]), (*[block]float64)(r[i*block:])
				for q := range block {
					acc[q] += ri[q]
				}
			}
		}
		for k := range s.count {
			for q := range block {
				sum[k*block+q] *= s.coarse[k]
			}
		}
		for i := range s.n {
			if k := int(s.comp[i]); s.ground[k] != i {
				add, zi := (*[block]float64)(sum[k*block:]), (*[block]float64)(z[i*block:])
				for q := range block {
					zi[q] += add[q]
				}
			}
		}
		return
	}
	for i := range s.n {
		if !s.isGround(i) {
			k := int(s.comp[i]) * c
			for q, v := range r[i*c : i*c+c] {
				sum[k+q] += v
			}
		}
	}
	for k := range s.count {
		for q := range c {
			sum[k*c+q] *= s.coarse[k]
		}
	}
	for i := range s.n {
		if !s.isGround(i) {
			k := int(s.comp[i]) * c
			zi := z[i*c : i*c+c]
			for q := range zi {
				zi[q] += sum[k+q]
			}
		}
	}
}
