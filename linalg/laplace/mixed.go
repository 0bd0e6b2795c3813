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
//
// On an ill-conditioned graph (a long ring of cliques: λ₂ far below
// float32's resolution of the spectrum) float32 conjugate gradients stop
// gaining; a round that does not gain two digits in f32Round iterations
// switches the block to float64 corrections (the same code, the Go loops:
// the float32 kernels are AVX), which then refine as before.

// wide is how many right-hand sides a mixed-precision pass serves: a
// float32 row of 16 is one 64-byte cache line.
const wide = 16

// Block is how many right-hand sides SolveMany solves side by side in one
// pass; a block costs its slowest side's iterations.
const Block = wide

// innerFloor is the most one float32 round is asked to reduce its
// residual by: float32 keeps about seven digits, and the recurrence's
// residual drifts from the true one below about 10⁻⁶.
const innerFloor = 1e-5

// stallRounds is how many float64 refinement rounds in a row may fail to
// halve a side's residual before the solve gives up.
const stallRounds = 3

// f32Round is the most iterations one float32 round takes; f32Gain the
// least it must reduce the residual by (or 100 times what it was asked
// for, when that is less), or the block goes on in float64.
const (
	f32Round = 100
	f32Gain  = 1e-2
)

// real is the precision of a refinement round's corrections.
type real interface{ float32 | float64 }

// solveMixed solves L x_q = b_q for the c ≤ wide sides of a block stored
// node-major with stride wide (b[i·wide + q]; the entries of sides c and
// beyond are 0), to a relative residual of tol on each side, the matrix
// New's with the updates ups. b is overwritten by its projection on the
// range of L; x comes out centred on each component (x = L⁺b). It returns
// the float32 iterations taken. O(m) per iteration.
func (s *Solver) solveMixed(x, b []float64, tol float64, maxIter int, ups []update) (int, error) {
	n := s.n
	var st refinement
	r := s.spare.get(n * wide)
	st.start(s, x, b, r)
	r32, d32 := s.spare32.get(n*wide), s.spare32.get(n*wide)
	defer s.spare.put(r)
	defer s.spare32.put(r32, d32)
	var r64, d64 []float64 // the float64 corrections', once needed
	defer func() {
		if r64 != nil {
			s.spare.put(r64, d64)
		}
	}()
	var (
		it     int
		double bool // float64 corrections
	)
	for {
		left, last := st.plan(tol)
		if left == 0 {
			break
		}
		if err := s.stopped(); err != nil {
			return it, err
		}
		if it >= maxIter {
			return it, s.residualError(st.rnorm, st.norm, st.on, it, tol)
		}
		// The correction's right-hand side is r/‖r‖ on the sides still
		// refining (the inner solve works on the whole Laplacian, every
		// vector centred: pcg).
		var k int
		var inner bool
		if double {
			if r64 == nil {
				r64, d64 = s.spare.get(n*wide), s.spare.get(n*wide)
			}
			k, inner = correct(s, x, r, r64, d64, st.sc, st.rel, st.on, maxIter-it, maxIter, ups)
		} else {
			k, inner = correct(s, x, r, r32, d32, st.sc, st.rel, st.on, maxIter-it, f32Round, ups)
		}
		it += k
		if err := s.stopped(); err != nil { // pcg may have stopped early
			return it, err
		}
		// A round that can end the solve checks the residual first as
		// r − L(sc⊙d) (lower: a float32 row gathered per term, not
		// float64's two); when that meets tol on every side, x is final
		// (r then differs from Πb − L x by rounding only, 10⁻¹⁶ of the
		// terms). Otherwise, and in every other round, the next round
		// starts from the true residual, as before.
		if last && inner {
			var done bool
			if double {
				done = lowered(s, &st, r, d64, ups)
			} else {
				done = lowered(s, &st, r, d32, ups)
			}
			if done {
				continue
			}
		}
		rr := s.trueResidual(r, x, b, ups)
		var err error
		if double, err = st.judge(s, &rr, tol, double, it); err != nil {
			return it, err
		}
	}
	// Every correction is centred; centring x again takes out the
	// rounding's drift: x = L⁺b.
	centre(s, x)
	return it, nil
}

