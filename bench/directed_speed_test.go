package bench

import (
	"testing"
	"time"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/rewire"
)

// BenchmarkDirectedMethodsCora measures the iterations of directed err and
// res-hop on Cora's directed form (largest SCC 2485 nodes) with the
// incremental engine (the fast directed mode): the first 60 iterations of
// err and 40 of res-hop at the 15 % budget, timed from the end of the first
// iteration to the end of the last, so that the initial solve is left out.
// Metrics: s/iteration (wall), cpu-s/iteration (the process's CPU time,
// which on a shared machine says more than the wall time) and fallbacks.
// Skipped without the data ($OHM_DATA). The file builds on the engine's
// public API only, so that the same benchmark can time an older checkout.
func BenchmarkDirectedMethodsCora(b *testing.B) {
	g := coraDirected(b)
	for _, tc := range []struct {
		m   rewire.Method
		its int
	}{{rewire.ERR, 60}, {rewire.ResHop, 40}} {
		b.Run(string(tc.m), func(b *testing.B) {
			for b.Loop() {
				var t1 time.Time
				var c1 float64
				r, err := rewire.Run(g, rewire.Config{Method: tc.m, Budget: 0.15, MaxIterations: tc.its,
					OnIteration: func(it int, _ *linalg.Graph, _ []rewire.Edit) {
						if it == 1 {
							t1, c1 = time.Now(), cpuSeconds()
						}
					}})
				if err != nil {
					b.Fatal(err)
				}
				if r.Iterations != tc.its {
					b.Fatalf("%d iterations, want %d", r.Iterations, tc.its)
				}
				per := float64(tc.its - 1)
				b.ReportMetric(time.Since(t1).Seconds()/per, "s/iteration")
				b.ReportMetric((cpuSeconds()-c1)/per, "cpu-s/iteration")
				b.ReportMetric(float64(r.Fallbacks), "fallbacks")
			}
		})
	}
}
