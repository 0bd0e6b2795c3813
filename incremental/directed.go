package incremental

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/incremental/hops"
	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/linalg"
)

// Directed keeps the matrix X of Young, Scardovi & Leonard for every strongly
// connected component (SCC) of a directed graph, the resistances
// R_ij = X_ii + X_jj − 2X_ij it defines for ordered pairs inside one SCC, and,
// after every edit, the most resistant admissible pair (definitions §2.2, §3).
//
// For an SCC S with n_S ≥ 2 nodes, L_S is the out-Laplacian D_out − A of the
// subgraph induced by S (D_out counts only the arcs inside S; self-loops are
// ignored), Π = I − J/n_S, M = Π L_S + J/n_S, Y the solution of
// M Y + Y Mᵀ = Π (linalg.SolveLyapunov, Bartels–Stewart, O(n_S³)) and
// X_S = 2Y. For a symmetric digraph X = L⁺. Pairs in different SCCs have no
// resistance; a single-node SCC has none either (X = 0 there).
//
// The SCC partition is fixed when the engine is built: additions are allowed
// only inside an SCC and removals only when the SCC stays strongly connected
// (decided by package tarjan, never by a floating-point comparison), so no
// allowed edit changes it. Arcs between SCCs are never added or removed.
//
// Storage per SCC: its members (ascending global ids), a global→local index
// shared by all SCCs, and X_S as a dense symmetric n_S×n_S matrix; building
// it takes another dense n_S×n_S matrix M and about 5n_S² floats of solver
// workspace. An edit re-solves only the SCC it touches, exactly, in
// O(n_S³); no rounding drift accumulates, so Options.DriftTolerance is not
// used (Drift is a diagnostic). Options.WithinComponents is not used either:
// directed pairs are always restricted to one SCC. The per-SCC solver step is
// the single method solveSCC.
//
// With Options.FastDirected the engine instead keeps X_S up to date by
// residual-certified low-rank corrections, O(n_S²·rank) per edited SCC and
// batch, and falls back to an exact solve when a residual or a decision
// margin is not safely above its error bound (directed_fast.go describes the
// algorithm and the policy; FastStats and Fallbacks count). It then also
// keeps, per SCC, sparse factorizations of the shifted Laplacians and n_S²
// floats of residual workspace, and solves a symmetric SCC initially by a
// Cholesky factorization.
//
// The read-only methods (R, X, MaxPair, MinEdge, RAfterAdd, Drift, SCC) may
// run concurrently with each other, not with Add, Remove or Refresh; in the
// fast mode RAfterAdd and MinRAfterAdd use the SCC's solver workspace and must
// not run concurrently either.
type Directed struct {
	g     *linalg.Graph
	n     int
	opt   Options
	comp  []int    // SCC label per node (tarjan.SCC)
	local []int    // position of every node in its SCC's member list
	sccs  []dirSCC // indexed by label
	big   []int    // labels of the SCCs with at least two nodes, ascending
	best  Pair
	has   bool

	search *tarjan.Searcher
	dist   *hops.Distances // nil unless Options.PerHop
	batch  bool            // between Begin and Commit
	dirty  []int           // SCCs edited in the batch, to solve at Commit
	fast   *dirFast        // nil unless Options.FastDirected (directed_fast.go)

	skip    []Pair // pairs MaxPair leaves out (Skip)
	rescan  []int  // SCCs whose skipped pairs changed, to scan again
	crossed bool   // arcs between SCCs were added since the last repartition
	merges  int    // SCC merges made (directed_merge.go)
	err     error  // the first failed solve outside Add, Remove and Commit (Err)
}

// dirSCC is one strongly connected component.
type dirSCC struct {
	members []int         // global ids, ascending
	x       *mat.SymDense // X_S; both triangles of its raw data are set (but see lowerStale); nil for one node
	// lowerStale: the fast mode's last updates wrote X_S's upper triangle
	// only (unkeyed scans read no other); full mirrors it before a full read.
	lowerStale bool
	// rowMax[a]: the greatest unkeyed score of row a's pairs (a, b > a) at
	// the last whole unkeyed scan, valid while rowMaxOK (X_S unchanged
	// since); pairsAbove skips the rows below its threshold.
	rowMax   []float64
	rowMaxOK bool
	track    rank.Max // the ranking's leaders among its pairs (global ids)
	mirror   rank.Max // unkeyed: the pairs (j, i) whose (i, j) is skipped
	fast     *fastSCC // low-rank state with Options.FastDirected, else nil
	workers  int      // goroutines of its scans (Options.Workers)
}

