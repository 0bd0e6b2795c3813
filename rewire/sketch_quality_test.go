package rewire

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/sketch"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphgen"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/model/dataset/testgraph"
)

// sketchQuality is what issue 14 measures of a sketch run of err against
// the exact engine on the same graph and budget.
type sketchQuality struct {
	Iterations     int
	Worst, Mean    float64 // chosen pair's R / exact maximum R of G(t)
	KirchhoffShare float64 // Kirchhoff index removed, sketch / exact run
	Bridges        int     // removals that were bridges of G(t) (must be 0)
	Case2          int     // iterations whose chosen pair was an edge (not scored)
	// The removals against the exact least resistant edge of G(t) that is
	// not a bridge: the worst and mean of its R / the removed edge's R (1:
	// the exact choice), and how many were not within 1e-9 of it.
	RemovalWorst, RemovalMean float64
	Removals, RemovalMisses   int
	SketchSeconds             float64
	ExactSeconds              float64
	Rounds, Solves            int
	// HandOffAt is the iteration from which the exact engine decided
	// (definitions §3.7.1; 0: no hand-off).
	HandOffAt int
}

// kirchhoff is Σ over the pairs inside one component of R_ij, from a dense
// engine: Σ_c n_c · Σ_{i∈c} L⁺_ii.
func kirchhoff(e *incremental.Undirected) float64 {
	size := map[int]float64{}
	for i := range e.N() {
		size[e.Component(i)]++
	}
	k := 0.0
	for i := range e.N() {
		k += size[e.Component(i)] * e.Pinv(i, i)
	}
	return k
}

// benchSketchOptions are the sketch engine's defaults (seed 1) with the
// fields OHM_SKETCH_OPTIONS sets, e.g. "round=512,probes=512,boundtol=1e-4":
// the benchmark compares settings on a graph before one becomes a default.
func benchSketchOptions(b *testing.B) sketch.Options {
	opt := sketch.Options{Seed: 1}
	s := os.Getenv("OHM_SKETCH_OPTIONS")
	if s == "" {
		return opt
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(kv, "=")
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			b.Fatalf("OHM_SKETCH_OPTIONS: %s: %v", kv, err)
		}
		switch k {
		case "round":
			opt.Round = int(x)
		case "probes":
			opt.Probes = int(x)
		case "candidates":
			opt.Candidates = int(x)
		case "rows":
			opt.Rows = int(x)
		case "boundtol":
			opt.BoundTol = x
		case "removals":
			opt.RemovalCandidates = int(x)
		default:
			b.Fatalf("OHM_SKETCH_OPTIONS: unknown field %q (round, probes, candidates, rows, boundtol, removals)", k)
		}
	}
	b.Logf("sketch options %+v", opt)
	return opt
}

// qualityProgress, when set, receives a line after the exact run and every
// 100 iterations of the sketch run: the benchmark at 2·10⁴ nodes runs for
// an hour and more.
var qualityProgress io.Writer

