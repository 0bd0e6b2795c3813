package rewire

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/exact"
	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/incremental/sketch"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
)

// EngineKind names a resistance engine.
type EngineKind string

// The engines.
const (
	Incremental EngineKind = "incremental" // rank-one updates of the dense L⁺ or X
	Exact       EngineKind = "exact"       // recompute everything every iteration
	Sketch      EngineKind = "sketch"      // resistance sketch + exact re-scoring (sketch.Engine)
	Auto        EngineKind = "auto"        // Incremental when its L⁺ fits in memory, else Sketch (default)
)

// ChooseEngine resolves Auto for g and cfg: the incremental engine when
// its dense state fits in the memory available (incremental.DenseBytes
// against linalg.AvailableMemory), else the sketch engine, with the reason
// in words. The empty kind is Incremental: code that records results (the
// sweeps, diagnose) leaves it empty and gets the exact decisions or a
// refusal, never the sketch's under the same rewiring code version. Other
// kinds are returned as they are.
func ChooseEngine(g *linalg.Graph, cfg Config) (EngineKind, string) {
	switch cfg.Engine {
	case "":
		return Incremental, ""
	case Auto:
	default:
		return cfg.Engine, ""
	}
	need := incremental.DenseBytes(g.N(), g.Directed(), cfg.Method.PerHop())
	if incremental.CheckDense(g.N(), g.Directed(), cfg.Method.PerHop()) == nil || !cfg.Method.Sketchable() || g.Directed() {
		return Incremental, fmt.Sprintf("engine auto: incremental (dense state %.2g GB fits in memory)", float64(need)/1e9)
	}
	return Sketch, fmt.Sprintf("engine auto: sketch (the dense state would need %.2g GB, more than is available)", float64(need)/1e9)
}

// Config is one rewiring run.
type Config struct {
	Method Method
	// Budget is r in (0, 1]; the run makes B = floor(r·E0) iterations.
	Budget float64
	// WithinComponents restricts undirected pairs to one component.
	WithinComponents bool
	// Engine is Incremental (default when empty), Exact, Sketch or Auto
	// (Incremental when its dense state fits in memory, else Sketch; the
	// commands' default).
	Engine EngineKind
	// Sketch configures the sketch engine (Engine Sketch, or Auto when it
	// chooses it); Workers and WithinComponents are taken from here.
	Sketch sketch.Options
	// Alpha is the curvature baseline's laziness α (SPEC §3); nil means
	// DefaultAlpha. Other methods ignore it.
	Alpha *float64
	// Seed draws FoSR's random start vector (uniform in [−1, 1)); X0, when
	// not nil, is the start vector instead (one entry per node). Other
	// methods ignore them.
	Seed uint64
	X0   []float64
	// Workers for the O(n²) passes; 0: GOMAXPROCS.
	Workers int
	// MaxIterations, when positive, stops the run after that many
	// iterations even if the budget allows more (StoppedEarly says so).
	MaxIterations int
	// OnIteration, if set, is called after every iteration with its number,
	// the current graph (read-only) and the iteration's edits.
	OnIteration func(iteration int, g *linalg.Graph, edits []Edit)
	// Context, when set and done, stops the run before its next iteration
	// (the one in flight finishes: on the sketch engine a round's start,
	// minutes on 10⁶ nodes, is part of an iteration); the result then holds
	// the iterations made, and StoppedEarly says the run was interrupted.
	Context context.Context
}

