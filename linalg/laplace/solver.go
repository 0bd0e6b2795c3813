// Package laplace solves Laplacian systems L x = b of large sparse graphs
// without forming anything n²: per connected component one node is
// grounded for the preconditioner — a zero-fill incomplete Cholesky factor
// (IC(0)) of the grounded matrix, or an approximate Cholesky factor
// (randomized elimination, approxchol.go) — and conjugate gradients run on
// the whole Laplacian with every vector centred on each component, which
// gives L⁺b for any b (b is first projected on the range of L). The solves
// are in mixed precision (mixed.go): float32 corrections, 16 right-hand
// sides per pass over the graph, refined until the float64 residual meets
// the tolerance.
//
// IC(0) converges to 1e-8 in about 10 iterations on expanders (SBMs,
// Barabási–Albert graphs, planted partitions), costs one pass over the
// matrix to build and has as many entries as the graph, where approximate
// Cholesky fills in several entries per edge there. On graphs of long
// diameter (random geometric graphs, meshes) IC(0) needs hundreds of
// iterations and approximate Cholesky tens: on the 10⁵-node random
// geometric graph of mean degree 20, 473 against 44 to 1e-8 (70.5 s
// against 2.1 s for 32 sides; BenchmarkPreconditioners). NewWith's Auto
// chooses between them by a probe. Many right-hand sides are solved side
// by side (SolveMany): one pass over the matrix and the factor serves a
// block of them, and blocks run on several goroutines.
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
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/linalg"
)

// Solver holds the grounded, factorized Laplacian of a graph.
type Solver struct {
	n      int
	comp   []int32 // component label per node
	count  int     // components
	size   []float64
	ground []int // grounded node per component
	// The IC(0) factor F of the grounded matrix A (A ≈ F Fᵀ; factor), for
	// the two triangular sweeps: lower holds row i of F without its
	// diagonal (F_ij, j < i, ascending), upper row i of Fᵀ (F_ji, j > i,
	// ascending), so both sweeps read rows (gathers) instead of
	// scattering, each from an index stream of its own entries only (the
	// kernels' prefetches read ahead in it). F_ii is 1/finv32[i].
	lower, upper triangle
	finv32       []float32 // 1 / F_ii
	// perm, for ApproxChol, is the elimination's order: the factor's
	// position k is node perm[k] (nil for IC(0), whose order is the
	// nodes').
	perm   []int32
	fdeg32 []float32 // fdeg in float32
	full   []int32   // neighbours including grounded ones, for the residual
	fst    []int
	fdeg   []float64 // degree in New's graph (self-loops ignored)
	// Rank-one updates since New (Update): edges added (w = 1) or removed
	// (w = −1); the system solved is L + Σ w (e_u − e_v)(e_u − e_v)ᵀ, the
	// preconditioner stays the factor of L.
	updates []update
	// spare and spare32 keep the blocks' work vectors between solves
	// (spares.get, put) for the solver's life: a round of the sketch engine
	// solves thousands of blocks, and fresh vectors of n·16 numbers each
	// cost page faults and the collector more than the solve's own passes
	// over them. (With a sync.Pool, which the collector empties and which
	// dropped an n-vector a call for n·16 numbers drew from it, a 10⁶-node
	// run spent 144 of its 3 329 CPU seconds in the kernel, most of them
	// on 6 million page faults.)
	spare   spares[float64]
	spare32 spares[float32]
}

// spares holds vectors of one element type by length.
type spares[T float32 | float64] struct {
	mu   sync.Mutex
	free map[int][][]T
}

// get returns a vector of size numbers, a spare one when there is one: its
// entries are left over from an earlier solve, so the caller writes every
// entry before it reads one (or clears it).
func (p *spares[T]) get(size int) []T {
	p.mu.Lock()
	defer p.mu.Unlock()
	if l := p.free[size]; len(l) > 0 {
		v := l[len(l)-1]
		p.free[size] = l[:len(l)-1]
		return v
	}
	return make([]T, size)
}