// NewDirected builds the engine for a copy of the directed graph g: it labels
// the SCCs (tarjan.SCC, O(n + m)) and solves every SCC with at least two
// nodes (O(Σ n_S³)), the SCCs spread over Options.Workers goroutines
// (sync.WaitGroup; 0 means GOMAXPROCS), then scans for the first maximum
// (O(Σ n_S²)). It panics if g is undirected, and returns the solver's error
// (wrapped) if a Lyapunov solve fails, which for a strongly connected
// component only a non-finite intermediate can cause.
func NewDirected(g *linalg.Graph, opt Options) (*Directed, error) {
	if !g.Directed() {
		panic("incremental: NewDirected of an undirected graph")
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	n := g.N()
	if !opt.MemoryChecked {
		if err := checkDense(n, true, opt.PerHop); err != nil {
			return nil, err
		}
	}
	e := &Directed{
		g:      g.Clone(),
		n:      n,
		opt:    opt,
		local:  make([]int, n),
		search: tarjan.NewSearcher(n),
	}
	comp, _ := tarjan.SCC(e.g)
	e.comp = comp
	groups := linalg.Groups(comp)
	e.sccs = make([]dirSCC, len(groups))
	for s, members := range groups {
		e.sccs[s].members = members
		e.sccs[s].workers = opt.Workers
		for a, i := range members {
			e.local[i] = a
		}
		if len(members) >= 2 {
			e.big = append(e.big, s)
		}
	}
	if opt.PerHop {
		e.dist = hops.New(e.g)
	}
	if opt.FastDirected {
		e.fast = &dirFast{pend: map[int][]dirEdit{}}
	}
	if err := e.Refresh(); err != nil {
		return nil, err
	}
	return e, nil
}

// Graph returns the engine's current graph. Do not modify it. O(1).
func (e *Directed) Graph() *linalg.Graph { return e.g }

// N returns the number of nodes. O(1).
func (e *Directed) N() int { return e.n }

// SCC returns the strongly connected component label of node i, as
// tarjan.SCC numbers them (in increasing order of their smallest node id). The
// labels never change. O(1).
func (e *Directed) SCC(i int) int { return e.comp[i] }

// X returns entry (i, j) of X: X_S(i, j) when i and j are in the same SCC S
// with at least two nodes, else 0. O(1).
func (e *Directed) X(i, j int) float64 {
	s := e.comp[i]
	if e.comp[j] != s || e.sccs[s].x == nil {
		return 0
	}
	return e.sccs[s].at(e.local[i], e.local[j])
}

// R returns the resistance X_ii + X_jj − 2X_ij between i and j and true when
// they are in the same SCC; R(i, i) is 0, true for every node. For i and j in
// different SCCs it returns 0, false: the pair has no resistance. R(i, j) and
// R(j, i) are bit-identical. O(1).
func (e *Directed) R(i, j int) (float64, bool) {
	s := e.comp[i]
	if e.comp[j] != s {
		return 0, false
	}
	if i == j {
		return 0, true
	}
	return e.sccs[s].r(e.local[i], e.local[j]), true
}

// MaxPair returns the first pair of definitions §3.1's descending ranking (package
// rank) of the admissible ordered pairs (i, j) — i ≠ j, both in one SCC —
// over the whole graph, the pairs of Skip left out: scored by R_ij, or by
// R_ij/d(i→j) with R_ij as second key with Options.PerHop. Since R is
// symmetric, the unkeyed winner always has i < j. Existing arcs are
// admissible. It returns false when no admissible pair is left. O(1): the
// pair was found after the last edit (a scan of the edited SCC's pairs,
// O(n_S²), and a merge over the SCCs).
func (e *Directed) MaxPair() (Pair, bool) { return e.best, e.has }

// Skip sets the pairs MaxPair leaves out ("the next pair after these"). The
// SCCs holding a pair that enters or leaves the set are scanned again
// (O(n_S²) each) — outside a batch at once, inside one at Commit — and, in
// the fast mode, the decision is certified again.
func (e *Directed) Skip(pairs []Pair) {
	if slices.Equal(pairs, e.skip) {
		return
	}
	changed := map[int]bool{}
	for _, p := range append(slices.Clone(e.skip), pairs...) {
		in, was := slices.Contains(pairs, p), slices.Contains(e.skip, p)
		if in != was {
			changed[e.comp[p.U]] = true
		}
	}
	e.skip = append(e.skip[:0], pairs...)
	for s := range changed {
		if !slices.Contains(e.rescan, s) {
			e.rescan = append(e.rescan, s)
		}
	}
	if !e.batch {
		if err := e.rescanSkipped(); err != nil {
			// Only the fast mode's exact fallback can fail; Refresh
			// restores a consistent state.
			if err := e.Refresh(); err != nil {
				e.fail(fmt.Errorf("incremental: Skip: %w", err))
			}
		}
	}
}

// rescanSkipped scans again the SCCs whose skipped pairs changed, merges the
// maxima and, in the fast mode, certifies the decision.
func (e *Directed) rescanSkipped() error {
	for _, s := range e.rescan {
		if len(e.sccs[s].members) >= 2 {
			e.sccs[s].track.Exclude = e.skip
			e.sccs[s].scan(e.dist)
		}
	}
	e.rescan = e.rescan[:0]
	e.mergeMax()
	if e.fast != nil {
		return e.fastCertify()
	}
	return nil
}

// MinEdge returns the first arc u→v inside an SCC of definitions §3.1's ascending
// ranking by resistance R_uv for which accept returns true (accept nil:
// any). Arcs between SCCs have no score and are never returned. It returns
// false when there is no such arc or accept rejects them all. O(m) per
// rejected candidate (rank.Each).
func (e *Directed) MinEdge(accept func(u, v int) bool) (Pair, bool) {
	return minEdge(e.g, func(u, v int) float64 { return e.sccs[e.comp[u]].r(e.local[u], e.local[v]) },
		func(u, v int) bool { return e.comp[u] == e.comp[v] }, accept)
}

// RAfterAdd returns the resistance between a and b that adding the single arc
// x→y to the current graph would leave, without changing anything, and true
// when a and b are in one SCC and x and y are too. It returns false when a
// and b, or x and y, are in different SCCs (such an arc is never added). If
// a and b lie in another SCC than the arc, or x = y, or x→y is already an
// arc, the result is the current R_ab.
//
// Otherwise the SCC S of the arc is solved again, exactly, with the arc
// included, on a copy of its M: O(n_S³) time and O(n_S²) memory; in the fast
// mode a low-rank solve gives it instead (fastRAfterAdd: no O(n_S²) work,
// accurate to the certified bound that MinRAfterAdd uses). Unlike the
// undirected case (definitions §2.1) there is no O(1) formula: the arc changes M by
// the non-symmetric rank-one term u wᵀ, u = Π e_x, w = e_x − e_y, so the
// Lyapunov operator Y ↦ M Y + Y Mᵀ changes by Y ↦ u wᵀY + Y w uᵀ, a correction
// of rank up to 2n_S on the space of n_S×n_S matrices, not a rank-one one that
// Sherman–Morrison could invert cheaply. This is the quantity definitions §3.3, step 1,
// second case, needs for each candidate arc. If that solve fails, which for a strongly
// connected component cannot happen short of non-finite arithmetic, it returns false
// and keeps the error (Err; Commit returns it).
func (e *Directed) RAfterAdd(a, b, x, y int) (float64, bool) {
	s := e.comp[x]
	if e.comp[y] != s || e.comp[a] != e.comp[b] {
		return 0, false
	}
	if e.comp[a] != s || x == y || e.g.HasEdge(x, y) {
		return e.R(a, b)
	}
	if a == b {
		return 0, true
	}
	if e.fast != nil && e.sccs[s].fast != nil {
		if r, _, err := e.fastRAfterAdd(s, a, b, x, y); err == nil {
			return r, true
		}
	}
	X, err := e.solveX(s, x, y)
	if err != nil {
		e.fail(fmt.Errorf("incremental: RAfterAdd(%d, %d, %d, %d): %w", a, b, x, y, err))
		return 0, false
	}
	c := dirSCC{x: X}
	return c.r(e.local[a], e.local[b]), true
}

// Add inserts the arc u→v and solves its SCC again (O(n_S³), see solveSCC),
// then finds the new maximum (O(n_S²) plus a merge over the SCCs). An arc
// between two SCCs changes no resistance unless it closes a cycle: then the
// SCCs on the cycle merge, and the merged SCC is solved exactly
// (directed_merge.go). A refused edit (*EditError: ErrNodeRange,
// ErrSelfLoop, ErrEdgeExists, checked in this order) changes nothing; so
// does a failed solve, whose error is returned as is.
func (e *Directed) Add(u, v int) error {
	if err := checkIDs("add", e.n, u, v); err != nil {
		return err
	}
	if e.g.HasEdge(u, v) {
		return &EditError{"add", u, v, ErrEdgeExists}
	}
	if e.comp[u] != e.comp[v] {
		e.edit(u, v, true)
		return e.addAcross()
	}
	e.edit(u, v, true)
	e.noteEdit(u, v, true)
	if e.batch {
		e.markDirty(e.comp[u])
		return nil
	}
	if err := e.solveSCC(e.comp[u]); err != nil {
		e.edit(u, v, false)
		return err
	}
	return nil
}

// Remove deletes the arc u→v and solves its SCC again (O(n_S³), see
// solveSCC), then finds the new maximum. Refused, with an *EditError and no
// change, in this order: bad ids (ErrNodeRange), u = v (ErrSelfLoop: self-loops
// are never rewired), an absent arc (ErrNoEdge), an arc between two SCCs
// (ErrAcrossSCC: removing it would change no resistance and keep the
// partition, but definitions §3 never makes such an arc a candidate, so the engine
// refuses it rather than keep a graph the rewiring could not produce), and an
// arc whose removal would leave its SCC not strongly connected (ErrSplitsSCC,
// decided by tarjan.Searcher.SplitsSCC, O(n + m) worst case, never by a
// floating-point comparison). A failed solve restores the arc and returns the
// error.
func (e *Directed) Remove(u, v int) error {
	if err := checkIDs("remove", e.n, u, v); err != nil {
		return err
	}
	if !e.g.HasEdge(u, v) {
		return &EditError{"remove", u, v, ErrNoEdge}
	}
	if e.comp[u] != e.comp[v] {
		return &EditError{"remove", u, v, ErrAcrossSCC}
	}
	if e.search.SplitsSCC(e.g, u, v) {
		return &EditError{"remove", u, v, ErrSplitsSCC}
	}
	e.edit(u, v, false)
	e.noteEdit(u, v, false)
	if e.batch {
		e.markDirty(e.comp[u])
		return nil
	}
	if err := e.solveSCC(e.comp[u]); err != nil {
		e.edit(u, v, true)
		return err
	}
	return nil
}

// Begin starts a batch: edits until Commit change the graph (and are
// validated against it) at once, but each edited SCC is solved once, at
// Commit, however many of its arcs changed. Between Begin and Commit, R,
// MaxPair and RAfterAdd still describe the graph before the batch.
func (e *Directed) Begin() { e.batch = true }

// Commit solves every SCC edited since Begin (O(n_S³) each; in the fast mode
// one low-rank update per SCC for all its edits, then the checks), finds the
// new maximum and ends the batch. If a solve fails, the batch's arcs stay in
// the graph and the error is returned; Refresh then restores a consistent
// state.
func (e *Directed) Commit() error {
	e.batch = false
	if e.err != nil {
		return e.err
	}
	if err := e.repartition(); err != nil {
		return err
	}
	e.skipExclude()
	for _, s := range e.rescan {
		if len(e.sccs[s].members) >= 2 {
			e.markDirty(s)
		}
	}
	e.rescan = e.rescan[:0]
	if e.fast != nil {
		return e.fastCommit()
	}
	for _, s := range e.dirty {
		if err := e.solveSCC(s); err != nil {
			e.dirty = e.dirty[:0]
			return err
		}
	}
	e.dirty = e.dirty[:0]
	e.mergeMax()
	return nil
}

func (e *Directed) markDirty(s int) {
	if !slices.Contains(e.dirty, s) {
		e.dirty = append(e.dirty, s)
	}
}

// edit changes the graph and, with PerHop, the distances.
func (e *Directed) edit(u, v int, add bool) {
	if add {
		e.dist.AddEdge(e.g, u, v)
	} else {
		e.dist.RemoveEdge(e.g, u, v)
	}
}

// Score returns the score MaxPair ranks by for the ordered pair (i, j):
// R_ij, or R_ij/d(i→j) with PerHop; false across SCCs, for i = j, or
// without a path. O(1).
func (e *Directed) Score(i, j int) (float64, bool) {
	r, ok := e.R(i, j)
	if !ok || i == j {
		return 0, false
	}
	if e.dist == nil {
		return r, true
	}
	d := e.dist.At(i, j)
	if d == hops.Unreachable || d == 0 {
		return 0, false
	}
	return r / float64(d), true
}

// checkIDs refuses ids outside [0, n) and u = v.
func checkIDs(op string, n, u, v int) error {
	if u < 0 || u >= n || v < 0 || v >= n {
		return &EditError{op, u, v, ErrNodeRange}
	}
	if u == v {
		return &EditError{op, u, v, ErrSelfLoop}
	}
	return nil
}

// Refresh solves every SCC with at least two nodes again from the current
// graph (O(Σ n_S³), largest SCCs first, spread over Options.Workers
// goroutines) and scans for the maximum. The partition is kept: no allowed
// edit changes it. If a solve fails the engine is left unchanged and the
// first error in label order is returned.
func (e *Directed) Refresh() error {
	// Largest first, so that one big SCC does not start last.
	order := slices.Clone(e.big)
	slices.SortStableFunc(order, func(s, t int) int {
		return cmp.Compare(len(e.sccs[t].members), len(e.sccs[s].members))
	})
	xs := make([]*mat.SymDense, len(e.sccs))
	errs := make([]error, len(e.sccs))
	parallel.Each(e.opt.Workers, len(order), func(_, k int) {
		s := order[k]
		if e.fast != nil {
			xs[s], errs[s] = e.exactX(s)
		} else {
			xs[s], errs[s] = e.solveX(s, -1, -1)
		}
	})
	for _, s := range e.big {
		if errs[s] != nil {
			return errs[s]
		}
	}
	for _, s := range e.big {
		e.sccs[s].setX(xs[s])
		e.sccs[s].track.Exclude = e.skip
		e.sccs[s].scan(e.dist)
	}
	e.mergeMax()
	if e.fast != nil {
		return e.fastInit()
	}
	return nil
}

// solveSCC is the per-SCC solver step of every edit: it recomputes X_S of SCC
// s exactly from the current graph (solveX, O(n_S³)), rescans the SCC's pairs
// (O(n_S²)) and merges the maximum over the SCCs. On error X_S is left as it
// was. In the fast mode it is fastSolveSCC (low-rank update and checks).
func (e *Directed) solveSCC(s int) error {
	if e.fast != nil {
		return e.fastSolveSCC(s)
	}
	X, err := e.solveX(s, -1, -1)
	if err != nil {
		return err
	}
	c := &e.sccs[s]
	c.setX(X)
	c.scan(e.dist)
	e.mergeMax()
	return nil
}

// solveX returns X_S = 2Y for SCC s, Y solving M Y + Y Mᵀ = Π with
// M = Π L_S + J/n_S, L_S the out-Laplacian of the subgraph induced by s in the
// current graph plus, when x ≥ 0, the arc x→y (x, y in s, not an arc). With
// 1ᵀL_S = c, the column sums (out-degree minus in-degree inside S), ΠL_S =
// L_S − 1cᵀ/n_S, so M_ab = (L_S)_ab + (1 − c_b)/n_S. It only reads the engine.
// O(n_S³) time (linalg.SolveLyapunov), O(n_S²) memory.
func (e *Directed) solveX(s, x, y int) (*mat.SymDense, error) {
	members := e.sccs[s].members
	n := len(members)
	M := mat.NewDense(n, n, nil)
	raw := M.RawMatrix()
	c := make([]float64, n)
	arc := func(a, b int) {
		raw.Data[a*raw.Stride+a]++
		raw.Data[a*raw.Stride+b]--
		c[a]++
		c[b]--
	}
	for a, i := range members {
		for _, j := range e.g.Out(i) {
			if e.comp[j] == s {
				arc(a, e.local[j])
			}
		}
	}
	if x >= 0 {
		arc(e.local[x], e.local[y])
	}
	inv := 1 / float64(n)
	for b := range c {
		c[b] = (1 - c[b]) * inv
	}
	P := mat.NewSymDense(n, nil)
	praw := P.RawSymmetric()
	for a := range n {
		row := raw.Data[a*raw.Stride : a*raw.Stride+n]
		for b, w := range c {
			row[b] += w
		}
		prow := praw.Data[a*praw.Stride : a*praw.Stride+n]
		for b := a; b < n; b++ {
			prow[b] = -inv
		}
		prow[a] += 1
	}
	Y, err := linalg.SolveLyapunov(M, P)
	if err != nil {
		return nil, fmt.Errorf("incremental: directed resistance of an SCC of %d nodes: %w", n, err)
	}
	// X = 2Y, with both triangles of the raw data set (SolveLyapunov returns
	// the full symmetric product, but only the upper triangle is promised).
	yraw := Y.RawSymmetric()
	X := mat.NewSymDense(n, nil)
	xraw := X.RawSymmetric()
	for a := range n {
		for b := a; b < n; b++ {
			v := 2 * yraw.Data[a*yraw.Stride+b]
			xraw.Data[a*xraw.Stride+b] = v
			xraw.Data[b*xraw.Stride+a] = v
		}
	}
	return X, nil
}

// at returns X_S(a, b) for local indices, read from the upper triangle.
func (c *dirSCC) at(a, b int) float64 {
	raw := c.x.RawSymmetric()
	return raw.Data[min(a, b)*raw.Stride+max(a, b)]
}

// r returns X_aa + X_bb − 2X_ab for local indices (a ≠ b), the same
// expression, evaluated in the same order, as the scan (X_ab read from the
// upper triangle: the same value as the lower one's when it is set).
func (c *dirSCC) r(a, b int) float64 {
	raw := c.x.RawSymmetric()
	d := raw.Data
	return d[a*raw.Stride+a] + d[b*raw.Stride+b] - 2*d[min(a, b)*raw.Stride+max(a, b)]
}

// setX replaces X_S by the whole symmetric X.
func (c *dirSCC) setX(X *mat.SymDense) {
	c.x, c.lowerStale, c.rowMaxOK = X, false, false
}

// full makes X_S's lower triangle the mirror image of its upper one again
// when the fast mode's updates left it stale. O(n_S²) then, O(1) otherwise;
// not safe concurrently with other readers of X_S.
func (c *dirSCC) full() {
	if c.lowerStale {
		raw := c.x.RawSymmetric()
		linalg.MirrorUpper(raw.N, raw.Data, raw.Stride)
		c.lowerStale = false
	}
}

// colDiff sets out[i] = (X_iu − X_iv)/2 for every local i, reading the upper
// triangle only (the same values as the rows when both triangles are set).
// O(n_S).
func (c *dirSCC) colDiff(u, v int, out []float64, stride, off int) {
	raw := c.x.RawSymmetric()
	d, st := raw.Data, raw.Stride
	for i := range raw.N {
		out[i*stride+off] = (d[min(i, u)*st+max(i, u)] - d[min(i, v)*st+max(i, v)]) / 2
	}
}

// scan feeds the SCC's pairs to its tracker (scanInto).
func (c *dirSCC) scan(dist *hops.Distances) {
	c.track.Keyed = dist != nil
	c.scanInto(&c.track, dist)
	c.scanMirrors(&c.mirror, c.track.Exclude, dist)
}

// scanMirrors feeds t the ordered pairs (j, i), i < j, of the SCC whose
// mirror (i, j) is in skip and which are not in skip themselves: without
// per-hop distances the scan scores only i < j, since R is symmetric and
// (i, j) comes first in row-major order; (j, i) can only be ranked first
// once (i, j) is skipped. Its score is that of (i, j). O(len(skip)·log).
func (c *dirSCC) scanMirrors(t *rank.Max, skip []Pair, dist *hops.Distances) {
	t.Reset()
	if dist != nil {
		return
	}
	var ms []Pair
	for _, p := range skip {
		a, ok1 := slices.BinarySearch(c.members, p.U)
		b, ok2 := slices.BinarySearch(c.members, p.V)
		if !ok1 || !ok2 || a >= b || slices.Contains(skip, Pair{U: p.V, V: p.U}) {
			continue
		}
		ms = append(ms, Pair{U: p.V, V: p.U, Score: c.r(a, b)})
	}
	slices.SortFunc(ms, func(p, q Pair) int {
		if rank.RowMajorLess(p, q) {
			return -1
		}
		return 1
	})
	for _, m := range ms {
		t.Offer(m)
	}
}

// skipExclude points every SCC's tracker at the skipped pairs.
func (e *Directed) skipExclude() {
	for _, s := range e.big {
		e.sccs[s].track.Exclude = e.skip
	}
}

// scanInto resets t and feeds it the pairs a < b of the SCC, in row-major
// order. Members are ascending, so local row-major order is global
// row-major order restricted to the SCC. O(n_S²).
//
// With per-hop distances (dist ≠ nil) the score R_ij/d(i→j) is not
// symmetric, so every ordered pair (a, b), b ≠ a, is scored in row-major
// order, with R_ij as the second key. Distances between two nodes of one SCC
// only depend on the arcs inside it (a path leaving the SCC cannot come
// back), so an edit elsewhere never changes this SCC's scores.
//
// An SCC of at least 2·scanMinRows nodes is scanned by up to c.workers
// goroutines, each over a consecutive range of rows into a tracker of its
// own; the pairs the ranges' trackers keep are then offered to t in order,
// which leaves t as one pass would (rank.Max.Kept).
func (c *dirSCC) scanInto(t *rank.Max, dist *hops.Distances) {
	if dist != nil {
		c.full() // per hop, every ordered pair: whole rows
	}
	t.Reset()
	diag := c.diag()
	if dist == nil {
		if len(c.rowMax) != len(c.members) {
			c.rowMax = make([]float64, len(c.members))
		}
		defer func() { c.rowMaxOK = true }()
	}
	w := c.scanWorkers()
	if w <= 1 {
		c.scanRows(t, dist, diag, 0, len(c.members))
		return
	}
	parts := make([]rank.Max, w)
	c.splitRows(w, dist == nil, func(k, lo, hi int) {
		parts[k] = rank.Max{Keyed: t.Keyed, Exclude: t.Exclude}
		parts[k].Reset()
		c.scanRows(&parts[k], dist, diag, lo, hi)
	})
	for k := range parts {
		for _, p := range parts[k].Kept() {
			t.Offer(p)
		}
	}
}

// scanMinRows is the least number of rows per goroutine of a split scan.
const scanMinRows = 256

// scanWorkers is the number of goroutines of a scan of the SCC.
func (c *dirSCC) scanWorkers() int { return min(c.workers, len(c.members)/scanMinRows) }

// splitRows runs body(k, lo, hi) on w goroutines over consecutive ranges
// of the rows: equal shares of the upper triangle (tri), else of the rows.
func (c *dirSCC) splitRows(w int, tri bool, body func(k, lo, hi int)) {
	if tri {
		linalg.ParallelTriangle(w, len(c.members), body)
	} else {
		parallel.Rows(w, len(c.members), body)
	}
}

// diag returns the diagonal of X_S.
func (c *dirSCC) diag() []float64 {
	raw := c.x.RawSymmetric()
	d := make([]float64, raw.N)
	for a := range d {
		d[a] = raw.Data[a*raw.Stride+a]
	}
	return d
}

// scanRows feeds t the pairs of rows [lo, hi) in row-major order (see
// scanInto).
func (c *dirSCC) scanRows(t *rank.Max, dist *hops.Distances, diag []float64, lo, hi int) {
	raw := c.x.RawSymmetric()
	n, st := raw.N, raw.Stride
	if dist != nil {
		c.scanPerHop(t, dist, diag, lo, hi)
		return
	}
	for a := lo; a < hi; a++ {
		row := raw.Data[a*st : a*st+n]
		xa := row[a]
		i := c.members[a]
		m := math.Inf(-1)
		for b := a + 1; b < n; b++ {
			s := xa + diag[b] - 2*row[b]
			if s > m { // not max: a NaN score must not hide the others
				m = s
			}
			if s > t.Floor() {
				t.Offer(Pair{U: i, V: c.members[b], Score: s})
			}
		}
		c.rowMax[a] = m
	}
}

func (c *dirSCC) scanPerHop(t *rank.Max, dist *hops.Distances, diag []float64, lo, hi int) {
	raw := c.x.RawSymmetric()
	n, st := raw.N, raw.Stride
	for a := lo; a < hi; a++ {
		row := raw.Data[a*st : a*st+n]
		i := c.members[a]
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
			// X is symmetric: X_ij = row[b].
			r := row[a] + diag[b] - 2*row[b]
			fh, fl := float64(h), t.Floor()
			if belowPerHop(r, fh, fl) {
				continue // r/h ≤ fl: the division need not be made
			}
			if s := r / fh; s > fl {
				t.Offer(Pair{U: i, V: j, Score: s, Key: r})
			}
		}
	}
}

