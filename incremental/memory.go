package incremental

import (
	"fmt"

	"github.com/ohmgnn/ohm/incremental/hops"
	"github.com/ohmgnn/ohm/internal/sysmem"
)

// DenseBytes estimates the peak memory of a dense resistance engine on n
// nodes: undirected, the packed L⁺ (n²/2 floats), the full pseudoinverse
// linalg.Pinv returns while it is built (n² floats) and the Cholesky work of
// the largest component (bounded by 2n² floats); directed, X and the fast
// mode's residual workspace and solver copies (about 4n² floats for the
// largest SCC, bounded by n). Per-hop scores add the all-pairs distances
// (n² uint16). O(1).
func DenseBytes(n int, directed, perHop bool) uint64 {
	nn := uint64(n) * uint64(n)
	b := nn * 8 * 7 / 2 // ½ + 1 + 2 n² floats
	if directed {
		b = nn * 8 * 4
	}
	if perHop {
		b += nn * 2
	}
	return b
}

// checkDense refuses, before anything n²-sized is allocated, per-hop
// scores on a graph too large for hops.Distances (hops.CheckNodes) and an
// engine whose DenseBytes exceed the available memory (sysmem.Check).
func checkDense(n int, directed, perHop bool) error {
	if perHop {
		if err := hops.CheckNodes(n); err != nil {
			return err
		}
	}
	return sysmem.Check(fmt.Sprintf("the dense resistance engine on %d nodes", n), DenseBytes(n, directed, perHop),
		"the dense engines keep n² numbers; use the sketch engine (undirected err and res), a smaller graph (or a component of it) or a machine with more memory")
}

// CheckDense is the check the dense engines make before they allocate:
// nil when DenseBytes(n, directed, perHop) fits in the available memory
// (and, per hop, n ≤ hops.MaxNodes), else the hops error or a
// *sysmem.Error naming the size and the sketch engine.
func CheckDense(n int, directed, perHop bool) error { return checkDense(n, directed, perHop) }