// put keeps vectors (as get returned them) for later gets.
func (p *spares[T]) put(vs ...[]T) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.free == nil {
		p.free = make(map[int][][]T)
	}
	for _, v := range vs {
		p.free[len(v)] = append(p.free[len(v)], v)
	}
}

// ReleaseWork drops the work vectors the solver keeps between solves
// (several n·Block blocks per worker), so that a caller about to build the
// solver of another graph does not hold both; later solves allocate them
// again. O(1).
func (s *Solver) ReleaseWork() {
	s.spare.mu.Lock()
	s.spare.free = nil
	s.spare.mu.Unlock()
	s.spare32.mu.Lock()
	s.spare32.free = nil
	s.spare32.mu.Unlock()
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

// applyUpdates adds Σ w b (bᵀ x) over the updates ups to y for a block of
// c sides, b = e_u − e_v.
func (s *Solver) applyUpdates(y, x []float64, c int, ups []update) {
	for _, up := range ups {
		for q := range c {
			d := up.w * (x[up.u*c+q] - x[up.v*c+q])
			y[up.u*c+q] += d
			y[up.v*c+q] -= d
		}
	}
}

// Preconditioner names the preconditioner of the solver's conjugate
// gradients.
type Preconditioner int

const (
	// IC0 is the zero-fill incomplete Cholesky factor of the grounded
	// Laplacian (natural order, the smallest node of each component
	// grounded).
	IC0 Preconditioner = iota
	// ApproxChol is the approximate Cholesky factor (approxchol.go:
	// randomized elimination in order of least degree, the last node of
	// each component grounded).
	ApproxChol
	// Auto is IC0, unless a probe block of right-hand sides takes IC(0)
	// more than autoIterations iterations (ill-conditioned graphs: random
	// geometric graphs, meshes, long rings); then ApproxChol when its
	// factor stays within acMaxFill·m entries and its probe costs less
	// (iterations times the entries each one reads).
	Auto
)

// autoIterations is the most iterations IC(0) may take on Auto's probe
// (16 random ±1 sides to 10⁻⁴) before ApproxChol is tried: on the SBMs,
// Barabási–Albert graphs and planted partitions of 10⁵ nodes it takes 5 to
// 7, on the random geometric graph of mean degree 20 about 140 (ApproxChol
// 12).
const autoIterations = 20

// Options configures NewWith.
type Options struct {
	// Preconditioner is IC0 (the zero value) or ApproxChol.
	Preconditioner Preconditioner
	// Seed draws ApproxChol's samples.
	Seed uint64
}

// New builds the solver of g's Laplacian (undirected; self-loops ignored)
// with the IC(0) preconditioner: NewWith(g, Options{}).
func New(g *linalg.Graph) (*Solver, error) { return NewWith(g, Options{}) }

// NewWith builds the solver of g's Laplacian (undirected; self-loops
// ignored): components by BFS, and the preconditioner opt names with one
// grounded node per component. O(n + m) memory; time O(Σ_ij (deg_i +
// deg_j)) for IC(0), O(m log m) for ApproxChol.
func NewWith(g *linalg.Graph, opt Options) (*Solver, error) {
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
	comp = nil
	s.fst = make([]int, n+1)
	s.fdeg = make([]float64, n)
	for i := range n {
		s.fst[i+1] = s.fst[i] + len(g.Neighbours(i))
	}
	s.full = make([]int32, 0, s.fst[n])
	for i := range n {
		nb := g.Neighbours(i)
		for _, j := range nb {
			s.full = append(s.full, int32(j))
		}
		s.fdeg[i] = float64(len(nb))
	}
	s.full = padded(s.full)
	s.fdeg32 = make([]float32, n)
	for i, d := range s.fdeg {
		s.fdeg32[i] = float32(d)
	}
	if opt.Preconditioner == ApproxChol {
		f := approxChol(g, opt.Seed)
		if f == nil {
			return nil, fmt.Errorf("laplace: the approximate Cholesky factor exceeds %d entries per edge", acMaxFill)
		}
		s.useFactor(f)
		return s, nil
	}
	if err := s.factorIC0(g); err != nil {
		return nil, err
	}
	if opt.Preconditioner == Auto {
		s.chooseFactor(g, opt.Seed)
	}
	return s, nil
}

// useFactor makes f the solver's preconditioner, its grounded nodes the
// solver's.
func (s *Solver) useFactor(f *acFactor) {
	s.perm, s.lower, s.upper, s.finv32 = f.perm, f.lower, f.upper, f.finv32
	for _, v := range f.ground {
		s.ground[s.comp[v]] = v
	}
}

// chooseFactor is Auto's choice on a solver with the IC(0) factor: it
// keeps it when the probe converges within autoIterations, else it
// builds the approximate Cholesky factor and keeps the one whose probe
// costs less. O(probe) for most graphs; O(m log m) more for the others.
func (s *Solver) chooseFactor(g *linalg.Graph, seed uint64) {
	it, nnz := s.probe(4*autoIterations), len(s.lower.fac)+len(s.upper.fac)
	if it <= autoIterations {
		return
	}
	f := approxChol(g, seed)
	if f == nil {
		return
	}
	lower, upper, finv32, ground := s.lower, s.upper, s.finv32, slices.Clone(s.ground)
	s.useFactor(f)
	ita := s.probe(it)
	cost := func(it, nnz int) float64 { return float64(it) * float64(nnz+len(s.full)) }
	if cost(ita, len(f.lower.fac)+len(f.upper.fac)) >= cost(it, nnz) {
		s.perm, s.lower, s.upper, s.finv32, s.ground = nil, lower, upper, finv32, ground
	}
}

// probe solves one block of 16 sides of random signs (a fixed seed) to
// 10⁻⁴ in at most most iterations and returns the iterations (most + 1
// when they did not suffice).
func (s *Solver) probe(most int) int {
	b, x := make([]float64, s.n*wide), make([]float64, s.n*wide)
	r := rand.New(rand.NewPCG(0x9806e, 1))
	for i := range b {
		b[i] = float64(1 - 2*int(r.Uint64()&1))
	}
	it, err := s.solveMixed(x, b, 1e-4, most, nil)
	if err != nil {
		return most + 1
	}
	return it
}

// factorIC0 builds the grounded matrix A of g's Laplacian (its diagonal
// deg, 1 for a grounded node, and its off-diagonal pattern, entries −1,
// grounded nodes left out) and its IC(0) factor.
func (s *Solver) factorIC0(g *linalg.Graph) error {
	n := s.n
	deg := make([]float64, n)
	a := pattern{start: make([]int, n+1), mid: make([]int, n), adj: make([]int32, 0, s.fst[n])}
	for i := range n {
		nb := g.Neighbours(i)
		if s.isGround(i) {
			deg[i] = 1
			a.mid[i] = len(a.adj)
			a.start[i+1] = len(a.adj)
			continue
		}
		deg[i] = float64(len(nb))
		a.mid[i] = -1
		for _, j := range nb {
			if s.isGround(j) {
				continue
			}
			if j > i && a.mid[i] < 0 {
				a.mid[i] = len(a.adj)
			}
			a.adj = append(a.adj, int32(j))
		}
		if a.mid[i] < 0 {
			a.mid[i] = len(a.adj)
		}
		a.start[i+1] = len(a.adj)
	}
	return s.factor(a, deg)
}

// pattern is a symmetric matrix's off-diagonal pattern in CSR form, rows
// ascending: row i's neighbours are adj[start[i]:start[i+1]], those
// before mid[i] below the diagonal (j < i).
type pattern struct {
	start, mid []int
	adj        []int32
}

// triangle is one triangle of the IC(0) factor for a sweep: row i's
// entries are fac[p] in column adj[p], p in [start[i], start[i+1]),
// columns ascending; adj is padded (padded) for the prefetches.
type triangle struct {
	start []int
	adj   []int32
	fac   []float32
}

// adjPtr and facPtr are the first entries of adj and fac for the kernels,
// nil when empty (no row reads them then).
func (t *triangle) adjPtr() *int32 {
	if len(t.adj) == 0 {
		return nil
	}
	return &t.adj[0]
}

func (t *triangle) facPtr() *float32 {
	if len(t.fac) == 0 {
		return nil
	}
	return &t.fac[0]
}

// prefetchAhead is how many index entries past the one it reads a gather
// kernel reads to prefetch a row (PREFETCH_AHEAD in block16_amd64.s, in
// bytes there).
const prefetchAhead = 128

// padded returns a copy of the index array a with prefetchAhead zeros
// before and after it in its allocation (not in the slice): the kernels'
// reads ahead, both ways, stay inside. O(len(a)).
func padded(a []int32) []int32 {
	buf := make([]int32, prefetchAhead+len(a)+prefetchAhead)
	copy(buf[prefetchAhead:], a)
	return buf[prefetchAhead : prefetchAhead+len(a)]
}

func (s *Solver) isGround(i int) bool { return s.ground[s.comp[i]] == i }

// N is the number of nodes.
func (s *Solver) N() int { return s.n }

// Component is the label of i's connected component (0, 1, … in order of
// their smallest node). O(1).
func (s *Solver) Component(i int) int { return int(s.comp[i]) }

// factor computes the IC(0) factor F of A (pattern a, diagonal deg; F
// has the pattern of A's lower triangle) with A ≈ F Fᵀ, row by row in
// float64: F_ij = (A_ij − Σ_{k<j} F_ik F_jk) / F_jj over the pattern, F_ii
// = sqrt(A_ii − Σ_k F_ik²). The sums merge the two sorted rows. It keeps
// F and Fᵀ rounded to float32 (lower, upper), and 1/F_ii.
func (s *Solver) factor(pa pattern, deg []float64) error {
	fac := make([]float64, len(pa.adj))
	fdiag := make([]float64, s.n)
	for i := range s.n {
		lo, hi := pa.start[i], pa.mid[i]
		sq := 0.0
		for p := lo; p < hi; p++ {
			j := int(pa.adj[p])
			sum := -1.0
			// Σ_{k<j} F_ik F_jk: row i before p against row j's lower part.
			q, qe := pa.start[j], pa.mid[j]
			for a := lo; a < p && q < qe; {
				ka, kb := pa.adj[a], pa.adj[q]
				switch {
				case ka == kb:
					sum -= fac[a] * fac[q]
					a++
					q++
				case ka < kb:
					a++
				default:
					q++
				}
			}
			f := sum / fdiag[j]
			fac[p] = f
			sq += f * f
		}
		d := deg[i] - sq
		if !(d > 0) {
			return fmt.Errorf("laplace: incomplete Cholesky broke down at row %d", i)
		}
		fdiag[i] = math.Sqrt(d)
	}
	s.finv32 = make([]float32, s.n)
	for i, d := range fdiag {
		s.finv32[i] = float32(1 / d)
	}
	// Fᵀ into the upper part: row j's upper neighbours ascend, and so do
	// the rows i that name j in their lower part.
	next := make([]int, s.n)
	copy(next, pa.mid)
	for i := range s.n {
		for p := pa.start[i]; p < pa.mid[i]; p++ {
			j := pa.adj[p]
			fac[next[j]] = fac[p]
			next[j]++
		}
	}
	// The two triangles apart: each sweep's entries one stream.
	for _, t := range [2]struct {
		tri    *triangle
		lo, hi func(i int) int
	}{
		{&s.lower, func(i int) int { return pa.start[i] }, func(i int) int { return pa.mid[i] }},
		{&s.upper, func(i int) int { return pa.mid[i] }, func(i int) int { return pa.start[i+1] }},
	} {
		size := 0
		for i := range s.n {
			size += t.hi(i) - t.lo(i)
		}
		tri := triangle{start: make([]int, s.n+1), adj: make([]int32, 0, size), fac: make([]float32, 0, size)}
		for i := range s.n {
			for p := t.lo(i); p < t.hi(i); p++ {
				tri.adj = append(tri.adj, pa.adj[p])
				tri.fac = append(tri.fac, float32(fac[p]))
			}
			tri.start[i+1] = len(tri.adj)
		}
		tri.adj = padded(tri.adj)
		*t.tri = tri
	}
	return nil
}

// Solve returns x = L⁺b to a relative residual of tol (‖Lx − Πb‖ ≤
// tol·‖Πb‖, Π projecting b on the range of L) and the iterations taken; an
// error when maxIter iterations do not reach it. O(m) per iteration.
func (s *Solver) Solve(b []float64, tol float64, maxIter int) ([]float64, int, error) {
	if len(b) != s.n {
		panic(fmt.Sprintf("laplace: right-hand side of %d entries for %d nodes", len(b), s.n))
	}
	// A block of one side: 160 ms to 10⁻⁸ at 10⁵ nodes against about 100 ms
	// for the float64 solve of one vector it replaced (a vector that stays
	// in cache there). The sketch engine solves single sides only in
	// SolveResistance.
	bw, xw := s.spare.get(s.n*wide), s.spare.get(s.n*wide)
	defer s.spare.put(bw, xw)
	clear(bw)
	for i, v := range b {
		bw[i*wide] = v
	}
	it, err := s.solveMixed(xw, bw, tol, maxIter, s.updates)
	x := make([]float64, s.n)
	for i := range x {
		x[i] = xw[i*wide]
	}
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
	return s.solveBlocks(k, count, fill, nil, use, tol, maxIter, workers)
}

// SolveManyBlocks is SolveMany with the right-hand sides written a block
// at a time: fill(q0, c, b) writes sides q0 … q0+c−1 (c ≤ Block) into b,
// zeroed, node-major with stride Block (side q's entry of node i at
// b[i·Block + q − q0]), from the worker goroutines, any blocks at once.
// A caller whose sides are built from one pass over the graph (the
// sketch's random signs on every edge) makes that pass once for Block
// sides, and each node's entries share a cache line. O(count·m) per
// iteration, as SolveMany.
func (s *Solver) SolveManyBlocks(count int, fill func(q0, c int, b []float64), use func(q int, x []float64),
	tol float64, maxIter, workers int) (int, error) {
	return s.solveBlocks(len(s.updates), count, nil, fill, use, tol, maxIter, workers)
}

// solveBlocks is SolveManyBefore with the sides written one by one
// (fillSide) or a block at a time (fillBlock, when fillSide is nil).
func (s *Solver) solveBlocks(k, count int, fillSide func(q int, b []float64), fillBlock func(q0, c int, b []float64),
	use func(q int, x []float64), tol float64, maxIter, workers int) (int, error) {
	if k < 0 || k > len(s.updates) {
		panic(fmt.Sprintf("laplace: %d updates asked, %d made", k, len(s.updates)))
	}
	run := &blockRun{s: s, ups: s.updates[:k:k], count: count, fillSide: fillSide, fillBlock: fillBlock,
		use: use, tol: tol, maxIter: maxIter}
	run.turn = sync.NewCond(&run.mu)
	workers = max(1, workers)
	if nw := min(workers, (count+wide-1)/wide); nw > 0 {
		parallel.Workers(nw, func(int) { run.work() })
	}
	return run.most, run.firstEr
}

// blockRun is one solveBlocks call: its arguments, and the state its
// workers share under mu.
type blockRun struct {
	s         *Solver
	ups       []update
	count     int
	fillSide  func(q int, b []float64)
	fillBlock func(q0, c int, b []float64)
	use       func(q int, x []float64)
	tol       float64
	maxIter   int

	mu        sync.Mutex
	turn      *sync.Cond // signalled when delivered or firstEr changes
	next      int        // the first right-hand side no worker has taken
	delivered int        // the first right-hand side not yet passed to use
	most      int
	firstEr   error
}

// work is one worker: it takes the next block of sides, fills, solves
// and delivers it, until no side is left or a block failed.
func (run *blockRun) work() {
	s := run.s
	b, x := s.spare.get(s.n*wide), s.spare.get(s.n*wide)
	defer s.spare.put(b, x)
	// One vector per side: fill writes into a zeroed one, only its
	// nonzero entries go into the block (and are zeroed again there), and
	// the solutions come out of the block in one pass for all its sides,
	// before the worker waits for its turn (a side at a time would read
	// the whole block once per side).
	cols := make([][]float64, wide)
	for q := range cols {
		cols[q] = s.spare.get(s.n)
		clear(cols[q])
	}
	defer s.spare.put(cols...)
	for {
		q0, ok := run.take()
		if !ok {
			return
		}
		c := min(wide, run.count-q0)
		run.fill(b, cols, q0, c)
		it, err := s.solveMixed(x, b, run.tol, run.maxIter, run.ups)
		if err != nil {
			run.fail(q0, c, err)
			return
		}
		for i := range s.n {
			xi := x[i*wide : i*wide+c]
			for q, v := range xi {
				cols[q][i] = v
			}
		}
		if !run.deliver(q0, c, it, cols) {
			return
		}
	}
}

// take returns the first side of the next block, false when every side
// is taken or a block failed.
func (run *blockRun) take() (int, bool) {
	run.mu.Lock()
	q0 := run.next
	run.next += wide
	stop := run.firstEr != nil
	run.mu.Unlock()
	return q0, q0 < run.count && !stop
}

// fill writes the c sides from q0 into the block b, node-major with
// stride wide: by fillBlock, or side by side by fillSide into the zeroed
// cols, whose nonzero entries it moves into b (zeroing them again).
func (run *blockRun) fill(b []float64, cols [][]float64, q0, c int) {
	clear(b)
	if run.fillBlock != nil {
		run.fillBlock(q0, c, b)
		return
	}
	for q := range c {
		col := cols[q]
		run.fillSide(q0+q, col)
		for i, v := range col {
			if v != 0 {
				b[i*wide+q] = v
				col[i] = 0
			}
		}
	}
}

// fail records the error of the block of c sides from q0 (the first
// error wins) and wakes the workers waiting for their turn.
func (run *blockRun) fail(q0, c int, err error) {
	run.mu.Lock()
	if run.firstEr == nil {
		run.firstEr = fmt.Errorf("right-hand sides %d–%d: %w", q0, q0+c-1, err)
	}
	run.turn.Broadcast()
	run.mu.Unlock()
}

// deliver waits until the sides before q0 are delivered, passes the c
// solutions in cols to use in the order of q, records the block's
// iterations it, and clears cols; false when a block failed meanwhile
// (nothing delivered then).
func (run *blockRun) deliver(q0, c, it int, cols [][]float64) bool {
	run.mu.Lock()
	for run.delivered != q0 && run.firstEr == nil {
		run.turn.Wait()
	}
	stop := run.firstEr != nil
	run.mu.Unlock()
	if stop {
		return false
	}
	for q := range c {
		run.use(q0+q, cols[q])
	}
	run.mu.Lock()
	run.delivered = q0 + c
	run.most = max(run.most, it)
	run.turn.Broadcast()
	run.mu.Unlock()
	for q := range c {
		clear(cols[q])
	}
	return true
}

// laplacian sets lx = L x for c sides, L the Laplacian of New's graph
// (grounded rows included): lx_i = deg_i·x_i − Σ_{j ~ i} x_j, summed in
// the order of i's neighbours. O(c·(n + m)).
func (s *Solver) laplacian(lx, x []float64, c int) {
	if c == wide && useAVX && s.n > 0 {
		_ = lx[s.n*c-1]
		_ = x[s.n*c-1]
		laplacian16AVX(&lx[0], &x[0], &s.fdeg[0], &s.fst[0], s.fullPtr(), s.n)
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