// belowPerHop reports, without dividing, that the per-hop score r/h
// (rounded) is below lo, for lo > 0 (else it reports false): when
// r < lo·h·(1 − 4ε) in floating point, r/h < lo·(1 − ε), so the rounded
// quotient is below lo. A scan that skips those pairs offers the same
// pairs, with the same scores, as one that divides for every pair.
func belowPerHop(r, h, lo float64) bool {
	return lo > 0 && r < lo*h*(1-4*0x1p-53)
}

// mergeMax applies the ranking over all SCCs (rank.Merge of their
// trackers). O(number of SCCs with two or more nodes + their kept pairs).
func (e *Directed) mergeMax() {
	ts := make([]*rank.Max, 0, len(e.big))
	for _, s := range e.big {
		ts = append(ts, &e.sccs[s].track)
		if e.dist == nil && len(e.skip) > 0 {
			ts = append(ts, &e.sccs[s].mirror)
		}
	}
	e.best, e.has = Pair{}, false
	if len(ts) > 0 {
		e.best, e.has = rank.Merge(ts)
	}
}

// Drift returns the largest relative residual of the Lyapunov equations over
// the SCCs: ‖M Y + Y Mᵀ − Π‖_max / (‖M‖_∞ ‖Y‖_max + 1) with Y = X_S/2, where
// ‖M‖_∞ is the largest absolute row sum. Every edit solves its SCC exactly,
// so this stays at rounding level; it is a diagnostic. M Y is formed from the
// sparse L_S: (L_S Y)_a = d_a Y_a − Σ_{a→k in S} Y_k, then
// M Y = L_S Y − 1(1ᵀL_S Y)/n_S + 1(1ᵀY)/n_S. O(n_S²·(1 + mean out-degree)) time
// and O(n_S²) memory per SCC.
func (e *Directed) Drift() float64 {
	worst := 0.0
	for _, s := range e.big {
		worst = math.Max(worst, e.sccDrift(s))
	}
	return worst
}

