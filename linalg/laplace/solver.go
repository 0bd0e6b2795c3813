// Package laplace solves Laplacian systems L x = b of large sparse graphs
// without forming anything n²: per connected component, one node is
// grounded (its row and column dropped), which leaves a symmetric positive
// definite system, solved by conjugate gradients preconditioned with a
// zero-fill incomplete Cholesky factor (IC(0)) of it plus a coarse
// correction on each component's constant vector (coarse.go), the one
// direction grounding makes weak. The solution is then
// centred on each component, which gives L⁺b for any b (b is first
// projected on the range of L: each component's entries summed to zero).
//
// IC(0) was chosen over approximate Cholesky (Kyng–Sachdeva) and algebraic
// multigrid after measuring it: on the generated graphs ohm rewires (SBM,
// random geometric, Barabási–Albert) it converges to 1e-8 in 10–40
// iterations, costs one pass over the matrix to build and needs no random
// elimination order, so a solve is deterministic. Many right-hand sides
// are solved side by side (SolveMany): one pass over the matrix and the
// factor serves a block of them, and blocks run on several goroutines.
//
// It is the solver of effective-resistance sketches (R_uv = ‖Z b_uv‖²,
// Spielman–Srivastava) and of the sketch engine's exact re-scoring, on
// graphs far beyond the dense engines. Memory O(n + m) (plus n per
// right-hand side in flight); time O(m) per iteration.
package laplace

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/ohmgnn/ohm/linalg"
)

// block is how many right-hand sides one pass over the matrix serves.
const block = 8

// Solver holds the grounded, factorized Laplacian of a graph.
type Solver struct {
	n      int
	comp   []int32 // component label per node
	count  int     // components
	size   []float64
	ground []int // grounded node per component
	// The grounded matrix A: degree per row (1 for a grounded node) and the
	// off-diagonal pattern in CSR form (entries −1, grounded nodes left
	// out), rows ascending. The IC(0) factor F (A ≈ F Fᵀ) has the lower
	// part of that pattern: F_ij = fac[p] for j = adj[p], p in
	// [start[i], mid[i]), and F_ii = fdiag[i]; the upper part holds Fᵀ:
	// fac[p] = F_ji for j = adj[p], p in [mid[i], start[i+1]), so both
	// triangular sweeps read rows (gathers) instead of scattering.
	deg   []float64
	start []int   // row i's neighbours are adj[start[i]:start[i+1]]
	adj   []int32 // ascending within a row
	mid   []int   // adj[start[i]:mid[i]] are the neighbours j < i
	fac   []float64
	fdiag []float64
	finv  []float64 // 1 / fdiag, for the block kernels
	// The same in float32, for the mixed-precision solve (mixed.go).
	fdeg32, fac32, finv32 []float32
	full                  []int32 // neighbours including grounded ones, for the residual
	fst                   []int
	fdeg                  []float64 // degree in New's graph (self-loops ignored)
	// Rank-one updates since New (Update): edges added (w = 1) or removed
	// (w = −1); the system solved is L + Σ w (e_u − e_v)(e_u − e_v)ᵀ, the
	// preconditioner stays the factor of L.
	updates []update
	// coarse[c] = 1/(1_cᵀ A 1_c), the coarse correction's weight of
	// component c (coarse.go).
	coarse []float64
	// pool keeps the blocks' work vectors between solves (work,
	// release): a round of the sketch engine solves thousands of blocks,
	// and fresh vectors of n·8 numbers each cost page faults and the
	// collector more than the solve's own passes over them.
	pool   sync.Pool
	pool32 sync.Pool // the same for float32 vectors
}

// work returns a vector of size numbers, from the pool when it holds one
// large enough: its entries are left over from an earlier solve, so the
// caller writes every entry before it reads one (or clears it).
func (s *Solver) work(size int) []float64 {
	if v, ok := s.pool.Get().(*[]float64); ok && cap(*v) >= size {
		return (*v)[:size]
	}
	return make([]float64, size)
}

