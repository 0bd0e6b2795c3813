package laplace

import (
	"fmt"
	"math"
)

// The mixed-precision solve of SolveMany's blocks: iterative refinement
// whose residuals are float64 and whose corrections are float32.
//
// Every pass of conjugate gradients over a graph of 10⁶ nodes gathers a
// neighbour's row at random for each of the 2·10⁷ entries of A, and twice
// that many for the triangular sweeps: the solve is bound by the cache
// lines it fetches, not by arithmetic. A float64 row of 8 sides is one
// line, a float32 row of 16 sides is one line too, so a pass in float32
// serves twice the sides for the same lines (measured on the 10⁶-node SBM:
// 10.9 ms per side and iteration against 26.4 ms, kernels alone). float32
// cannot reach a relative residual of 10⁻⁸ by itself, so the solve refines:
//
//	x = 0, r = Πb
//	repeat: d ≈ A⁻¹ r by float32 PCG, to a relative residual of
//	        max(10⁻⁵, tol·‖Πb‖/(2‖r‖)) — the scaled r/‖r‖ is its right-hand side;
//	        x += d (float64); r = Πb − L x in float64 (the true residual);
//	until ‖r‖ ≤ tol·‖Πb‖ on every side.
//
// Each round gains about five digits (float32 keeps seven), so 10⁻⁸ takes
// two rounds and one more float64 product per round; the bound the solve
// meets is the float64 residual's, as SolveMany promises, not float32's.

// wide is how many right-hand sides a mixed-precision pass serves: a
// float32 row of 16 is one 64-byte cache line.
const wide = 16

// innerFloor is the most one float32 round is asked to reduce its
// residual by: float32 keeps about seven digits, and the recurrence's
// residual drifts from the true one below about 10⁻⁶.
const innerFloor = 1e-5

// stallRounds is how many refinement rounds in a row may fail to halve a
// side's residual before the solve gives up (float32 rounding has stopped
// it: not seen on any graph measured).
const stallRounds = 3

// solveMixed solves L x_q = b_q for the c ≤ wide sides of a block stored
// node-major with stride wide (b[i·wide + q]; the entries of sides c and
// beyond are 0), to a relative residual of tol on each side, the matrix
// New's with the updates ups. b is overwritten by its projection on the
// range of L; x comes out centred on each component (x = L⁺b). It returns
// the float32 iterations taken. O(m) per iteration.
func (s *Solver) solveMixed(x, b []float64, tol float64, maxIter int, ups []update) (int, error) {
	n := s.n
	// Project b on the range of L: zero mean on every component.
	sum := make([]float64, s.count*wide)
	for i := range n {
		acc, bi := (*[wide]float64)(sum[int(s.comp[i])*wide:]), (*[wide]float64)(b[i*wide:])
		for q := range wide {
			acc[q] += bi[q]
		}
	}
	var norm, rnorm, prev [wide]float64
	for i := range n {
		k := int(s.comp[i])
		bi := (*[wide]float64)(b[i*wide:])
		for q := range wide {
			bi[q] -= sum[k*wide+q] / s.size[k]
			norm[q] += bi[q] * bi[q]
		}
	}
	for q := range norm {
		norm[q] = math.Sqrt(norm[q])
	}
	clear(x)
	r := s.work(n * wide)
	copy(r, b)
	rnorm, prev = norm, norm
	r32, d32 := s.work32(n*wide), s.work32(n*wide)
	defer s.release(r)
	defer s.release32(r32, d32)
	var (
		on       [wide]bool
		rel, sc  [wide]float64
		stall    [wide]int
		it       int
		refining = true
	)
	for refining {
		left := 0
		for q := range wide {
			on[q] = norm[q] > 0 && rnorm[q] > tol*norm[q]
			if on[q] {
				left++
				sc[q] = rnorm[q]
				rel[q] = max(innerFloor, 0.5*tol*norm[q]/rnorm[q])
			}
		}
		if left == 0 {
			break
		}
		if it >= maxIter {
			return it, s.residualError(rnorm, norm, on, it, tol)
		}
		// The correction's right-hand side: r/‖r‖ on the sides still
		// refining (the float32 solve works on the whole Laplacian, every
		// vector centred: pcg32).
		for i := range n {
			ri, ti := (*[wide]float64)(r[i*wide:]), (*[wide]float32)(r32[i*wide:])
			for q := range wide {
				ti[q] = 0
				if on[q] {
					ti[q] = float32(ri[q] / sc[q])
				}
			}
		}
		k := s.pcg32(d32, r32, rel, on, maxIter-it, ups)
		it += k
		for i := range n {
			xi, di := (*[wide]float64)(x[i*wide:]), (*[wide]float32)(d32[i*wide:])
			for q := range wide {
				if on[q] {
					xi[q] += sc[q] * float64(di[q])
				}
			}
		}
		// The true residual, in float64: r = Πb − L x.
		s.laplacian(r, x, wide)
		s.applyUpdates(r, x, wide, ups)
		var rr [wide]float64
		for i := range n {
			ri, bi := (*[wide]float64)(r[i*wide:]), (*[wide]float64)(b[i*wide:])
			for q := range wide {
				d := bi[q] - ri[q]
				ri[q] = d
				rr[q] += d * d
			}
		}
		for q := range wide {
			if !on[q] {
				continue
			}
			rnorm[q] = math.Sqrt(rr[q])
			if rnorm[q] > 0.5*prev[q] {
				stall[q]++
			} else {
				stall[q] = 0
			}
			prev[q] = rnorm[q]
			if stall[q] >= stallRounds && rnorm[q] > tol*norm[q] {
				return it, s.residualError(rnorm, norm, on, it, tol)
			}
		}
	}
	// Grounded nodes are 0; centre every component: x = L⁺b.
	clear(sum)
	for i := range n {
		acc, xi := (*[wide]float64)(sum[int(s.comp[i])*wide:]), (*[wide]float64)(x[i*wide:])
		for q := range wide {
			acc[q] += xi[q]
		}
	}
	for i := range n {
		k := int(s.comp[i])
		xi := (*[wide]float64)(x[i*wide:])
		for q := range wide {
			xi[q] -= sum[k*wide+q] / s.size[k]
		}
	}
	return it, nil
}

