package graphgen

import (
	"fmt"
	"math"

	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/linalg"
)

// Bytes estimates the peak memory of generating a graph of n nodes and
// about m edges and writing it (definitions §7.1): 40 bytes a node
// (labels, the random geometric graph's points and grid) and 128 bytes an
// edge (the edge list as it grows by appending, the arcs of both
// directions, the int64 edge_index written from them, and the collector's
// headroom). Computed in floating point and capped at 2⁶², so absurd
// sizes do not overflow. O(1).
func Bytes(n int, m float64) uint64 {
	b := 40*float64(n) + 128*m
	if !(b < 1<<62) {
		return 1 << 62
	}
	return uint64(b)
}

// checkSize refuses, before anything is allocated, a graph of n nodes and
// an expected m edges that would not fit in the memory available (a
// *sysmem.Error), or of more than linalg.MaxNodes nodes.
func checkSize(model string, n int, m float64) error {
	if err := sysmem.Check(fmt.Sprintf("%s: a graph of %d nodes and about %.4g edges", model, n, math.Round(m)), Bytes(n, m),
		"fewer nodes or a lower degree"); err != nil {
		return err
	}
	if n > linalg.MaxNodes {
		return fmt.Errorf("%s: %d nodes: more than ohm's limit of %d (node ids must fit in an int32)", model, n, linalg.MaxNodes)
	}
	return nil
}

// pairs is n·(n−1)/2 in floating point.
func pairs(n float64) float64 { return n * (n - 1) / 2 }