// release hands vectors back to the pool.
func (s *Solver) release(vs ...[]float64) {
	for _, v := range vs {
		s.pool.Put(&v)
	}
}

// update is one rank-one change of the system: w (e_u − e_v)(e_u − e_v)ᵀ.
type update struct {
	u, v int
	w    float64
}

// Update makes the solver solve the Laplacian of the graph with the edge
// {u, v} added (w = 1) or removed (w = −1) as well as the updates before:
// the matrix gains w (e_u − e_v)(e_u − e_v)ᵀ, the IC(0) preconditioner
// stays that of New's graph (a few hundred updates cost CG a few
// iterations). The update must keep the components: u and v in one
// component, a removal not a bridge (the caller's to check; u and v in
// two components panics). O(1); each product with the matrix costs
// O(updates) more. Sketches and diagonal estimates take New's graph.
func (s *Solver) Update(u, v int, w float64) {
	if s.comp[u] != s.comp[v] {
		panic(fmt.Sprintf("laplace: update of {%d, %d} across components", u, v))
	}
	s.updates = append(s.updates, update{u: u, v: v, w: w})
}

// applyUpdates adds Σ w b̃ (b̃ᵀ x) over the updates ups to y for a block
// of c sides, b̃ = e_u −
// e_v without grounded entries (x is 0 there) when ground is true, with
// them otherwise.
func (s *Solver) applyUpdates(y, x []float64, c int, ground bool, ups []update) {
	for _, up := range ups {
		gu, gv := ground && s.isGround(up.u), ground && s.isGround(up.v)
		for q := range c {
			d := x[up.u*c+q] - x[up.v*c+q]
			if !gu {
				y[up.u*c+q] += up.w * d
			}
			if !gv {
				y[up.v*c+q] -= up.w * d
			}
		}
	}
}

// New builds the solver of g's Laplacian (undirected; self-loops ignored):
// components by BFS, one grounded node per component (the smallest id),
// and the IC(0) factor. O(n + m) memory, O(Σ_ij (deg_i + deg_j)) time for
// the factor.
func New(g *linalg.Graph) (*Solver, error) {
	if g.Directed() {
		return nil, errors.New("laplace: the Laplacian solver takes undirected graphs")
	}
	n := g.N()
	comp, count := components(g)
	s := &Solver{n: n, comp: make([]int32, n), count: count, ground: make([]int, count), size: make([]float64, count)}
	for c := range s.ground {
		s.ground[c] = -1
	}
	for i := range n {
		s.comp[i] = int32(comp[i])
		s.size[comp[i]]++
		if s.ground[comp[i]] < 0 {
			s.ground[comp[i]] = i
		}
	}
	m2 := 0
	for i := range n {
		m2 += len(g.Neighbours(i))
	}
	s.deg = make([]float64, n)
	s.start = make([]int, n+1)
	s.mid = make([]int, n)
	s.adj = make([]int32, 0, m2)
	s.fst = make([]int, n+1)
	s.full = make([]int32, 0, m2)
	s.fdeg = make([]float64, n)
	for i := range n {
		nb := g.Neighbours(i)
		for _, j := range nb {
			s.full = append(s.full, int32(j))
		}
		s.fst[i+1] = len(s.full)
		s.fdeg[i] = float64(len(nb))
		if s.isGround(i) {
			s.deg[i] = 1
			s.mid[i] = len(s.adj)
			s.start[i+1] = len(s.adj)
			continue
		}
		s.deg[i] = float64(len(nb))
		s.mid[i] = -1
		for _, j := range nb {
			if s.isGround(j) {
				continue
			}
			if j > i && s.mid[i] < 0 {
				s.mid[i] = len(s.adj)
			}
			s.adj = append(s.adj, int32(j))
		}
		if s.mid[i] < 0 {
			s.mid[i] = len(s.adj)
		}
		s.start[i+1] = len(s.adj)
	}
	if err := s.factor(); err != nil {
		return nil, err
	}
	s.buildCoarse()
	return s, nil
}

func (s *Solver) isGround(i int) bool { return s.ground[s.comp[i]] == i }

