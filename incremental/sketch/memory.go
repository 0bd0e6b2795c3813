package sketch

import (
	"fmt"

	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/laplace"
)

// perNode is the bytes per node of the engine's own vectors: the index of
// kept nodes and its copy at a round's start, components, the bounds and
// the diagonal estimate with their round-start copies, the order by bound,
// the anchor and small-component labels (about fifteen numbers).
const perNode = 120

// Bytes estimates the peak memory of the sketch engine on an undirected
// graph of n nodes and m edges with the options opt (defaults as New sets
// them): its copy of the graph, the Laplacian solver and the work vectors
// of its solves (laplace.SolverBytes, SolveBytes), the sketch
// (laplace.SketchBytes), the anchors' columns (maxAnchors·n), the batch
// of the edits' vectors, its own per-node vectors, two blocks M of
// MaxKept² (one while it grows) and M's waiting updates (deferCap
// vectors of MaxKept), plus the larger of the diagonal estimate's
// transient vectors (laplace.DiagBytes) and the removal candidates' scored
// edges, and a quarter on top for the garbage collector (the target ohm's
// commands set while the sketch runs). Capacities count, as an
// address-space limit counts them. O(1).
func Bytes(n, m int, opt Options) uint64 {
	opt = opt.withDefaults()
	nn, w := uint64(n), max(1, opt.Workers)
	kept := uint64(min(opt.MaxKept, n))
	b := linalg.GraphBytes(n, m, false)/2 +
		laplace.SolverBytes(n, m) + laplace.SolveBytes(n, w) +
		laplace.SketchBytes(n, opt.Rows) +
		8*maxAnchors*nn + 8*boundBatch*nn + perNode*nn +
		2*8*kept*kept + 8*deferCap*kept
	// The scored edges (incremental.Pair, 24 bytes, in the workers' parts
	// and concatenated, and a score to sort) and the bridge search.
	edges := uint64(0)
	if opt.Removes {
		edges = 80*uint64(m) + 64*nn
	}
	b += max(laplace.DiagBytes(n, w), edges)
	return b + b/4
}

// checkMemory refuses, before anything graph-sized is allocated, a graph
// whose Bytes exceed the memory available (sysmem.Check).
func checkMemory(n, m int, opt Options) error {
	return sysmem.Check(fmt.Sprintf("the sketch resistance engine on %d nodes and %d edges", n, m), Bytes(n, m, opt),
		"its sketch, solver and anchors take several kB per node; use a smaller graph (or a component of it) or a machine with more memory")
}
