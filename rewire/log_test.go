package rewire

import (
	"fmt"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset/testgraph"
)

// TestPrefix: a run cut after b iterations is the run with budget b — same
// log, counts, stop reason and, replayed onto the input, graph.
func TestPrefix(t *testing.T) {
	g0 := twoCliques(t)
	e0 := g0.E0()
	for _, m := range []Method{ERR, Res, ResHop, ERRHop} {
		full, err := Run(g0, Config{Method: m, Budget: 1})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d of %d iterations, stopped %q", m, full.Iterations, full.Budget, full.StoppedEarly)
		for _, r := range []float64{1.0 / float64(e0), 3.0 / float64(e0), 0.25, 0.5, 1} {
			b := Budget(r, e0)
			want, err := Run(g0, Config{Method: m, Budget: r})
			if err != nil {
				t.Fatal(err)
			}
			got := full.Prefix(g0, b)
			name := fmt.Sprintf("%s b=%d", m, b)
			sameLog(t, name, got.Log, want.Log)
			if got.Iterations != want.Iterations || got.Added != want.Added || got.Removed != want.Removed ||
				got.StoppedEarly != want.StoppedEarly || got.Budget != want.Budget {
				t.Errorf("%s: prefix (it %d, +%d −%d, B %d, stopped %q), run (it %d, +%d −%d, B %d, stopped %q)", name,
					got.Iterations, got.Added, got.Removed, got.Budget, got.StoppedEarly,
					want.Iterations, want.Added, want.Removed, want.Budget, want.StoppedEarly)
			}
			g := g0.Clone()
			Replay(g, got.Log)
			if !g.Equal(want.Graph) {
				t.Errorf("%s: replayed prefix differs from the run's graph", name)
			}
			if !got.Graph.Equal(want.Graph) || got.AddedNet != want.AddedNet || got.RemovedNet != want.RemovedNet {
				t.Errorf("%s: prefix graph or net change (+%d −%d) differs from the run's (+%d −%d)", name,
					got.AddedNet, got.RemovedNet, want.AddedNet, want.RemovedNet)
			}
		}
	}
}

// twoCliques is two 5-cliques joined by a 4-edge path (13 nodes, E0 = 24):
// bottlenecks to add across and clique edges to remove.
func twoCliques(t *testing.T) *linalg.Graph {
	var es [][2]int
	for _, o := range []int{0, 8} {
		for i := range 5 {
			for j := i + 1; j < 5; j++ {
				es = append(es, [2]int{o + i, o + j})
			}
		}
	}
	es = append(es, [2]int{4, 5}, [2]int{5, 6}, [2]int{6, 7}, [2]int{7, 8})
	return testgraph.MustGraph(t, 13, false, es...)
}