// N is the number of nodes.
func (s *Solver) N() int { return s.n }

// Component is the label of i's connected component (0, 1, … in order of
// their smallest node). O(1).
func (s *Solver) Component(i int) int { return int(s.comp[i]) }

// factor computes the IC(0) factor F (lower, the pattern of A's lower
// triangle) with A ≈ F Fᵀ, row by row: F_ij = (A_ij − Σ_{k<j} F_ik F_jk) /
// F_jj over the pattern, F_ii = sqrt(A_ii − Σ_k F_ik²). The sums merge the
// two sorted rows.
func (s *Solver) factor() error {
	s.fac = make([]float64, len(s.adj))
	s.fdiag = make([]float64, s.n)
	for i := range s.n {
		lo, hi := s.start[i], s.mid[i]
		sq := 0.0
		for p := lo; p < hi; p++ {
			j := int(s.adj[p])
			sum := -1.0
			// Σ_{k<j} F_ik F_jk: row i before p against row j's lower part.
			q, qe := s.start[j], s.mid[j]
			for a := lo; a < p && q < qe; {
				ka, kb := s.adj[a], s.adj[q]
				switch {
				case ka == kb:
					sum -= s.fac[a] * s.fac[q]
					a++
					q++
				case ka < kb:
					a++
				default:
					q++
				}
			}
			f := sum / s.fdiag[j]
			s.fac[p] = f
			sq += f * f
		}
		d := s.deg[i] - sq
		if !(d > 0) {
			return fmt.Errorf("laplace: incomplete Cholesky broke down at row %d", i)
		}
		s.fdiag[i] = math.Sqrt(d)
	}
	s.finv = make([]float64, s.n)
	for i, d := range s.fdiag {
		s.finv[i] = 1 / d
	}
	s.fdeg32, s.finv32, s.fac32 = make([]float32, s.n), make([]float32, s.n), make([]float32, len(s.fac))
	for i := range s.n {
		s.fdeg32[i], s.finv32[i] = float32(s.fdeg[i]), float32(s.finv[i])
	}
	defer func() {
		for p, f := range s.fac {
			s.fac32[p] = float32(f)
		}
	}()
	// Fᵀ into the upper part: row j's upper neighbours ascend, and so do
	// the rows i that name j in their lower part.
	next := make([]int, s.n)
	copy(next, s.mid)
	for i := range s.n {
		for p := s.start[i]; p < s.mid[i]; p++ {
			j := s.adj[p]
			s.fac[next[j]] = s.fac[p]
			next[j]++
		}
	}
	return nil
}

// apply sets y = A x for a block of c right-hand sides stored node-major
// (x[i·c + q]), A with the updates ups.
func (s *Solver) apply(y, x []float64, c int, ups []update) {
	defer s.applyUpdates(y, x, c, true, ups)
	switch c {
	case block:
		s.apply8(y, x)
		return
	case 1:
		s.apply1(y, x)
		return
	}
	for i := range s.n {
		yi := y[i*c : i*c+c]
		xi := x[i*c : i*c+c]
		d := s.deg[i]
		for q := range yi {
			yi[q] = d * xi[q]
		}
		for _, j := range s.adj[s.start[i]:s.start[i+1]] {
			xj := x[int(j)*c : int(j)*c+c]
			for q := range yi {
				yi[q] -= xj[q]
			}
		}
	}
}

// precondition sets z = M⁻¹ r for a block of c right-hand sides: F Fᵀ z =
// r, plus the coarse correction.
func (s *Solver) precondition(z, r []float64, c int) {
	defer s.correct(z, r, c)
	switch c {
	case block:
		s.precondition8(z, r)
		return
	case 1:
		s.precondition1(z, r)
		return
	}
	s.preconditionGeneric(z, r, c)
}

