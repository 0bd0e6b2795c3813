package rewire

import (
	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
)

// resistanceOperator makes the iterations of the resistance operators of
// definitions §3.3 (err, err-hop, res, res-hop) and of GTR (definitions
// §3.5) on a resistance engine:
//
//  1. Addition: the admissible pairs of G(t) are taken in the engine's
//     ranking (package rank) until one gives an edge: a pair that is not an
//     edge is added; an edge (u*, v*) gives, on each side, the neighbour
//     n_v of v* (n_u of u*) whose edge (u*, n_v) ((v*, n_u)) — not already
//     an edge, not a self-loop — leaves R_{u*v*} smallest when added alone
//     (ties: smallest id; directed: in- and out-neighbours, candidates
//     inside the SCC first, else the arc leaving it to the smallest id); a
//     pair with no candidate on either side is passed over (chooseAdditions).
//  2. Removal (err, err-hop): the edges of G(t) in ascending resistance (a
//     pair's score per hop equals its resistance when it is an edge), ties
//     by the rule of definitions §3.1; the first whose removal keeps its
//     component connected (directed: its SCC strongly connected) in the
//     graph after the additions is removed. Edges added in the iteration
//     are not candidates (they are not in G(t)).
//
// The incremental engine makes each iteration O(n²); the exact one
// recomputes L⁺ or X from scratch.
type resistanceOperator struct {
	eng     incremental.Engine
	removes bool
	// sketch: the engine ranks its kept edges itself, after the additions
	// (G(t)'s resistances, edges added in the batch left out).
	sketch bool
	search *tarjan.Searcher
	skip   []incremental.Pair // pairs known to give nothing
	passed int                // pairs passed over
	edits  []Edit
	ranked []incremental.Pair // rankEdges' buffer, reused every iteration
}

// engineBuilt, when set (by tests in this package), receives the engine of
// every resistance operator as it is built, so that a test can read its
// state after the run (the quality benchmark's Kirchhoff index of the
// exact run's graph, from its engine's L⁺ instead of another O(n³)).
var engineBuilt func(incremental.Engine)

func newResistanceOperator(p *Plan) (operator, error) {
	spec := p.engine
	if ctx := p.Config.Context; ctx != nil && spec.Kind == Sketch && spec.Sketch.Stop == nil {
		spec.Sketch.Stop = ctx.Err // its solves end within a second of the context's end
	}
	sc := p.Config.scratch
	if sc != nil {
		spec.reuse, spec.graphs = sc.undirected, &sc.graphs
	}
	eng, err := NewEngine(p.Graph, spec)
	if err != nil {
		return nil, err
	}
	if engineBuilt != nil {
		engineBuilt(eng)
	}
	o := &resistanceOperator{eng: eng, removes: p.Method.Removes, sketch: p.engine.Kind == Sketch}
	if sc != nil {
		if u, ok := eng.(*incremental.Undirected); ok {
			sc.undirected = u // the next graph's engine takes its memory
		}
		if sc.search == nil {
			sc.search = tarjan.NewSearcher(p.Graph.N()) // it grows as it needs
		}
		o.search = sc.search
	} else {
		o.search = tarjan.NewSearcher(p.Graph.N())
	}
	return o, nil
}

func (o *resistanceOperator) graph() *linalg.Graph { return o.eng.Graph() }

// takeGraph gives up the engine's graph, its own copy (graphTaker): the
// engine is not edited after the loop.
func (o *resistanceOperator) takeGraph() *linalg.Graph { return o.eng.Graph() }

func (o *resistanceOperator) idle() string {
	if o.removes {
		return "no pair could be added and no edge could be removed without splitting its component"
	}
	return "no pair could be added"
}

