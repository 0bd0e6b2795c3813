package incremental

import (
	"fmt"
	"runtime"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/linalg"
)

// shiftSolver solves (M + pI) x = b for the M = Π L + J/n = L + 1wᵀ of one
// SCC (w = (1 − Lᵀ1)/n, L its current out-Laplacian, local indices) and each
// shift p of a fixed list, as the low-rank ADI iteration needs them.
//
// L + pI is an M-matrix (row diagonally dominant, strictly for p > 0), so a
// sparse LU without pivoting is stable; for Cora's largest SCC it holds about
// 43,000 entries (minimum degree order) and costs 1 Mflop to factor. The
// factors are those of A₀ = L₀ + pI for the out-Laplacian L₀ at the last
// refactorization; the rows changed since then enter by Woodbury's formula,
//
//	(A₀ + P Dᵀ)⁻¹ = A₀⁻¹ − A₀⁻¹P (I + Dᵀ A₀⁻¹ P)⁻¹ Dᵀ A₀⁻¹,
//
// P the unit columns of the k changed rows and D their changes (sparse), with
// A₀⁻¹P kept per shift (n·k floats) and the k×k capacitance factored. Since
// L1 = 0, (L + pI)⁻¹1 = 1/p, and 1ᵀw = 1, the rank-one term 1wᵀ is removed by
// Sherman–Morrison in closed form: x = y − 1·(wᵀy)/(p + 1), y = (L + pI)⁻¹b.
// A solve with m right-hand sides costs about 2·nnz(LU)·m + 2n·k·m
// multiply–adds.
type shiftSolver struct {
	n      int
	shifts []float64
	sym    *linalg.SymbolicLU
	lu     []*linalg.SparseLU // A₀ + p_j I

	base [][]int // out-neighbours (local) of every row at factorization
	rows [][]int // current out-neighbours (local)
	w    []float64

	changed []int           // rows differing from base, in order of first change
	delta   []sparseRow     // their changes, rows(L) − base(L)
	zneg    [][]float64     // zneg[j]: −z_jᵀ, maxWoodbury×n row-major (linalg.MulAdd's layout); column c of z_j is (A₀ + p_j I)⁻¹ e_{changed[c]}
	zzero   []bool          // zzero[j]: some column of z_j has an exact zero (then woodburyApply)
	capLU   []*mat.LU       // capacitance I + Dᵀ z_j
	work    []float64       // scratch of the LU solves (solves are sequential)
	cand    *shiftCandidate // a temporary extra arc (RAfterAdd), or nil
}

// sparseRow is a sparse vector.
type sparseRow struct {
	idx []int
	val []float64
}

// shiftCandidate is the extra rank-one change e_x cᵀ, c = e_x − e_y, of a
// candidate arc x→y, with h[j] = (L + p_j I)⁻¹ e_x for the current L.
type shiftCandidate struct {
	x, y int
	h    [][]float64
}

// maxWoodbury is the number of changed rows after which the solver
// refactorizes instead of growing its Woodbury correction.
const maxWoodbury = 48

// newShiftSolver factors L + p_j I for the out-neighbour lists rows (local
// indices, copied) and every shift.
func newShiftSolver(rows [][]int, shifts []float64) (*shiftSolver, error) {
	n := len(rows)
	s := &shiftSolver{n: n, shifts: slices.Clone(shifts), rows: make([][]int, n)}
	for i, r := range rows {
		s.rows[i] = slices.Clone(r)
	}
	return s, s.refactor()
}

// refactor makes the current rows the base: a new symbolic analysis (the
// pattern may have grown) and one numeric factorization per shift. Cost
// O(n²/64 + Σ d_k·n/64) for the ordering plus len(shifts) factorizations.
func (s *shiftSolver) refactor() error {
	n := s.n
	s.base = make([][]int, n)
	for i, r := range s.rows {
		s.base[i] = slices.Clone(r)
	}
	s.sym = linalg.AnalyzeLU(n, func(i int) []int { return s.base[i] })
	cols, vals := s.lapRows(s.base)
	s.lu = make([]*linalg.SparseLU, len(s.shifts))
	errs := make([]error, len(s.shifts))
	forShifts(len(s.shifts), func(j int, _ []float64) {
		s.lu[j], errs[j] = s.sym.Factor(func(i int) []int { return cols[i] }, func(i int) []float64 { return vals[i] }, s.shifts[j])
	}, 0)
	for j, err := range errs {
		if err != nil {
			return fmt.Errorf("incremental: factoring L + %.3g·I of an SCC of %d nodes: %w", s.shifts[j], n, err)
		}
	}
	s.changed, s.delta = s.changed[:0], s.delta[:0]
	s.zneg = make([][]float64, len(s.shifts))
	s.zzero = make([]bool, len(s.shifts))
	s.capLU = make([]*mat.LU, len(s.shifts))
	s.work = make([]float64, n*8)
	s.updateW()
	return nil
}