// preconditionGeneric solves F Fᵀ z = r for a block of any c sides.
func (s *Solver) preconditionGeneric(z, r []float64, c int) {
	copy(z, r)
	for i := range s.n { // F w = r
		zi := z[i*c : i*c+c]
		for p := s.start[i]; p < s.mid[i]; p++ {
			f := s.fac[p]
			j := int(s.adj[p])
			zj := z[j*c : j*c+c]
			for q := range zi {
				zi[q] -= f * zj[q]
			}
		}
		inv := 1 / s.fdiag[i]
		for q := range zi {
			zi[q] *= inv
		}
	}
	for i := s.n - 1; i >= 0; i-- { // Fᵀ z = w
		zi := z[i*c : i*c+c]
		for p := s.start[i+1] - 1; p >= s.mid[i]; p-- {
			f := s.fac[p]
			j := int(s.adj[p])
			zj := z[j*c : j*c+c]
			for q := range zi {
				zi[q] -= f * zj[q]
			}
		}
		inv := 1 / s.fdiag[i]
		for q := range zi {
			zi[q] *= inv
		}
	}
}

// Solve returns x = L⁺b to a relative residual of tol (‖Lx − Πb‖ ≤
// tol·‖Πb‖, Π projecting b on the range of L) and the iterations taken; an
// error when maxIter iterations do not reach it. O(m) per iteration.
func (s *Solver) Solve(b []float64, tol float64, maxIter int) ([]float64, int, error) {
	if len(b) != s.n {
		panic(fmt.Sprintf("laplace: right-hand side of %d entries for %d nodes", len(b), s.n))
	}
	x := make([]float64, s.n)
	it, err := s.solveBlock(x, append([]float64(nil), b...), 1, tol, maxIter, s.updates)
	return x, it, err
}

// SolveMany solves L x_q = b_q for q = 0..count−1 to relative residual
// tol, blocks of right-hand sides side by side on up to workers goroutines
// (0: 1). fill(q, b) writes b_q into a zeroed vector of n entries; use(q,
// x) receives x_q = L⁺b_q, called once per q from the worker goroutines,
// one at a time and in the order of q (x is reused after use returns), so
// sums that use accumulates are the same whatever the number of workers
// (a worker whose block is solved before the one before it waits for it).
// It returns the most iterations a block took. O(count·m) per iteration;
// memory O(workers·block·n).
func (s *Solver) SolveMany(count int, fill func(q int, b []float64), use func(q int, x []float64),
	tol float64, maxIter, workers int) (int, error) {
	return s.SolveManyBefore(len(s.updates), count, fill, use, tol, maxIter, workers)
}

// Updates is the number of updates (Update) made since New.
func (s *Solver) Updates() int { return len(s.updates) }

// SolveManyBefore is SolveMany on the graph as it was after the first k
// updates (k as Updates returned it then): the system L + Σ over those k
// of w (e_u − e_v)(e_u − e_v)ᵀ. A caller that defers the vectors of its
// edits solves them later, side by side, on the graph before them.
func (s *Solver) SolveManyBefore(k, count int, fill func(q int, b []float64), use func(q int, x []float64),
	tol float64, maxIter, workers int) (int, error) {
	if k < 0 || k > len(s.updates) {
		panic(fmt.Sprintf("laplace: %d updates asked, %d made", k, len(s.updates)))
	}
	ups := s.updates[:k:k]
	workers = max(1, workers)
	var (
		mu        sync.Mutex
		next      int // the first right-hand side no worker has taken
		delivered int // the first right-hand side not yet passed to use
		most      int
		firstEr   error
		wg        sync.WaitGroup
	)
	turn := sync.NewCond(&mu)
	for range min(workers, (count+wide-1)/wide) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, x := s.work(s.n*wide), s.work(s.n*wide)
			defer s.release(b, x)
			// One vector per side: fill writes into a zeroed one, only
			// its nonzero entries go into the block (and are zeroed again
			// there), and the solutions come out of the block in one pass
			// for all its sides, before the worker waits for its turn (a
			// side at a time would read the whole block once per side).
			cols := make([][]float64, wide)
			for q := range cols {
				cols[q] = s.work(s.n)
				clear(cols[q])
			}
			defer s.release(cols...)
			for {
				mu.Lock()
				q0 := next
				next += wide
				stop := firstEr != nil
				mu.Unlock()
				if q0 >= count || stop {
					return
				}
				c := min(wide, count-q0)
				clear(b)
				for q := range c {
					col := cols[q]
					fill(q0+q, col)
					for i, v := range col {
						if v != 0 {
							b[i*wide+q] = v
							col[i] = 0
						}
					}
				}
				it, err := s.solveMixed(x, b, tol, maxIter, ups)
				if err != nil {
					mu.Lock()
					if firstEr == nil {
						firstEr = fmt.Errorf("right-hand sides %d–%d: %w", q0, q0+c-1, err)
					}
					turn.Broadcast()
					mu.Unlock()
					return
				}
				for i := range s.n {
					xi := x[i*wide : i*wide+c]
					for q, v := range xi {
						cols[q][i] = v
					}
				}
				mu.Lock()
				for delivered != q0 && firstEr == nil {
					turn.Wait()
				}
				stop = firstEr != nil
				mu.Unlock()
				if stop {
					return
				}
				for q := range c {
					use(q0+q, cols[q])
				}
				mu.Lock()
				delivered = q0 + c
				most = max(most, it)
				turn.Broadcast()
				mu.Unlock()
				for q := range c {
					clear(cols[q])
				}
			}
		}()
	}
	wg.Wait()
	return most, firstEr
}

