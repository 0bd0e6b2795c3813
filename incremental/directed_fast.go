package incremental

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/linalg"
)

// The fast directed mode (Options.FastDirected) keeps X_S of every SCC up to
// date through edits by low-rank corrections instead of solving
// M Y + Y Mᵀ = Π again (definitions §2.2).
//
// Update. A batch of edits of one SCC (arcs u_k→v_k added, s_k = +1, or
// removed, s_k = −1) changes M = Π L + J/n into M' = M + Σ_k s_k a_k c_kᵀ with
// a_k = Π e_{u_k} and c_k = e_{u_k} − e_{v_k}. With Y' = Y + Δ,
//
//	M' Δ + Δ M'ᵀ = −Σ_k s_k (a_k g_kᵀ + g_k a_kᵀ),  g_k = Y c_k,
//
// a Lyapunov equation whose right-hand side has rank at most 2 per edit, so
// that Δ is numerically of low rank (on Cora's largest SCC, 2485 nodes:
// 35–45 for one edit, 85–95 for an iteration's addition and removal). The
// low-rank ADI iteration (linalg.SolveLyapunovADI) computes it with
// Wachspress shifts for an interval [a, b] estimated to hold the real parts
// of M's eigenvalues (directed_fast_shifts.go): b = max(1, 1.05·‖L‖₂), ‖L‖₂
// by a power iteration (every eigenvalue of M is 1 or one of ΠL, so
// Re λ ≤ max(1, ‖L‖₂); b never above the Gershgorin bound 2·max
// out-degree), and a = 0.9·min(1, 1/(2λ_max(Y))),
// because every eigenvalue λ ≠ 1 of M has Re λ = zᴴΠz / (2 zᴴYz) ≥
// 1/(2λ_max(Y)) for its left eigenvector z, λ_max(Y) estimated by a power
// iteration. The interval need not be a bound: the ADI's residual decides
// when an update has converged (to updateRelTol). Each step is a sparse
// shifted solve (shiftSolver). The correction is compressed
// (linalg.LowRankSym.Compress) and added to X in about n²·rank
// multiply–adds.
//
// Certificate. The true residual Res = M'Y' + Y'M'ᵀ − Π is evaluated
// (O(nnz(L)·n + n²)) every denseCheckEvery updates and whenever the bound
// carried in between is not enough (directed_fast_bound.go), giving
// ρ = min(‖Res‖_F, max row sum of |Res|) ≥ ‖Res‖₂. Because M' is positive
// stable, the Lyapunov operator has a positive inverse
// (𝓛⁻¹(P) = ∫ e^{−M't} P e^{−M'ᵀt} dt ⪰ 0 for P ⪰ 0), and 𝓛⁻¹(I) = Y + J/(2n)
// (M'1 = 1); so −ρI ⪯ Res ⪯ ρI gives, for b = e_i − e_j (1ᵀb = 0),
//
//	|R̃_ij − R_ij| = 2|bᵀ 𝓛⁻¹(Res) b| ≤ ρ·R_ij ≤ ρ/(1−ρ)·R̃_ij:
//
// every resistance is known to the relative accuracy ρ/(1−ρ). The engine
// takes twice that (the residual's own rounding is of the same order as the
// residual of an exactly rounded solution) plus 16ε·max|X| for the rounding
// of a score, as the error bound of every score of the SCC.
//
// Fallback policy. The SCC is solved again exactly (the dense solve of the
// exact mode, or a Cholesky factorization when its induced subgraph is
// symmetric) when
//   - the low-rank update fails or leaves ρ > maxResidual (1e-10);
//   - MaxPair's decision is not certain: some SCC's first pair at or above
//     the tie threshold th = best − tieTol(best), or the greatest score before
//     it in row-major order, lies within the error bounds of th (the bound of
//     th itself included);
//   - the removal order is not certain: in the order of definitions §3.1 (ascending
//     resistance, ties by row-major order), simulated up to the first arc
//     whose removal keeps its SCC strongly connected in the current graph
//     (the operator removes that arc or an earlier one), some arc lies within
//     the error bounds of a tie window's threshold;
//   - MinRAfterAdd's choice is not certain (then only the candidates near the
//     threshold are solved exactly).
//
// An exactly solved SCC has error bound 0 until its next edit. The counts are
// in FastStats; Directed.Fallbacks is the total of the exact solves of SCCs
// and of candidate arcs.
//
// Speed. The decisions are kept, not the scores' last bits (definitions
// §2.2, rewire-3): the carried residual bound skips most dense residual
// checks, so an exact solve forced by a margin may come at another
// iteration than before; and the products of the update, of the ADI's
// Gram–Schmidt and of the Woodbury correction use fused multiply–adds in
// register blocks where the CPU has them (linalg.LowRankSym.AddToSym,
// linalg.MulAdd), so the scores' last bits depend on the CPU. The
// Woodbury correction of the shifted solves runs without a goroutine per 64 rows, the
// candidate arcs of MinRAfterAdd solved concurrently (sharing the tail's
// Sherman–Morrison vectors), and the scans split by rows over the workers
// (rank.Max.Kept). What ran on one thread in an update is split by rows
// over two goroutines where there are two threads: the Woodbury product of
// the ADI's shifted solves (shiftSolver.solve), the rotations of the
// compression's eigen-decomposition (linalg's symEigVectors, gonum's Dsyev
// otherwise), its product Q·U and the shift estimate's power iteration
// (halfMulVec); each entry is computed as on one goroutine, so a score's
// bits do not depend on --threads. Without per-hop scores the update writes X's upper
// triangle only (linalg.LowRankSym.AddToSymUpper; dirSCC.full mirrors it
// for the readers of whole rows: the residual, the shift estimate), the
// scan keeps each row's maximum so that the certificate's pairsAbove passes
// over the rows near the top only, and the removal check takes the arcs
// from a heap as far as its simulation goes (arcOrder); none of these
// changes a bit of a score. On Cora's 2485-node SCC an iteration's time then goes to
// the update's product (about n²·rank/2 multiply–adds, rank 85–95), the
// residual (the product L X: one pass over X per arc), the ADI's sparse
// shifted solves and, per hop, the case-2 candidates; see
// docs/benchmarks.md.

