package bench

import (
	"fmt"
	"testing"

	"github.com/ohmgnn/ohm/rewire"
	"github.com/ohmgnn/ohm/rewire/curvature"
)

// BenchmarkCurvatureCora computes the exact Ollivier–Ricci curvature (α = ½)
// of all 5,278 edges of undirected Cora, with 1 and 2 workers (target:
// ≤ 1 s on 2 cores).
func BenchmarkCurvatureCora(b *testing.B) {
	g := cora(b)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			for b.Loop() {
				ks, err := curvature.Curvatures(g, curvature.DefaultAlpha, w)
				if err != nil {
					b.Fatal(err)
				}
				if len(ks) != 5278 {
					b.Fatalf("%d edges", len(ks))
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/op")
		})
	}
}

// BenchmarkCurvatureRewireCora runs the curvature baseline on undirected Cora
// at 10 % (527 iterations) end to end, initial κ included (target ≤ 30 s),
// and reports the seconds of the run and per iteration.
func BenchmarkCurvatureRewireCora(b *testing.B) {
	g := cora(b)
	for b.Loop() {
		r, err := rewire.Run(g, rewire.Config{Method: rewire.Curvature, Budget: 0.1})
		if err != nil {
			b.Fatal(err)
		}
		if r.Iterations != 527 {
			b.Fatalf("%d iterations (%s)", r.Iterations, r.StoppedEarly)
		}
		b.ReportMetric(r.Seconds, "s/run")
		b.ReportMetric(r.Seconds*1e3/float64(r.Iterations), "ms/iteration")
	}
}
