package tarjan

import (
	"runtime/debug"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/linalg"
)

// pathGraph returns 0-1-...-(n-1) (directed: 0→1→...→n-1), closed into a
// cycle when cycle is set.
func pathGraph(n int, directed, cycle bool) *linalg.Graph {
	g := linalg.NewGraph(n, directed)
	for i := 0; i+1 < n; i++ {
		g.AddEdge(i, i+1)
	}
	if cycle {
		g.AddEdge(n-1, 0)
	}
	return g
}

// TestDeepGraphs runs every whole-graph algorithm on 10^6-node paths and
// cycles, whose DFS is 10^6 deep, with the goroutine stack limit lowered to
// 8 MiB: a recursive implementation (tens of bytes per frame at the very
// least) would die with "goroutine stack exceeds limit".
func TestDeepGraphs(t *testing.T) {
	const n = 1_000_000
	defer debug.SetMaxStack(debug.SetMaxStack(8 << 20))
	start := time.Now()

	t.Run("undirected path", func(t *testing.T) {
		g := pathGraph(n, false, false)
		if _, c := Components(g); c != 1 {
			t.Errorf("Components count %d, want 1", c)
		}
		if _, c := SCC(g); c != 1 {
			t.Errorf("SCC count %d, want 1", c)
		}
		b := Bridges(g)
		if b.Len() != n-1 || !b.Has(n/2, n/2+1) || !b.Has(n-1, n-2) {
			t.Errorf("Bridges: %d bridges, want %d", b.Len(), n-1)
		}
		s := NewSearcher(n)
		if !s.IsBridge(g, n/2+1, n/2) || !s.IsBridge(g, 0, 1) || !s.SplitsSCC(g, n-2, n-1) {
			t.Error("path edge not reported as a bridge")
		}
	})
	t.Run("directed path", func(t *testing.T) {
		g := pathGraph(n, true, false)
		if _, c := Components(g); c != 1 {
			t.Errorf("Components count %d, want 1", c)
		}
		comp, c := SCC(g)
		if c != n || comp[0] != 0 || comp[n-1] != n-1 || comp[n/2] != n/2 {
			t.Errorf("SCC count %d, want %d singletons labelled by id", c, n)
		}
		if b := Bridges(g); b.Len() != n-1 {
			t.Errorf("Bridges: %d, want %d", b.Len(), n-1)
		}
		if splitsSCC(g, n/2, n/2+1) {
			t.Error("arc of a DAG reported as splitting an SCC")
		}
	})
	t.Run("undirected cycle", func(t *testing.T) {
		g := pathGraph(n, false, true)
		if b := Bridges(g); b.Len() != 0 {
			t.Errorf("Bridges: %d, want 0", b.Len())
		}
		if isBridge(g, n/2, n/2+1) {
			t.Error("cycle edge reported as a bridge")
		}
	})
	t.Run("directed cycle", func(t *testing.T) {
		g := pathGraph(n, true, true)
		if _, c := SCC(g); c != 1 {
			t.Errorf("SCC count %d, want 1", c)
		}
		if b := Bridges(g); b.Len() != 0 {
			t.Errorf("Bridges: %d, want 0", b.Len())
		}
		if !splitsSCC(g, n-1, 0) {
			t.Error("cycle arc does not split the cycle")
		}
	})
	t.Logf("10^6-node graphs: %v", time.Since(start))
}
