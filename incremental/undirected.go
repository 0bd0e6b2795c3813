package incremental

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/incremental/hops"
	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/linalg"
)

// Options configure a resistance engine.
type Options struct {
	// Workers is the number of goroutines the O(n²) passes are split over;
	// 0 means GOMAXPROCS.
	Workers int
	// WithinComponents restricts admissible pairs to pairs inside one
	// connected component. By default every pair i<j is admissible and a
	// pair across components scores L⁺_ii + L⁺_jj, as in the paper.
	WithinComponents bool
	// PerHop scores a pair by its resistance per hop, R_ij / d(i,j) (definitions
	// §2.3), with d the shortest-path distance of the current graph (directed:
	// i→j), kept up to date by hops.Distances; pairs without a path score
	// nothing.
	PerHop bool
	// DriftTolerance triggers an exact recomputation when the sampled
	// residual of L·L⁺ = Π exceeds it (checked every 64 edits); 0 means 1e-9.
	DriftTolerance float64
	// GTR makes the undirected engine score pairs by the drop of the total
	// effective resistance that adding them alone makes (gtr.go), keeping
	// (L⁺)² exactly beside L⁺; admissible pairs are the non-edges inside one
	// component. Only additions inside a component are allowed.
	GTR bool
	// FastDirected makes the directed engine keep X of every SCC up to date
	// by residual-certified low-rank corrections (about O(n_S²·rank) per
	// edited SCC and batch, rank ≈ 35 per edit on Cora) instead of solving
	// it again (O(n_S³)), falling back to an exact solve when a residual or
	// a decision margin is not safely above its error bound; see
	// directed_fast.go and Directed.FastStats. Ignored by the undirected
	// engine.
	FastDirected bool
	// MemoryChecked says the caller has already found that the engine's
	// DenseBytes fit in the available memory (CheckDense, e.g. once for the
	// largest graph of a batch): the constructors then skip the probe (a
	// few file reads, a sizeable share of the set-up of a graph of tens of
	// nodes).
	MemoryChecked bool
	// Reuse, when set, is an undirected engine no longer in use (of any
	// size) whose memory NewUndirected takes over — the storage of L⁺, of
	// (L⁺)² and the scratch — as a batch of graphs rewired one after the
	// other on one worker does: allocating and clearing it for every graph
	// of tens of nodes costs more than its arithmetic. The old engine must
	// not be used afterwards. The results do not depend on it.
	Reuse *Undirected
	// Graphs, when set, is where the engine makes its copy of the graph
	// (linalg.CloneArena: a batch's copies, which its results keep).
	Graphs *linalg.CloneArena
}

// Undirected keeps the Laplacian pseudoinverse L⁺ of an undirected graph exact
// under edge additions and removals (definitions §2.1) and, after every edit, the
// most resistant admissible pair.
//
// Storage is the upper triangle of L⁺, n(n+1)/2 float64s. An edit inside a
// component is a rank-one update fused with the scan for the next maximum:
// one pass over the stored triangle, split by rows over Options.Workers
// goroutines, with no allocation. An addition that joins two components A and
// B rebuilds the merged block in O((n_A+n_B)²) from the resistances (double
// centering). Self-loops of the graph are ignored.
type Undirected struct {
	g    *linalg.Graph
	n    int
	p    packed
	comp []int // component label per node
	size []int // nodes per label
	opt  Options

	x, d    []float64           // scratch: L⁺ b_uv (= xs[0]), updated diagonal
	xs      [maxBatch][]float64 // the vectors of the pending rank-one updates
	alphas  [maxBatch]float64   // L⁺ ← L⁺ − Σ alphas[l] xs[l] xs[l]ᵀ
	k       int                 // vectors in the current pass (0: scan only)
	ops     []rankOp            // edits applied to the graph, not yet to L⁺
	batch   bool                // between Begin and Commit
	scratch []float64           // merge: row means
	members []int               // merge: nodes of the merged component
	bounds  []int               // row ranges of the workers
	track   []rank.Max
	tracks  []*rank.Max // pointers to track, for rank.Merge
	tasks   []func()    // tasks[t] runs worker t's pass and marks wg done
	// panicked is the first panic of a worker's pass (run raises it again).
	panicked atomic.Pointer[parallel.PanicError]
	wg       sync.WaitGroup
	best     Pair
	has      bool
	skip     []Pair // pairs MaxPair leaves out (Skip)
	// skipStale: Skip changed the set inside a batch; Commit rescans if no
	// pass follows.
	skipStale bool
	search    *tarjan.Searcher
	edits     int
	dist      *hops.Distances // nil unless Options.PerHop
	gtr       *gtrState       // nil unless Options.GTR (gtr.go)
	blocks    []float64       // Refresh: the components' L⁺ before they are stored
}