// maxResidual is the certified residual bound above which an SCC is solved
// again exactly (a variable so that tests can force fallbacks).
var maxResidual = 1e-10

// boundSafety multiplies the relative error bound ρ/(1−ρ) of the scores
// (a variable so that tests can force margin fallbacks).
var boundSafety = 2.0

// adiReduction is the residual reduction the Wachspress shift count aims at.
const adiReduction = 1e-16

// compressTol is the relative eigenvalue threshold of the compression of a
// low-rank correction.
const compressTol = 1e-15

// FastStats counts the work of the fast directed mode (Options.FastDirected).
type FastStats struct {
	Updates           int     // low-rank updates of an SCC (one per edited SCC and Commit)
	Fallbacks         int     // exact solves of an SCC forced by a check: the sum of the next two
	ResidualFallbacks int     // … because an update failed or left a residual bound above 1e-10
	MarginFallbacks   int     // … because MaxPair's or the removal order's margin was within the error bounds
	CandidateExact    int     // exact solves of a candidate arc by MinRAfterAdd (uncertain choice)
	Candidates        int     // low-rank solves of a candidate arc (RAfterAdd, MinRAfterAdd), coarse ones included
	CandidateCoarse   int     // … of them to the coarse target, by MinRAfterAdd's first pass
	Refactorizations  int     // new sparse factorizations of the shifted Laplacians
	ADISteps          int     // shifted block solves of the ADI iterations
	MaxRank           int     // largest rank of a compressed correction
	MaxResidual       float64 // largest residual bound ρ accepted after an update
	DenseChecks       int     // dense residual checks (fastResidual); the other updates carry a bound
	CertifyChecks     int     // … of them made because a decision was not certain under the carried bound
	BoundMisses       int     // dense checks that found the residual above the bound carried to them
	// Wall-clock seconds spent in the phases: the ADI solves of the updates,
	// adding the corrections to X, the residual checks, the scans for the
	// maximum, the decision checks (margins), the candidate solves
	// (RAfterAdd, MinRAfterAdd), the refactorizations (shift estimates
	// included) and the exact solves of the fallbacks.
	ADISeconds, AddSeconds, ResidualSeconds, ScanSeconds, CertifySeconds float64
	CandidateSeconds, RefactorSeconds, ExactSeconds                      float64
}

// dirFast is the state of the fast mode shared by the SCCs.
type dirFast struct {
	pend  map[int][]dirEdit // edits per SCC not yet applied to X
	stats FastStats
}

// dirEdit is one arc edit, in global ids.
type dirEdit struct {
	u, v int
	add  bool
}

