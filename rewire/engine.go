package rewire

import (
	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/linalg"
)

// engine is the resistance state an operator reads and edits: the incremental
// engines of package incremental, or the exact engine that recomputes
// everything from scratch. Both drive the same operator code (Run).
type engine interface {
	// Graph is the current graph; the operator reads it, never edits it.
	Graph() *linalg.Graph
	// MaxPair is the argmax of the method's score (R, or R per hop) over
	// admissible pairs, with SPEC §3's tie rule.
	MaxPair() (incremental.Pair, bool)
	// R is the resistance of a pair inside one component (SCC).
	R(i, j int) float64
	// RAfterAdd is R_ab once the edge {x,y} (arc x→y) alone is added.
	RAfterAdd(a, b, x, y int) float64
	// SameBlock reports whether i and j share a component (undirected) or
	// a strongly connected component (directed).
	SameBlock(i, j int) bool
	// Begin and Commit bracket one iteration's edits: the graph changes at
	// each Add and Remove, the numeric state once, at Commit (SPEC §3 takes
	// every decision of an iteration from the scores of G(t)).
	Begin()
	Commit() error
	Add(u, v int) error
	Remove(u, v int) error
}

// undirectedEngine adapts incremental.Undirected.
type undirectedEngine struct{ *incremental.Undirected }

func (e undirectedEngine) SameBlock(i, j int) bool { return e.Component(i) == e.Component(j) }

// directedEngine adapts incremental.Directed.
type directedEngine struct{ *incremental.Directed }

func (e directedEngine) R(i, j int) float64 {
	r, _ := e.Directed.R(i, j)
	return r
}

func (e directedEngine) RAfterAdd(a, b, x, y int) float64 {
	r, _ := e.Directed.RAfterAdd(a, b, x, y)
	return r
}

func (e directedEngine) SameBlock(i, j int) bool { return e.SCC(i) == e.SCC(j) }