// residualError names the first side whose residual is above tol.
func (s *Solver) residualError(rnorm, norm [wide]float64, on [wide]bool, it int, tol float64) error {
	for q := range wide {
		if on[q] && rnorm[q] > tol*norm[q] {
			return fmt.Errorf("laplace: residual %.3g after %d iterations, above %.3g", rnorm[q]/norm[q], it, tol)
		}
	}
	return nil
}

// pcg32 runs preconditioned conjugate gradients in float32 on A d_q = r_q
// for the sides with on[q], each until its recurrence residual is rel[q]
// of its start or maxIter iterations are taken (the caller checks the true
// residual), and returns the iterations. r is overwritten; the other sides
// of d are 0. Dot products are summed in float64.
func (s *Solver) pcg32(d, r []float32, rel [wide]float64, on [wide]bool, maxIter int, ups []update) int {
	n := s.n
	clear(d)
	s.centre32(r)
	z, p, ap := s.work32(n*wide), s.work32(n*wide), s.work32(n*wide)
	defer s.release32(z, p, ap)
	s.precondition32(z, r)
	copy(p, z)
	var (
		active               [wide]bool
		target, rz, rz2, pap [wide]float64
		alpha, beta          [wide]float32
		rr                   [wide]float64
		left                 int
	)
	dots2F32(&rz, &rr, r, z)
	for q := range wide {
		target[q] = rel[q] * math.Sqrt(rr[q])
		active[q] = on[q] && rr[q] > 0
		if active[q] {
			left++
		}
	}
	it := 0
	for ; it < maxIter && left > 0; it++ {
		s.apply32(ap, p, ups)
		dotsF32(&pap, p, ap)
		for q := range wide {
			alpha[q] = 0
			if active[q] && pap[q] > 0 {
				alpha[q] = float32(rz[q] / pap[q])
			}
		}
		stepF32(d, r, p, ap, &alpha)
		s.precondition32(z, r)
		dots2F32(&rz2, &rr, r, z)
		for q := range wide {
			beta[q] = 0
			if active[q] {
				if math.Sqrt(rr[q]) <= target[q] {
					active[q] = false
					left--
				} else if rz[q] != 0 {
					beta[q] = float32(rz2[q] / rz[q])
				}
			}
			rz[q] = rz2[q]
		}
		var keep [wide]float32 // a side that has stopped keeps its p
		for q := range wide {
			keep[q] = 0
			if active[q] {
				keep[q] = 1
			} else {
				beta[q] = 1
			}
		}
		directionF32(p, z, &keep, &beta)
	}
	return it
}

