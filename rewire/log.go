package rewire

import "github.com/ohmgnn/ohm/linalg"

// Edit is one line of the edit log: an edge added or removed in an iteration
// (1-based). Undirected edges have U < V; a directed edit is the arc U→V.
// Score is what decided the edit: the method's score of the pair added (case
// 1), the resistance R_{u*v*} that the added edge leaves (case 2), or the
// resistance of the edge removed, all taken on the graph G(t) at the start of
// the iteration.
type Edit struct {
	Iteration int     `json:"iteration"`
	Op        string  `json:"op"` // "add" or "remove"
	U         int     `json:"u"`
	V         int     `json:"v"`
	Score     float64 `json:"score"`
}

// Prefix returns the run r cut after its first b iterations (0 ≤ b ≤
// r.Budget): what a run with budget b would have made, since an iteration
// depends only on the graph before it. Log is the prefix of r.Log, Added and
// Removed count it, Budget is b, Iterations min(b, r.Iterations), and
// StoppedEarly is r's reason when the run with budget b stops early too: r
// stopped in one of those b iterations (one that changed nothing, counted in
// r.Iterations without edits) or, stopped by Config.MaxIterations or
// Config.Context, before an iteration ≤ b. Graph is g0, the input of r, with the prefix of the log
// replayed (r.Graph when the prefix is the whole run), and AddedNet and
// RemovedNet its net change; Seconds, PassedOver, Engine, Rounds, Solves and
// Fallbacks are zero. RunBudgets, the one place where a run rewired once at
// the largest budget is cut for the smaller ones (ohm stats and the sweeps),
// cuts with it. O(len(r.Log) + m).
func (r *Result) Prefix(g0 *linalg.Graph, b int) *Result {
	p := &Result{E0: r.E0, Budget: b, Iterations: min(b, r.Iterations)}
	// A run that stops in an iteration (it changed nothing) counts it and
	// logs nothing for it; one stopped by MaxIterations logged edits in
	// every iteration it counts, and stops only when a further one is due.
	stoppedIn := len(r.Log) == 0 || r.Log[len(r.Log)-1].Iteration < r.Iterations
	if r.StoppedEarly != "" && (r.Iterations < b || r.Iterations == b && stoppedIn) {
		p.StoppedEarly = r.StoppedEarly
	}
	k := 0
	for k < len(r.Log) && r.Log[k].Iteration <= p.Iterations {
		k++
	}
	p.record(r.Log[:k:k])
	if k == len(r.Log) && p.Iterations == r.Iterations && r.Graph != nil {
		p.Graph = r.Graph
	} else {
		p.Graph = g0.Clone()
		Replay(p.Graph, p.Log)
	}
	p.AddedNet, p.RemovedNet = NetChange(g0, p.Graph)
	return p
}

// Replay applies the edits of log to g in order. O(len(log)) edge edits.
func Replay(g *linalg.Graph, log []Edit) {
	for _, e := range log {
		if e.Op == "add" {
			g.AddEdge(e.U, e.V)
		} else {
			g.RemoveEdge(e.U, e.V)
		}
	}
}

// AddedEdges returns the edges r's log adds, once per addition in the order
// of the log: undirected edges as U < V, directed ones as arcs U→V. An edge
// added and later removed counts as added (so the list may hold edges
// r.Graph lacks, unlike AddedNet). It is never nil: empty when the run added
// nothing. O(len(r.Log)).
func (r *Result) AddedEdges() []linalg.Edge {
	out := []linalg.Edge{}
	for _, e := range r.Log {
		if e.Op == "add" {
			out = append(out, linalg.Edge{U: e.U, V: e.V})
		}
	}
	return out
}
