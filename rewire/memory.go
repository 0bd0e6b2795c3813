package rewire

import (
	"fmt"
	"runtime"

	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/linalg"
)

// CurvatureBytes estimates the memory of the curvature operator's state on
// a graph of n nodes and m edges (definitions §7.1): its copy of the graph
// (and, directed, the undirected view) and the result's, 4 bytes a node of stamps, the
// bridge searcher's 20 bytes a node and 12 bytes a node for each of its
// workers, and 40 bytes an edge of curvatures (a map entry and the ranking).
// O(1).
func CurvatureBytes(n, m int, directed bool, workers int) uint64 {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	b := linalg.GraphBytes(n, m, directed) * 3 / 2
	if directed {
		b += linalg.GraphBytes(n, m, false)
	}
	return b + uint64(n)*(24+12*uint64(workers)) + uint64(m)*40
}

// FoSRBytes estimates the memory of the FoSR operator on a graph of n
// nodes and m edges: its copy of the graph and the result's, and the
// per-node state (the start
// vector, the power iteration's three vectors and degrees, and the signed
// node lists the choice sorts, grown by appending), about 128 bytes a
// node. O(1).
func FoSRBytes(n, m int) uint64 {
	return linalg.GraphBytes(n, m, false)*3/2 + uint64(n)*128
}

// operatorBytes is the estimate checkOperatorMemory checks for method's
// operator on g (CurvatureBytes, FoSRBytes; 0 for a method without an
// operator of its own). O(1).
func operatorBytes(method Method, g *linalg.Graph, workers int) uint64 {
	switch method {
	case Curvature:
		return CurvatureBytes(g.N(), g.E0(), g.Directed(), workers)
	case FoSR:
		return FoSRBytes(g.N(), g.E0())
	}
	return 0
}

// checkOperatorMemory refuses, before its state is allocated, an operator
// whose estimate exceeds the memory available (a *sysmem.Error).
// It probes nothing when the plan's caller has checked (a batch,
// operatorMemoryMany).
func checkOperatorMemory(p *Plan) error {
	if p.Config.memoryChecked {
		return nil
	}
	method, g := p.Config.Method, p.Graph
	need := operatorBytes(method, g, p.Config.Workers)
	return sysmem.Check(fmt.Sprintf("the %s rewiring on %d nodes and %d edges", method, g.N(), g.E0()), need,
		"its state is per node and per edge; check num_nodes in the file, or use a machine with more memory")
}