// lapRows returns the rows of the out-Laplacian of the neighbour lists.
func (s *shiftSolver) lapRows(rows [][]int) ([][]int, [][]float64) {
	cols := make([][]int, s.n)
	vals := make([][]float64, s.n)
	for i, r := range rows {
		c := make([]int, 0, len(r)+1)
		v := make([]float64, 0, len(r)+1)
		c = append(c, i)
		v = append(v, float64(len(r)))
		for _, j := range r {
			c = append(c, j)
			v = append(v, -1)
		}
		cols[i], vals[i] = c, v
	}
	return cols, vals
}

// updateW recomputes w = (1 − Lᵀ1)/n: (Lᵀ1)_b = d_out(b) − d_in(b).
func (s *shiftSolver) updateW() {
	n := s.n
	if len(s.w) != n {
		s.w = make([]float64, n)
	}
	cs := make([]float64, n)
	for i, r := range s.rows {
		cs[i] += float64(len(r))
		for _, j := range r {
			cs[j]--
		}
	}
	inv := 1 / float64(n)
	for b := range cs {
		s.w[b] = (1 - cs[b]) * inv
	}
}

// setRows replaces the out-neighbour lists of the given rows (local ids) and
// updates the Woodbury correction, or refactorizes when more than
// maxWoodbury rows differ from the base. Cost per call O(k·len(shifts)) solves
// for the k newly changed rows plus O(k³·len(shifts)).
func (s *shiftSolver) setRows(upd map[int][]int) error {
	for i, r := range upd {
		s.rows[i] = slices.Clone(r)
	}
	s.updateW()
	// Recompute the changes of every row that differs from the base.
	var rowsChanged []int
	for _, i := range s.changed {
		rowsChanged = append(rowsChanged, i)
	}
	for i := range upd {
		if !slices.Contains(rowsChanged, i) {
			rowsChanged = append(rowsChanged, i)
		}
	}
	slices.Sort(rowsChanged[len(s.changed):])
	var keep []int
	var deltas []sparseRow
	for _, i := range rowsChanged {
		d := s.rowDelta(i)
		if len(d.idx) > 0 || slices.Contains(s.changed, i) {
			keep = append(keep, i)
			deltas = append(deltas, d)
		}
	}
	if len(keep) > maxWoodbury {
		return s.refactor()
	}
	// New rows need their A₀⁻¹ e_i columns: one solve with a right-hand
	// side per new row (the same bits as one solve per row).
	c0 := len(s.changed)
	m := len(keep) - c0
	forShifts(len(s.shifts), func(j int, work []float64) {
		if s.zneg[j] == nil {
			s.zneg[j] = make([]float64, maxWoodbury*s.n)
		}
		if m <= 0 {
			return
		}
		cols := work[s.n*m : 2*s.n*m]
		clear(cols)
		for c := range m {
			cols[keep[c0+c]*m+c] = 1
		}
		s.lu[j].Solve(cols, m, work[:s.n*m])
		for c := range m {
			zc := s.zneg[j][(c0+c)*s.n : (c0+c+1)*s.n]
			for i := range zc {
				v := cols[i*m+c]
				zc[i] = -v
				s.zzero[j] = s.zzero[j] || v == 0
			}
		}
	}, 2*s.n*max(m, 1))
	s.changed, s.delta = keep, deltas
	return s.factorCapacitance()
}

// forShifts runs body(j, work) for j in [0, m) on GOMAXPROCS goroutines,
// each with its own work slice of the given length.
func forShifts(m int, body func(j int, work []float64), work int) {
	w := runtime.GOMAXPROCS(0)
	bufs := make([][]float64, max(1, min(w, m)))
	parallel.Each(w, m, func(t, j int) {
		if bufs[t] == nil {
			bufs[t] = make([]float64, work)
		}
		body(j, bufs[t])
	})
}

// rowDelta returns row i of L − L₀.
func (s *shiftSolver) rowDelta(i int) sparseRow {
	var d sparseRow
	cur, old := s.rows[i], s.base[i]
	if dd := len(cur) - len(old); dd != 0 {
		d.idx, d.val = append(d.idx, i), append(d.val, float64(dd))
	}
	for _, j := range cur {
		if _, ok := slices.BinarySearch(old, j); !ok {
			d.idx, d.val = append(d.idx, j), append(d.val, -1)
		}
	}
	for _, j := range old {
		if _, ok := slices.BinarySearch(cur, j); !ok {
			d.idx, d.val = append(d.idx, j), append(d.val, 1)
		}
	}
	return d
}