// refinement is solveMixed's state per side between rounds: the norms
// of Πb, of the residual and of the round before's residual; which sides
// still refine, their scale (sc = ‖r‖) and inner targets (rel) for the
// round, the residual that ends the solve (goal = tol·‖Πb‖), and how many
// float64 rounds in a row failed to halve the residual.
type refinement struct {
	norm, rnorm, prev [wide]float64
	on                [wide]bool
	rel, sc, goal     [wide]float64
	stall             [wide]int
}

// start projects b on the range of L (zero mean on every component),
// takes its norms, clears x and sets r = Πb: the state before the first
// round.
func (st *refinement) start(s *Solver, x, b, r []float64) {
	centre(s, b)
	dots(&st.norm, b, b)
	for q := range st.norm {
		st.norm[q] = math.Sqrt(st.norm[q])
	}
	clear(x)
	copy(r, b)
	st.rnorm, st.prev = st.norm, st.norm
}

// plan sets which sides the next round refines (those whose residual is
// still above tol·‖Πb‖), their scales and inner targets, and returns how
// many sides refine and whether the round can end the solve (last: its
// inner target is the tolerance's own on every side still refining, not
// innerFloor).
func (st *refinement) plan(tol float64) (left int, last bool) {
	last = true
	for q := range wide {
		st.on[q] = st.norm[q] > 0 && st.rnorm[q] > tol*st.norm[q]
		st.goal[q] = tol * st.norm[q]
		if st.on[q] {
			left++
			st.sc[q] = st.rnorm[q]
			own := 0.5 * tol * st.norm[q] / st.rnorm[q]
			st.rel[q] = max(innerFloor, own)
			last = last && own >= innerFloor
		}
	}
	return left, last
}

// lowered updates r to r − L(sc⊙d) (lower) after a round whose
// correction d was x's last, and reports whether that residual meets
// the goal on every side refining; if so it keeps the residual norms.
func lowered[T real](s *Solver, st *refinement, r []float64, d []T, ups []update) bool {
	var rr [wide]float64
	lower(s, r, d, &st.sc, ups)
	dots(&rr, r, r)
	if !met(&rr, &st.goal, &st.on) {
		return false
	}
	for q := range wide {
		if st.on[q] {
			st.rnorm[q] = math.Sqrt(rr[q])
		}
	}
	return true
}

// trueResidual sets r = Πb − L x in float64 (L with the updates ups) and
// returns every side's squared norm of it.
func (s *Solver) trueResidual(r, x, b []float64, ups []update) [wide]float64 {
	s.laplacian(r, x, wide)
	s.applyUpdates(r, x, wide, ups)
	var rr [wide]float64
	for i := range s.n {
		ri, bi := (*[wide]float64)(r[i*wide:]), (*[wide]float64)(b[i*wide:])
		for q := range wide {
			d := bi[q] - ri[q]
			ri[q] = d
			rr[q] += d * d
		}
	}
	return rr
}

// judge takes the squared residual norms rr of a round on the sides that
// refined and returns whether the solve goes on with float64 corrections
// (double, or float32 having stopped gaining: a side's residual not
// reduced by f32Gain, or 100 times its target when less), or an error
// when a side failed to halve its residual in stallRounds float64 rounds
// in a row (it: the iterations so far, for the error).
func (st *refinement) judge(s *Solver, rr *[wide]float64, tol float64, double bool, it int) (bool, error) {
	for q := range wide {
		if !st.on[q] {
			continue
		}
		st.rnorm[q] = math.Sqrt(rr[q])
		switch {
		case st.rnorm[q] <= tol*st.norm[q]:
		case !double && st.rnorm[q] > max(f32Gain, 100*st.rel[q])*st.prev[q]:
			double = true // float32 has stopped gaining
		case double && st.rnorm[q] > 0.5*st.prev[q]:
			st.stall[q]++
			if st.stall[q] >= stallRounds {
				return double, s.residualError(st.rnorm, st.norm, st.on, it, tol)
			}
		default:
			st.stall[q] = 0
		}
		st.prev[q] = st.rnorm[q]
	}
	return double, nil
}

