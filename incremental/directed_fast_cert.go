package incremental

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"gonum.org/v1/gonum/floats"

	"github.com/ohmgnn/ohm/incremental/hops"
	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/linalg"
)

// fastResidual evaluates Res = M Y + Y Mᵀ − Π for SCC s (Y = X_S/2, M from
// the solver's rows, which follow the graph) and returns
// ρ = min(‖Res‖_F, max_a Σ_b |Res_ab|), an upper bound on ‖Res‖₂. With
// P = L X (rows: d_a X_a − Σ_{a→k} X_k) and x = wᵀX,
// Res_ab = (P_ab + P_ba + x_a + x_b)/2 − δ_ab + 1/n. O(nnz(L)·n + n²) time,
// split by rows over Options.Workers goroutines; n² floats of workspace kept
// per SCC.
func (e *Directed) fastResidual(s int) (float64, error) {
	c := &e.sccs[s]
	c.full() // the product L X reads whole rows
	f := c.fast
	raw := c.x.RawSymmetric()
	n, st := raw.N, raw.Stride
	if len(f.res) != n*n {
		f.res = make([]float64, n*n)
	}
	P := f.res
	rows, w := f.solver.rows, f.solver.w
	workers := max(1, min(e.opt.Workers, n/64))
	wx := make([][]float64, workers)
	parallel.Rows(workers, n, func(t, lo, hi int) {
		acc := make([]float64, n)
		for a := lo; a < hi; a++ {
			pa := P[a*n : a*n+n]
			xa := raw.Data[a*st : a*st+n]
			floats.ScaleTo(pa, float64(len(rows[a])), xa)
			for _, k := range rows[a] {
				floats.Sub(pa, raw.Data[k*st:k*st+n])
			}
			if wa := w[a]; wa != 0 {
				floats.AddScaled(acc, wa, xa)
			}
		}
		wx[t] = acc
	})
	x := wx[0]
	for t := 1; t < workers; t++ {
		floats.Add(x, wx[t])
	}
	inv := 1 / float64(n)
	fro := make([]float64, workers)
	rs := make([][]float64, workers)
	bad := make([]bool, workers)
	// The upper triangle tile by tile, so that P_ba is read from a few rows
	// kept in cache.
	const tile = 64
	nt := (n + tile - 1) / tile
	linalg.ParallelTriangle(workers, nt, func(t, lo, hi int) {
		sum := make([]float64, n)
		var f2 float64
		for it := lo; it < hi; it++ {
			a0, a1 := it*tile, min(it*tile+tile, n)
			for b0 := a0; b0 < n; b0 += tile {
				b1 := min(b0+tile, n)
				for a := a0; a < a1; a++ {
					pa := P[a*n : a*n+n]
					xa := x[a] + 2*inv
					for b := max(b0, a); b < b1; b++ {
						v := (pa[b] + P[b*n+a] + xa + x[b]) / 2
						if a == b {
							v--
							f2 += v * v
							sum[a] += math.Abs(v)
							continue
						}
						f2 += 2 * v * v
						av := math.Abs(v)
						sum[a] += av
						sum[b] += av
					}
				}
			}
		}
		if math.IsNaN(f2) || math.IsInf(f2, 0) {
			bad[t] = true
		}
		fro[t], rs[t] = f2, sum
	})
	var f2 float64
	for t := range workers {
		if bad[t] {
			return 0, errors.New("incremental: the residual of the fast update is not finite")
		}
		f2 += fro[t]
		if t > 0 {
			for a, v := range rs[t] {
				rs[0][a] += v
			}
		}
	}
	return math.Min(math.Sqrt(f2), slices.Max(rs[0])), nil
}

// fastSolveSCC is solveSCC in the fast mode: the low-rank update of SCC s
// with its pending edits, its scan, the merge of the maxima and the check of
// the next decisions.
func (e *Directed) fastSolveSCC(s int) error {
	if err := e.fastUpdate(s); err != nil {
		return err
	}
	done := e.fastTimer(&e.fast.stats.ScanSeconds)
	e.sccs[s].scan(e.dist)
	e.mergeMax()
	done()
	return e.fastCertify()
}

