package rewire

import (
	"errors"
	"fmt"
	"time"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/linalg"
)

// operator is one method's state while a plan runs: it makes the edits of
// one iteration at a time (definitions §3), and the driver (Plan.Run) does
// the rest — the budget, the stops, the log, the counts and the hooks —
// the same way for every method.
type operator interface {
	// iterate makes iteration it's edits on the current graph and returns
	// them in log order; none when the iteration can change nothing.
	iterate(it int) ([]Edit, error)
	// graph is the current graph (read-only for the caller).
	graph() *linalg.Graph
	// idle says why an iteration that made no edit made none.
	idle() string
	// finish adds what the operator counted to res once the loop ends, or
	// reports a failure it deferred.
	finish(res *Result) error
}

// Result is what a run did.
type Result struct {
	Graph      *linalg.Graph // the rewired graph, same form as the input
	Log        []Edit
	E0         int // edge count of definitions §1 of the input
	Budget     int // B, the iterations allowed
	Iterations int // iterations made
	Added      int // edge additions made (operations)
	Removed    int // edge removals made (operations)
	// AddedNet and RemovedNet are the net change of the edge set, |E_T ∖ E_0|
	// and |E_0 ∖ E_T| (definitions §3.2): an edge added and later removed
	// counts in Added and Removed, in neither of these.
	AddedNet, RemovedNet int
	// PassedOver counts the pairs the additions passed over because they
	// gave no edge to add (definitions §3.3, step 1: an isolated edge, a
	// complete SCC without outside neighbours).
	PassedOver   int
	StoppedEarly string // why the run stopped before B, or ""
	Seconds      float64
	// Engine is the engine that ran (Plan.Engine).
	Engine EngineKind
	// Rounds and Solves are the sketch engine's sketches and Laplacian
	// solves, Fallbacks the fast directed engine's exact fallbacks
	// (incremental.Stats); 0 for the other engines.
	Rounds, Solves, Fallbacks int
	// HandOffAt is the iteration from which the exact engine made the
	// sketch engine's decisions (definitions §3.7.1; 0: none), HandOffKept
	// the nodes the sketch kept then.
	HandOffAt, HandOffKept int
}

// Run makes the plan for g and cfg (NewPlan) and runs it: the one call for
// a run from a configuration.
func Run(g *linalg.Graph, cfg Config) (*Result, error) {
	p, err := NewPlan(g, cfg)
	if err != nil {
		return nil, err
	}
	return p.Run()
}

// Run rewires (a copy of) the plan's graph with its method for up to
// p.Iterations iterations and returns the log, the counts and the rewired
// graph. Every method runs in this one loop: its operator makes each
// iteration's edits (definitions §3.3–3.5); an iteration that changes
// nothing stops the run (it would repeat forever), and so do
// MaxIterations and the Context (before the next iteration). Cost: the
// operator's set-up and B of its iterations — O(n²) each on the dense
// resistance engines.
func (p *Plan) Run() (*Result, error) {
	t0 := time.Now()
	op, err := p.Method.operator(p)
	if err != nil {
		return nil, err
	}
	return p.drive(op, t0)
}

// drive runs op for the plan, the run having started at t0.
func (p *Plan) drive(op operator, t0 time.Time) (*Result, error) {
	// Most iterations make one edit: room for them (up to a bound).
	res := &Result{E0: p.Graph.E0(), Budget: p.B, Engine: p.Engine, Log: make([]Edit, 0, min(p.Iterations, 4096))}
	for it := 1; it <= res.Budget; it++ {
		if why := p.stopBefore(it); why != "" {
			res.StoppedEarly = why
			break
		}
		edits, err := op.iterate(it)
		if p.cutShort(op, err) {
			// The iteration in flight saw the Context's end and stopped
			// halfway: the run is the it−1 iterations before it.
			res.StoppedEarly = fmt.Sprintf("interrupted during iteration %d, after %d iterations", it, it-1)
			res.Graph = p.Graph.Clone()
			Replay(res.Graph, res.Log)
			return p.ended(res, t0), nil
		}
		if err != nil {
			return nil, fmt.Errorf("rewire: iteration %d: %w", it, err)
		}
		res.Iterations = it
		if len(edits) == 0 {
			res.StoppedEarly = fmt.Sprintf("iteration %d changed nothing: %s", it, op.idle())
			break
		}
		res.record(edits)
		if p.Config.OnIteration != nil {
			p.Config.OnIteration(it, op.graph(), edits)
		}
	}
	if err := op.finish(res); err != nil {
		return nil, err
	}
	if t, ok := op.(graphTaker); ok {
		res.Graph = t.takeGraph()
	} else {
		res.Graph = op.graph().Clone()
	}
	return p.ended(res, t0), nil
}

// graphTaker is an operator whose graph is its own copy, which it can give
// up once the loop is over (the result then holds it: one clone less).
type graphTaker interface {
	// takeGraph returns the current graph, which the operator no longer
	// reads or edits.
	takeGraph() *linalg.Graph
}

// ended completes res, whose Graph is set, for a run started at t0: its
// net change and its time. O(1) for a run without removals, O(m) otherwise.
func (p *Plan) ended(res *Result, t0 time.Time) *Result {
	if res.Removed == 0 {
		// No removal: E_0 ⊆ E_T, and the net change is the growth of the
		// edge count (self-loops are never edited), counted from res.E0,
		// taken before the first edit (a run in place edits p.Graph). O(1).
		res.AddedNet, res.RemovedNet = res.Graph.E0()-res.E0, 0
	} else {
		res.AddedNet, res.RemovedNet = NetChange(p.Graph, res.Graph)
	}
	res.Seconds = time.Since(t0).Seconds()
	return res
}

// cutShort reports whether the iteration op just made, which returned
// err, was stopped halfway by the end of the Config.Context: its error,
// or the one its engine deferred (a sketch engine's solves end with the
// context, Options.Stop), is the context's. Such an iteration's edits
// are not a decision of the method and are dropped.
func (p *Plan) cutShort(op operator, err error) bool {
	ctx := p.Config.Context
	if ctx == nil || ctx.Err() == nil {
		return false
	}
	if err != nil {
		return errors.Is(err, ctx.Err())
	}
	f, ok := op.(interface{ failure() error })
	return ok && errors.Is(f.failure(), ctx.Err())
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

// edit is the log line of iteration it's op on the pair p of g: an
// undirected edge as U < V, a directed one as the arc.
func edit(g *linalg.Graph, it int, op string, p incremental.Pair) Edit {
	u, v := p.U, p.V
	if !g.Directed() && u > v {
		u, v = v, u
	}
	return Edit{Iteration: it, Op: op, U: u, V: v, Score: p.Score}
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
