package rewire

import (
	"errors"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/exact"
	"github.com/ohmgnn/ohm/incremental/hops"
	"github.com/ohmgnn/ohm/linalg"
)

// TestPerHopNodeLimit: per-hop scores on a graph of hops.MaxNodes+1 =
// 65535 nodes are refused by the plan (a *ConfigError of the method naming
// the limit) and by every engine constructor, before anything n²-sized is
// allocated (the test would need 8 GB otherwise); one node fewer passes
// the plan. Either form.
func TestPerHopNodeLimit(t *testing.T) {
	for _, directed := range []bool{false, true} {
		for _, n := range []int{hops.MaxNodes, hops.MaxNodes + 1} {
			g := linalg.NewGraph(n, directed)
			g.AddEdge(0, 1)
			g.AddEdge(1, n-1)
			for _, m := range []Method{ERRHop, ResHop} {
				_, err := NewPlan(g, Config{Method: m, Budget: 0.5})
				var ce *ConfigError
				refused := errors.As(err, &ce) && ce.Field == FieldMethod && strings.Contains(err.Error(), "per-hop scores hold at most 65534")
				if refused != (n > hops.MaxNodes) {
					t.Errorf("%s on %d nodes (directed %v): %v", m, n, directed, err)
				}
			}
			if n <= hops.MaxNodes {
				continue
			}
			if err := incremental.CheckDense(n, directed, true); err == nil || !strings.HasPrefix(err.Error(), "hops: ") {
				t.Errorf("CheckDense on %d nodes per hop: %v", n, err)
			}
			if _, err := exact.New(g, exact.Options{PerHop: true}); err == nil || !strings.HasPrefix(err.Error(), "hops: ") {
				t.Errorf("exact.New on %d nodes per hop: %v", n, err)
			}
			_, err := NewEngine(g, EngineSpec{PerHop: true})
			if err == nil || !strings.HasPrefix(err.Error(), "hops: ") {
				t.Errorf("NewEngine on %d nodes per hop: %v", n, err)
			}
		}
	}
}