// keptScratch is the most floats of scratch that the engine keeps from
// one Refresh to the next (and hands to the next engine, Options.Reuse):
// the blocks of L⁺ of graphs up to 1 024 nodes, 8 MB; larger scratch is
// dropped after use, as the dense state's size (DenseBytes) assumes.
const keptScratch = 1 << 20

// reuseFloats is buf cut to n entries, all zero, or a new slice when buf
// is shorter. O(n).
func reuseFloats(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// reusePacked is newPacked(n) in old's memory when it has room (the
// entries are not cleared: Refresh writes them all). O(n).
func reusePacked(old packed, n int) packed {
	size := n * (n + 1) / 2
	if cap(old.data) < size || cap(old.start) < n+1 {
		return newPacked(n)
	}
	p := packed{n: n, start: old.start[:n+1], data: old.data[:size]}
	p.start[0] = 0
	for i := range n {
		p.start[i+1] = p.start[i] + n - i
	}
	return p
}

// NewUndirected builds the engine for a copy of g (undirected) with an exact
// L⁺ (linalg.Pinv, O(Σ n_C³)) and scans for the first maximum.
func NewUndirected(g *linalg.Graph, opt Options) (*Undirected, error) {
	if g.Directed() {
		panic("incremental: NewUndirected of a directed graph")
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.DriftTolerance == 0 {
		opt.DriftTolerance = 1e-9
	}
	n := g.N()
	if !opt.MemoryChecked {
		if err := checkDense(n, false, opt.PerHop); err != nil {
			return nil, err
		}
	}
	old, arena := opt.Reuse, opt.Graphs
	opt.Reuse, opt.Graphs = nil, nil // the engine keeps neither
	if old == nil {
		old = new(Undirected)
	}
	e := &Undirected{
		n:      n,
		p:      reusePacked(old.p, n),
		opt:    opt,
		d:      reuseFloats(old.d, n),
		ops:    make([]rankOp, 0, maxBatch),
		search: old.search,
		blocks: old.blocks,
	}
	if arena != nil {
		e.g = arena.Clone(g)
	} else {
		e.g = g.Clone()
	}
	if e.search == nil {
		e.search = tarjan.NewSearcher(n) // it grows as it needs
	}
	if opt.GTR && old.gtr != nil {
		e.gtr = old.gtr.reuse(n)
	}
	for l := range e.xs {
		e.xs[l] = reuseFloats(old.xs[l], n)
	}
	e.x = e.xs[0]
	if opt.PerHop {
		e.dist = hops.New(e.g)
	}
	e.split()
	if err := e.Refresh(); err != nil {
		return nil, err
	}
	return e, nil
}

// split divides rows among workers so each gets about the same number of
// stored entries, and builds the per-worker tasks once.
func (e *Undirected) split() {
	w := max(1, min(e.opt.Workers, e.n))
	e.bounds = make([]int, w+1)
	total := len(e.p.data)
	k := 1
	for i := range e.n {
		if k < w && e.p.start[i] >= total*k/w {
			e.bounds[k] = i
			k++
		}
	}
	for ; k <= w; k++ {
		e.bounds[k] = e.n
	}
	e.track = make([]rank.Max, w)
	e.tracks = make([]*rank.Max, w)
	for t := range w {
		e.track[t].Keyed = e.opt.PerHop
		e.tracks[t] = &e.track[t]
	}
	e.tasks = make([]func(), w)
	for t := range w {
		e.tasks[t] = func() {
			defer e.wg.Done()
			defer func() {
				if r := recover(); r != nil {
					e.panicked.CompareAndSwap(nil, parallel.Recovered(r))
				}
			}()
			e.pass(t)
		}
	}
}

// SetWorkers changes the number of goroutines of the O(n²) passes (0:
// GOMAXPROCS). Results do not depend on it: every entry is computed the same
// way by whichever worker owns its row.
func (e *Undirected) SetWorkers(w int) {
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	e.opt.Workers = w
	e.split()
}

// Graph returns the engine's current graph. Do not modify it.
func (e *Undirected) Graph() *linalg.Graph { return e.g }

// N returns the number of nodes.
func (e *Undirected) N() int { return e.n }

// Component returns the component label of node i (labels are stable between
// edits but not necessarily consecutive).
func (e *Undirected) Component(i int) int { return e.comp[i] }

// R returns the effective resistance L⁺_ii + L⁺_jj − 2L⁺_ij. Across
// components it is the paper's finite L⁺_ii + L⁺_jj. O(1).
func (e *Undirected) R(i, j int) float64 {
	return e.p.at(i, i) + e.p.at(j, j) - 2*e.p.at(i, j)
}

// Pinv returns entry (i, j) of L⁺. O(1).
func (e *Undirected) Pinv(i, j int) float64 { return e.p.at(i, j) }

// MaxPair returns the first pair of definitions §3.1's descending ranking (package
// rank) of the admissible pairs i<j, the pairs of Skip left out: scored by
// R_ij, or by R_ij/d(i,j) with R_ij as second key with Options.PerHop; false
// when no admissible pair is left. Existing edges are admissible. O(1): the
// pass of the last edit (or Skip) found it.
func (e *Undirected) MaxPair() (Pair, bool) { return e.best, e.has }

// Skip sets the pairs MaxPair leaves out ("the next pair after these"):
// outside a batch at once, by a rescan of the stored triangle (O(n²), no
// change to L⁺) when the set differs from the one of the last pass; inside a
// batch from the fused pass of Commit on. The set is checked only for pairs
// that reach the running maximum.
func (e *Undirected) Skip(pairs []Pair) {
	if slices.Equal(pairs, e.skip) {
		return
	}
	e.skip = append(e.skip[:0], pairs...)
	for t := range e.track {
		e.track[t].Exclude = e.skip
	}
	if e.batch {
		e.skipStale = true
		return
	}
	e.scan()
}

// MinEdge returns the first existing edge of definitions §3.1's ascending ranking by
// resistance for which accept returns true (accept nil: any), and false when
// accept rejects them all. O(m) per rejected candidate (rank.Each).
func (e *Undirected) MinEdge(accept func(u, v int) bool) (Pair, bool) {
	return minEdge(e.g, e.R, func(int, int) bool { return true }, accept)
}

// RAfterAdd returns the resistance between a and b that adding the single
// edge {x,y} to the current graph would leave, without changing anything.
// Same component: R_ab − ((L⁺b_xy)_a − (L⁺b_xy)_b)² / (1 + R_xy). If {x,y}
// joins two components and a, b lie on either side: R_ax + 1 + R_yb (or the
// mirror); other pairs inside one component are unchanged. A pair across
// components that the edge does not join keeps the paper's formula evaluated
// on the re-centred blocks. O(1).
func (e *Undirected) RAfterAdd(a, b, x, y int) float64 {
	if e.comp[x] == e.comp[y] {
		wa := e.p.at(a, x) - e.p.at(a, y)
		wb := e.p.at(b, x) - e.p.at(b, y)
		return e.R(a, b) - (wa-wb)*(wa-wb)/(1+e.R(x, y))
	}
	ca, cb := e.comp[a], e.comp[b]
	cx, cy := e.comp[x], e.comp[y]
	switch {
	case ca == cx && cb == cy:
		return e.R(a, x) + 1 + e.R(y, b)
	case ca == cy && cb == cx:
		return e.R(a, y) + 1 + e.R(x, b)
	case ca == cb:
		return e.R(a, b)
	}
	// a and b stay in different components; one of them may sit in the
	// merged one, whose diagonal is re-centred.
	return e.mergedDiag(a, x, y) + e.mergedDiag(b, x, y)
}

// maxBatch is the most rank-one updates fused into one pass.
const maxBatch = 3

// rankOp is an edit applied to the graph whose rank-one update of L⁺ is
// pending.
type rankOp struct {
	u, v int
	add  bool
}

// Begin starts a batch: edits until Commit change the graph (and are
// validated against it) at once, but their rank-one updates of L⁺ are fused
// into one pass over the stored triangle at Commit, so an iteration that adds
// an edge and removes one costs one O(n²) pass instead of two. Between Begin
// and Commit the resistances, MaxPair and RAfterAdd still describe the graph
// before the batch. An addition that joins two components is applied at once
// (after the pending updates).
func (e *Undirected) Begin() { e.batch = true }

// Commit applies the pending updates in one fused pass (Sherman–Morrison in
// sequence: each vector x_l = L⁺_{l−1} b_l is derived in O(n) from L⁺ and
// the earlier vectors), scans for the next maximum and ends the batch.
func (e *Undirected) Commit() error {
	e.batch = false
	if err := e.flush(); err != nil {
		return err
	}
	if e.skipStale {
		e.scan()
	}
	return nil
}

// Add inserts the edge {u,v} and updates L⁺: Sherman–Morrison inside a
// component, O(n²) fused with the scan; the merge formula when {u,v} joins two
// components, O(n_C²) plus the scan. Inside a batch (Begin) the update waits
// for Commit. A refused edit (*EditError: ErrNodeRange, ErrSelfLoop,
// ErrEdgeExists) changes nothing.
func (e *Undirected) Add(u, v int) error {
	if err := e.checkPair("add", u, v); err != nil {
		return err
	}
	if e.g.HasEdge(u, v) {
		return &EditError{"add", u, v, ErrEdgeExists}
	}
	if e.gtr != nil && e.comp[u] != e.comp[v] {
		return &EditError{"add", u, v, errGTREdit}
	}
	if e.comp[u] != e.comp[v] {
		if err := e.flush(); err != nil {
			return err
		}
		e.merge(u, v)
		e.edit(u, v, true)
		e.scan()
		return e.afterEdit(1)
	}
	return e.stage(u, v, true)
}

// Remove deletes the edge {u,v} and downdates L⁺ by Sherman–Morrison, fused
// with the scan, O(n²); inside a batch the downdate waits for Commit. A
// bridge of the current graph is refused (ErrBridge, decided by the Tarjan
// module, not by R_uv = 1), as are absent edges and bad ids; a refused edit
// changes nothing.
func (e *Undirected) Remove(u, v int) error {
	if err := e.checkPair("remove", u, v); err != nil {
		return err
	}
	if !e.g.HasEdge(u, v) {
		return &EditError{"remove", u, v, ErrNoEdge}
	}
	if e.gtr != nil {
		return &EditError{"remove", u, v, errGTREdit}
	}
	if e.search.IsBridge(e.g, u, v) {
		return &EditError{"remove", u, v, ErrBridge}
	}
	return e.stage(u, v, false)
}

// stage applies an edit to the graph and queues its rank-one update,
// flushing unless a batch is open and has room.
func (e *Undirected) stage(u, v int, add bool) error {
	e.edit(u, v, add)
	e.ops = append(e.ops, rankOp{u, v, add})
	if e.batch && len(e.ops) < maxBatch && e.gtr == nil {
		return nil
	}
	return e.flush()
}

// flush applies the pending rank-one updates in one fused pass.
func (e *Undirected) flush() error {
	k := len(e.ops)
	if k == 0 {
		return nil
	}
	for l, op := range e.ops {
		x := e.xs[l]
		e.p.column(x, op.u)
		e.p.column(e.d, op.v) // d as scratch
		for i := range x {
			x[i] -= e.d[i]
		}
		// x_l = L⁺_{l−1} b_l = L⁺ b_l − Σ_{m<l} α_m x_m (x_mᵀ b_l).
		for m := range l {
			xm := e.xs[m]
			if c := e.alphas[m] * (xm[op.u] - xm[op.v]); c != 0 {
				for i := range x {
					x[i] -= c * xm[i]
				}
			}
		}
		r := x[op.u] - x[op.v]
		if op.add {
			e.alphas[l] = 1 / (1 + r)
		} else {
			if 1-r < 1e-6 {
				// Not a bridge, yet R_uv ≈ 1: the downdate would divide
				// by a tiny number. Recompute exactly instead.
				e.ops = e.ops[:0]
				return e.Refresh()
			}
			e.alphas[l] = -1 / (1 - r)
		}
	}
	for i := range e.n {
		di := e.p.at(i, i)
		for l := range k {
			di -= e.alphas[l] * e.xs[l][i] * e.xs[l][i]
		}
		e.d[i] = di
	}
	if e.gtr != nil {
		e.prepareGTR(e.ops[0].u, e.ops[0].v)
	}
	e.k = k
	e.run()
	e.k = 0
	e.ops = e.ops[:0]
	return e.afterEdit(k)
}

// edit changes the graph and, with PerHop, the distances.
func (e *Undirected) edit(u, v int, add bool) {
	if add {
		e.dist.AddEdge(e.g, u, v)
	} else {
		e.dist.RemoveEdge(e.g, u, v)
	}
}

// Score returns the score MaxPair ranks by: R_ij, or R_ij/d(i,j) with
// PerHop (false when there is no path). O(1).
func (e *Undirected) Score(i, j int) (float64, bool) {
	r := e.R(i, j)
	if e.dist == nil {
		return r, true
	}
	d := e.dist.At(i, j)
	if d == hops.Unreachable || d == 0 {
		return 0, false
	}
	return r / float64(d), true
}

func (e *Undirected) checkPair(op string, u, v int) error {
	if u < 0 || u >= e.n || v < 0 || v >= e.n {
		return &EditError{op, u, v, ErrNodeRange}
	}
	if u == v {
		return &EditError{op, u, v, ErrSelfLoop}
	}
	return nil
}

// scan finds the next maximum without changing L⁺.
func (e *Undirected) scan() {
	for i := range e.n {
		e.d[i] = e.p.at(i, i)
	}
	if e.gtr != nil {
		for i := range e.n {
			e.gtr.dS[i] = e.gtr.sq.at(i, i)
		}
	}
	e.k = 0
	e.run()
}

// run executes one pass on all workers. The tasks are built once, so a pass
// allocates nothing (errgroup.Go would allocate a closure per call: measured
// 2 allocations per edit).
func (e *Undirected) run() {
	e.wg.Add(len(e.tasks))
	for _, t := range e.tasks[1:] {
		go t()
	}
	e.tasks[0]()
	e.wg.Wait()
	if p := e.panicked.Load(); p != nil {
		panic(p) // a worker's, raised on the caller's goroutine (the CLI's guard)
	}
	e.best, e.has = rank.Merge(e.tracks)
	e.skipStale = false
}

// pass is worker t's share of the fused update-and-scan: for each of its rows
// i, the stored row i..n-1 becomes P_ij − Σ_l α_l x_l,i x_l,j (left alone
// when every α_l x_l,i = 0), and each admissible pair i<j is scored with the
// new values, in row-major order, in the same sweep over the row.
func (e *Undirected) pass(t int) {
	if e.gtr != nil {
		e.gtrPass(t)
		return
	}
	tr := &e.track[t]
	tr.Reset()
	n, k := e.n, e.k
	for i := e.bounds[t]; i < e.bounds[t+1]; i++ {
		row := e.p.row(i)
		row[0] = e.d[i]
		ds := e.d[i:n]
		var a [maxBatch]float64
		var xs [maxBatch][]float64
		nz := 0
		for l := range k {
			if c := e.alphas[l] * e.xs[l][i]; c != 0 {
				a[nz], xs[nz] = c, e.xs[l][i:n]
				nz++
			}
		}
		switch {
		case e.dist != nil:
			// Per hop: pairs without a path (other components) score
			// nothing, so WithinComponents changes nothing here.
			if nz == 1 {
				updateScanRowHop(tr, i, row, ds, e.dist.Row(i)[i:n], xs[0], a[0])
				break
			}
			updateRow(row, a[:nz], xs[:nz])
			scanRowHop(tr, i, row, ds, e.dist.Row(i)[i:n])
		case e.opt.WithinComponents:
			updateRow(row, a[:nz], xs[:nz])
			e.scanRowWithin(tr, i, row, ds)
		case nz == 0:
			scanRow(tr, i, row, ds)
		case nz == 1:
			updateScanRow(tr, i, row, ds, xs[0], a[0])
		default:
			updateRow(row, a[:nz], xs[:nz])
			scanRow(tr, i, row, ds)
		}
	}
}

// updateRow applies row[k] −= Σ_l a[l]·xs[l][k] for k ≥ 1.
func updateRow(row []float64, a []float64, xs [][]float64) {
	switch len(a) {
	case 0:
	case 1:
		x0 := xs[0][:len(row)]
		for k := 1; k < len(row); k++ {
			row[k] -= a[0] * x0[k]
		}
	case 2:
		x0, x1 := xs[0][:len(row)], xs[1][:len(row)]
		for k := 1; k < len(row); k++ {
			row[k] -= a[0]*x0[k] + a[1]*x1[k]
		}
	default:
		x0, x1, x2 := xs[0][:len(row)], xs[1][:len(row)], xs[2][:len(row)]
		for k := 1; k < len(row); k++ {
			row[k] -= a[0]*x0[k] + a[1]*x1[k] + a[2]*x2[k]
		}
	}
}

// updateScanRow is the hot loop: row[k] −= a·xs[k] and the score
// ds[0] + ds[k] − 2·row[k] of pair (i, i+k) offered to tr, four at a time.
func updateScanRow(tr *rank.Max, i int, row, ds, xs []float64, a float64) {
	ds, xs = ds[:len(row)], xs[:len(row)]
	thr := tr.Floor() - ds[0] // score > floor ⇔ ds[k] − 2v > floor − d_i
	k := 1
	for ; k+4 <= len(row); k += 4 {
		v0 := row[k] - a*xs[k]
		v1 := row[k+1] - a*xs[k+1]
		v2 := row[k+2] - a*xs[k+2]
		v3 := row[k+3] - a*xs[k+3]
		row[k], row[k+1], row[k+2], row[k+3] = v0, v1, v2, v3
		s0, s1, s2, s3 := ds[k]-2*v0, ds[k+1]-2*v1, ds[k+2]-2*v2, ds[k+3]-2*v3
		if s0 > thr || s1 > thr || s2 > thr || s3 > thr {
			thr = offer4(tr, i, k, ds[0], thr, s0, s1, s2, s3)
		}
	}
	for ; k < len(row); k++ {
		v := row[k] - a*xs[k]
		row[k] = v
		if s := ds[k] - 2*v; s > thr {
			tr.Offer(rank.Pair{U: i, V: i + k, Score: ds[0] + s})
			thr = tr.Floor() - ds[0]
		}
	}
}

// invHop[h] = 1/h for the hop counts most graphs have.
var invHop = func() (t [1024]float64) {
	for h := 1; h < len(t); h++ {
		t[h] = 1 / float64(h)
	}
	return t
}()

// scanRowHop scores the pairs (i, i+k) of an updated row per hop:
// (ds[0] + ds[k] − 2·row[k]) / hs[k], skipping hops.Unreachable, with the
// resistance as the ranking's second key.
func scanRowHop(tr *rank.Max, i int, row, ds []float64, hs []uint16) {
	ds, hs = ds[:len(row)], hs[:len(row)]
	di, floor := ds[0], tr.Floor()
	for k := 1; k < len(row); k++ {
		h := hs[k]
		if h == hops.Unreachable {
			continue
		}
		r := di + ds[k] - 2*row[k]
		if s := r * hopWeight(h); s > floor {
			tr.Offer(rank.Pair{U: i, V: i + k, Score: s, Key: r})
			floor = tr.Floor()
		}
	}
}

// updateScanRowHop is scanRowHop fused with the rank-one update
// row[k] −= a·xs[k]: one sweep over the row.
func updateScanRowHop(tr *rank.Max, i int, row, ds []float64, hs []uint16, xs []float64, a float64) {
	ds, hs, xs = ds[:len(row)], hs[:len(row)], xs[:len(row)]
	di, floor := ds[0], tr.Floor()
	for k := 1; k < len(row); k++ {
		v := row[k] - a*xs[k]
		row[k] = v
		h := hs[k]
		if h == hops.Unreachable {
			continue
		}
		r := di + ds[k] - 2*v
		if s := r * hopWeight(h); s > floor {
			tr.Offer(rank.Pair{U: i, V: i + k, Score: s, Key: r})
			floor = tr.Floor()
		}
	}
}

// hopWeight is 1/h, from a table for the hop counts most graphs have.
func hopWeight(h uint16) float64 {
	if int(h) < len(invHop) {
		return invHop[h]
	}
	return 1 / float64(h)
}

// scanRow scores a row that the update leaves unchanged.
func scanRow(tr *rank.Max, i int, row, ds []float64) {
	ds = ds[:len(row)]
	thr := tr.Floor() - ds[0]
	k := 1
	for ; k+4 <= len(row); k += 4 {
		s0, s1, s2, s3 := ds[k]-2*row[k], ds[k+1]-2*row[k+1], ds[k+2]-2*row[k+2], ds[k+3]-2*row[k+3]
		if s0 > thr || s1 > thr || s2 > thr || s3 > thr {
			thr = offer4(tr, i, k, ds[0], thr, s0, s1, s2, s3)
		}
	}
	for ; k < len(row); k++ {
		if s := ds[k] - 2*row[k]; s > thr {
			tr.Offer(rank.Pair{U: i, V: i + k, Score: ds[0] + s})
			thr = tr.Floor() - ds[0]
		}
	}
}

// offer4 offers, in order, those of four consecutive partial scores that
// beat the running threshold, and returns the new threshold.
func offer4(tr *rank.Max, i, k int, di, thr, s0, s1, s2, s3 float64) float64 {
	for q, s := range [4]float64{s0, s1, s2, s3} {
		if s > thr {
			tr.Offer(rank.Pair{U: i, V: i + k + q, Score: di + s})
			thr = tr.Floor() - di
		}
	}
	return thr
}

// scanRowWithin scores the pairs of an updated row inside i's component.
func (e *Undirected) scanRowWithin(tr *rank.Max, i int, row, ds []float64) {
	ds = ds[:len(row)]
	di, ci := ds[0], e.comp[i]
	cs := e.comp[i:e.n][:len(row)]
	for k := 1; k < len(row); k++ {
		if s := di + ds[k] - 2*row[k]; s > tr.Floor() && cs[k] == ci {
			tr.Offer(rank.Pair{U: i, V: i + k, Score: s})
		}
	}
}

// afterEdit counts k edits and, each time the count passes a multiple of 64,
// checks the drift and recomputes L⁺ exactly when it exceeds the tolerance.
func (e *Undirected) afterEdit(k int) error {
	e.edits += k
	if e.edits/64 != (e.edits-k)/64 && e.Drift() > e.opt.DriftTolerance {
		return e.Refresh()
	}
	return nil
}

// Refresh recomputes L⁺ exactly from the current graph (pending batch
// updates included) (linalg.ComponentPinv of each component, as
// linalg.Pinv, written straight into the packed triangle), O(Σ n_C³),
// relabels the components and scans for the maximum. On error L⁺ is left
// as it was, except in GTR mode (refreshGTR), where the engine is then
// unusable (the error means wrong component labels, a bug).
func (e *Undirected) Refresh() error {
	e.ops = e.ops[:0] // the graph already holds any pending edit
	comp, count := tarjan.Components(e.g)
	groups := linalg.Groups(comp)
	if e.opt.GTR && !gtrReference {
		return e.refreshGTR(comp, count, groups)
	}
	blocks := make([]*mat.SymDense, len(groups))
	size := 0 // the blocks' entries, carved from e.blocks
	for _, nodes := range groups {
		if nc := len(nodes); nc > 1 {
			size += nc * nc
		}
	}
	buf := e.blocks
	if cap(buf) < size {
		buf = make([]float64, size)
	}
	buf = buf[:size]
	if size <= keptScratch {
		e.blocks = buf // kept for the next Refresh, or the next engine
	}
	for c, nodes := range groups {
		nc := len(nodes)
		if nc < 2 {
			continue
		}
		B, err := linalg.ComponentPinvIn(buf[:nc*nc], e.g, nodes)
		buf = buf[nc*nc:]
		if err != nil {
			return fmt.Errorf("incremental: refresh: %w", err)
		}
		blocks[c] = B
	}
	e.comp = comp
	e.size = make([]int, count)
	for _, c := range comp {
		e.size[c]++
	}
	clear(e.p.data) // entries between components (and of isolated nodes) are 0
	for c, B := range blocks {
		if B == nil {
			continue
		}
		nodes, raw := groups[c], B.RawSymmetric()
		contiguous := nodes[len(nodes)-1]-nodes[0] == len(nodes)-1 // nodes ascend
		for a, i := range nodes {
			row, brow := e.p.row(i), raw.Data[a*raw.Stride+a:a*raw.Stride+len(nodes)]
			if contiguous {
				copy(row, brow)
				continue
			}
			for b, v := range brow {
				row[nodes[a+b]-i] = v
			}
		}
	}
	if e.opt.GTR {
		e.initGTR(groups, blocks)
	}
	e.scan()
	return nil
}

// Drift returns a cheap measure of the accumulated rounding error: the
// largest entry of L·L⁺ − Π_C over 4 sampled columns (Π_C = I − J/n_C on each
// component, 0 across), relative to max(1, max|L⁺|) on those columns. O(m + n)
// per column.
func (e *Undirected) Drift() float64 {
	if e.n == 0 {
		return 0
	}
	worst := 0.0
	col := make([]float64, e.n)
	for s := range 4 {
		j := (e.edits*7919 + s*104729) % e.n
		e.p.column(col, j)
		scale := 1.0
		for _, v := range col {
			scale = math.Max(scale, math.Abs(v))
		}
		for i := range e.n {
			// (L col)_i = deg_i col_i − Σ_{k∈N(i)} col_k
			nb := e.g.Out(i)
			v := float64(len(nb)) * col[i]
			for _, k := range nb {
				v -= col[k]
			}
			var want float64
			if e.comp[i] == e.comp[j] {
				want = -1 / float64(e.size[e.comp[j]])
				if i == j {
					want++
				}
			}
			worst = math.Max(worst, math.Abs(v-want)/scale)
		}
	}
	return worst
}

// Exact returns a fresh L⁺ of the current graph as a dense matrix, for tests
// and the exact engine. O(Σ n_C³).
func (e *Undirected) Exact() (*mat.SymDense, error) {
	comp, _ := tarjan.Components(e.g)
	return linalg.Pinv(e.g, comp)
}