func (o *resistanceOperator) iterate(it int) ([]Edit, error) {
	eng := o.eng
	G := eng.Graph()
	var ranked []incremental.Pair
	if o.removes && !o.sketch {
		o.ranked = rankEdges(eng, G, o.ranked[:0])
		ranked = o.ranked
	}
	adds, skip, passed := chooseAdditions(eng, G, o.skip)
	o.skip = skip
	o.passed += passed
	o.edits = o.edits[:0]
	eng.Begin()
	for _, a := range adds {
		if err := eng.Add(a.U, a.V); err != nil {
			return nil, err
		}
		o.edits = append(o.edits, edit(G, it, "add", a))
	}
	if o.removes {
		if err := o.remove(it, G, ranked); err != nil {
			return nil, err
		}
	}
	o.skip = keepSkipped(G, o.skip)
	eng.Skip(o.skip)
	if err := eng.Commit(); err != nil {
		return nil, err
	}
	return o.edits, nil
}

// remove makes step 2: the first edge of ranked (the sketch: of the
// engine's own ranking) whose removal keeps its component connected.
func (o *resistanceOperator) remove(it int, G *linalg.Graph, ranked []incremental.Pair) error {
	eng := o.eng
	if o.sketch {
		if r, ok := eng.MinEdge(func(u, v int) bool { return !o.search.IsBridge(G, u, v) }); ok {
			if err := eng.Remove(r.U, r.V); err != nil {
				return err
			}
			o.edits = append(o.edits, edit(G, it, "remove", r))
		}
		return nil
	}
	var err error
	rank.Each(ranked, rank.Ascending, rank.ScoreOnly, func(r incremental.Pair) bool {
		var keeps bool
		if G.Directed() {
			keeps = !o.search.SplitsSCC(G, r.U, r.V)
		} else {
			keeps = !o.search.IsBridge(G, r.U, r.V)
		}
		if !keeps {
			return true
		}
		if err = eng.Remove(r.U, r.V); err == nil {
			o.edits = append(o.edits, edit(G, it, "remove", r))
		}
		return false
	})
	return err
}

// failure is the error the engine deferred (incremental.Failer), nil
// when it has none.
func (o *resistanceOperator) failure() error {
	if f, ok := o.eng.(incremental.Failer); ok {
		return f.Err()
	}
	return nil
}

func (o *resistanceOperator) finish(res *Result) error {
	res.PassedOver = o.passed
	if f, ok := o.eng.(incremental.Failer); ok {
		if err := f.Err(); err != nil {
			return err
		}
	}
	if s, ok := o.eng.(incremental.StatsReporter); ok {
		st := s.Stats()
		res.Rounds, res.Solves, res.Fallbacks = st.Rounds, st.Solves, st.Fallbacks
		res.HandOffAt, res.HandOffKept = st.HandOffAt, st.HandOffKept
	}
	return nil
}

// chooseAdditions returns the edges step 1 adds to G(t), each with its
// score: the admissible pairs are taken best first until one gives an edge
// to add. skip holds the pairs known to give nothing (those passed over in
// earlier iterations that still give nothing, see keepSkipped): each pair
// newly passed over joins it, and the engine ranks the rest (Skip, then
// MaxPair: "the next pair after these"). It returns the grown skip list and
// how many pairs this iteration passed over.
func chooseAdditions(eng incremental.Engine, g *linalg.Graph, skip []incremental.Pair) ([]incremental.Pair, []incremental.Pair, int) {
	passed := 0
	for {
		best, ok := eng.MaxPair()
		if !ok {
			return nil, skip, passed
		}
		if adds := additionsFor(eng, g, best); len(adds) > 0 {
			return adds, skip, passed
		}
		skip = append(skip, incremental.Pair{U: best.U, V: best.V})
		passed++
		eng.Skip(skip)
	}
}

// keepSkipped returns the pairs of skip that still give nothing in g: an
// edge (arc) whose two sides have no candidate, every neighbour n of one end
// other than the other end being already joined to it. O(Σ degrees).
func keepSkipped(g *linalg.Graph, skip []incremental.Pair) []incremental.Pair {
	out := skip[:0]
	for _, p := range skip {
		if givesNothing(g, p.U, p.V) {
			out = append(out, p)
		}
	}
	return out
}