// fastCommit is Commit in the fast mode.
func (e *Directed) fastCommit() error {
	dirty := slices.Clone(e.dirty)
	e.dirty = e.dirty[:0]
	for _, s := range dirty {
		if err := e.fastUpdate(s); err != nil {
			return err
		}
		done := e.fastTimer(&e.fast.stats.ScanSeconds)
		e.sccs[s].scan(e.dist)
		done()
	}
	e.mergeMax()
	return e.fastCertify()
}

// errOf is the error bound of a score r of SCC s (0 when exact).
func (e *Directed) errOf(s int, r float64) float64 {
	if f := e.sccs[s].fast; f != nil {
		return f.bound(r)
	}
	return 0
}

// fastCertify checks that MaxPair and the removal order are decided by the
// scores with margins above their error bounds. An SCC for which they are
// not is first checked densely when its bound is a carried one
// (directed_fast_bound.go: the measured residual is the tighter bound), and
// solved exactly when it still is not, or was already measured (an exact SCC
// has bound 0, so a few rounds suffice).
func (e *Directed) fastCertify() error {
	st := &e.fast.stats
	defer e.fastTimer(&st.CertifySeconds)()
	for range 4 {
		bad := append(e.uncertainAdd(e.skip), e.uncertainRemove()...)
		slices.Sort(bad)
		bad = slices.Compact(bad)
		bad = slices.DeleteFunc(bad, func(s int) bool { return e.sccs[s].fast == nil || e.sccs[s].fast.rho == 0 })
		if len(bad) == 0 {
			return nil
		}
		for _, s := range bad {
			if f := e.sccs[s].fast; f.since > 0 || f.checkNext {
				st.CertifyChecks++
				if err := e.fastCheck(s); err == nil {
					continue
				}
				st.ResidualFallbacks++
			} else {
				st.MarginFallbacks++
			}
			st.Fallbacks++
			if err := e.fastExact(s); err != nil {
				return err
			}
			e.sccs[s].scan(e.dist)
		}
		e.mergeMax()
	}
	return nil
}

// uncertainAdd returns the SCCs whose scores could change the decision of
// MaxPair(skip) within their error bounds (see the fast mode's description):
// every pair whose membership of the top tie window, or (per hop) of the
// second key's window, is not decided by a margin above the error bounds of
// its score and of the maximum flags its SCC and the maximum's. The
// row-major choice inside the windows is exact. O(number of SCCs) plus a
// pass over the pairs of each SCC whose maximum is near the threshold.
func (e *Directed) uncertainAdd(skip []Pair) []int {
	keyed := e.dist != nil
	tops := make(map[int]float64, len(e.big))
	gbest, sb := math.Inf(-1), -1
	for _, s := range e.big {
		top := e.sccs[s].track.Best()
		if len(skip) > 0 {
			t := &rank.Max{Keyed: keyed, Exclude: skip}
			e.sccs[s].scanInto(t, e.dist)
			top = t.Best()
		}
		tops[s] = top
		if top > gbest {
			gbest, sb = top, s
		}
	}
	if sb < 0 {
		return nil
	}
	th := gbest - rank.Tol(gbest)
	errTh := e.errOf(sb, gbest)
	type near struct {
		p Pair
		s int
	}
	var bad []int
	var window []near
	for _, s := range e.big {
		top := tops[s]
		errTop := e.errOf(s, top)
		if math.IsInf(top, -1) || (top < th && th-top > errTop+errTh) {
			continue
		}
		lo := th - errTop - errTh
		e.sccs[s].pairsAbove(e.dist, lo, func(p Pair) {
			skipped := func(p Pair) bool { return slices.ContainsFunc(skip, func(q Pair) bool { return rank.Same(p, q) }) }
			// Unkeyed, a skipped (i, j) stands for its mirror (j, i),
			// which has its score and is ranked once (i, j) is skipped.
			if skipped(p) && (keyed || skipped(Pair{U: p.V, V: p.U})) {
				return
			}
			ep := e.errOf(s, max(p.Score, p.Key))
			if m := ep + errTh; m > 0 && math.Abs(p.Score-th) <= m {
				bad = append(bad, s, sb)
			}
			if p.Score >= th {
				window = append(window, near{p, s})
			}
		})
	}
	if !keyed || len(window) == 0 {
		return bad
	}
	k, sk := math.Inf(-1), -1
	for _, w := range window {
		if w.p.Key > k {
			k, sk = w.p.Key, w.s
		}
	}
	kth, errK := k-rank.Tol(k), e.errOf(sk, k)
	for _, w := range window {
		if m := e.errOf(w.s, w.p.Key) + errK; m > 0 && math.Abs(w.p.Key-kth) <= m {
			bad = append(bad, w.s, sk)
		}
	}
	return bad
}

