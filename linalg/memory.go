package linalg

import (
	"fmt"

	"github.com/ohmgnn/ohm/internal/sysmem"
)

// MaxNodes is the largest node count ohm accepts: node ids must fit in an
// int32 (as PyTorch Geometric's int64 ids of real graphs always do), so
// that a count read from a file is a clear error, not an allocation of
// gigabytes.
const MaxNodes = 1<<31 - 1

// GraphBytes estimates the peak memory of building a Graph with n nodes and
// m edges (arcs when directed): the neighbour lists (8 bytes an entry, both
// ends of every edge), their slice headers, the self-loop flags and the
// membership hash set (about 48 bytes an entry), doubled for the garbage
// collector's headroom and the arc list being read. O(1).
func GraphBytes(n, m int, directed bool) uint64 {
	lists := uint64(1)
	if directed {
		lists = 2
	}
	return 2 * (lists*uint64(n)*24 + uint64(n) + 2*uint64(m)*8 + uint64(m)*48)
}

// CheckGraphSize returns an error when a graph of n nodes and m edges cannot
// be built: n beyond MaxNodes, or more memory than is available (a
// *sysmem.Error).
func CheckGraphSize(n, m int, directed bool) error {
	if n > MaxNodes {
		return fmt.Errorf("%d nodes: more than ohm's limit of %d (node ids must fit in an int32)", n, MaxNodes)
	}
	return sysmem.Check(fmt.Sprintf("a graph of %d nodes and %d edges", n, m), GraphBytes(n, m, directed),
		"check num_nodes in the file, or use a machine with more memory")
}
