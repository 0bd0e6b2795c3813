package bench

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/rewire"
)

// dirIteration makes one simplified err iteration on a directed engine: the
// arc of the most resistant pair is added when absent, then the least
// resistant arc whose removal keeps its SCC strongly connected is removed,
// in one batch (one solve or low-rank update of the SCC).
func dirIteration(b *testing.B, e *incremental.Directed) {
	p, ok := e.MaxPair()
	if !ok {
		b.Fatal("no pair")
	}
	e.Begin()
	added := !e.Graph().HasEdge(p.U, p.V)
	if added {
		if err := e.Add(p.U, p.V); err != nil {
			b.Fatal(err)
		}
	}
	e.MinEdge(func(u, v int) bool {
		return !(added && u == p.U && v == p.V) && e.Remove(u, v) == nil
	})
	if err := e.Commit(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkDirectedIterationCora compares one iteration of directed err on
// Cora's directed form (largest SCC 2485 nodes) in the exact mode (the SCC's
// Lyapunov equation solved again, dense, O(n³)) and in the fast mode
// (Options.FastDirected: low-rank update, residual check, decision checks).
// Both start from the same engine state; the fast mode is timed over 20
// iterations after its construction, the exact one over one iteration and
// only with OHM_BENCH_LARGE=1 (93 s in pure Go). Metrics: s/iteration and
// cpu-s/iteration (the process's CPU time: on a shared machine the wall time
// depends on the load), and for the fast mode its fallbacks and the phases'
// ms/iteration.
func BenchmarkDirectedIterationCora(b *testing.B) {
	g := coraDirected(b)
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			e, err := incremental.NewDirected(g, incremental.Options{FastDirected: true})
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			const its = 20
			st0 := e.FastStats()
			t0, c0 := time.Now(), cpuSeconds()
			for range its {
				dirIteration(b, e)
			}
			el := time.Since(t0).Seconds() / its
			b.ReportMetric((cpuSeconds()-c0)/its, "cpu-s/iteration")
			st := phaseDelta(e.FastStats(), st0)
			b.ReportMetric(el, "s/iteration")
			b.ReportMetric(float64(e.Fallbacks()), "fallbacks")
			reportPhases(b, st, its)
		}
	})
	b.Run("exact", func(b *testing.B) {
		if os.Getenv("OHM_BENCH_LARGE") == "" {
			b.Skip("set OHM_BENCH_LARGE=1: one exact iteration solves a 2485-node Lyapunov equation (93 s pure Go)")
		}
		for b.Loop() {
			b.StopTimer()
			e, err := incremental.NewDirected(g, incremental.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			t0, c0 := time.Now(), cpuSeconds()
			dirIteration(b, e)
			b.ReportMetric(time.Since(t0).Seconds(), "s/iteration")
			b.ReportMetric(cpuSeconds()-c0, "cpu-s/iteration")
		}
	})
}

// cpuSeconds returns the process's user plus system CPU time, so that a
// benchmark on a shared machine can say how much of its wall time it ran.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// phaseDelta returns a with the phase seconds of b (an earlier snapshot)
// subtracted, so that the construction's work is not counted.
func phaseDelta(a, b incremental.FastStats) incremental.FastStats {
	a.ADISeconds -= b.ADISeconds
	a.AddSeconds -= b.AddSeconds
	a.ResidualSeconds -= b.ResidualSeconds
	a.ScanSeconds -= b.ScanSeconds
	a.CertifySeconds -= b.CertifySeconds
	a.CandidateSeconds -= b.CandidateSeconds
	a.RefactorSeconds -= b.RefactorSeconds
	a.ExactSeconds -= b.ExactSeconds
	a.Refactorizations -= b.Refactorizations
	return a
}

// reportPhases reports the fast mode's phases in ms per iteration.
func reportPhases(b *testing.B, st incremental.FastStats, its int) {
	per := func(s float64) float64 { return 1e3 * s / float64(its) }
	b.ReportMetric(per(st.ADISeconds), "ms-adi/it")
	b.ReportMetric(per(st.AddSeconds), "ms-add/it")
	b.ReportMetric(per(st.ResidualSeconds), "ms-residual/it")
	b.ReportMetric(per(st.CertifySeconds+st.ScanSeconds), "ms-scan+check/it")
	b.ReportMetric(per(st.RefactorSeconds), "ms-refactor/it")
	b.ReportMetric(per(st.CandidateSeconds), "ms-candidates/it")
	b.Logf("%s: %+v", linalg.Backend(), st)
}

// BenchmarkDirectedFastCora runs directed err on Cora's directed form end to
// end with the incremental engine (the fast directed mode), initial solve
// included, at 1 % (105 iterations) and, with OHM_BENCH_LARGE=1, at 15 %
// (1583 iterations; target ≤ 10 minutes on 2 cores in pure Go). Metrics:
// s/run, iterations, ms/iteration (after the first) and fallbacks.
func BenchmarkDirectedFastCora(b *testing.B) {
	g := coraDirected(b)
	for _, tc := range []struct {
		name   string
		budget float64
		large  bool
	}{{"1pct", 0.01, false}, {"15pct", 0.15, true}} {
		b.Run(tc.name, func(b *testing.B) {
			if tc.large && os.Getenv("OHM_BENCH_LARGE") == "" {
				b.Skip("set OHM_BENCH_LARGE=1: 1583 iterations")
			}
			for b.Loop() {
				var first time.Time
				t0, c0 := time.Now(), cpuSeconds()
				r, err := rewire.Run(g, rewire.Config{Method: rewire.ERR, Budget: tc.budget, OnIteration: func(it int, _ *linalg.Graph, _ []rewire.Edit) {
					if it == 1 {
						first = time.Now()
					}
				}})
				if err != nil {
					b.Fatal(err)
				}
				total := time.Since(t0)
				b.ReportMetric(total.Seconds(), "s/run")
				b.ReportMetric(cpuSeconds()-c0, "cpu-s/run")
				b.ReportMetric(float64(r.Iterations), "iterations")
				b.ReportMetric(float64(total-first.Sub(t0))/float64(max(1, r.Iterations-1))/1e6, "ms/iteration")
				b.ReportMetric(float64(r.Fallbacks), "fallbacks")
				b.Logf("%s: %d iterations, %d added, %d removed, %d fallbacks, %.1f s", linalg.Backend(), r.Iterations, r.Added, r.Removed, r.Fallbacks, total.Seconds())
			}
		})
	}
}