// pairsAbove calls f, in the scan's order (row-major; ordered pairs with
// per-hop scores, R as Key), for every pair of the SCC scoring at least lo.
// O(n_S²). A large SCC is scored by up to c.workers goroutines over
// consecutive ranges of rows, each collecting its pairs, then f is called
// on them in order; a range that collects more than pairsAboveCap pairs
// (a loose lo) stops the split, and the SCC is scored in one pass.
func (c *dirSCC) pairsAbove(dist *hops.Distances, lo float64, f func(Pair)) {
	if dist != nil {
		c.full() // per hop, every ordered pair: whole rows
	}
	w := c.scanWorkers()
	if w > 1 {
		parts := make([][]Pair, w)
		var over atomic.Bool
		c.splitRows(w, dist == nil, func(k, r0, r1 int) {
			c.pairsAboveRows(dist, lo, r0, r1, func(p Pair) bool {
				parts[k] = append(parts[k], p)
				if len(parts[k]) > pairsAboveCap {
					over.Store(true)
				}
				return !over.Load()
			})
		})
		if !over.Load() {
			for _, ps := range parts {
				for _, p := range ps {
					f(p)
				}
			}
			return
		}
	}
	c.pairsAboveRows(dist, lo, 0, len(c.members), func(p Pair) bool { f(p); return true })
}

// pairsAboveCap bounds the pairs a range of a split pairsAbove collects.
const pairsAboveCap = 1 << 16

// pairsAboveRows is pairsAbove for rows [r0, r1), in one pass; it stops
// when f returns false.
func (c *dirSCC) pairsAboveRows(dist *hops.Distances, lo float64, r0, r1 int, f func(Pair) bool) {
	raw := c.x.RawSymmetric()
	n, st := raw.N, raw.Stride
	diag := c.diag()
	for a := r0; a < r1; a++ {
		row := raw.Data[a*st : a*st+n]
		i := c.members[a]
		if dist == nil {
			if c.rowMaxOK && !(c.rowMax[a] >= lo) {
				continue // no pair of the row scores lo (the last scan's maximum)
			}
			xa := row[a]
			for b := a + 1; b < n; b++ {
				if s := xa + diag[b] - 2*row[b]; s >= lo {
					if !f(Pair{U: i, V: c.members[b], Score: s}) {
						return
					}
				}
			}
			continue
		}
		drow := dist.Row(i)
		for b := range n {
			if b == a {
				continue
			}
			j := c.members[b]
			h := drow[j]
			if h == hops.Unreachable || h == 0 {
				continue
			}
			r := row[a] + diag[b] - 2*row[b]
			if belowPerHop(r, float64(h), lo) {
				continue
			}
			if s := r / float64(h); s >= lo {
				if !f(Pair{U: i, V: j, Score: s, Key: r}) {
					return
				}
			}
		}
	}
}

