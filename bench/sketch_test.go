package bench

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphgen"
	"github.com/ohmgnn/ohm/rewire"
)

// BenchmarkSketchScale runs err with the sketch engine on generated graphs
// of mean degree 20 — the shapes of OHM_SCALE_SHAPES (comma-separated,
// default sbm; see scaleShapes) — of the sizes in OHM_SCALE_NODES
// (comma-separated, default 10000,20000) at the budget OHM_SCALE_BUDGET
// (default 0.01), stopping after OHM_SCALE_ITERATIONS iterations when set:
// issue 14's scale measurement (10⁵ nodes at 1 %, 10⁶ at 0.1 %: set the
// variables; they take from minutes to hours) and issue 40's per shape. It
// reports seconds per iteration, solves per iteration, the rounds and the
// heap's peak (runtime.MemStats.HeapSys, MB) beside ns/op, one worker, and
// the two parts the time is made of: the first round's start (engine
// built to first decision, round-start-s) and the seconds per iteration
// after it (s/iteration-after; round starts included when the run has
// more than one round, so cap the iterations at 1 000 to read one round).
// With OHM_SCALE_PLOT=FILE (.svg or .png) it draws both against n on
// log-log axes, each with its least-squares slope, after the last size:
// the SBM's into FILE, every other shape's into FILE with "-SHAPE" before
// the extension.
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
	shapes := []string{"sbm"}
	if s := os.Getenv("OHM_SCALE_SHAPES"); s != "" {
		shapes = strings.Split(s, ",")
	}
	points := map[string][]scalePoint{}
	for _, shape := range shapes {
		sh, ok := scaleShapes[shape]
		if !ok {
			b.Fatalf("OHM_SCALE_SHAPES: unknown shape %q (%s)", shape, strings.Join(slices.Sorted(maps.Keys(scaleShapes)), ", "))
		}
		for _, n := range sizes {
			b.Run(fmt.Sprintf("shape=%s/nodes=%d", shape, n), func(b *testing.B) {
				p := scaleRun(b, sh.gen, n, budget, maxIt)
				points[shape] = append(points[shape], p)
			})
		}
	}
	if file := os.Getenv("OHM_SCALE_PLOT"); file != "" {
		for _, shape := range shapes {
			f := file
			if shape != "sbm" {
				ext := filepath.Ext(file)
				f = strings.TrimSuffix(file, ext) + "-" + shape + ext
			}
			if err := plotScale(f, scaleShapes[shape].title, points[shape]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// scaleShapes are the graphs of BenchmarkSketchScale by shape: the
// generator, as `ohm data synth` makes them (seed 1, rgg seed 2), and the
// plot's title. sbm: 10 blocks, 80 % of a node's edges inside its block;
// pp: a planted partition, 100 blocks, 90 %; ba: Barabási–Albert, 10
// edges per new node; rgg: random geometric; ring: a ring of cliques of
// 20 (n rounded down to a multiple of 20). All of mean degree about 20.
var scaleShapes = map[string]struct {
	gen   func(n int) (*graphgen.Graph, error)
	title string
}{
	"sbm": {func(n int) (*graphgen.Graph, error) { return graphgen.SBMByDegree(n, 10, 20, 0.8, 1) },
		"SBMs of mean degree 20"},
	"pp": {func(n int) (*graphgen.Graph, error) { return graphgen.SBMByDegree(n, 100, 20, 0.9, 1) },
		"planted partitions (100 blocks) of mean degree 20"},
	"ba": {func(n int) (*graphgen.Graph, error) { return graphgen.BA(n, 10, 1) },
		"Barabási–Albert graphs (10 edges per node)"},
	"rgg": {func(n int) (*graphgen.Graph, error) { return graphgen.RGGByDegree(n, 20, 2) },
		"random geometric graphs of mean degree 20"},
	"ring": {func(n int) (*graphgen.Graph, error) { return graphgen.RingOfCliques(max(1, n/20), 20) },
		"rings of cliques of 20"},
}

// scaleRun is one size of BenchmarkSketchScale: the graph gen(n), err at
// budget with the sketch engine on one worker, at most maxIt iterations
// (0: the budget), and its measurements.
func scaleRun(b *testing.B, gen func(int) (*graphgen.Graph, error), n int, budget float64, maxIt int) scalePoint {
	gg, err := gen(n)
	var g *linalg.Graph
	if err == nil {
		g, err = gg.Undirected()
	}
	if err != nil {
		b.Fatal(err)
	}
	var p scalePoint
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
		p = scalePoint{n: g.N(), m: g.NumEdges(), start: first.Seconds(), perIteration: after}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapSys)/1e6, "heap-MB")
	return p
}