// measureSketch runs err on g with the exact (incremental) engine and with
// the sketch engine; a dense mirror engine follows the sketch run's edits
// and gives, before each iteration, the exact maximum resistance of G(t),
// the exact R of the pair the sketch chose and whether a removal is a
// bridge; at the end both Kirchhoff indices. The Kirchhoff indices of G(0)
// and of the exact run's graph come from the mirror's and the exact run's
// engines (no dense engine is built for them alone: two O(n³) set-ups
// fewer), and one dense engine lives at a time.
func measureSketch(t testing.TB, g *linalg.Graph, budget float64, opt sketch.Options) sketchQuality {
	var q sketchQuality
	// The exact run; its engine, kept, gives the Kirchhoff index of its
	// graph (one dense engine at a time: at 2·10⁴ nodes each takes 11 GB).
	var exEng incremental.Engine
	engineBuilt = func(e incremental.Engine) { exEng = e }
	ex, err := Run(g, Config{Method: ERR, Budget: budget, Engine: Incremental})
	engineBuilt = nil
	if err != nil {
		t.Fatal(err)
	}
	q.ExactSeconds = ex.Seconds
	start := time.Now()
	if qualityProgress != nil {
		fmt.Fprintf(qualityProgress, "sketch quality: the exact run: %d iterations in %.1f s\n", ex.Iterations, ex.Seconds)
	}
	und, ok := exEng.(*incremental.Undirected)
	if !ok {
		t.Fatalf("the exact run's engine is %T", exEng)
	}
	kEx := kirchhoff(und)
	exEng, und = nil, nil
	runtime.GC()

	// The mirror, on G(0): its L⁺ gives G(0)'s Kirchhoff index first.
	mirror, err := incremental.NewUndirected(g, incremental.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k0 := kirchhoff(mirror)
	q.Worst, q.Mean, q.RemovalWorst = 1, 0, 1
	var failed error
	cfg := Config{Method: ERR, Budget: budget, Engine: Sketch, Sketch: opt,
		OnIteration: func(it int, _ *linalg.Graph, edits []Edit) {
			if failed != nil {
				return
			}
			best, _ := mirror.MaxPair()
			// A first addition whose score is its own resistance added the
			// chosen pair itself; otherwise the pair was an edge and case
			// 2 added a neighbour's edge, whose score is R_{u*v*} after it.
			a := edits[0]
			if r := mirror.R(a.U, a.V); a.Op == "add" && math.Abs(a.Score-r) > 1e-6*r {
				q.Case2++
			} else if a.Op == "add" {
				r /= best.Score
				q.Worst = math.Min(q.Worst, r)
				q.Mean += r
				q.Iterations++
			}
			// A removal against the exact least resistant edge of G(t) that
			// is not a bridge of G(t) (definitions §3.3 ranks the edges of
			// G(t); an addition can make a bridge of G(t) removable, which
			// this reference ignores: a bridge has R = 1), read before the
			// mirror takes the iteration's edits.
			for _, e := range edits {
				if e.Op != "remove" {
					continue
				}
				r := mirror.R(e.U, e.V)
				if m, ok := mirror.MinEdge(func(u, v int) bool { return mirror.R(u, v) < 1-1e-9 }); ok {
					ratio := math.Min(1, mirror.R(m.U, m.V)/r)
					q.RemovalWorst = math.Min(q.RemovalWorst, ratio)
					q.RemovalMean += ratio
					q.Removals++
					if ratio < 1-1e-9 {
						q.RemovalMisses++
					}
				}
			}
			mirror.Begin()
			for _, e := range edits {
				if e.Op == "add" {
					failed = mirror.Add(e.U, e.V)
				} else {
					if mirror.R(e.U, e.V) > 1-1e-9 {
						q.Bridges++
					}
					failed = mirror.Remove(e.U, e.V)
				}
				if failed != nil {
					return
				}
			}
			failed = mirror.Commit()
			if qualityProgress != nil && it%100 == 0 {
				fmt.Fprintf(qualityProgress, "sketch quality: iteration %d, %.0f s: worst %.4f, mean %.5f over %d additions; removals worst %.4f, %d of %d not the least; %d bridges\n",
					it, time.Since(start).Seconds(), q.Worst, q.Mean/float64(max(1, q.Iterations)), q.Iterations, q.RemovalWorst, q.RemovalMisses, q.Removals, q.Bridges)
			}
		}}
	sk, err := Run(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if failed != nil {
		t.Fatal(failed)
	}
	q.Mean /= float64(max(1, q.Iterations))
	q.RemovalMean /= float64(max(1, q.Removals))
	q.SketchSeconds, q.Rounds, q.Solves, q.HandOffAt = sk.Seconds, sk.Rounds, sk.Solves, sk.HandOffAt
	q.KirchhoffShare = (k0 - kirchhoff(mirror)) / (k0 - kEx)
	return q
}

func (q sketchQuality) String() string {
	return fmt.Sprintf("%d additions (and %d of case 2): chosen/exact max R worst %.4f mean %.5f; removals: exact least R/removed R worst %.4f mean %.5f, %d of %d not the least resistant; Kirchhoff removed %.3f of the exact run's; %d bridges removed; sketch %.1f s (%d rounds, %d solves, handed off at iteration %d), exact %.1f s",
		q.Iterations, q.Case2, q.Worst, q.Mean, q.RemovalWorst, q.RemovalMean, q.RemovalMisses, q.Removals, q.KirchhoffShare, q.Bridges, q.SketchSeconds, q.Rounds, q.Solves, q.HandOffAt, q.ExactSeconds)
}

// meetsBar reports whether q meets issue 14's bar: every chosen pair at
// least 0.98 of the exact maximum, 0.995 on average, 95 % of the exact
// run's Kirchhoff drop, no bridge removed.
func (q sketchQuality) meetsBar() bool {
	return q.Worst >= 0.98 && q.Mean >= 0.995 && q.KirchhoffShare >= 0.95 && q.Bridges == 0
}

// check logs q and fails when it is below the given floors on the worst
// and mean ratio (the Kirchhoff share and the bridges always at the bar).
func (q sketchQuality) check(t testing.TB, label string, worst, mean float64) {
	t.Logf("%s: %v; issue 14's bar met: %v", label, q, q.meetsBar())
	if q.Worst < worst || q.Mean < mean || q.KirchhoffShare < 0.95 || q.Bridges > 0 {
		t.Errorf("%s: below worst ≥ %v, mean ≥ %v, Kirchhoff ≥ 0.95, no bridge", label, worst, mean)
	}
}

// TestSketchQualityPlanetoid: err at 10 % on Cora and CiteSeer with the
// sketch engine's defaults, against the exact engine (issue 14, item 4),
// at the bar: every chosen pair ≥ 0.98 of the exact maximum, mean
// ≥ 0.995, Kirchhoff drop ≥ 95 % of the exact run's, no bridge removed
// (measured, sketch-14: worst 0.9804 and 0.9803, mean 0.99922 and 0.99634
// on Cora and CiteSeer, the 0.98 the engine certifies). It takes minutes (a
// dense mirror follows every iteration): OHM_LONG=1. Without it (make
// test, CI) the same bar is checked on the first 1 % of each (52 and 45
// iterations: about 15 s of CPU for both).
func TestSketchQualityPlanetoid(t *testing.T) {
	budget := 0.1
	if os.Getenv("OHM_LONG") == "" {
		budget = 0.01
	}
	names := []string{"cora", "citeseer"}
	if s := os.Getenv("OHM_SKETCH_DATASETS"); s != "" {
		names = strings.Split(s, ",")
	}
	for _, name := range names {
		g := testgraph.Dataset(t, name, false)
		measureSketch(t, g, budget, sketch.Options{Seed: 1}).check(t, name, 0.98, 0.995)
	}
}

// BenchmarkSketchQualitySBM measures the same on a generated SBM of
// OHM_SKETCH_NODES nodes (default 20 000, mean degree 20) at 1 %: the
// dense engines still run there (about 10 GB at 2·10⁴ nodes), so it is a
// benchmark, not a test (its figures, version by version, are in
// docs/sketch.md and docs/benchmarks.md). With OHM_SKETCH_GRAPH (a graph
// file, e.g. an .npz of `ohm data synth`, read as undirected) it measures
// that graph instead: the other shapes of issue 40 at 10⁴ nodes.
func BenchmarkSketchQualitySBM(b *testing.B) {
	n := 20000
	if s := os.Getenv("OHM_SKETCH_NODES"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	label := fmt.Sprintf("sbm-%d", n)
	var g *linalg.Graph
	if path := os.Getenv("OHM_SKETCH_GRAPH"); path != "" {
		var err error
		if g, err = graphio.Load(path, 0, false); err != nil {
			b.Fatal(err)
		}
		label = path
	} else {
		gg, err := graphgen.SBMByDegree(n, 10, 20, 0.8, 1)
		if err != nil {
			b.Fatal(err)
		}
		if g, err = gg.Undirected(); err != nil {
			b.Fatal(err)
		}
	}
	qualityProgress = os.Stderr
	defer func() { qualityProgress = nil }()
	for range b.N {
		q := measureSketch(b, g, 0.01, benchSketchOptions(b))
		q.check(b, label, 0.98, 0.995)
		b.ReportMetric(q.Worst, "worst")
		b.ReportMetric(q.Mean, "mean")
		b.ReportMetric(q.KirchhoffShare, "kirchhoff")
		b.ReportMetric(q.RemovalWorst, "removal-worst")
		b.ReportMetric(q.RemovalMean, "removal-mean")
		b.ReportMetric(q.SketchSeconds, "sketch-s")
		b.ReportMetric(q.ExactSeconds, "exact-s")
	}
}
