package rewire

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
)

// Engine names.
const (
	Incremental = "incremental" // rank-one updates (default)
	Exact       = "exact"       // recompute everything every iteration
)

// Config is one rewiring run.
type Config struct {
	Method Method
	// Budget is r in (0, 1]; the run makes B = floor(r·E0) iterations.
	Budget float64
	// WithinComponents restricts undirected pairs to one component.
	WithinComponents bool
	// Engine is Incremental (default when empty) or Exact.
	Engine string
	// Workers for the O(n²) passes; 0: GOMAXPROCS.
	Workers int
	// MaxIterations, when positive, stops the run after that many
	// iterations even if the budget allows more (StoppedEarly says so).
	MaxIterations int
	// OnIteration, if set, is called after every iteration with its number,
	// the current graph (read-only) and the iteration's edits.
	OnIteration func(iteration int, g *linalg.Graph, edits []Edit)
}

// Validate checks the configuration against the graph it will rewire.
func (c *Config) Validate(directed bool) error {
	if _, err := ParseMethod(string(c.Method)); err != nil {
		return err
	}
	if !(c.Budget > 0 && c.Budget <= 1) {
		return fmt.Errorf("budget %v outside (0, 1]", c.Budget)
	}
	if c.MaxIterations < 0 {
		return fmt.Errorf("max iterations %d is negative", c.MaxIterations)
	}
	if c.WithinComponents && directed {
		return errors.New("within-components applies to undirected graphs; directed pairs always lie in one SCC")
	}
	switch c.Engine {
	case "", Incremental, Exact:
	default:
		return fmt.Errorf("unknown engine %q (known: %s, %s)", c.Engine, Incremental, Exact)
	}
	return nil
}

// Result is what a run did.
type Result struct {
	Graph        *linalg.Graph // the rewired graph, same form as the input
	Log          []Edit
	E0           int    // edge count of SPEC §1 of the input
	Budget       int    // B, the iterations allowed
	Iterations   int    // iterations made
	Added        int    // edges added
	Removed      int    // edges removed
	StoppedEarly string // why the run stopped before B, or ""
	Seconds      float64
	// Fallbacks counts the exact solves the fast directed engine made
	// because a residual or a decision margin was not safely above its
	// error bound (incremental.Directed.Fallbacks); 0 for other engines.
	Fallbacks int
}