// factorCapacitance factors C_j = I + Dᵀ z_j for every shift (z_j read as
// −zneg[j], an exact negation).
func (s *shiftSolver) factorCapacitance() error {
	k := len(s.changed)
	for j := range s.shifts {
		if k == 0 {
			s.capLU[j] = nil
			continue
		}
		c := mat.NewDense(k, k, nil)
		zn := s.zneg[j]
		for a := range k {
			d := s.delta[a]
			for b := range k {
				var v float64
				for q, i := range d.idx {
					v += d.val[q] * -zn[b*s.n+i]
				}
				if a == b {
					v++
				}
				c.Set(a, b, v)
			}
		}
		var lu mat.LU
		lu.Factorize(c)
		if lu.Det() == 0 {
			return fmt.Errorf("incremental: singular Woodbury capacitance (%d rows changed)", k)
		}
		s.capLU[j] = &lu
	}
	return nil
}

// solveL overwrites the n×m row-major b with (L + p_j I)⁻¹ b for the current
// L (without the rank-one term 1wᵀ and without a candidate).
func (s *shiftSolver) solveL(j int, b []float64, m int) {
	if len(s.work) < s.n*m {
		s.work = make([]float64, s.n*m)
	}
	s.solveLWork(j, b, m, s.work, false)
}

// solveLWork is solveL with the LU solve's scratch (n·m floats) given; with
// split, the Woodbury product runs on two goroutines (woodburySplit).
func (s *shiftSolver) solveLWork(j int, b []float64, m int, work []float64, split bool) {
	s.lu[j].Solve(b, m, work)
	k := len(s.changed)
	if k == 0 {
		return
	}
	t := mat.NewDense(k, m, nil)
	for a := range k {
		d := s.delta[a]
		for r := range m {
			var v float64
			for q, i := range d.idx {
				v += d.val[q] * b[i*m+r]
			}
			t.Set(a, r, v)
		}
	}
	var u mat.Dense
	// The capacitance was checked nonsingular; a near-singular one only
	// loses accuracy, which the residual check sees.
	_ = s.capLU[j].SolveTo(&u, false, t)
	ur := u.RawMatrix()
	if s.zzero[j] {
		woodburyApply(s.n, m, k, s.zneg[j], ur.Data, ur.Stride, b)
		return
	}
	// b −= z u by linalg.MulAdd on bᵀ (m×n): a(r, l) = u_lr, the rows of
	// −zᵀ (fused multiply–adds where the CPU has them: the scores' last
	// bits are not kept, definitions §2.2).
	bt := b
	if m > 1 {
		bt = make([]float64, m*s.n)
	}
	if !split {
		s.woodburyRows(j, b, bt, m, k, ur, 0, s.n)
		return
	}
	// Rows of b in two ranges (a multiple of 16 apart, the kernel's
	// widest block) on two goroutines: each entry's ordered sum is the
	// same whatever the split.
	parallel.Rows(2, (s.n+15)/16, func(_, g0, g1 int) {
		s.woodburyRows(j, b, bt, m, k, ur, 16*g0, min(s.n, 16*g1))
	})
}

// woodburyRows subtracts rows [i0, i1) of z u from b (n×m), through its
// transpose bt (m×n; b itself when m = 1) for linalg.MulAdd: the rows of
// −zᵀ times u, the ordered product of linalg.MulAddOrdered for m < 16
// right-hand sides. O((i1−i0)·m·k).
func (s *shiftSolver) woodburyRows(j int, b, bt []float64, m, k int, ur blas64.General, i0, i1 int) {
	n := s.n
	if i1 <= i0 {
		return
	}
	if m > 1 {
		for i := i0; i < i1; i++ {
			for r := range m {
				bt[r*n+i] = b[i*m+r]
			}
		}
	}
	linalg.MulAdd(m, i1-i0, k, ur.Data, 1, ur.Stride, s.zneg[j][i0:], n, bt[i0:], n)
	if m > 1 {
		for i := i0; i < i1; i++ {
			for r := range m {
				b[i*m+r] = bt[r*n+i]
			}
		}
	}
}