// dotsF32 sets out_q = Σ_i a_iq·b_iq, summed in float64.
func dotsF32(out *[wide]float64, a, b []float32) {
	if useAVX && len(a) > 0 {
		_ = b[len(a)-1]
		dot16F32(&out[0], &a[0], &b[0], len(a)/wide)
		return
	}
	var acc [wide]float64
	for i := 0; i+wide <= len(a); i += wide {
		x, y := (*[wide]float32)(a[i:]), (*[wide]float32)(b[i:])
		for q := range wide {
			acc[q] += float64(x[q]) * float64(y[q])
		}
	}
	*out = acc
}

// dots2F32 sets out1_q = Σ a_iq·b_iq and out2_q = Σ a_iq², in float64.
func dots2F32(out1, out2 *[wide]float64, a, b []float32) {
	if useAVX && len(a) > 0 {
		_ = b[len(a)-1]
		dots216F32(&out1[0], &out2[0], &a[0], &b[0], len(a)/wide)
		return
	}
	var acc1, acc2 [wide]float64
	for i := 0; i+wide <= len(a); i += wide {
		x, y := (*[wide]float32)(a[i:]), (*[wide]float32)(b[i:])
		for q := range wide {
			u := float64(x[q])
			acc1[q] += u * float64(y[q])
			acc2[q] += u * u
		}
	}
	*out1, *out2 = acc1, acc2
}

// stepF32 sets d_i += alpha⊙p_i and r_i −= alpha⊙ap_i, the products
// rounded before the sums.
func stepF32(d, r, p, ap []float32, alpha *[wide]float32) {
	if useAVX && len(d) > 0 {
		_, _, _ = r[len(d)-1], p[len(d)-1], ap[len(d)-1]
		step16F32(&d[0], &r[0], &p[0], &ap[0], &alpha[0], len(d)/wide)
		return
	}
	for i := 0; i < len(d); i += wide {
		di, ri := (*[wide]float32)(d[i:]), (*[wide]float32)(r[i:])
		pi, api := (*[wide]float32)(p[i:]), (*[wide]float32)(ap[i:])
		for q := range wide {
			di[q] += alpha[q] * pi[q]
			ri[q] -= alpha[q] * api[q]
		}
	}
}

// directionF32 sets p_i = a⊙z_i + beta⊙p_i (a_q = 1 on the sides still
// moving, 0 with beta_q = 1 on the others, whose p stays).
func directionF32(p, z []float32, a, beta *[wide]float32) {
	if useAVX && len(p) > 0 {
		_ = z[len(p)-1]
		direction16F32(&p[0], &z[0], &a[0], &beta[0], len(p)/wide)
		return
	}
	for i := 0; i < len(p); i += wide {
		pi, zi := (*[wide]float32)(p[i:]), (*[wide]float32)(z[i:])
		for q := range wide {
			pi[q] = a[q]*zi[q] + beta[q]*pi[q]
		}
	}
}

// apply32 sets y = A x (A with the updates ups) for a block of wide float32
// sides.
func (s *Solver) apply32(y, x []float32, ups []update) {
	if useAVX && s.n > 0 {
		_ = y[s.n*wide-1]
		_ = x[s.n*wide-1]
		apply16F32(&y[0], &x[0], &s.fdeg32[0], &s.fst[0], s.fullPtr(), s.n)
	} else {
		for i := range s.n {
			xi := (*[wide]float32)(x[i*wide:])
			d := s.fdeg32[i]
			var acc [wide]float32
			for q := range acc {
				acc[q] = d * xi[q]
			}
			for _, j := range s.full[s.fst[i]:s.fst[i+1]] {
				xj := (*[wide]float32)(x[int(j)*wide:])
				for q := range acc {
					acc[q] -= xj[q]
				}
			}
			*(*[wide]float32)(y[i*wide:]) = acc
		}
	}
	for _, up := range ups {
		w := float32(up.w)
		xu, xv := (*[wide]float32)(x[up.u*wide:]), (*[wide]float32)(x[up.v*wide:])
		yu, yv := (*[wide]float32)(y[up.u*wide:]), (*[wide]float32)(y[up.v*wide:])
		for q := range wide {
			dq := w * (xu[q] - xv[q])
			yu[q] += dq
			yv[q] -= dq
		}
	}
}