// stopBefore is why the run stops before iteration it ("" to go on): the
// MaxIterations limit or the Context's end.
func (c Config) stopBefore(it int) string {
	if c.MaxIterations > 0 && it > c.MaxIterations {
		return fmt.Sprintf("stopped after %d iterations (max iterations)", c.MaxIterations)
	}
	if c.Context != nil && c.Context.Err() != nil {
		return fmt.Sprintf("interrupted after %d iterations", it-1)
	}
	return ""
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
	if c.Method.UndirectedOnly() && directed {
		return fmt.Errorf("%s rewires undirected graphs; use the undirected form", c.Method)
	}
	if c.Method.UndirectedOnly() && c.Engine == Exact {
		return fmt.Errorf("%s has no exact engine: its tests compare it with brute-force searches", c.Method)
	}
	if c.WithinComponents && directed {
		return errors.New("within-components applies to undirected graphs; directed pairs always lie in one SCC")
	}
	if c.Method == Curvature && c.Alpha != nil {
		if err := ValidateAlpha(*c.Alpha); err != nil {
			return err
		}
	}
	switch c.Engine {
	case "", Auto, Incremental, Exact:
	case Sketch:
		if directed || !c.Method.Sketchable() {
			return fmt.Errorf("the sketch engine runs err and res on undirected graphs, not %s%s (per-hop scores need the distances of every candidate pair, which only the dense engines keep)",
				c.Method, map[bool]string{true: " directed", false: ""}[directed])
		}
	default:
		return fmt.Errorf("unknown engine %q (known: %s, %s, %s, %s)", c.Engine, Auto, Incremental, Exact, Sketch)
	}
	return nil
}

// Result is what a run did.
type Result struct {
	Graph      *linalg.Graph // the rewired graph, same form as the input
	Log        []Edit
	E0         int // edge count of SPEC §1 of the input
	Budget     int // B, the iterations allowed
	Iterations int // iterations made
	Added      int // edge additions made (operations)
	Removed    int // edge removals made (operations)
	// AddedNet and RemovedNet are the net change of the edge set, |E_T ∖ E_0|
	// and |E_0 ∖ E_T| (SPEC §3): an edge added and later removed counts in
	// Added and Removed, in neither of these.
	AddedNet, RemovedNet int
	// PassedOver counts the pairs the additions passed over because they
	// gave no edge to add (SPEC §3, step 1: an isolated edge, a complete SCC
	// without outside neighbours).
	PassedOver   int
	StoppedEarly string // why the run stopped before B, or ""
	Seconds      float64
	// Engine is the engine that ran (Auto resolved).
	Engine EngineKind
	// Rounds and Solves are the sketch engine's sketches and Laplacian
	// solves (0 for the dense engines).
	Rounds, Solves int
	// Fallbacks counts the exact solves the fast directed engine made
	// because a residual or a decision margin was not safely above its
	// error bound (incremental.Directed.Fallbacks); 0 for other engines.
	Fallbacks int
}

