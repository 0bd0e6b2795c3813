package curvature

import (
	"errors"
	"math"
	"runtime"
	"slices"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/linalg"
)

// MaxCandidates is the number of candidate additions evaluated per
// iteration of the curvature operator (definitions §3.4): when an edge has more, the
// first ones in the order (larger current distance first, then row-major)
// are evaluated.
const MaxCandidates = 256

// State is the incremental state of the curvature rewiring operator of
// definitions §3.4: the graph being rewired and κ of every edge of its underlying
// undirected graph, kept equal (bit for bit) to a full recomputation by
// Curvatures after every Add and Remove. ChooseAddition and ChooseRemoval
// are the operator's two steps; package rewire's loop drives them. A State
// is not safe for concurrent use (it spreads its own work over its
// workers).
type State struct {
	g      *linalg.Graph // the graph in its form
	ug     *linalg.Graph // underlying undirected graph (g itself when undirected)
	alpha  float64
	exact  bool // recompute every κ after every edit
	kappa  map[uint64]float64
	search *tarjan.Searcher
	// Scratch.
	workers []*kappaWorker
	views   []view
	stamp   []uint32
	gen     uint32
	nthread int
}

// StateOptions configure a State.
type StateOptions struct {
	// Alpha is the laziness of the measures (see ValidateAlpha; not
	// checked here).
	Alpha float64
	// Workers is the goroutines κ evaluations are spread over (0:
	// GOMAXPROCS; the results do not depend on the number).
	Workers int
	// RecomputeAll makes every edit recompute every κ (the exact engine)
	// instead of those near the edit.
	RecomputeAll bool
}

// NewState returns the state of a rewiring of (a copy of) g as opt says.
// Cost: κ of every edge, as Curvatures.
func NewState(g *linalg.Graph, opt StateOptions) *State {
	alpha, workers, exact := opt.Alpha, opt.Workers, opt.RecomputeAll
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	s := &State{g: g.Clone(), alpha: alpha, exact: exact, search: tarjan.NewSearcher(g.N()),
		stamp: make([]uint32, g.N()), nthread: workers}
	s.ug = s.g
	if g.Directed() {
		s.ug = g.Undirected()
	}
	for range workers {
		s.workers = append(s.workers, newKappaWorker(g.N()))
		s.views = append(s.views, view{g: s.ug, ea: -1})
	}
	s.recomputeAll()
	return s
}

// Graph returns the graph being rewired, in its form (directed or not),
// with every edit so far. It is the state's own graph: callers must not
// modify it (clone it to keep it). O(1).
func (s *State) Graph() *linalg.Graph { return s.g }

// Kappa returns the κ the state keeps for the underlying edge {u, v} (either
// order), and whether it keeps one (false when {u, v} is not an edge). O(1).
func (s *State) Kappa(u, v int) (float64, bool) {
	k, ok := s.kappa[ukey(u, v)]
	return k, ok
}

// Edges returns every κ the state keeps, one per underlying edge (U < V),
// row-major: after any edit, the same as Curvatures of Graph(). For tests
// and diagnostics: it costs O(m log m).
func (s *State) Edges() []EdgeKappa {
	out := make([]EdgeKappa, 0, len(s.kappa))
	for k, v := range s.kappa {
		out = append(out, EdgeKappa{U: int(k >> 32), V: int(uint32(k)), Kappa: v})
	}
	slices.SortFunc(out, func(a, b EdgeKappa) int {
		if a.U != b.U {
			return a.U - b.U
		}
		return a.V - b.V
	})
	return out
}

// ukey is the map key of the underlying edge {u, v}.
func ukey(u, v int) uint64 {
	if u > v {
		u, v = v, u
	}
	return uint64(u)<<32 | uint64(uint32(v))
}

// recomputeAll sets κ of every underlying edge from scratch.
func (s *State) recomputeAll() {
	es := s.ug.Edges()
	ks := make([]float64, len(es))
	kappaEdges(s.ug, es, s.alpha, s.nthread, ks)
	s.kappa = make(map[uint64]float64, len(es))
	for k, e := range es {
		s.kappa[ukey(e.U, e.V)] = ks[k]
	}
}

// ranked returns the underlying edges (u < v) with score sign·κ, row-major,
// without the edge skip (U < 0: none).
func (s *State) ranked(sign float64, skip incremental.Pair) []incremental.Pair {
	es := s.ug.Edges()
	out := make([]incremental.Pair, 0, len(es))
	sk := uint64(math.MaxUint64)
	if skip.U >= 0 {
		sk = ukey(skip.U, skip.V)
	}
	for _, e := range es {
		k := ukey(e.U, e.V)
		if k == sk {
			continue
		}
		out = append(out, incremental.Pair{U: e.U, V: e.V, Score: sign * s.kappa[k]})
	}
	return out
}