// fastSCC is the fast mode's state of one SCC with at least two nodes.
type fastSCC struct {
	solver *shiftSolver
	rho    float64   // certified residual bound of X (0 after an exact solve)
	eta    float64   // absolute rounding allowance of a score
	pvec   []float64 // power-iteration vector of λ_max(Y)
	lamY   float64   // its estimate of λ_max(Y)
	lvec   []float64 // power-iteration vector of ‖L‖₂ (lapNorm)
	dmax   int       // largest out-degree inside the SCC at the last estimate
	res    []float64 // n×n workspace of the residual
	stale  bool      // the solver's rows may disagree with the graph

	// The carried residual bound (directed_fast_bound.go).
	mnorm     float64 // bound on ‖M‖₂ for the solver's rows
	drift     float64 // rounding allowance ϑ per update
	lastMeas  float64 // ρ at the last dense check (0 after an exact solve)
	window    float64 // ADI terms carried since then
	since     int     // updates since then
	checkNext bool    // the next update is checked densely
	fromExact bool    // the window started at an exact solve, not a dense check
}

// FastStats returns the counters of the fast mode (zero without it). O(1).
func (e *Directed) FastStats() FastStats {
	if e.fast == nil {
		return FastStats{}
	}
	return e.fast.stats
}

// Fallbacks returns how many times the fast mode solved an SCC or a
// candidate arc exactly because a residual or a decision margin was not
// safely above the error bound: FastStats().Fallbacks plus
// FastStats().CandidateExact. O(1).
func (e *Directed) Fallbacks() int {
	s := e.FastStats()
	return s.Fallbacks + s.CandidateExact
}

// ErrorBound returns the fast mode's current bound on |R̃_ij − R_ij| for a
// pair of SCC s scoring r (0 for an exactly solved SCC or without the fast
// mode). O(1).
func (e *Directed) ErrorBound(s int, r float64) float64 {
	c := &e.sccs[s]
	if c.fast == nil || c.fast.rho == 0 {
		return 0
	}
	return c.fast.bound(r)
}

// bound is the error bound of a score r of the SCC.
func (f *fastSCC) bound(r float64) float64 {
	if f.rho == 0 {
		return 0
	}
	rho := math.Min(f.rho, 0.5)
	return boundSafety*rho/(1-rho)*math.Abs(r) + f.eta
}

// noteEdit records an edit for the fast update of its SCC.
func (e *Directed) noteEdit(u, v int, add bool) {
	if e.fast == nil {
		return
	}
	s := e.comp[u]
	e.fast.pend[s] = append(e.fast.pend[s], dirEdit{u, v, add})
}

// localRows returns the out-neighbour lists of SCC s's members in local ids,
// restricted to the SCC, from the current graph.
func (e *Directed) localRows(s int) [][]int {
	members := e.sccs[s].members
	rows := make([][]int, len(members))
	for a, i := range members {
		for _, j := range e.g.Out(i) {
			if e.comp[j] == s {
				rows[a] = append(rows[a], e.local[j])
			}
		}
		slices.Sort(rows[a])
	}
	return rows
}