// uncertainRemove returns the SCCs whose scores could change the removal
// decision of definitions §3 within their error bounds: it simulates the tie order
// of the arcs inside SCCs (ascending resistance; the least remaining score m
// sets th = m + rank.Tol(m); the first arc in row-major order among those at
// or below th is next) up to the first arc whose removal keeps its SCC
// strongly connected in the current graph, and flags every arc within the
// error bounds of a threshold. O(m log m) plus one tarjan query per step.
func (e *Directed) uncertainRemove() []int {
	var arcs []scoredArc
	anyErr, maxErr := false, 0.0
	for u := range e.n {
		s := e.comp[u]
		c := &e.sccs[s]
		for _, v := range e.g.Out(u) {
			if e.comp[v] != s {
				continue
			}
			r := c.r(e.local[u], e.local[v])
			er := e.errOf(s, r)
			anyErr = anyErr || er > 0
			maxErr = math.Max(maxErr, er)
			arcs = append(arcs, scoredArc{Pair{U: u, V: v, Score: r}, s, er, len(arcs)})
		}
	}
	if !anyErr {
		return nil
	}
	// By score, ties in the order collected (row-major), taken from a heap
	// as far as the simulation goes (arcOrder: the sorted order).
	ord := newArcOrder(arcs)
	removed := make(map[int]bool)
	var bad []int
	for head := 0; ; {
		for _, ok := ord.at(head); ok && removed[head]; _, ok = ord.at(head) {
			head++
		}
		h, ok := ord.at(head)
		if !ok {
			return bad
		}
		m := h.p.Score
		th := m + rank.Tol(m)
		errM := h.err
		flag := func(a *scoredArc) { bad = append(bad, a.s, h.s) }
		pick := -1
		var pa *scoredArc
		k := head
		for a, ok := ord.at(k); ok && a.p.Score <= th; a, ok = ord.at(k) {
			if !removed[k] {
				if pick < 0 || rank.RowMajorLess(a.p, pa.p) {
					pick, pa = k, a
				}
				if th-a.p.Score <= a.err+errM && a.err+errM > 0 {
					flag(a)
				}
			}
			k++
		}
		for a, ok := ord.at(k); ok && a.p.Score-th <= maxErr+errM; a, ok = ord.at(k) {
			if !removed[k] && a.p.Score-th <= a.err+errM {
				flag(a)
			}
			k++
		}
		removed[pick] = true
		if p := pa.p; !e.search.SplitsSCC(e.g, p.U, p.V) {
			return bad
		}
	}
}

// fastRAfterAdd returns R_ab after adding the arc x→y (all four in SCC s, the
// arc absent) by a low-rank solve, M_c Δ + Δ M_cᵀ = −(a gᵀ + g aᵀ) with
// M_c = M + Π e_x (e_x − e_y)ᵀ, a = Π e_x, g = Y(e_x − e_y), and
// R' = R_ab + 2 bᵀΔb: no O(n²) work. It also returns the error bound of R':
// the residual of Y + Δ under M_c is the current residual plus the ADI
// residual, so the bound is that of the fast mode with ρ + ‖ADI residual‖₂.
// Cost: one single solve per shift (the candidate's Sherman–Morrison vector)
// and an ADI iteration with two right-hand sides.
func (e *Directed) fastRAfterAdd(s, a, b, x, y int) (float64, float64, error) {
	defer e.fastTimer(&e.fast.stats.CandidateSeconds)()
	f := e.sccs[s].fast
	if f.stale {
		if err := e.fastRebuild(s); err != nil {
			return 0, 0, err
		}
	}
	f.solver.setCandidate(e.local[x], e.local[y])
	r, bound, steps, err := e.candidateR(s, a, b, x, y, adiRelTol, f.solver.solve)
	f.solver.setCandidate(-1, 0)
	if err != nil {
		return 0, 0, err
	}
	e.fast.stats.Candidates++
	e.fast.stats.ADISteps += steps
	return r, bound, nil
}