// precondition32 sets z = M⁻¹ r for a block of wide float32 sides: the
// IC(0) sweeps with the factor rounded to float32, then the coarse
// correction.
func (s *Solver) precondition32(z, r []float32) {
	copy(z, r)
	for _, g := range s.ground { // the grounded rows: 0 in the sweeps
		*(*[wide]float32)(z[g*wide:]) = [wide]float32{}
	}
	if useAVX && s.n > 0 {
		_ = z[s.n*wide-1]
		var fac *float32 // nil when no entry: no row reads it
		if len(s.fac32) > 0 {
			fac = &s.fac32[0]
		}
		forward16F32(&z[0], &s.start[0], &s.mid[0], s.adjPtr(), fac, &s.finv32[0], s.n)
		backward16F32(&z[0], &s.start[0], &s.mid[0], s.adjPtr(), fac, &s.finv32[0], s.n)
	} else {
		for i := range s.n { // F w = r
			zi := (*[wide]float32)(z[i*wide:])
			acc := *zi
			for p := s.start[i]; p < s.mid[i]; p++ {
				f := s.fac32[p]
				zj := (*[wide]float32)(z[int(s.adj[p])*wide:])
				for q := range acc {
					acc[q] -= f * zj[q]
				}
			}
			inv := s.finv32[i]
			for q := range acc {
				acc[q] *= inv
			}
			*zi = acc
		}
		for i := s.n - 1; i >= 0; i-- { // Fᵀ z = w
			zi := (*[wide]float32)(z[i*wide:])
			acc := *zi
			for p := s.start[i+1] - 1; p >= s.mid[i]; p-- {
				f := s.fac32[p]
				zj := (*[wide]float32)(z[int(s.adj[p])*wide:])
				for q := range acc {
					acc[q] -= f * zj[q]
				}
			}
			inv := s.finv32[i]
			for q := range acc {
				acc[q] *= inv
			}
			*zi = acc
		}
	}
	// The grounded row takes Jacobi's r_g/deg_g, the projection of the
	// coarse correction (coarse.go) on the range of L.
	for _, g := range s.ground {
		if d := s.fdeg32[g]; d > 0 {
			zg, rg := (*[wide]float32)(z[g*wide:]), (*[wide]float32)(r[g*wide:])
			for q := range wide {
				zg[q] = rg[q] / d
			}
		}
	}
	s.centre32(z)
}

// centre32 subtracts from every side its mean on each component (sums in
// float64): Π, the projection on the range of L.
func (s *Solver) centre32(z []float32) {
	if s.count == 1 && useAVX && s.n > 0 {
		var sum [wide]float64
		var mean [wide]float32
		sum16F32(&sum[0], &z[0], s.n)
		for q := range wide {
			mean[q] = float32(sum[q] / s.size[0])
		}
		shift16F32(&z[0], &mean[0], s.n)
		return
	}
	sum := make([]float64, s.count*wide)
	for i := range s.n {
		acc, zi := (*[wide]float64)(sum[int(s.comp[i])*wide:]), (*[wide]float32)(z[i*wide:])
		for q := range wide {
			acc[q] += float64(zi[q])
		}
	}
	mean := make([]float32, s.count*wide)
	for k := range s.count {
		for q := range wide {
			mean[k*wide+q] = float32(sum[k*wide+q] / s.size[k])
		}
	}
	for i := range s.n {
		mk, zi := (*[wide]float32)(mean[int(s.comp[i])*wide:]), (*[wide]float32)(z[i*wide:])
		for q := range wide {
			zi[q] -= mk[q]
		}
	}
}

// adjPtr and fullPtr are the first entries of adj and full for the
// kernels, nil when empty (no row reads them then).
func (s *Solver) adjPtr() *int32 {
	if len(s.adj) == 0 {
		return nil
	}
	return &s.adj[0]
}

func (s *Solver) fullPtr() *int32 {
	if len(s.full) == 0 {
		return nil
	}
	return &s.full[0]
}