func (e *Directed) sccDrift(s int) float64 {
	c := &e.sccs[s]
	c.full()
	raw := c.x.RawSymmetric()
	n, st := raw.N, raw.Stride
	inv := 1 / float64(n)
	y := func(a int) []float64 { return raw.Data[a*st : a*st+n] } // X row; Y = X/2
	my := make([]float64, n*n)
	ly := make([]float64, n) // column sums of L_S Y
	ys := make([]float64, n) // column sums of Y
	colL := make([]float64, n)
	var ymax, mnorm float64
	for a, i := range c.members {
		row := my[a*n : a*n+n]
		deg := 0
		for _, j := range e.g.Out(i) {
			if e.comp[j] != s {
				continue
			}
			deg++
			k := e.local[j]
			colL[k]--
			for b, v := range y(k) {
				row[b] -= v / 2
			}
		}
		colL[a] += float64(deg)
		for b, v := range y(a) {
			row[b] += float64(deg) * v / 2
			ys[b] += v / 2
			ymax = math.Max(ymax, math.Abs(v/2))
		}
		for b, v := range row {
			ly[b] += v
		}
	}
	for b := range n {
		ly[b] = (ys[b] - ly[b]) * inv // added to every row of L_S Y
		colL[b] = (1 - colL[b]) * inv // M_ab − (L_S)_ab
	}
	// ‖M‖_∞: the row sums of |w_b| corrected where L_S is nonzero.
	var wsum float64
	for _, w := range colL {
		wsum += math.Abs(w)
	}
	for a, i := range c.members {
		sum := wsum
		deg := 0
		for _, j := range e.g.Out(i) {
			if k := e.local[j]; e.comp[j] == s {
				deg++
				sum += math.Abs(colL[k]-1) - math.Abs(colL[k])
			}
		}
		sum += math.Abs(colL[a]+float64(deg)) - math.Abs(colL[a])
		mnorm = math.Max(mnorm, sum)
	}
	var res float64
	for a := range n {
		for b := a; b < n; b++ {
			v := my[a*n+b] + ly[b] + my[b*n+a] + ly[a] + inv
			if a == b {
				v--
			}
			res = math.Max(res, math.Abs(v))
		}
	}
	return res / (mnorm*ymax + 1)
}

// Err is the first solve that failed where no error can be returned (Skip,
// RAfterAdd, MinRAfterAdd), nil when none; Commit returns it.
func (e *Directed) Err() error { return e.err }

func (e *Directed) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

var _ Failer = (*Directed)(nil)
