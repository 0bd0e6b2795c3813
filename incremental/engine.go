package incremental

import "github.com/ohmgnn/ohm/linalg"

// Engine is the resistance state a rewiring operator reads and edits (definitions
// §3): Undirected and Directed implement it here, sketch.Engine in package
// incremental/sketch, the exact from-scratch oracle exact.Engine in package
// incremental/exact. Decisions are read from the graph G(t) between
// iterations; Begin and Commit bracket one iteration's edits.
type Engine interface {
	// Graph is the current graph; callers read it, never edit it.
	Graph() *linalg.Graph
	// MaxPair is the first admissible pair of definitions §3.1's descending ranking
	// by the engine's score (R, or R per hop with R as second key), the
	// pairs of the last Skip left out ("the next pair after these"); false
	// when none is left.
	MaxPair() (Pair, bool)
	// Skip sets the pairs MaxPair leaves out until the next Skip: outside a
	// batch at once, inside one from Commit on (the pass that follows the
	// edits uses them).
	Skip(pairs []Pair)
	// MinEdge is the first edge (directed: arc inside an SCC) of the
	// ascending ranking by R that accept (nil: any) takes.
	MinEdge(accept func(u, v int) bool) (Pair, bool)
	// Resistance is R_ij, and false where the engine gives no resistance
	// (directed: across SCCs).
	Resistance(i, j int) (float64, bool)
	// ResistanceAfterAdd is R_ab once the edge {x,y} (arc x→y) alone is
	// added, and false where there is no such value.
	ResistanceAfterAdd(a, b, x, y int) (float64, bool)
	// SameBlock reports whether i and j share a component (undirected) or
	// a strongly connected component (directed).
	SameBlock(i, j int) bool
	// Begin and Commit bracket one iteration's edits: the graph changes at
	// each Add and Remove, the numeric state at Commit.
	Begin()
	Commit() error
	// Add and Remove edit the graph; a refused edit returns an *EditError
	// and changes nothing.
	Add(u, v int) error
	Remove(u, v int) error
}

// What some engines offer beyond Engine, each behind its own small
// interface: callers ask for the interface, never for a concrete engine.
type (
	// StatsReporter is an engine that counts its work beyond its
	// iterations (the sketch engine's rounds and solves, the fast directed
	// engine's fallbacks).
	StatsReporter interface {
		// Stats is the work so far. O(1).
		Stats() Stats
	}
	// Failer is an engine whose numeric work can fail after an edit was
	// accepted (the sketch engine's deferred solves): Err is the first
	// such failure, nil when none.
	Failer interface {
		Err() error
	}
	// AdditionChooser is an engine that makes the choice of case 2 of
	// definitions §3.3 itself, certified against its own error bound (the
	// fast directed engine): MinRAfterAdd is the arc (x, y), y ∈ ys, that
	// leaves R_ab smallest when added alone, ties by the smallest y, with
	// that resistance as its score; false when ys is empty.
	AdditionChooser interface {
		MinRAfterAdd(a, b, x int, ys []int) (Pair, bool)
	}
	// TopRanker is an engine that lists its k most resistant admissible
	// pairs itself (the sketch engine: among its candidates, exactly).
	TopRanker interface {
		Top(k int) []Pair
	}
	// PairSolver is an engine that computes any pair's resistance exactly
	// on demand, by a Laplacian solve (the sketch engine keeps no L⁺).
	PairSolver interface {
		SolveResistance(u, v int) (float64, error)
	}
)

// Stats counts an engine's work beyond its iterations; an engine fills the
// fields that apply to it and leaves the others zero.
type Stats struct {
	// Rounds and Solves are the sketch engine's sketches and Laplacian
	// solves.
	Rounds, Solves int
	// Fallbacks counts the exact solves the fast directed engine made
	// because a residual or a decision margin was not safely above its
	// error bound.
	Fallbacks int
	// HandOffAt is the iteration whose decision was the first the exact
	// engine made after the sketch engine handed the graph over to it
	// (definitions §3.7.1; 0: no hand-off), HandOffKept the nodes the
	// sketch kept then.
	HandOffAt, HandOffKept int
}

var (
	_ Engine          = (*Undirected)(nil)
	_ Engine          = (*Directed)(nil)
	_ StatsReporter   = (*Directed)(nil)
	_ AdditionChooser = (*Directed)(nil)
)

// Stats is the fast mode's fallbacks (Fallbacks). O(1).
func (e *Directed) Stats() Stats { return Stats{Fallbacks: e.Fallbacks()} }

// Resistance is R(i, j), always defined (across components it is the
// paper's L⁺_ii + L⁺_jj). O(1).
func (e *Undirected) Resistance(i, j int) (float64, bool) { return e.R(i, j), true }

// ResistanceAfterAdd is RAfterAdd. O(1).
func (e *Undirected) ResistanceAfterAdd(a, b, x, y int) (float64, bool) {
	return e.RAfterAdd(a, b, x, y), true
}

// SameBlock reports whether i and j are in one connected component. O(1).
func (e *Undirected) SameBlock(i, j int) bool { return e.comp[i] == e.comp[j] }

// Resistance is R. O(1).
func (e *Directed) Resistance(i, j int) (float64, bool) { return e.R(i, j) }

// ResistanceAfterAdd is RAfterAdd.
func (e *Directed) ResistanceAfterAdd(a, b, x, y int) (float64, bool) { return e.RAfterAdd(a, b, x, y) }

// SameBlock reports whether i and j are in one SCC. O(1).
func (e *Directed) SameBlock(i, j int) bool { return e.comp[i] == e.comp[j] }