// exactX solves SCC s exactly: by a Cholesky factorization of L + J/n when
// the subgraph induced by s is symmetric (then X = L⁺, O(n³/3)), else by
// solveX (Bartels–Stewart, O(n³)).
func (e *Directed) exactX(s int) (*mat.SymDense, error) {
	members := e.sccs[s].members
	sym := true
	for _, i := range members {
		for _, j := range e.g.Out(i) {
			if e.comp[j] == s && !e.g.HasEdge(j, i) {
				sym = false
				break
			}
		}
		if !sym {
			break
		}
	}
	if !sym {
		return e.solveX(s, -1, -1)
	}
	n := len(members)
	inv := 1 / float64(n)
	A := mat.NewSymDense(n, nil)
	raw := A.RawSymmetric()
	for a := range raw.Data {
		raw.Data[a] = inv
	}
	for a, i := range members {
		for _, j := range e.g.Out(i) {
			if e.comp[j] == s {
				raw.Data[a*raw.Stride+a]++
				if b := e.local[j]; b > a {
					raw.Data[a*raw.Stride+b]--
				}
			}
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(A) {
		return e.solveX(s, -1, -1)
	}
	var P mat.SymDense
	if err := ch.InverseTo(&P); err != nil {
		return e.solveX(s, -1, -1)
	}
	X := mat.NewSymDense(n, nil)
	xraw, praw := X.RawSymmetric(), P.RawSymmetric()
	for a := range n {
		for b := a; b < n; b++ {
			v := praw.Data[a*praw.Stride+b] - inv
			xraw.Data[a*xraw.Stride+b] = v
			xraw.Data[b*xraw.Stride+a] = v
		}
	}
	return X, nil
}

// fastInit builds the fast state of every SCC with at least two nodes after
// an exact solve of all of them (Refresh).
func (e *Directed) fastInit() error {
	for _, s := range e.big {
		c := &e.sccs[s]
		f := &fastSCC{}
		c.fast = f
		if err := e.fastRebuild(s); err != nil {
			return err
		}
		f.exactWindow()
		e.setEta(s)
	}
	clear(e.fast.pend)
	return nil
}

// fastTimer returns a function that adds the seconds since the call to *acc.
func (e *Directed) fastTimer(acc *float64) func() {
	t0 := time.Now()
	return func() { *acc += time.Since(t0).Seconds() }
}

// fastRebuild estimates the shifts from the current X and graph and builds
// a new shift solver for SCC s.
func (e *Directed) fastRebuild(s int) error { return e.fastRebuildFrom(s, e.localRows(s)) }

// estimateShifts returns Wachspress shifts for [a, b] (see the fast mode's
// description), updating the power-iteration estimate of λ_max(Y), Y = X/2
// (30 steps from the previous vector, O(n²) each).
func (f *fastSCC) estimateShifts(X *mat.SymDense, rows [][]int) []float64 {
	raw := X.RawSymmetric()
	n := raw.N
	steps := 12
	if len(f.pvec) != n {
		f.pvec = make([]float64, n)
		for i := range f.pvec {
			f.pvec[i] = math.Sin(float64(i)+1) + 0.5*math.Cos(3*float64(i))
		}
		steps = 40
	}
	impl := blas64.Implementation()
	x := f.pvec
	impl.Dscal(n, 1/impl.Dnrm2(n, x, 1), x, 1)
	y := make([]float64, n)
	var lam float64
	for range steps {
		halfMulVec(raw, x, y)
		ny := impl.Dnrm2(n, y, 1)
		if ny == 0 || math.IsNaN(ny) {
			break
		}
		lam = ny
		for i := range x {
			x[i] = y[i] / ny
		}
	}
	f.lamY = lam
	f.dmax = 0
	for _, r := range rows {
		f.dmax = max(f.dmax, len(r))
	}
	b := math.Max(1, math.Min(2*float64(f.dmax), shiftTopSafety*f.lapNorm(rows)))
	a := 0.5
	if lam > 0 {
		a = math.Min(1, 1/(2*lam)) * shiftBottomSafety
	}
	a = math.Min(a, b)
	J := linalg.WachspressCount(a, b, adiReduction)
	return linalg.WachspressShifts(a, b, J)
}

// halfMulVec sets y = X·x/2 for the n×n X (all of it read): gonum's
// Dgemv(NoTrans, n, n, 0.5, X, x, 0, y) on blocks of rows starting at
// multiples of 4, split over GOMAXPROCS goroutines for n ≥ 512 (Dgemv's
// kernel takes the rows four at a time from the block's first, so each row
// gets the operations it gets in one call: the same bits). O(n²).
func halfMulVec(raw blas64.Symmetric, x, y []float64) {
	n := raw.N
	impl := blas64.Implementation()
	w := runtime.GOMAXPROCS(0)
	if w < 2 || n < 512 {
		impl.Dgemv(blas.NoTrans, n, n, 0.5, raw.Data, raw.Stride, x, 1, 0, y, 1)
		return
	}
	groups := (n + 3) / 4
	parallel.Rows(w, groups, func(_, g0, g1 int) {
		r0, r1 := 4*g0, min(n, 4*g1)
		if r1 > r0 {
			impl.Dgemv(blas.NoTrans, r1-r0, n, 0.5, raw.Data[r0*raw.Stride:], raw.Stride, x, 1, 0, y[r0:r1], 1)
		}
	})
}

// setEta sets the rounding allowance of the scores of SCC s: 16ε·max|X|.
func (e *Directed) setEta(s int) {
	c := &e.sccs[s]
	raw := c.x.RawSymmetric()
	var mx float64
	for a := range raw.N {
		mx = math.Max(mx, math.Abs(raw.Data[a*raw.Stride+a]))
	}
	// |X_ab| ≤ sqrt(X_aa X_bb) for the positive semidefinite X.
	c.fast.eta = 16 * 0x1p-53 * mx
}

// fastExact solves SCC s exactly and marks its scores exact.
func (e *Directed) fastExact(s int) error {
	t0 := time.Now()
	X, err := e.exactX(s)
	e.fast.stats.ExactSeconds += time.Since(t0).Seconds()
	if err != nil {
		return err
	}
	c := &e.sccs[s]
	c.setX(X)
	c.fast.exactWindow()
	e.setEta(s)
	if c.fast.stale {
		return e.fastRebuild(s)
	}
	return nil
}

// fastUpdate applies the pending edits of SCC s to X_S by a low-rank
// correction and bounds its residual: by the carried bound
// (directed_fast_bound.go) or, every denseCheckEvery updates and whenever
// that bound would pass maxResidual, by a dense check; it falls back to an
// exact solve when the update fails or the measured residual exceeds
// maxResidual.
func (e *Directed) fastUpdate(s int) error {
	edits := e.fast.pend[s]
	delete(e.fast.pend, s)
	c := &e.sccs[s]
	f := c.fast
	if len(edits) == 0 {
		return nil
	}
	st := &e.fast.stats
	info, err := e.lowRankUpdate(s, edits)
	if err == nil {
		pred, terms := f.carried(info.Residual, info.Dropped)
		f.since++
		f.window += terms
		if !f.checkNext && f.since < denseCheckEvery && pred <= maxResidual {
			f.rho = pred
			st.MaxResidual = math.Max(st.MaxResidual, pred)
			e.setEta(s)
			return nil
		}
		f.rho = pred
		if err = e.fastCheck(s); err == nil {
			return nil
		}
	}
	return e.residualFallback(s, err)
}

// fastCheck measures the residual of SCC s densely (fastResidual), records
// it as the SCC's bound, and returns an error when it is not finite or
// above maxResidual.
func (e *Directed) fastCheck(s int) error {
	c := &e.sccs[s]
	f := c.fast
	st := &e.fast.stats
	t0 := time.Now()
	rho, err := e.fastResidual(s)
	st.ResidualSeconds += time.Since(t0).Seconds()
	if err != nil {
		return err
	}
	if !(rho <= maxResidual) {
		return fmt.Errorf("incremental: residual bound %.3g above %.3g", rho, maxResidual)
	}
	f.measured(rho, len(c.members), !f.fromExact, st)
	f.checkNext, f.fromExact = false, false
	st.MaxResidual = math.Max(st.MaxResidual, rho)
	e.setEta(s)
	return nil
}

// residualFallback solves SCC s exactly after its update or residual check
// failed with err, and counts the fallback.
func (e *Directed) residualFallback(s int, err error) error {
	st := &e.fast.stats
	f := e.sccs[s].fast
	st.ResidualFallbacks++
	st.Fallbacks++
	if err := e.fastExact(s); err != nil {
		// X may hold a partial update: mark it unusable, so that the next
		// check solves the SCC again (Refresh restores the engine at once).
		f.rho, f.stale = math.Inf(1), true
		return err
	}
	return nil
}

// lowRankUpdate adds the low-rank correction of the edits to X_S and returns
// its ADI's report.
func (e *Directed) lowRankUpdate(s int, edits []dirEdit) (linalg.ADIInfo, error) {
	c := &e.sccs[s]
	f := c.fast
	n := len(c.members)
	raw := c.x.RawSymmetric()
	// Right-hand side −Σ s_k (a_k g_kᵀ + g_k a_kᵀ) = W S Wᵀ, from the old X.
	k := 2 * len(edits)
	W := make([]float64, n*k)
	S := make([]float64, k*k)
	inv := 1 / float64(n)
	for q, ed := range edits {
		u, v := e.local[ed.u], e.local[ed.v]
		sg := 1.0
		if !ed.add {
			sg = -1
		}
		c.colDiff(u, v, W, k, 2*q+1)
		for i := range n {
			W[i*k+2*q] = -inv
		}
		W[u*k+2*q]++
		S[(2*q)*k+2*q+1] = -sg
		S[(2*q+1)*k+2*q] = -sg
	}
	// The solver follows the graph: new rows for the edited tails.
	if f.stale {
		if err := e.fastRebuild(s); err != nil {
			return linalg.ADIInfo{}, err
		}
	} else {
		upd := map[int][]int{}
		for _, ed := range edits {
			upd[e.local[ed.u]] = nil
		}
		rows := e.localRows(s)
		for a := range upd {
			upd[a] = rows[a]
		}
		if len(f.solver.changed)+len(upd) > maxWoodbury {
			// Refactor with fresh shifts: the spectrum may have moved.
			if err := e.fastRebuildFrom(s, rows); err != nil {
				f.stale = true
				return linalg.ADIInfo{}, err
			}
		} else if err := f.solver.setRows(upd); err != nil {
			f.stale = true
			return linalg.ADIInfo{}, err
		}
	}
	f.mnorm = mNormBound(f.solver.rows)
	t0 := time.Now()
	lr, info, err := e.adi(f, W, k, S, compressTol)
	if err != nil {
		return info, err
	}
	st := &e.fast.stats
	t1 := time.Now()
	st.ADISeconds += t1.Sub(t0).Seconds()
	st.Updates++
	st.ADISteps += info.Steps
	st.MaxRank = max(st.MaxRank, lr.R)
	c.rowMaxOK = false
	if e.dist == nil {
		// Unkeyed scans and checks read the upper triangle only: the
		// mirror waits for a reader of whole rows (dirSCC.full).
		lr.AddToSymUpper(2, raw.Data, raw.Stride)
		c.lowerStale = true
	} else {
		lr.AddToSym(2, raw.Data, raw.Stride)
	}
	st.AddSeconds += time.Since(t1).Seconds()
	return info, nil
}

// fastRebuildFrom rebuilds the solver of SCC s for the given rows.
func (e *Directed) fastRebuildFrom(s int, rows [][]int) error {
	defer e.fastTimer(&e.fast.stats.RefactorSeconds)()
	c := &e.sccs[s]
	c.full() // the power iteration multiplies by X
	f := c.fast
	shifts := f.estimateShifts(c.x, rows)
	sv, err := newShiftSolver(rows, shifts)
	if err != nil {
		return err
	}
	f.solver = sv
	f.stale = false
	e.fast.stats.Refactorizations++
	return nil
}

// adi runs the low-rank ADI iteration of an update, M Δ + Δ Mᵀ = W S Wᵀ
// with the SCC's solver, to a residual of
// max(updateAbsTol, updateRelTol·‖W S Wᵀ‖₂), compressed with the relative
// threshold truncate (< 0: raw factors). Not reaching the tolerance is not
// an error here: the residual check decides.
func (e *Directed) adi(f *fastSCC, W []float64, k int, S []float64, truncate float64) (*linalg.LowRankSym, linalg.ADIInfo, error) {
	return e.adiWith(f, W, k, S, truncate, updateRelTol, updateAbsTol, f.solver.solve)
}

// updateRelTol and updateAbsTol are the residual target of an update's ADI,
// relative to its right-hand side's norm and absolute. An update's residual
// enters the carried bound (directed_fast_bound.go) beside the compression's
// 2‖M‖₂δ, about 6·10⁻¹² per update on Cora's largest SCC, and the rounding
// the dense checks measure, about 10⁻¹³ per update there: a target of about
// 10⁻¹³ moves neither, and saves the last steps of each update (definitions
// §2.2).
const (
	updateRelTol = 1e-14
	updateAbsTol = 1e-13
)

// adiRelTol and adiAbsTol are the residual target of a candidate arc's ADI
// (RAfterAdd, MinRAfterAdd's full pass), relative to its right-hand side's
// norm and absolute.
const (
	adiRelTol = 1e-15
	adiAbsTol = 1e-14
)

// adiWith runs the ADI with the relative and absolute residual targets and
// the shifted solve given (solverFor: a candidate's, which may run
// concurrently with others).
func (e *Directed) adiWith(f *fastSCC, W []float64, k int, S []float64, truncate, relTol, absTol float64, solve linalg.ShiftedSolve) (*linalg.LowRankSym, linalg.ADIInfo, error) {
	sv := f.solver
	rhs := (&linalg.LowRankSym{N: sv.n, R: k, Z: W, D: S}).Norm2()
	opt := linalg.ADIOptions{Tol: math.Max(absTol, relTol*rhs), MaxSteps: 3 * len(sv.shifts), Truncate: truncate}
	lr, info, err := linalg.SolveLyapunovADI(sv.n, W, k, S, sv.shifts, solve, opt)
	if err != nil && !errors.Is(err, linalg.ErrADINotConverged) {
		return nil, info, err
	}
	if lr == nil {
		return nil, info, err
	}
	return lr, info, nil
}