// correct runs one refinement round in precision T: the right-hand side
// r/sc on the sides with on[q] (rT, dT its work vectors), the inner PCG to
// rel of it in at most min(left, most) iterations, then x += sc·d. It
// returns the iterations and whether the inner solve met rel on every
// side; dT keeps the correction d.
func correct[T real](s *Solver, x, r []float64, rT, dT []T, sc, rel [wide]float64, on [wide]bool, left, most int, ups []update) (int, bool) {
	for i := range s.n {
		ri, ti := (*[wide]float64)(r[i*wide:]), (*[wide]T)(rT[i*wide:])
		for q := range wide {
			ti[q] = 0
			if on[q] {
				ti[q] = T(ri[q] / sc[q])
			}
		}
	}
	k, met := pcg(s, dT, rT, rel, on, min(left, most), ups)
	for i := range s.n {
		xi, di := (*[wide]float64)(x[i*wide:]), (*[wide]T)(dT[i*wide:])
		for q := range wide {
			if on[q] {
				xi[q] += sc[q] * float64(di[q])
			}
		}
	}
	return k, met
}

// lower sets r_i −= sc ⊙ (L d)_i for a block of wide sides, L with the
// updates ups: d's entries taken exactly in float64, the sums float64.
// With r the residual Πb − L x before x += sc⊙d, it is the residual after
// it but for rounding, at one gathered row of d (64 bytes in float32) per
// term of L, where recomputing Πb − L x gathers a row of x (128 bytes).
func lower[T real](s *Solver, r []float64, d []T, sc *[wide]float64, ups []update) {
	if d32, ok := any(d).([]float32); ok && useAVX && s.n > 0 {
		_ = r[s.n*wide-1]
		_ = d32[s.n*wide-1]
		lower16F32(&r[0], &d32[0], &sc[0], &s.fdeg[0], &s.fst[0], s.fullPtr(), s.n)
	} else {
		for i := range s.n {
			di, deg := (*[wide]T)(d[i*wide:]), s.fdeg[i]
			var acc [wide]float64
			for q := range acc {
				acc[q] = deg * float64(di[q])
			}
			for _, j := range s.full[s.fst[i]:s.fst[i+1]] {
				dj := (*[wide]T)(d[int(j)*wide:])
				for q := range acc {
					acc[q] -= float64(dj[q])
				}
			}
			ri := (*[wide]float64)(r[i*wide:])
			for q := range acc {
				ri[q] -= sc[q] * acc[q]
			}
		}
	}
	for _, up := range ups {
		du, dv := (*[wide]T)(d[up.u*wide:]), (*[wide]T)(d[up.v*wide:])
		ru, rv := (*[wide]float64)(r[up.u*wide:]), (*[wide]float64)(r[up.v*wide:])
		for q := range wide {
			t := sc[q] * (up.w * (float64(du[q]) - float64(dv[q])))
			ru[q] -= t
			rv[q] += t
		}
	}
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

// pcg runs preconditioned conjugate gradients in precision T on L d_q =
// r_q, every vector centred on its component, for the sides with on[q],
// each until its recurrence residual is rel[q] of its start or maxIter
// iterations are taken (the caller checks the true residual), and returns
// the iterations and whether every side met its target. r is
// overwritten; the other sides of d are 0. Dot products are summed in
// float64.
func pcg[T real](s *Solver, d, r []T, rel [wide]float64, on [wide]bool, maxIter int, ups []update) (int, bool) {
	n := s.n
	clear(d)
	centre(s, r)
	sp := spareOf[T](s)
	z, p, ap := sp.get(n*wide), sp.get(n*wide), sp.get(n*wide)
	defer sp.put(z, p, ap)
	precondition(s, z, r)
	copy(p, z)
	var (
		active               [wide]bool
		target, rz, rz2, pap [wide]float64
		alpha, beta, keep    [wide]T
		rr, check            [wide]float64
		left                 int
	)
	dots2(&rz, &rr, r, z)
	check = rr
	var zero T
	_, single := any(zero).(float32)
	for q := range wide {
		target[q] = rel[q] * math.Sqrt(rr[q])
		active[q] = on[q] && rr[q] > 0
		if active[q] {
			left++
		}
	}
	it := 0
	for ; it < maxIter && left > 0; it++ {
		if s.stop != nil && s.stop() != nil {
			return it, false // solveMixed returns the stop's error
		}
		apply(s, ap, p, ups)
		dots(&pap, p, ap)
		for q := range wide {
			alpha[q] = 0
			if active[q] && pap[q] > 0 {
				alpha[q] = T(rz[q] / pap[q])
			}
		}
		step(d, r, p, ap, &alpha)
		// The last iteration's z and p are never read: when every side
		// still moving meets its target, stop before the preconditioner
		// (two of the iteration's three gather passes). rr here is
		// dots2's below bit for bit (the same sums, in the same order), so
		// the iterations and d are those of preconditioning first.
		dots(&rr, r, r)
		if met(&rr, &target, &active) {
			return it + 1, true
		}
		if single && stalled(&rr, &check, &active, it) {
			return it + 1, false
		}
		precondition(s, z, r)
		dots2(&rz2, &rr, r, z)
		for q := range wide {
			beta[q] = 0
			if active[q] {
				if math.Sqrt(rr[q]) <= target[q] {
					active[q] = false
					left--
				} else if rz[q] != 0 {
					beta[q] = T(rz2[q] / rz[q])
				}
			}
			rz[q] = rz2[q]
		}
		for q := range wide { // a side that has stopped keeps its p
			keep[q] = 0
			if active[q] {
				keep[q] = 1
			} else {
				beta[q] = 1
			}
		}
		direction(p, z, &keep, &beta)
	}
	return it, left == 0
}

// stallCheck is how many iterations apart a float32 pcg compares its
// residuals: when no active side's squared residual norm has halved since
// the last check, the round has stopped gaining. (In float32 the
// recurrence's residual can stall just above the round's target: with the
// approximate Cholesky factor on the 10⁵-node random geometric graph, 6
// sides of 32 sat at 1.5·10⁻⁵ for 88 of the round's 100 iterations.) A
// float64 round is never cut so: there a slow stretch is the spectrum's,
// not the precision's, and conjugate gradients need not halve their
// residual every 16 iterations to converge (on a ring of 500 cliques of
// 20, sketch-16 gave up on an edit's vectors after three such rounds, 48
// iterations, at a residual of 0.69).
const stallCheck = 16

// stalled reports, every stallCheck iterations, whether no active side's
// rr has halved since the last check (check, which it then updates).
func stalled(rr, check *[wide]float64, active *[wide]bool, it int) bool {
	if (it+1)%stallCheck != 0 {
		return false
	}
	gain := false
	for q := range wide {
		if active[q] && rr[q] < 0.5*check[q] {
			gain = true
		}
	}
	*check = *rr
	return !gain
}

// met reports whether every active side's residual norm √rr_q is within
// its target.
func met(rr, target *[wide]float64, active *[wide]bool) bool {
	for q := range wide {
		if active[q] && math.Sqrt(rr[q]) > target[q] {
			return false
		}
	}
	return true
}

// spareOf is the solver's store of work vectors of precision T.
func spareOf[T real](s *Solver) *spares[T] {
	if p, ok := any(&s.spare32).(*spares[T]); ok {
		return p
	}
	return any(&s.spare).(*spares[T])
}

// dots sets out_q = Σ_i a_iq·b_iq, summed in float64.
func dots[T real](out *[wide]float64, a, b []T) {
	if a32, ok := any(a).([]float32); ok && useAVX && len(a) > 0 {
		b32 := any(b).([]float32)
		_ = b32[len(a32)-1]
		dot16F32(&out[0], &a32[0], &b32[0], len(a32)/wide)
		return
	}
	var acc [wide]float64
	for i := 0; i+wide <= len(a); i += wide {
		x, y := (*[wide]T)(a[i:]), (*[wide]T)(b[i:])
		for q := range wide {
			acc[q] += float64(x[q]) * float64(y[q])
		}
	}
	*out = acc
}

// dots2 sets out1_q = Σ a_iq·b_iq and out2_q = Σ a_iq², in float64.
func dots2[T real](out1, out2 *[wide]float64, a, b []T) {
	if a32, ok := any(a).([]float32); ok && useAVX && len(a) > 0 {
		b32 := any(b).([]float32)
		_ = b32[len(a32)-1]
		dots216F32(&out1[0], &out2[0], &a32[0], &b32[0], len(a32)/wide)
		return
	}
	var acc1, acc2 [wide]float64
	for i := 0; i+wide <= len(a); i += wide {
		x, y := (*[wide]T)(a[i:]), (*[wide]T)(b[i:])
		for q := range wide {
			u := float64(x[q])
			acc1[q] += u * float64(y[q])
			acc2[q] += u * u
		}
	}
	*out1, *out2 = acc1, acc2
}

// step sets d_i += alpha⊙p_i and r_i −= alpha⊙ap_i, the products rounded
// before the sums.
func step[T real](d, r, p, ap []T, alpha *[wide]T) {
	if d32, ok := any(d).([]float32); ok && useAVX && len(d) > 0 {
		r32, p32, ap32 := any(r).([]float32), any(p).([]float32), any(ap).([]float32)
		_, _, _ = r32[len(d32)-1], p32[len(d32)-1], ap32[len(d32)-1]
		step16F32(&d32[0], &r32[0], &p32[0], &ap32[0], &any(alpha).(*[wide]float32)[0], len(d32)/wide)
		return
	}
	for i := 0; i < len(d); i += wide {
		di, ri := (*[wide]T)(d[i:]), (*[wide]T)(r[i:])
		pi, api := (*[wide]T)(p[i:]), (*[wide]T)(ap[i:])
		for q := range wide {
			di[q] += alpha[q] * pi[q]
			ri[q] -= alpha[q] * api[q]
		}
	}
}

// direction sets p_i = a⊙z_i + beta⊙p_i (a_q = 1 on the sides still
// moving, 0 with beta_q = 1 on the others, whose p stays).
func direction[T real](p, z []T, a, beta *[wide]T) {
	if p32, ok := any(p).([]float32); ok && useAVX && len(p) > 0 {
		z32 := any(z).([]float32)
		_ = z32[len(p32)-1]
		direction16F32(&p32[0], &z32[0], &any(a).(*[wide]float32)[0], &any(beta).(*[wide]float32)[0], len(p32)/wide)
		return
	}
	for i := 0; i < len(p); i += wide {
		pi, zi := (*[wide]T)(p[i:]), (*[wide]T)(z[i:])
		for q := range wide {
			pi[q] = a[q]*zi[q] + beta[q]*pi[q]
		}
	}
}

// apply sets y = L x (L with the updates ups) for a block of wide sides.
func apply[T real](s *Solver, y, x []T, ups []update) {
	if y32, ok := any(y).([]float32); ok && useAVX && s.n > 0 {
		x32 := any(x).([]float32)
		_ = y32[s.n*wide-1]
		_ = x32[s.n*wide-1]
		apply16F32(&y32[0], &x32[0], &s.fdeg32[0], &s.fst[0], s.fullPtr(), s.n)
	} else {
		for i := range s.n {
			xi := (*[wide]T)(x[i*wide:])
			d := T(s.fdeg32[i])
			var acc [wide]T
			for q := range acc {
				acc[q] = d * xi[q]
			}
			for _, j := range s.full[s.fst[i]:s.fst[i+1]] {
				xj := (*[wide]T)(x[int(j)*wide:])
				for q := range acc {
					acc[q] -= xj[q]
				}
			}
			*(*[wide]T)(y[i*wide:]) = acc
		}
	}
	for _, up := range ups {
		w := T(up.w)
		xu, xv := (*[wide]T)(x[up.u*wide:]), (*[wide]T)(x[up.v*wide:])
		yu, yv := (*[wide]T)(y[up.u*wide:]), (*[wide]T)(y[up.v*wide:])
		for q := range wide {
			dq := w * (xu[q] - xv[q])
			yu[q] += dq
			yv[q] -= dq
		}
	}
}

// precondition sets z = M⁻¹ r for a block of wide sides: the factor's
// sweeps (its float32 entries; approximate Cholesky's in its elimination
// order, the block gathered into it and scattered back), Jacobi on the
// grounded rows, then the projection on the range of L. Jacobi's r_g/d_g is the projection of the
// coarse correction the solver needed while it solved the grounded system
// (the constant vector of a component, which grounding leaves with the
// energy of the grounded node's degree and IC(0) hardly touches: CG
// stalled on it; with the correction, 10⁻⁴ took 4 iterations instead of
// 13 on the 10⁵-node SBM).
func precondition[T real](s *Solver, z, r []T) {
	w := z
	if s.perm != nil { // the factor's numbering: gather
		w = spareOf[T](s).get(s.n * wide)
		defer spareOf[T](s).put(w)
		for k, v := range s.perm {
			*(*[wide]T)(w[k*wide:]) = *(*[wide]T)(r[int(v)*wide:])
		}
	} else {
		copy(z, r)
		for _, g := range s.ground { // the grounded rows: 0 in the sweeps
			*(*[wide]T)(z[g*wide:]) = [wide]T{}
		}
	}
	sweeps(s, w)
	if s.perm != nil { // scatter (the grounded rows come out 0: 1/F_gg = 0)
		for k, v := range s.perm {
			*(*[wide]T)(z[int(v)*wide:]) = *(*[wide]T)(w[k*wide:])
		}
	}
	for _, g := range s.ground {
		if d := T(s.fdeg32[g]); d > 0 {
			zg, rg := (*[wide]T)(z[g*wide:]), (*[wide]T)(r[g*wide:])
			for q := range wide {
				zg[q] = rg[q] / d
			}
		}
	}
	centre(s, z)
}

// sweeps solves F Fᵀ z = z in place for a block of wide sides, F the
// factor (in its own numbering).
func sweeps[T real](s *Solver, z []T) {
	lo, up := &s.lower, &s.upper
	if z32, ok := any(z).([]float32); ok && useAVX && s.n > 0 {
		_ = z32[s.n*wide-1]
		// The forward kernel reads row i's terms from start[i] to mid[i]
		// ascending, the backward one from start[i+1] − 1 down to mid[i]:
		// lower's rows are [start[i], start[i+1]) with mid = start + 1 row,
		// upper's with mid = start.
		forward16F32(&z32[0], &lo.start[0], &lo.start[1], lo.adjPtr(), lo.facPtr(), &s.finv32[0], s.n)
		backward16F32(&z32[0], &up.start[0], &up.start[0], up.adjPtr(), up.facPtr(), &s.finv32[0], s.n)
		return
	}
	for i := range s.n { // F w = r: row i of F, ascending
		eliminate(s, lo, z, i, lo.start[i], lo.start[i+1], 1)
	}
	for i := s.n - 1; i >= 0; i-- { // Fᵀ z = w: row i of Fᵀ, descending
		eliminate(s, up, z, i, up.start[i+1]-1, up.start[i]-1, -1)
	}
}

// eliminate sets z_i = (z_i − Σ_p fac_p·z_{adj_p})·finv_i over the
// triangle t's entries p from from to to (exclusive) by step dir, the
// terms subtracted in that order: one row of a triangular sweep, bit for
// bit the AVX kernels' for float32.
func eliminate[T real](s *Solver, t *triangle, z []T, i, from, to, dir int) {
	zi := (*[wide]T)(z[i*wide:])
	acc := *zi
	for p := from; p != to; p += dir {
		f := T(t.fac[p])
		zj := (*[wide]T)(z[int(t.adj[p])*wide:])
		for q := range acc {
			acc[q] -= f * zj[q]
		}
	}
	inv := T(s.finv32[i])
	for q := range acc {
		acc[q] *= inv
	}
	*zi = acc
}

// centre subtracts from every side its mean on each component (sums in
// float64): Π, the projection on the range of L.
func centre[T real](s *Solver, z []T) {
	if z32, ok := any(z).([]float32); ok && s.count == 1 && useAVX && s.n > 0 {
		var sum [wide]float64
		var mean [wide]float32
		sum16F32(&sum[0], &z32[0], s.n)
		for q := range wide {
			mean[q] = float32(sum[q] / s.size[0])
		}
		shift16F32(&z32[0], &mean[0], s.n)
		return
	}
	sum := make([]float64, s.count*wide)
	for i := range s.n {
		acc, zi := (*[wide]float64)(sum[int(s.comp[i])*wide:]), (*[wide]T)(z[i*wide:])
		for q := range wide {
			acc[q] += float64(zi[q])
		}
	}
	mean := make([]T, s.count*wide)
	for k := range s.count {
		for q := range wide {
			mean[k*wide+q] = T(sum[k*wide+q] / s.size[k])
		}
	}
	for i := range s.n {
		mk, zi := (*[wide]T)(mean[int(s.comp[i])*wide:]), (*[wide]T)(z[i*wide:])
		for q := range wide {
			zi[q] -= mk[q]
		}
	}
}

// fullPtr is the first entry of full for the kernels, nil when empty (no
// row reads it then).
func (s *Solver) fullPtr() *int32 {
	if len(s.full) == 0 {
		return nil
	}
	return &s.full[0]
}