func givesNothing(g *linalg.Graph, u, v int) bool {
	if !g.HasEdge(u, v) {
		return false
	}
	for _, side := range [2][2]int{{u, v}, {v, u}} {
		a, b := side[0], side[1]
		for _, n := range g.Neighbours(b) {
			if n != a && !g.HasEdge(a, n) {
				return false
			}
		}
	}
	return true
}

// additionsFor returns what the pair (u*, v*) = best gives: itself when it
// is not an edge, else case 2 of definitions §3.3 — (u*, n_v) with n_v ∈ N(v*), then
// (v*, n_u) with n_u ∈ N(u*) — possibly nothing.
func additionsFor(eng incremental.Engine, g *linalg.Graph, best incremental.Pair) []incremental.Pair {
	u, v := best.U, best.V
	if !g.HasEdge(u, v) {
		return []incremental.Pair{best}
	}
	var adds []incremental.Pair
	for _, side := range [2][2]int{{u, v}, {v, u}} {
		a, b := side[0], side[1]
		if p, ok := bestNeighbour(eng, g, a, b, u, v); ok {
			adds = append(adds, p)
		}
	}
	return adds
}

// bestNeighbour returns the edge (a, n) with n ∈ N(b) (directed: in- and
// out-neighbours in the whole graph; the arc a→n) that is not an edge and
// not a self-loop and leaves R_{u*v*} smallest when added alone, ties by
// smallest n (rank.Ascending: the row-major order of (a, n)). Directed:
// candidates inside the SCC of a come first; only when there are none, the
// arc leaving the SCC to the smallest n (its effect on R_{u*v*} would need a
// solve per candidate; definitions §3.3).
func bestNeighbour(eng incremental.Engine, g *linalg.Graph, a, b, u, v int) (incremental.Pair, bool) {
	var inside, outside []int
	for _, n := range g.Neighbours(b) {
		if n == a || g.HasEdge(a, n) {
			continue
		}
		if !g.Directed() || eng.SameBlock(a, n) {
			inside = append(inside, n)
		} else {
			outside = append(outside, n)
		}
	}
	if len(inside) == 0 {
		if len(outside) == 0 {
			return incremental.Pair{}, false
		}
		// Neighbours are ascending: the first is the smallest id. Its score
		// is R_{u*v*} as it stands.
		r, _ := eng.Resistance(u, v)
		return incremental.Pair{U: a, V: outside[0], Score: r}, true
	}
	// An engine that certifies this choice itself (the fast directed one)
	// makes it with the same rule.
	if m, ok := eng.(incremental.AdditionChooser); ok {
		return m.MinRAfterAdd(u, v, a, inside)
	}
	cand := make([]incremental.Pair, len(inside))
	for k, n := range inside {
		r, _ := eng.ResistanceAfterAdd(u, v, a, n)
		cand[k] = incremental.Pair{U: a, V: n, Score: r}
	}
	return cand[rank.First(cand, rank.Ascending, rank.ScoreOnly)], true
}

// rankEdges returns the removal candidates of G(t) — every edge (directed:
// every arc inside an SCC) — with their resistances, in row-major order, for
// rank.Each to visit in the ascending order of definitions §3.1, appended
// to es (a buffer to reuse). O(m), no allocation once es has room.
func rankEdges(eng incremental.Engine, g *linalg.Graph, es []incremental.Pair) []incremental.Pair {
	for u := range g.N() { // g.Edges' order, without building the list
		for _, v := range g.Out(u) {
			if !g.Directed() && u >= v {
				continue
			}
			if r, ok := eng.Resistance(u, v); ok && (!g.Directed() || eng.SameBlock(u, v)) {
				es = append(es, incremental.Pair{U: u, V: v, Score: r})
			}
		}
	}
	return es
}