// candidateR is the low-rank solve of fastRAfterAdd with the ADI's relative
// residual target and the shifted solve of M_c given (the candidate arc x→y
// included): R_ab after adding x→y, its error bound and the ADI steps. It
// only reads the engine, so that candidates may run concurrently
// (fastCandidates).
func (e *Directed) candidateR(s, a, b, x, y int, relTol float64, solve linalg.ShiftedSolve) (float64, float64, int, error) {
	c := &e.sccs[s]
	f := c.fast
	n := len(c.members)
	lx, ly := e.local[x], e.local[y]
	W := make([]float64, n*2)
	inv := 1 / float64(n)
	c.colDiff(lx, ly, W, 2, 1)
	for i := range n {
		W[i*2] = -inv
	}
	W[lx*2]++
	S := []float64{0, -1, -1, 0}
	lr, info, err := e.adiWith(f, W, 2, S, -1, relTol, adiAbsTol, solve)
	if err != nil {
		return 0, 0, 0, err
	}
	la, lb := e.local[a], e.local[b]
	r := c.r(la, lb) + 2*lr.Quad([]int{la, lb}, []float64{1, -1})
	rho := math.Min(f.rho+info.Residual, 0.5)
	return r, boundSafety*rho/(1-rho)*math.Abs(r) + f.eta, info.Steps, nil
}

// fastCandidates sets rs[q] and errs[q] to R_ab after adding x→ys[q] and
// its error bound, by candidateR to the ADI's relative target relTol, for
// every ys[q] (with only[q], when only is not nil) that makes x→ys[q] a
// candidate, and done[q] where that succeeded. The candidates are spread
// over Options.Workers goroutines, each with its own scratch (solverFor),
// the Sherman–Morrison vectors of the tail x solved once for all: every
// candidate's arithmetic, and so its bits, is the same as fastRAfterAdd's
// with the same target, whatever the split.
func (e *Directed) fastCandidates(s, a, b, x int, ys []int, rs, errs []float64, done []bool, relTol float64, only []bool) {
	defer e.fastTimer(&e.fast.stats.CandidateSeconds)()
	f := e.sccs[s].fast
	if f.stale {
		if err := e.fastRebuild(s); err != nil {
			return
		}
	}
	var qs []int
	for q, y := range ys {
		if !e.g.HasEdge(x, y) && x != y && (only == nil || only[q]) {
			qs = append(qs, q)
		}
	}
	if len(qs) == 0 {
		return
	}
	steps := make([]int, len(ys))
	// The candidates share their tail x, and so the Sherman–Morrison
	// vectors (L + p_j I)⁻¹ e_x.
	hs := f.solver.candidateHs(e.local[x])
	parallel.Each(e.opt.Workers, len(qs), func(_, k int) {
		q := qs[k]
		cand := &shiftCandidate{x: e.local[x], y: e.local[ys[q]], h: hs}
		r, er, st, err := e.candidateR(s, a, b, x, ys[q], relTol, f.solver.solverFor(cand))
		if err == nil {
			rs[q], errs[q], steps[q], done[q] = r, er, st, true
		}
	})
	for _, q := range qs {
		if done[q] {
			e.fast.stats.Candidates++
			e.fast.stats.ADISteps += steps[q]
			if relTol != adiRelTol {
				e.fast.stats.CandidateCoarse++
			}
		}
	}
}

// coarseRelTol is the ADI's relative residual target of MinRAfterAdd's
// first pass over the candidates: their scores are then bounded to about
// 1e-6 relative, in about 13 steps instead of 30 (a 400-node random
// digraph), enough to rule out every candidate whose margin to the tie
// window exceeds its bound; the others are solved again to adiRelTol
// (refineCandidates).
const coarseRelTol = 1e-6