// woodburyApply subtracts z·u from the n×m row-major b, z n×k given as
// zneg = −zᵀ (k×n row-major, row stride n), u k×m (stride ldu):
// b_ir += (−z_il)·u_lr for l = 0, 1, …, k−1 in turn, a zero z_il skipped,
// each product and sum rounded on its own — the operations, in their order,
// of gonum's pure-Go Dgemm(NoTrans, NoTrans, n, m, k, −1, z, ·, u, ldu, 1,
// b, m), which with m ≤ 8 right-hand sides spends its time starting a
// goroutine per block of 64 rows and calling AxpyUnitary on m entries.
// O(n·k·m).
func woodburyApply(n, m, k int, zneg, u []float64, ldu int, b []float64) {
	i := 0
	// Four rows at a time: four independent chains of additions.
	for ; i+4 <= n; i += 4 {
		for r := range m {
			v0, v1, v2, v3 := b[i*m+r], b[(i+1)*m+r], b[(i+2)*m+r], b[(i+3)*m+r]
			for l := range k {
				ul := u[l*ldu+r]
				zl := zneg[l*n+i : l*n+i+4]
				if t := zl[0]; t != 0 {
					v0 += float64(t * ul)
				}
				if t := zl[1]; t != 0 {
					v1 += float64(t * ul)
				}
				if t := zl[2]; t != 0 {
					v2 += float64(t * ul)
				}
				if t := zl[3]; t != 0 {
					v3 += float64(t * ul)
				}
			}
			b[i*m+r], b[(i+1)*m+r], b[(i+2)*m+r], b[(i+3)*m+r] = v0, v1, v2, v3
		}
	}
	for ; i < n; i++ {
		for r := range m {
			v := b[i*m+r]
			for l := range k {
				if t := zneg[l*n+i]; t != 0 {
					v += float64(t * u[l*ldu+r])
				}
			}
			b[i*m+r] = v
		}
	}
}

// solve overwrites the n×m row-major b with (M + p_j I)⁻¹ b, including the
// candidate arc when one is set. It implements linalg.ShiftedSolve. With
// GOMAXPROCS ≥ 2 and at least splitSolveMin rows, the Woodbury correction's
// product is split over two goroutines (the same bits).
func (s *shiftSolver) solve(j int, b []float64, m int) error {
	if len(s.work) < s.n*m {
		s.work = make([]float64, s.n*m)
	}
	split := s.n >= splitSolveMin && runtime.GOMAXPROCS(0) >= 2
	s.solveCand(j, b, m, s.cand, s.work, split)
	return nil
}

// splitSolveMin is the least order for which solve splits its Woodbury
// product.
const splitSolveMin = 1024

// solverFor returns solve for the candidate arc c (nil: none) with its own
// scratch: such solves may run concurrently with each other (the factors are
// only read), unlike solve, as long as the rows do not change.
func (s *shiftSolver) solverFor(c *shiftCandidate) linalg.ShiftedSolve {
	var work []float64
	return func(j int, b []float64, m int) error {
		if len(work) < s.n*m {
			work = make([]float64, s.n*m)
		}
		s.solveCand(j, b, m, c, work, false)
		return nil
	}
}

// solveCand is solve with the candidate c (nil: none), the scratch work
// (n·m floats) and the Woodbury product split or not.
func (s *shiftSolver) solveCand(j int, b []float64, m int, c *shiftCandidate, work []float64, split bool) {
	s.solveLWork(j, b, m, work, split)
	p := s.shifts[j]
	w := s.w
	if c != nil {
		// L_c = L + e_x (e_x − e_y)ᵀ: Sherman–Morrison with h = (L + pI)⁻¹ e_x.
		h := c.h[j]
		den := 1 + h[c.x] - h[c.y]
		for r := range m {
			f := (b[c.x*m+r] - b[c.y*m+r]) / den
			if f == 0 {
				continue
			}
			for i, hv := range h {
				b[i*m+r] -= f * hv
			}
		}
	}
	inv := 1 / float64(s.n)
	for r := range m {
		var d float64
		for i, wv := range w {
			d += wv * b[i*m+r]
		}
		if c != nil {
			// w_c = w − (e_x − e_y)/n.
			d -= (b[c.x*m+r] - b[c.y*m+r]) * inv
		}
		d /= p + 1
		for i := range s.n {
			b[i*m+r] -= d
		}
	}
}

// setCandidate sets (x ≥ 0) or clears (x < 0) the temporary arc x→y (local
// ids, not an arc of L). Setting costs one single-right-hand-side solve per
// shift, spread over GOMAXPROCS goroutines.
func (s *shiftSolver) setCandidate(x, y int) {
	if x < 0 {
		s.cand = nil
		return
	}
	s.cand = &shiftCandidate{x: x, y: y, h: s.candidateHs(x)}
}

// candidateH returns (L + p_j I)⁻¹ e_x, with the scratch work (n floats).
func (s *shiftSolver) candidateH(j, x int, work []float64) []float64 {
	h := make([]float64, s.n)
	h[x] = 1
	s.solveLWork(j, h, 1, work, false)
	return h
}

// candidateHs returns the vectors (L + p_j I)⁻¹ e_x of every shift, which
// all the candidate arcs x→y of one tail share (shiftCandidate.h, read
// only), solved over GOMAXPROCS goroutines. O(len(shifts)) single solves.
func (s *shiftSolver) candidateHs(x int) [][]float64 {
	h := make([][]float64, len(s.shifts))
	forShifts(len(s.shifts), func(j int, work []float64) { h[j] = s.candidateH(j, x, work) }, s.n)
	return h
}