// Run rewires (a copy of) g with cfg.Method for B = floor(r·E0) iterations
// and returns the log, the counts and the rewired graph. The curvature
// baseline and FoSR have their own loops (curvature_rewire.go, fosr.go);
// the resistance operators of SPEC §3 and GTR share this one:
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
	switch cfg.Method {
	case Curvature:
		alpha := DefaultAlpha
		if cfg.Alpha != nil {
			alpha = *cfg.Alpha
		}
		return runCurvature(g, cfg, alpha, nil)
	case FoSR:
		return runFoSR(g, cfg)
	}
	t0 := time.Now()
	cfg.Engine, _ = ChooseEngine(g, cfg)
	eng, err := newEngine(g, cfg)
	if err != nil {
		return nil, err
	}
	res := &Result{E0: g.E0(), Budget: Budget(cfg.Budget, g.E0()), Engine: cfg.Engine}
	sketch, _ := eng.(*sketch.Engine)
	search := tarjan.NewSearcher(g.N())
	var edits []Edit
	var skip []incremental.Pair // pairs known to give nothing
	for it := 1; it <= res.Budget; it++ {
		if why := cfg.stopBefore(it); why != "" {
			res.StoppedEarly = why
			break
		}
		G := eng.Graph()
		var ranked []incremental.Pair
		if cfg.Method.Removes() && sketch == nil {
			ranked = rankEdges(eng, G)
		}
		adds, skip2, passed := chooseAdditions(eng, G, skip)
		skip = skip2
		res.PassedOver += passed
		edits = edits[:0]
		eng.Begin()
		for _, a := range adds {
			if err := eng.Add(a.U, a.V); err != nil {
				return nil, fmt.Errorf("iteration %d: %w", it, err)
			}
			edits = append(edits, edit(G, it, "add", a))
		}
		if cfg.Method.Removes() && sketch != nil {
			// The sketch engine ranks its kept edges itself (G(t)'s
			// resistances, edges added in the batch left out).
			if r, ok := eng.MinEdge(func(u, v int) bool { return !search.IsBridge(G, u, v) }); ok {
				if err := eng.Remove(r.U, r.V); err != nil {
					return nil, fmt.Errorf("iteration %d: %w", it, err)
				}
				edits = append(edits, edit(G, it, "remove", r))
			}
		} else if cfg.Method.Removes() {
			rank.Each(ranked, rank.Ascending, false, func(r incremental.Pair) bool {
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
		skip = keepSkipped(G, skip)
		eng.Skip(skip)
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
	if sketch != nil {
		if err := sketch.Err(); err != nil {
			return nil, err
		}
		res.Rounds, res.Solves = sketch.Rounds(), sketch.Solves()
	}
	res.Graph = eng.Graph().Clone()
	res.AddedNet, res.RemovedNet = NetChange(g, res.Graph)
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

func newEngine(g *linalg.Graph, cfg Config) (incremental.Engine, error) {
	hop := cfg.Method.PerHop()
	switch cfg.Engine {
	case Exact:
		return exact.New(g, hop, cfg.WithinComponents)
	case Sketch:
		opt := cfg.Sketch
		opt.Removes = cfg.Method.Removes()
		opt.WithinComponents = cfg.WithinComponents
		if opt.Workers == 0 {
			opt.Workers = cfg.Workers
		}
		if opt.Workers == 0 {
			opt.Workers = runtime.GOMAXPROCS(0)
		}
		return sketch.New(g, opt)
	}
	// Directed graphs use the fast (low-rank, residual-certified) mode; the
	// exact engine is the oracle.
	opt := incremental.Options{Workers: cfg.Workers, WithinComponents: cfg.WithinComponents, PerHop: hop, FastDirected: true,
		GTR: cfg.Method == GTR}
	if g.Directed() {
		return incremental.NewDirected(g, opt)
	}
	return incremental.NewUndirected(g, opt)
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
// is not an edge, else case 2 of SPEC §3 — (u*, n_v) with n_v ∈ N(v*), then
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
// solve per candidate; SPEC §3).
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
	if m, ok := eng.(interface {
		MinRAfterAdd(a, b, x int, ys []int) (incremental.Pair, bool)
	}); ok {
		return m.MinRAfterAdd(u, v, a, inside)
	}
	cand := make([]incremental.Pair, len(inside))
	for k, n := range inside {
		r, _ := eng.ResistanceAfterAdd(u, v, a, n)
		cand[k] = incremental.Pair{U: a, V: n, Score: r}
	}
	return cand[rank.First(cand, rank.Ascending, false)], true
}

// rankEdges returns the removal candidates of G(t) — every edge (directed:
// every arc inside an SCC) — with their resistances, in row-major order, for
// rank.Each to visit in the ascending order of SPEC §3. O(m).
func rankEdges(eng incremental.Engine, g *linalg.Graph) []incremental.Pair {
	var es []incremental.Pair
	for _, e := range g.Edges() {
		if r, ok := eng.Resistance(e.U, e.V); ok && (!g.Directed() || eng.SameBlock(e.U, e.V)) {
			es = append(es, incremental.Pair{U: e.U, V: e.V, Score: r})
		}
	}
	return es
}

// NetChange returns |E_T ∖ E_0| and |E_0 ∖ E_T| for the graphs g0 and gT of
// one form (edges, or arcs when directed; self-loops are never rewired). O(m).
func NetChange(g0, gT *linalg.Graph) (added, removed int) {
	for _, e := range gT.Edges() {
		if !g0.HasEdge(e.U, e.V) {
			added++
		}
	}
	for _, e := range g0.Edges() {
		if !gT.HasEdge(e.U, e.V) {
			removed++
		}
	}
	return added, removed
}