// Run rewires (a copy of) g with the operator of SPEC §3 for B iterations:
//
//  1. Addition: (u*, v*) is the argmax of the score over admissible pairs of
//     G(t). If it is not an edge it is added. Otherwise, on each side, the
//     neighbour n_v of v* (n_u of u*) whose edge (u*, n_v) ((v*, n_u)) —
//     not already an edge, not a self-loop, and (directed) inside u*'s
//     SCC — leaves R_{u*v*} smallest when added alone is added (ties:
//     smallest id); one side or none when the other has no candidate.
//  2. Removal (err, err-hop): the edges of G(t) in ascending resistance (a
//     pair's score per hop equals its resistance when it is an edge), ties
//     by the rule of SPEC §3; the first whose removal keeps its component
//     connected (directed: its SCC strongly connected) in the graph after
//     the additions is removed. Edges added in the iteration are not
//     candidates (they are not in G(t)).
//
// An iteration that changes nothing stops the run (it would repeat forever).
// The incremental engine makes each iteration O(n²); the exact one
// recomputes L⁺ or X from scratch.
func Run(g *linalg.Graph, cfg Config) (*Result, error) {
	if err := cfg.Validate(g.Directed()); err != nil {
		return nil, err
	}
	if cfg.Method == Curvature {
		return nil, errors.New("rewire.Run runs the resistance operators; the curvature baseline needs its α: use RunCurvature")
	}
	t0 := time.Now()
	eng, err := newEngine(g, cfg)
	if err != nil {
		return nil, err
	}
	res := &Result{E0: g.E0(), Budget: Budget(cfg.Budget, g.E0())}
	search := tarjan.NewSearcher(g.N())
	var edits []Edit
	for it := 1; it <= res.Budget; it++ {
		if cfg.MaxIterations > 0 && it > cfg.MaxIterations {
			res.StoppedEarly = fmt.Sprintf("stopped after %d iterations (max iterations)", cfg.MaxIterations)
			break
		}
		G := eng.Graph()
		var ranked []incremental.Pair
		if cfg.Method.Removes() {
			ranked = rankEdges(eng, G)
		}
		adds, err := chooseAdditions(eng, G)
		if err != nil {
			return nil, err
		}
		edits = edits[:0]
		eng.Begin()
		for _, a := range adds {
			if err := eng.Add(a.U, a.V); err != nil {
				return nil, fmt.Errorf("iteration %d: %w", it, err)
			}
			edits = append(edits, edit(G, it, "add", a))
		}
		if cfg.Method.Removes() {
			tieOrder(ranked, func(r incremental.Pair) bool {
				var keeps bool
				if G.Directed() {
					keeps = !search.SplitsSCC(G, r.U, r.V)
				} else {
					keeps = !search.IsBridge(G, r.U, r.V)
				}
				if !keeps {
					return true
				}
				if err = eng.Remove(r.U, r.V); err == nil {
					edits = append(edits, edit(G, it, "remove", r))
				}
				return false
			})
			if err != nil {
				return nil, fmt.Errorf("iteration %d: %w", it, err)
			}
		}
		if err := eng.Commit(); err != nil {
			return nil, fmt.Errorf("iteration %d: %w", it, err)
		}
		res.Iterations = it
		if len(edits) == 0 {
			why := "no pair could be added"
			if cfg.Method.Removes() {
				why += " and no edge could be removed without splitting its component"
			}
			res.StoppedEarly = fmt.Sprintf("iteration %d changed nothing: %s", it, why)
			break
		}
		res.record(edits)
		if cfg.OnIteration != nil {
			cfg.OnIteration(it, G, edits)
		}
	}
	res.Graph = eng.Graph().Clone()
	if f, ok := eng.(interface{ Fallbacks() int }); ok {
		res.Fallbacks = f.Fallbacks()
	}
	res.Seconds = time.Since(t0).Seconds()
	return res, nil
}

// record appends an iteration's edits to the log and counts them.
func (r *Result) record(edits []Edit) {
	for _, e := range edits {
		if e.Op == "add" {
			r.Added++
		} else {
			r.Removed++
		}
	}
	r.Log = append(r.Log, edits...)
}

func edit(g *linalg.Graph, it int, op string, p incremental.Pair) Edit {
	u, v := p.U, p.V
	if !g.Directed() && u > v {
		u, v = v, u
	}
	return Edit{Iteration: it, Op: op, U: u, V: v, Score: p.Score}
}

func newEngine(g *linalg.Graph, cfg Config) (engine, error) {
	hop := cfg.Method.PerHop()
	if cfg.Engine == Exact {
		return newExactEngine(g, hop, cfg.WithinComponents)
	}
	// Directed graphs use the fast (low-rank, residual-certified) mode; the
	// exact engine is the oracle.
	opt := incremental.Options{Workers: cfg.Workers, WithinComponents: cfg.WithinComponents, PerHop: hop, FastDirected: true}
	if g.Directed() {
		e, err := incremental.NewDirected(g, opt)
		return directedEngine{e}, err
	}
	e, err := incremental.NewUndirected(g, opt)
	return undirectedEngine{e}, err
}

// chooseAdditions returns the edges step 1 adds to G(t), each with its score.
func chooseAdditions(eng engine, g *linalg.Graph) ([]incremental.Pair, error) {
	best, ok := eng.MaxPair()
	if !ok {
		return nil, nil
	}
	u, v := best.U, best.V
	if !g.HasEdge(u, v) {
		return []incremental.Pair{best}, nil
	}
	var adds []incremental.Pair
	// Case 2: (u*, n_v) with n_v ∈ N(v*), then (v*, n_u) with n_u ∈ N(u*).
	for _, side := range [2][2]int{{u, v}, {v, u}} {
		a, b := side[0], side[1]
		if p, ok := bestNeighbour(eng, g, a, b, u, v); ok {
			adds = append(adds, p)
		}
	}
	return adds, nil
}

