package bench

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphgen"
	"github.com/ohmgnn/ohm/rewire"
)

// BenchmarkSketchScale runs err with the sketch engine on generated SBMs
// (10 blocks, mean degree 20, 80 % of a node's edges inside its block, as
// `ohm data synth --model sbm --blocks 10 --avg-degree 20`) of the sizes in
// OHM_SCALE_NODES (comma-separated, default 10000,20000) at the budget
// OHM_SCALE_BUDGET (default 0.01), stopping after OHM_SCALE_ITERATIONS
// iterations when set: issue 14's scale measurement (10⁵ nodes at 1 %, 10⁶
// at 0.1 %: set the variables; they take from minutes to hours). It
// reports seconds per iteration, solves per iteration, the rounds and the
// heap's peak (runtime.MemStats.HeapSys, MB) beside ns/op, one worker, and
// the two parts the time is made of: the first round's start (engine
// built to first decision, round-start-s) and the seconds per iteration
// after it (s/iteration-after; round starts included when the run has
// more than one round, so cap the iterations at 1 000 to read one round).
// With OHM_SCALE_PLOT=FILE (.svg or .png) it draws both against n on
// log-log axes, each with its least-squares slope, after the last size.
func BenchmarkSketchScale(b *testing.B) {
	sizes := []int{10000, 20000}
	if s := os.Getenv("OHM_SCALE_NODES"); s != "" {
		sizes = sizes[:0]
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 20 {
				b.Fatalf("OHM_SCALE_NODES: %q is not a size of at least 20 nodes", f)
			}
			sizes = append(sizes, n)
		}
	}
	budget := 0.01
	if s := os.Getenv("OHM_SCALE_BUDGET"); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v <= 0 || v > 1 {
			b.Fatalf("OHM_SCALE_BUDGET: %q is not a budget in (0, 1]", s)
		}
		budget = v
	}
	maxIt := 0
	if s := os.Getenv("OHM_SCALE_ITERATIONS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			b.Fatalf("OHM_SCALE_ITERATIONS: %q is not a positive count", s)
		}
		maxIt = v
	}
	var points []scalePoint
	for _, n := range sizes {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			gg, err := graphgen.SBMByDegree(n, 10, 20, 0.8, 1)
			var g *linalg.Graph
			if err == nil {
				g, err = gg.Undirected()
			}
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				start := time.Now()
				var first time.Duration
				res, err := rewire.Run(g, rewire.Config{Method: rewire.ERR, Budget: budget,
					Engine: rewire.Sketch, Workers: 1, MaxIterations: maxIt,
					OnIteration: func(it int, _ *linalg.Graph, _ []rewire.Edit) {
						if it == 1 {
							first = time.Since(start)
						}
					}})
				if err != nil {
					b.Fatal(err)
				}
				total := time.Since(start)
				it := float64(max(1, res.Iterations))
				after := 0.0
				if res.Iterations > 1 {
					after = (total - first).Seconds() / float64(res.Iterations-1)
				}
				b.ReportMetric(res.Seconds/it, "s/iteration")
				b.ReportMetric(first.Seconds(), "round-start-s")
				b.ReportMetric(after, "s/iteration-after")
				b.ReportMetric(float64(res.Solves)/it, "solves/iteration")
				b.ReportMetric(float64(res.Rounds), "rounds")
				b.ReportMetric(float64(res.Iterations), "iterations")
				points = append(points, scalePoint{n: n, m: g.NumEdges(), start: first.Seconds(), perIteration: after})
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapSys)/1e6, "heap-MB")
		})
	}
	if file := os.Getenv("OHM_SCALE_PLOT"); file != "" {
		if err := plotScale(file, points); err != nil {
			b.Fatal(err)
		}
	}
}