// solveBlock runs preconditioned conjugate gradients on c right-hand sides
// at once (node-major b, x), each with its own step lengths; a side that
// has converged stops moving. b is overwritten by its projection. The
// matrix is New's with the updates ups.
func (s *Solver) solveBlock(x, b []float64, c int, tol float64, maxIter int, ups []update) (int, error) {
	n := s.n
	// Project b on the range of L: zero mean on every component.
	sum := make([]float64, s.count*c)
	for i := range n {
		k := int(s.comp[i]) * c
		for q := range c {
			sum[k+q] += b[i*c+q]
		}
	}
	norm := make([]float64, c)
	for i := range n {
		k := int(s.comp[i])
		for q := range c {
			b[i*c+q] -= sum[k*c+q] / s.size[k]
			norm[q] += b[i*c+q] * b[i*c+q]
		}
	}
	clear(x)
	r := s.work(n * c)
	clear(r) // the grounded rows stay 0
	for i := range n {
		if !s.isGround(i) {
			copy(r[i*c:i*c+c], b[i*c:i*c+c])
		}
	}
	z, p, ap := s.work(n*c), s.work(n*c), s.work(n*c)
	defer s.release(r, z, p, ap)
	s.precondition(z, r, c)
	copy(p, z)
	rz, rr, pap := make([]float64, c), make([]float64, c), make([]float64, c)
	alpha, beta := make([]float64, c), make([]float64, c)
	active := make([]bool, c)
	dots2(rz, rr, r, z, r, c)
	left := 0
	for q := range c {
		norm[q] = math.Sqrt(norm[q])
		active[q] = norm[q] > 0 && math.Sqrt(rr[q]) > tol*norm[q]*0.5
		if active[q] {
			left++
		}
	}
	rz2 := make([]float64, c)
	target := make([]float64, c)
	for q := range c {
		target[q] = tol * norm[q] * 0.5
	}
	it := 0
	for {
		for ; it < maxIter && left > 0; it++ {
			s.apply(ap, p, c, ups)
			dots(pap, p, ap, c)
			for q := range c {
				alpha[q] = 0
				if active[q] && pap[q] > 0 {
					alpha[q] = rz[q] / pap[q]
				}
			}
			step(x, r, p, ap, alpha, c)
			s.precondition(z, r, c)
			dots2(rz2, rr, r, z, r, c)
			for q := range c {
				beta[q] = 0
				if active[q] {
					if math.Sqrt(rr[q]) <= target[q] {
						active[q] = false
						left--
					} else if rz[q] != 0 {
						beta[q] = rz2[q] / rz[q]
					}
				}
				rz[q] = rz2[q]
			}
			direction(p, z, beta, active, c)
		}
		// The recurrence's residual leaves out the grounded rows (and
		// drifts): check the true one, and go on with a tighter target
		// where it is not met. Centring x later does not change L x.
		res := s.residual(x, b, c, ups)
		again := false
		for q := range c {
			if res[q] > tol*norm[q] && it < maxIter && target[q] > 1e-3*tol*norm[q] {
				target[q] /= 10
				if !active[q] { // restart the direction from the residual
					active[q] = true
					left++
					again = true
				}
			}
		}
		if !again {
			for q := range c {
				if res[q] > tol*norm[q] {
					return it, fmt.Errorf("laplace: residual %.3g after %d iterations, above %.3g", res[q]/norm[q], it, tol)
				}
			}
			break
		}
		// Restarted sides: p = z for them (steepest descent restart).
		s.precondition(z, r, c)
		dots(rz2, r, z, c)
		for i := range n {
			zi, pi := z[i*c:i*c+c], p[i*c:i*c+c]
			for q := range pi {
				if active[q] {
					pi[q] = zi[q]
				}
			}
		}
		for q := range c {
			if active[q] {
				rz[q] = rz2[q]
			}
		}
	}
	// Grounded nodes are 0; centre every component: x = L⁺b.
	mean := sum
	clear(mean)
	for i := range n {
		k := int(s.comp[i]) * c
		for q := range c {
			mean[k+q] += x[i*c+q]
		}
	}
	for i := range n {
		k := int(s.comp[i])
		for q := range c {
			x[i*c+q] -= mean[k*c+q] / s.size[k]
		}
	}
	return it, nil
}

