// Package exact holds the exact from-scratch resistance engine, the oracle
// of the incremental engines' tests and the benchmarks' naive baseline.
package exact

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/hops"
	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/linalg"
)

// Engine recomputes every score from scratch whenever the graph has
// changed: L⁺ by linalg.Pinv (undirected) or X by one Lyapunov solve per SCC
// (directed), all-pairs distances by a BFS from every node, and the maximum
// by a plain two-pass scan. It shares no state or kernel with the incremental
// engines, so it is the tests' oracle and the benchmarks' naive baseline.
// Each recomputation costs O(Σ n_C³ + n(n+m)).
type Engine struct {
	g      *linalg.Graph
	hop    bool
	within bool

	skip  []incremental.Pair // left out of MaxPair (Skip)
	fresh bool
	block []int         // component (undirected) or SCC (directed) per node
	X     *mat.SymDense // L⁺ or X, 0 across blocks
	dist  [][]int       // -1: unreachable
	err   error         // the first failed recomputation (Err)
}

// Options configure the exact engine.
type Options struct {
	// PerHop scores a pair by R per hop, R its second key (err-hop,
	// res-hop); else by R.
	PerHop bool
	// WithinComponents restricts undirected pairs to one component.
	WithinComponents bool
}

// New starts the exact engine on a copy of g, scoring as opt says. It
// refuses, before allocating, per-hop scores on more than hops.MaxNodes
// nodes and a graph whose n² state exceeds the available memory
// (sysmem.Check). Its cost is one recomputation.
func New(g *linalg.Graph, opt Options) (*Engine, error) {
	hop, within := opt.PerHop, opt.WithinComponents
	if hop {
		if err := hops.CheckNodes(g.N()); err != nil {
			return nil, err
		}
	}
	n := uint64(g.N())
	// L⁺ or X (n² floats), the Pinv work, and per hop n² int distances.
	need := 3 * n * n * 8
	if hop {
		need += n * n * 8
	}
	if err := sysmem.Check(fmt.Sprintf("the exact engine on %d nodes", n), need, "it recomputes n² numbers every iteration; use the incremental engine"); err != nil {
		return nil, err
	}
	e := &Engine{g: g.Clone(), hop: hop, within: within}
	return e, e.refresh()
}

var (
	_ incremental.Engine = (*Engine)(nil)
	_ incremental.Failer = (*Engine)(nil)
)

// computeMatrix is matrix; the tests replace it to make a recomputation
// fail.
var computeMatrix = matrix

// Err is the first recomputation that failed (nil when none): after it the
// engine's reads return no pair and no resistance, and Commit returns it.
func (e *Engine) Err() error { return e.err }

// Graph is the current graph.
func (e *Engine) Graph() *linalg.Graph { return e.g }

// refresh recomputes the matrices if the graph changed; a failure is kept
// (Err) and returned again by every later call.
func (e *Engine) refresh() error {
	if e.err != nil || e.fresh {
		return e.err
	}
	block, X, err := computeMatrix(e.g)
	if err != nil {
		e.err = fmt.Errorf("exact: recomputing after the edits: %w", err)
		return e.err
	}
	e.block, e.X = block, X
	if e.hop {
		e.dist = AllPairsBFS(e.g)
	}
	e.fresh = true
	return nil
}

// SameBlock reports whether i and j share a component (undirected) or an
// SCC (directed); false after a failed recomputation (Err).
func (e *Engine) SameBlock(i, j int) bool {
	if err := e.refresh(); err != nil {
		return false
	}
	return e.block[i] == e.block[j]
}

// score returns the method's score of the pair and whether it is admissible.
func (e *Engine) score(i, j int) (float64, bool) {
	if e.g.Directed() || e.within {
		if e.block[i] != e.block[j] {
			return 0, false
		}
	}
	r := linalg.Resistance(e.X, i, j)
	if !e.hop {
		return r, true
	}
	if e.dist[i][j] <= 0 {
		return 0, false
	}
	return r / float64(e.dist[i][j]), true
}

// Skip sets the pairs MaxPair leaves out.
func (e *Engine) Skip(pairs []incremental.Pair) { e.skip = slices.Clone(pairs) }

// MaxPair ranks every admissible pair (rank.Each over the full list, the
// pairs of Skip left out): O(n²) per call after the recomputation; false
// after a failed one (Err).
func (e *Engine) MaxPair() (incremental.Pair, bool) {
	skip := e.skip
	if err := e.refresh(); err != nil {
		return incremental.Pair{}, false
	}
	n := e.g.N()
	var ps []incremental.Pair
	for i := range n {
		for j := range n {
			if i == j || (!e.g.Directed() && j < i) {
				continue
			}
			if s, ok := e.score(i, j); ok && !slices.ContainsFunc(skip, func(q incremental.Pair) bool { return q.U == i && q.V == j }) {
				ps = append(ps, incremental.Pair{U: i, V: j, Score: s, Key: linalg.Resistance(e.X, i, j)})
			}
		}
	}
	return rank.FirstAccepted(ps, rank.Descending, rank.Keys(e.hop), nil)
}

// MinEdge ranks the edges (arcs inside SCCs) by resistance, ascending.
func (e *Engine) MinEdge(accept func(u, v int) bool) (incremental.Pair, bool) {
	var es []incremental.Pair
	for _, ed := range e.g.Edges() {
		if r, ok := e.Resistance(ed.U, ed.V); ok {
			es = append(es, incremental.Pair{U: ed.U, V: ed.V, Score: r})
		}
	}
	return rank.FirstAccepted(es, rank.Ascending, rank.ScoreOnly, accept)
}

// Resistance is R_ij from the fresh matrix; false across SCCs (directed)
// and after a failed recomputation (Err).
func (e *Engine) Resistance(i, j int) (float64, bool) {
	if err := e.refresh(); err != nil {
		return 0, false
	}
	if e.g.Directed() && e.block[i] != e.block[j] {
		return 0, false
	}
	return linalg.Resistance(e.X, i, j), true
}

// ResistanceAfterAdd recomputes everything with the edge (arc) added;
// false when that fails (kept as Err).
func (e *Engine) ResistanceAfterAdd(a, b, x, y int) (float64, bool) {
	if e.err != nil {
		return 0, false
	}
	h := e.g.Clone()
	h.AddEdge(x, y)
	block, X, err := computeMatrix(h)
	if err != nil {
		e.err = fmt.Errorf("exact: recomputing with the arc (%d, %d) added: %w", x, y, err)
		return 0, false
	}
	if h.Directed() && block[a] != block[b] {
		return 0, false
	}
	return linalg.Resistance(X, a, b), true
}

// Begin does nothing: the exact engine recomputes when it is next read.
func (e *Engine) Begin() {}

// Commit recomputes the matrices of the edited graph (O(Σ n_C³ + n(n+m)),
// the recomputation the next read would make) and returns its error, or
// the first earlier failure (Err).
func (e *Engine) Commit() error { return e.refresh() }

// Add adds the edge (arc) {u, v}; the scores are recomputed when next read.
func (e *Engine) Add(u, v int) error {
	if !e.g.AddEdge(u, v) {
		return &incremental.EditError{Op: "add", U: u, V: v, Reason: incremental.ErrEdgeExists}
	}
	e.fresh = false
	return nil
}

// Remove removes the edge (arc) {u, v}; the scores are recomputed when next
// read.
func (e *Engine) Remove(u, v int) error {
	if !e.g.RemoveEdge(u, v) {
		return &incremental.EditError{Op: "remove", U: u, V: v, Reason: incremental.ErrNoEdge}
	}
	e.fresh = false
	return nil
}
