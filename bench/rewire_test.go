package bench

import (
	"os"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
	"github.com/ohmgnn/ohm/rewire"
)

func coraDirected(b *testing.B) *linalg.Graph {
	root := datatest.Root(b, "Cora/raw/ind.cora.x")
	d, err := (&dataset.Locator{DataDir: root}).Load("cora", dataset.SynthOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return d.Graph
}

// BenchmarkRewireCora runs err and err-hop on undirected Cora at 15 % (791
// iterations) end to end, initial L⁺ included (targets: err ≤ 10 s pure Go,
// ≤ 5 s with openblas; err-hop ≤ 2× err). It reports the seconds of the whole
// run, the initial exact L⁺ and the mean iteration.
func BenchmarkRewireCora(b *testing.B) {
	g := cora(b)
	for _, m := range []rewire.Method{rewire.ERR, rewire.ERRHop} {
		b.Run(string(m)+"/15pct", func(b *testing.B) {
			for b.Loop() {
				var first time.Time
				t0 := time.Now()
				r, err := rewire.Run(g, rewire.Config{Method: m, Budget: 0.15, OnIteration: func(it int, _ *linalg.Graph, _ []rewire.Edit) {
					if it == 1 {
						first = time.Now()
					}
				}})
				if err != nil {
					b.Fatal(err)
				}
				total := time.Since(t0)
				b.ReportMetric(total.Seconds(), "s/run")
				b.ReportMetric(float64(r.Iterations), "iterations")
				b.ReportMetric(float64(total-first.Sub(t0))/float64(r.Iterations-1)/1e6, "ms/iteration")
			}
		})
	}
}

// BenchmarkRewireIterationExact measures iterations of err on undirected
// Cora with the exact engine (L⁺ recomputed from scratch every iteration),
// the naive baseline of the incremental iteration of BenchmarkRewireCora.
func BenchmarkRewireIterationExact(b *testing.B) {
	g := cora(b)
	for _, m := range []rewire.Method{rewire.ERR, rewire.ERRHop} {
		b.Run(string(m), func(b *testing.B) {
			for b.Loop() {
				if _, err := rewire.Run(g, rewire.Config{Method: m, Budget: 0.15, Engine: rewire.Exact, MaxIterations: 3}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(3*b.N), "s/iteration")
		})
	}
}

// BenchmarkRewireDirectedCora runs a few iterations of directed err on Cora's
// directed form (one SCC of 2485 nodes) with the incremental engine, which
// for directed graphs is the fast low-rank mode (see
// bench/directed_fast_test.go for the exact-vs-fast comparison). The setup
// solves the 2485-node SCC: set OHM_BENCH_LARGE=1 to run it.
func BenchmarkRewireDirectedCora(b *testing.B) {
	if os.Getenv("OHM_BENCH_LARGE") == "" {
		b.Skip("set OHM_BENCH_LARGE=1: every iteration solves a 2485-node Lyapunov equation")
	}
	g := coraDirected(b)
	const its = 2
	for b.Loop() {
		t0 := time.Now()
		var first time.Time
		if _, err := rewire.Run(g, rewire.Config{Method: rewire.ERR, Budget: 0.01, MaxIterations: its, OnIteration: func(it int, _ *linalg.Graph, _ []rewire.Edit) {
			if it == 1 {
				first = time.Now()
			}
		}}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(first.Sub(t0).Seconds(), "s/setup+iteration1")
		b.ReportMetric(time.Since(first).Seconds()/float64(its-1), "s/iteration")
	}
}