// residual returns ‖L x_q − b_q‖ for each of the c sides.
func (s *Solver) residual(x, b []float64, c int, ups []update) []float64 {
	out := make([]float64, c)
	lx := s.work(s.n * c)
	defer s.release(lx)
	s.laplacian(lx, x, c)
	s.applyUpdates(lx, x, c, false, ups)
	for i := range s.n {
		for q := range c {
			d := lx[i*c+q] - b[i*c+q]
			out[q] += d * d
		}
	}
	for q := range out {
		out[q] = math.Sqrt(out[q])
	}
	return out
}

// laplacian sets lx = L x for c sides, L the Laplacian of New's graph
// (grounded rows included): lx_i = deg_i·x_i − Σ_{j ~ i} x_j, summed in
// the order of i's neighbours. O(c·(n + m)).
func (s *Solver) laplacian(lx, x []float64, c int) {
	if (c == block || c == wide) && useAVX && s.n > 0 {
		_ = lx[s.n*c-1]
		_ = x[s.n*c-1]
		var full *int32
		if len(s.full) > 0 {
			full = &s.full[0]
		}
		if c == wide {
			laplacian16AVX(&lx[0], &x[0], &s.fdeg[0], &s.fst[0], full, s.n)
		} else {
			apply8AVX(&lx[0], &x[0], &s.fdeg[0], &s.fst[0], full, s.n)
		}
		return
	}
	for i := range s.n {
		d := s.fdeg[i]
		li := lx[i*c : i*c+c]
		for q := range li {
			li[q] = d * x[i*c+q]
		}
		for _, j := range s.full[s.fst[i]:s.fst[i+1]] {
			xj := x[int(j)*c : int(j)*c+c]
			for q := range li {
				li[q] -= xj[q]
			}
		}
	}
}

// components labels the connected components by BFS, in order of their
// smallest node. O(n + m). (The linalg layer sits below incremental/tarjan.)
func components(g *linalg.Graph) ([]int, int) {
	n := g.N()
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	count := 0
	queue := make([]int, 0, n)
	for s := range n {
		if comp[s] >= 0 {
			continue
		}
		comp[s] = count
		queue = append(queue[:0], s)
		for h := 0; h < len(queue); h++ {
			for _, v := range g.Neighbours(queue[h]) {
				if comp[v] < 0 {
					comp[v] = count
					queue = append(queue, v)
				}
			}
		}
		count++
	}
	return comp, count
}
