package sketch

import (
	"github.com/ohmgnn/ohm/incremental"
)

// The hand-off to the exact engine (definitions §3.7.1, docs/sketch.md
// "Step 1 of `sketch-20`"). On shapes where the bounds cannot separate the
// farthest pairs from the rest (a graph close to vertex-transitive, such
// as a ring of cliques) the cover keeps nearly every node, one solve each,
// and M grows towards n²: the exact dense engine then does the same work
// for less, with every decision exact. When the nodes the engine would
// keep exceed Options.HandOff of the graph's nodes and the dense state
// (incremental.DenseBytes) fits in the memory available, the engine builds
// the exact incremental engine on the current graph, drops its own state
// and passes every later call to it.

// handOffDue reports whether keeping kept nodes in all crosses the
// hand-off fraction and the dense engine's state fits in memory (asked
// once per round: the check reads a few files). O(1).
func (e *Engine) handOffDue(kept int) bool {
	n := e.g.N()
	if e.exact != nil || e.opt.HandOff <= 0 || e.handOffRefused || float64(kept) <= e.opt.HandOff*float64(n) {
		return false
	}
	if incremental.CheckDense(n, false, false) != nil {
		e.handOffRefused = true // until the next round
		return false
	}
	return true
}

// handOff continues the run with the exact incremental engine on the
// current graph (the skipped pairs carried over), kept the nodes that
// crossed the fraction: O(Σ n_C³) for its L⁺. It must be called between
// iterations (no edit pending). The sketch's own state (solver, sketch
// columns, M, bounds) is dropped first.
func (e *Engine) handOff(kept int) error {
	e.release()
	x, err := incremental.NewUndirected(e.g, incremental.Options{Workers: max(1, e.opt.Workers), WithinComponents: e.opt.WithinComponents, MemoryChecked: true})
	if err != nil {
		return err
	}
	x.Skip(e.skip)
	e.exact = x
	e.handOffAt, e.handOffKept = e.iterations+1, kept
	return nil
}

// release drops the round's state, so that the exact engine's L⁺ takes
// its place in memory.
func (e *Engine) release() {
	if e.solver != nil {
		e.solver.ReleaseWork()
	}
	e.solver = nil
	e.m, e.diag, e.rowMin, e.deferred = nil, nil, nil, deferredM{}
	e.acol, e.anchors, e.batch, e.waiting = nil, nil, nil, nil
	e.ecc, e.dhat, e.sd, e.aidx = nil, nil, nil, nil
	e.smallNodes, e.smallEcc = nil, nil
}

// HandedOff reports whether the exact engine has taken over, the
// iteration (1-based, counted from the engine's start) whose decision was
// its first, and the nodes the sketch would have kept then. O(1).
func (e *Engine) HandedOff() (at, kept int, ok bool) {
	return e.handOffAt, e.handOffKept, e.exact != nil
}