// ChooseAddition is step 1 of an iteration (definitions §3.3): across the
// least-curved underlying edge (u,v) that has candidates — pairs (i,j),
// i ∈ N(u)∖{v}, j ∈ N(v)∖{u}, i ≠ j, {i,j} not an edge (directed: neither
// arc), at most MaxCandidates of them — the candidate whose addition leaves
// κ(u,v) largest (ties row-major), with that κ(u,v) as its score; directed,
// the arc i→j with i on u's side. It does not edit the graph (Add does);
// false when no edge has a candidate. Cost: ranking the edges by κ (O(m),
// a sort when more than 16 are passed over), the candidates of the edges
// visited and at most MaxCandidates evaluations of κ(u,v), spread over the
// workers.
func (s *State) ChooseAddition() (incremental.Pair, bool) {
	var best incremental.Pair
	found := false
	rank.Each(s.ranked(1, incremental.Pair{U: -1}), rank.Ascending, rank.ScoreOnly, func(e incremental.Pair) bool {
		cands := s.candidates(e.U, e.V)
		if len(cands) == 0 {
			return true
		}
		best, found = s.bestCandidate(e.U, e.V, cands), true
		return false
	})
	return best, found
}

// candidates returns the candidate additions across the edge (u,v), u < v,
// in evaluation order, at most MaxCandidates of them. Undirected
// pairs are (min, max); directed ones (i, j) with i on u's side.
func (s *State) candidates(u, v int) []incremental.Pair {
	var cs []incremental.Pair
	directed := s.g.Directed()
	for _, i := range s.ug.Out(u) {
		if i == v {
			continue
		}
		for _, j := range s.ug.Out(v) {
			if j == u || j == i || s.ug.HasEdge(i, j) {
				continue
			}
			p := incremental.Pair{U: i, V: j}
			if !directed && p.U > p.V {
				p.U, p.V = p.V, p.U
			}
			cs = append(cs, p)
		}
	}
	slices.SortFunc(cs, func(a, b incremental.Pair) int {
		if rank.RowMajorLess(a, b) {
			return -1
		}
		if rank.RowMajorLess(b, a) {
			return 1
		}
		return 0
	})
	cs = slices.Compact(cs) // undirected: {i,j} reached from both sides
	if len(cs) <= MaxCandidates {
		return cs
	}
	// Current distance: 2 with a common neighbour, else 3 (i ~ u ~ v ~ j).
	// Distance 3 first; SortStable keeps row-major order inside each group.
	for k := range cs {
		cs[k].Score = float64(s.dist23(cs[k].U, cs[k].V))
	}
	slices.SortStableFunc(cs, func(a, b incremental.Pair) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	return cs[:MaxCandidates]
}

// dist23 returns the distance of the non-adjacent pair (i, j) of nodes
// within distance 3: 2 if they share a neighbour, else 3.
func (s *State) dist23(i, j int) int {
	nextStamp(&s.gen, s.stamp)
	for _, r := range s.ug.Out(i) {
		s.stamp[r] = s.gen
	}
	for _, r := range s.ug.Out(j) {
		if s.stamp[r] == s.gen {
			return 2
		}
	}
	return 3
}

// bestCandidate evaluates κ(u,v) with each candidate added (in parallel) and
// returns the one leaving it largest, ties by the rule of definitions §3.
func (s *State) bestCandidate(u, v int, cs []incremental.Pair) incremental.Pair {
	s.parallel(len(cs), func(w int, k int) {
		vw := &s.views[w]
		vw.withEdge(cs[k].U, cs[k].V)
		cs[k].Score = s.workers[w].kappa(vw, u, v, s.alpha)
	})
	for w := range s.views {
		s.views[w].ea = -1 // back to the plain graph
	}
	return cs[rank.First(cs, rank.Descending, rank.ScoreOnly)]
}

// parallel runs f(worker, k) for k in [0, n) on the state's workers, each
// worker taking the next k from a shared counter; worker w owns
// s.workers[w] and s.views[w].
func (s *State) parallel(n int, f func(w, k int)) {
	nw := min(s.nthread, n)
	if nw <= 1 {
		for k := range n {
			f(0, k)
		}
		return
	}
	parallel.Each(nw, n, f)
}

// ChooseRemoval is step 2 of an iteration (definitions §3.4): the most-curved
// underlying edge {x,y} (x < y, ties by the rule) of the current graph,
// other than added (U < 0: none), whose removal keeps the component count
// (undirected: it is not a bridge), with its κ as score. Directed: the arc
// x→y if it exists and its removal keeps the SCC partition, else y→x under
// the same condition. It does not edit the graph (Remove does); false when
// no edge can be removed. Cost: ranking the edges (O(m), a sort when more
// than 16 are passed over) and a bridge or SCC test per edge visited.
func (s *State) ChooseRemoval(added incremental.Pair) (incremental.Pair, bool) {
	var out incremental.Pair
	found := false
	rank.Each(s.ranked(-1, added), rank.Ascending, rank.ScoreOnly, func(e incremental.Pair) bool {
		x, y, kappa := e.U, e.V, -e.Score
		if !s.g.Directed() {
			if s.search.IsBridge(s.g, x, y) {
				return true
			}
			out, found = incremental.Pair{U: x, V: y, Score: kappa}, true
			return false
		}
		for _, a := range [2][2]int{{x, y}, {y, x}} {
			if s.g.HasEdge(a[0], a[1]) && !s.search.SplitsSCC(s.g, a[0], a[1]) {
				out, found = incremental.Pair{U: a[0], V: a[1], Score: kappa}, true
				return false
			}
		}
		return true
	})
	return out, found
}

// Add inserts the edge {a,b} (directed: the arc a→b) and updates κ: every κ
// with the exact engine, else those of the edges near the edit (see
// affected), spread over the workers. A directed arc whose reverse exists
// leaves the underlying graph, and so every κ, unchanged. It returns an
// *incremental.EditError when the edge exists or a = b.
func (s *State) Add(a, b int) error {
	if a == b || !s.g.AddEdge(a, b) {
		return &incremental.EditError{Op: "add", U: a, V: b, Reason: incremental.ErrEdgeExists}
	}
	if s.g.Directed() && s.g.HasEdge(b, a) {
		return nil // the underlying edge was there already
	}
	if s.g.Directed() && !s.ug.AddEdge(a, b) {
		return errors.New("curvature: underlying graph out of sync")
	}
	s.refresh(a, b)
	return nil
}

// Remove deletes the edge {a,b} (directed: the arc a→b) and updates κ as Add
// does. A directed arc whose reverse remains leaves the underlying graph,
// and so every κ, unchanged. It returns an *incremental.EditError when the
// edge is absent.
func (s *State) Remove(a, b int) error {
	if !s.g.RemoveEdge(a, b) {
		return &incremental.EditError{Op: "remove", U: a, V: b, Reason: incremental.ErrNoEdge}
	}
	if s.g.Directed() {
		if s.g.HasEdge(b, a) {
			return nil
		}
		s.ug.RemoveEdge(a, b)
	}
	delete(s.kappa, ukey(a, b))
	s.refresh(a, b)
	return nil
}

// refresh brings κ up to date after the underlying edge {a,b} was added or
// removed: every κ (exact engine) or only the affected ones.
func (s *State) refresh(a, b int) {
	if s.exact {
		s.recomputeAll()
		return
	}
	es := s.affected(a, b)
	ks := make([]float64, len(es))
	s.parallel(len(es), func(w, k int) {
		ks[k] = s.workers[w].kappa(&s.views[w], es[k].U, es[k].V, s.alpha)
	})
	for k, e := range es {
		s.kappa[ukey(e.U, e.V)] = ks[k]
	}
}

// affected returns the edges whose κ the edit of the underlying edge {a,b}
// can change, each once: those with an endpoint in S = {a,b} ∪ N(a) ∪ N(b)
// (the same set whether N is taken with or without the edge).
//
// Radius. κ(x,y) is a function of N(x), N(y) and, for p ∈ {x}∪N(x) and
// q ∈ {y}∪N(y), of min(d(p,q), 3) — and d(p,q) ≤ 3 always, since
// p ~ x ~ y ~ q, so that value is decided by p = q, p ~ q, or
// N(p) ∩ N(q) ≠ ∅, i.e. by the edges at p and at q. So κ(x,y) depends only on
// the edges incident to B(x) ∪ B(y), B the closed 1-ball. Editing {a,b}
// changes only the edges at a and at b, hence can change κ(x,y) only if a or
// b lies in B(x) ∪ B(y), i.e. x or y lies in B(a) ∪ B(b) = S. Edges with
// both endpoints at distance ≥ 2 from the edit keep their κ; the test
// TestCurvatureRadiusTight shows that distance 1 does not suffice to exclude
// an edge.
func (s *State) affected(a, b int) []linalg.Edge {
	nextStamp(&s.gen, s.stamp)
	var set []int
	for _, ps := range [][]int{{a, b}, s.ug.Out(a), s.ug.Out(b)} {
		for _, p := range ps {
			if s.stamp[p] != s.gen {
				s.stamp[p] = s.gen
				set = append(set, p)
			}
		}
	}
	var es []linalg.Edge
	for _, x := range set {
		for _, y := range s.ug.Out(x) {
			if s.stamp[y] != s.gen || x < y { // an edge inside S once
				es = append(es, linalg.Edge{U: min(x, y), V: max(x, y)})
			}
		}
	}
	return es
}