// refineCandidates solves again, to the ADI's full target, every candidate
// of a coarse pass (fine[q] false) that may lie in the tie window of the
// least score within the error bounds, until none may: those left coarse
// are outside the window by more than their bounds, and the candidates in
// it, the one MinRAfterAdd picks among them, carry the scores and bounds of
// a full solve. A candidate whose solve fails is solved exactly
// (RAfterAdd).
func (e *Directed) refineCandidates(s, a, b, x int, ys []int, rs, errs []float64, fine []bool) {
	for {
		best, kb := math.Inf(1), -1
		for q, r := range rs {
			if r < best {
				best, kb = r, q
			}
		}
		th := best + rank.Tol(best)
		redo := make([]bool, len(ys))
		any := false
		for q, r := range rs {
			if !fine[q] && r-th <= errs[q]+errs[kb] {
				redo[q], any = true, true
			}
		}
		if !any {
			return
		}
		done := make([]bool, len(ys))
		e.fastCandidates(s, a, b, x, ys, rs, errs, done, adiRelTol, redo)
		for q := range ys {
			if redo[q] {
				if !done[q] {
					rs[q], _ = e.RAfterAdd(a, b, x, ys[q])
					errs[q] = 0
				}
				fine[q] = true
			}
		}
	}
}

// MinRAfterAdd returns, among the arcs x→y for y in ys, the one whose
// addition alone leaves R_ab least, with definitions §3.1's tie rule for a minimum
// (rank.First, ascending: scores within rank.Tol of the least are equal; the
// smallest y wins), as Pair{x, y, R_ab after adding it}, and true; false
// when ys is empty. Every y must make x→y a candidate: x ≠ y, no arc x→y, x
// and y in one SCC; a and b must be in one SCC. It is definitions §3.3's step 1,
// second case, for one side.
//
// Without the fast mode it calls RAfterAdd for each candidate. In the fast
// mode each candidate costs a low-rank solve (fastRAfterAdd) with an error
// bound, first to a coarse target (coarseRelTol), then again to the full one
// for the candidates that may lie in the tie window (refineCandidates), and
// the choice is checked: when a candidate lies within the error
// bounds of the tie threshold, the candidates concerned are solved exactly
// (solveX, O(n_S³) each; counted in FastStats.CandidateExact) and the
// choice is made again.
func (e *Directed) MinRAfterAdd(a, b, x int, ys []int) (Pair, bool) {
	if len(ys) == 0 {
		return Pair{}, false
	}
	rs := make([]float64, len(ys))
	errs := make([]float64, len(ys))
	s := e.comp[x]
	fast := e.fast != nil && e.sccs[s].fast != nil && e.comp[a] == s && e.comp[b] == s && a != b
	done := make([]bool, len(ys))
	if fast {
		e.fastCandidates(s, a, b, x, ys, rs, errs, done, coarseRelTol, nil)
	}
	for q, y := range ys {
		if !done[q] {
			rs[q], _ = e.RAfterAdd(a, b, x, y)
		}
	}
	if fast {
		fine := slices.Clone(done)
		for q := range fine {
			fine[q] = !fine[q]
		}
		e.refineCandidates(s, a, b, x, ys, rs, errs, fine)
	}
	for {
		best, kb := math.Inf(1), -1
		for q, r := range rs {
			if r < best {
				best, kb = r, q
			}
		}
		th := best + rank.Tol(best)
		cand := make([]Pair, len(rs))
		for q, r := range rs {
			cand[q] = Pair{U: x, V: ys[q], Score: r}
		}
		pick := rank.First(cand, rank.Ascending, false)
		var unsure []int
		for q, r := range rs {
			if m := errs[q] + errs[kb]; m > 0 && math.Abs(r-th) <= m {
				unsure = append(unsure, q)
			}
		}
		if len(unsure) == 0 {
			return Pair{U: x, V: ys[pick], Score: rs[pick]}, true
		}
		if errs[kb] > 0 {
			unsure = append(unsure, kb)
		}
		for _, q := range unsure {
			if errs[q] == 0 {
				continue
			}
			X, err := e.solveX(s, x, ys[q])
			if err != nil {
				e.fail(fmt.Errorf("incremental: MinRAfterAdd(%d, %d, %d, %d): %w", a, b, x, ys[q], err))
				return Pair{}, false
			}
			cc := dirSCC{x: X}
			rs[q], errs[q] = cc.r(e.local[a], e.local[b]), 0
			e.fast.stats.CandidateExact++
		}
	}
}