// bestNeighbour returns the edge (a, n) with n ∈ N(b) that leaves R_{u*v*}
// smallest when added alone, ties by smallest n; candidates are not edges,
// not self-loops and (directed) inside a's SCC.
func bestNeighbour(eng engine, g *linalg.Graph, a, b, u, v int) (incremental.Pair, bool) {
	// An engine that certifies this choice itself (the fast directed one)
	// makes it with the same tie rule.
	if m, ok := eng.(interface {
		MinRAfterAdd(a, b, x int, ys []int) (incremental.Pair, bool)
	}); ok {
		var ys []int
		for _, n := range g.Neighbours(b) {
			if n != a && !g.HasEdge(a, n) && eng.SameBlock(a, n) {
				ys = append(ys, n)
			}
		}
		return m.MinRAfterAdd(u, v, a, ys)
	}
	var cand []incremental.Pair
	for _, n := range g.Neighbours(b) {
		if n == a || g.HasEdge(a, n) || !eng.SameBlock(a, n) {
			continue
		}
		cand = append(cand, incremental.Pair{U: a, V: n, Score: eng.RAfterAdd(u, v, a, n)})
	}
	if len(cand) == 0 {
		return incremental.Pair{}, false
	}
	best := math.Inf(1)
	for _, c := range cand {
		best = math.Min(best, c.Score)
	}
	th := best + 1e-9*math.Max(1, math.Abs(best))
	for _, c := range cand { // Neighbours are ascending: the first is the smallest id
		if c.Score <= th {
			return c, true
		}
	}
	panic("unreachable")
}

// rankEdges returns the removal candidates of G(t) — every edge (directed:
// every arc inside an SCC) — with their resistances, in row-major order;
// tieOrder visits them in the order of SPEC §3's tie rule. O(m).
func rankEdges(eng engine, g *linalg.Graph) []incremental.Pair {
	var es []incremental.Pair
	for _, e := range g.Edges() {
		if g.Directed() && !eng.SameBlock(e.U, e.V) {
			continue
		}
		es = append(es, incremental.Pair{U: e.U, V: e.V, Score: eng.R(e.U, e.V)})
	}
	return es
}

// tieOrder visits es in ascending score with SPEC §3's tie rule applied as a
// ranking: the least remaining score m is taken, scores within
// 1e-9·max(1,|m|) of it are equal, and the first of those in row-major order
// comes next. It stops when visit returns false. The first candidates are
// found by linear scans, O(m) each — an edge of G(t) with R < 1 is never a
// bridge, so the first is nearly always taken — and after 16 rejections the
// rest is sorted once. It reorders es.
func tieOrder(es []incremental.Pair, visit func(incremental.Pair) bool) {
	for rejected := 0; len(es) > 0; rejected++ {
		if rejected == 16 {
			sortedTieOrder(es, visit)
			return
		}
		m := math.Inf(1)
		for _, e := range es {
			m = math.Min(m, e.Score)
		}
		th := m + 1e-9*math.Max(1, math.Abs(m))
		pick := -1
		for k, e := range es {
			if e.Score <= th && (pick < 0 || rowMajorLess(e, es[pick])) {
				pick = k
			}
		}
		p := es[pick]
		es[pick] = es[len(es)-1]
		es = es[:len(es)-1]
		if !visit(p) {
			return
		}
	}
}

// sortedTieOrder is tieOrder after one sort by (score, row-major): each step
// costs the size of its tie window.
func sortedTieOrder(es []incremental.Pair, visit func(incremental.Pair) bool) {
	slices.SortFunc(es, func(a, b incremental.Pair) int {
		switch {
		case a.Score < b.Score:
			return -1
		case a.Score > b.Score:
			return 1
		case rowMajorLess(a, b):
			return -1
		case rowMajorLess(b, a):
			return 1
		}
		return 0
	})
	for head := 0; head < len(es); head++ {
		m := es[head].Score
		th := m + 1e-9*math.Max(1, math.Abs(m))
		pick := head
		for k := head + 1; k < len(es) && es[k].Score <= th; k++ {
			if rowMajorLess(es[k], es[pick]) {
				pick = k
			}
		}
		// Move the pick to the head, keeping the others in order.
		p := es[pick]
		copy(es[head+1:pick+1], es[head:pick])
		es[head] = p
		if !visit(p) {
			return
		}
	}
}

func rowMajorLess(a, b incremental.Pair) bool {
	if a.U != b.U {
		return a.U < b.U
	}
	return a.V < b.V
}
