package rewire

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/sketch"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// sketchCases are the small graphs of the sketch engine's tests: a ring of
// cliques (many exact ties), SBMs with one and with three components.
func sketchCases(t *testing.T) map[string]*linalg.Graph {
	out := map[string]*linalg.Graph{}
	rc, _ := graphgen.RingOfCliques(6, 7)
	for name, gg := range map[string]*graphgen.Graph{"ring-of-cliques": rc} {
		out[name] = mustFrom(t, gg)
	}
	for k, pOut := range []float64{0.01, 0} {
		gg, _ := graphgen.SBM(150, 3, 0.08, pOut, uint64(7+k))
		out[fmt.Sprintf("sbm-%d", k)] = mustFrom(t, gg)
	}
	return out
}

func mustFrom(t *testing.T, gg *graphgen.Graph) *linalg.Graph {
	g, err := linalg.FromEdges(gg.N, false, gg.Edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestSketchEngineExactWhenAllKept: when the candidates hold every node
// (rounds long enough), the sketch engine's exact re-scoring makes exactly
// the incremental engine's decisions, for err and res, with and without
// within-components, across several rounds (Round 40 forces a new sketch
// every 40 iterations).
func TestSketchEngineExactWhenAllKept(t *testing.T) {
	for name, g := range sketchCases(t) {
		for _, m := range []Method{ERR, Res} {
			for _, within := range []bool{false, true} {
				label := fmt.Sprintf("%s/%s/within=%v", name, m, within)
				cfg := Config{Method: m, Budget: 0.3, WithinComponents: within}
				if _, count := tarjan.Components(g); within || count == 1 {
					cfg.OnIteration = checkInvariants(t, g, within)
				}
				inc, err := Run(g, cfg)
				if err != nil {
					t.Fatal(err)
				}
				cfg.Engine, cfg.OnIteration = Sketch, nil
				// Every node kept: the sketch's own M, not the exact
				// engine it would hand off to (HandOff −1).
				cfg.Sketch = sketch.Options{Round: 10, Candidates: g.N(), Tol: 1e-13, Seed: 3, HandOff: -1}
				sk, err := Run(g, cfg)
				if err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				if fmtLog(sk.Log) != fmtLog(inc.Log) {
					t.Fatalf("%s: logs differ:\n%s\nvs incremental\n%s", label, fmtLog(sk.Log), fmtLog(inc.Log))
				}
				for k := range inc.Log {
					if d := math.Abs(sk.Log[k].Score - inc.Log[k].Score); d > 1e-7*math.Max(1, inc.Log[k].Score) {
						t.Fatalf("%s: edit %d score %v vs %v", label, k, sk.Log[k].Score, inc.Log[k].Score)
					}
				}
				if sk.Engine != Sketch || sk.Rounds < 2 {
					t.Fatalf("%s: engine %s, %d rounds", label, sk.Engine, sk.Rounds)
				}
			}
		}
	}
}

// exactMax is the largest resistance over the admissible pairs of g (every
// pair i < j, across components L⁺_ii + L⁺_jj), from a fresh pseudoinverse.
func exactMax(t *testing.T, g *linalg.Graph) float64 {
	comp, _ := tarjan.Components(g)
	P, err := linalg.Pinv(g, comp)
	if err != nil {
		t.Fatal(err)
	}
	best := 0.0
	for i := range g.N() {
		for j := i + 1; j < g.N(); j++ {
			best = math.Max(best, P.At(i, i)+P.At(j, j)-2*P.At(i, j))
		}
	}
	return best
}

// TestSketchEngineQuality: with short rounds (few candidates: 2·4 + 32
// nodes and the extremes of a 16-row sketch, out of 150–300), every added
// pair's resistance, checked against a fresh pseudoinverse of the graph it
// was chosen on, is at least 0.98 of the exact maximum, and the removed
// edges are never bridges (the components never change).
func TestSketchEngineQuality(t *testing.T) {
	gg, _ := graphgen.SBM(300, 4, 0.05, 0.004, 11)
	cases := sketchCases(t)
	cases["sbm-300"] = mustFrom(t, gg)
	for name, g := range cases {
		for _, m := range []Method{ERR, Res} {
			label := fmt.Sprintf("%s/%s", name, m)
			prev := g.Clone()
			worst, sum, count := 1.0, 0.0, 0
			check := func(int, *linalg.Graph, []Edit) {}
			if _, count := tarjan.Components(g); count == 1 {
				check = checkInvariants(t, g, false)
			}
			cfg := Config{Method: m, Budget: 0.1, Engine: Sketch,
				Sketch: sketch.Options{Round: 4, Seed: 5},
				OnIteration: func(it int, cur *linalg.Graph, edits []Edit) {
					check(it, cur, edits)
					want := exactMax(t, prev)
					for _, e := range edits {
						if e.Op == "add" && !prev.HasEdge(e.U, e.V) {
							q := e.Score / want
							worst, sum, count = math.Min(worst, q), sum+q, count+1
						}
					}
					prev = cur.Clone()
				}}
			res, err := Run(g, cfg)
			if err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			t.Logf("%s: %d iterations, %d rounds, %d solves, chosen/exact max: worst %.4f, mean %.4f",
				label, res.Iterations, res.Rounds, res.Solves, worst, sum/float64(count))
			if count == 0 {
				t.Fatalf("%s: no addition made: nothing to compare with the exact maximum", label)
			}
			if worst < 0.98 || sum/float64(count) < 0.995 {
				t.Fatalf("%s: chosen/exact max worst %.4f, mean %.4f", label, worst, sum/float64(count))
			}
		}
	}
}

// TestEngineChoice: auto picks the incremental engine when L⁺ fits and the
// sketch engine when it does not (OHM_MEMORY set low), and an explicit
// incremental engine that does not fit is refused with the size.
func TestEngineChoice(t *testing.T) {
	gg, _ := graphgen.SBM(3000, 3, 0.01, 0.001, 1)
	g := mustFrom(t, gg)
	choose := func(cfg Config) (EngineKind, string) {
		t.Helper()
		p, err := NewPlan(g, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return p.Engine, p.EngineReason
	}
	if k, why := choose(Config{Method: ERR, Budget: 0.01, Engine: Auto}); k != Incremental {
		t.Fatalf("auto chose %s: %s", k, why)
	}
	t.Setenv("OHM_MEMORY", "100M")
	// Sizes in the words of sysmem.FormatBytes, as in the memory errors.
	want := "would need " + sysmem.FormatBytes(incremental.DenseBytes(3000, false, false))
	if k, why := choose(Config{Method: ERR, Budget: 0.01, Engine: Auto}); k != Sketch || !strings.Contains(why, "engine auto: sketch") || !strings.Contains(why, want) {
		t.Fatalf("auto chose %s with 100 MB: %s (want %q)", k, why, want)
	}
	if k, why := choose(Config{Method: ERRHop, Budget: 0.01, Engine: Auto}); k != Incremental || !strings.Contains(why, "the sketch cannot run this") {
		t.Fatalf("auto chose %s for err-hop: %s", k, why)
	}
	// The empty kind is Auto, the one default everywhere.
	if k, _ := choose(Config{Method: ERR, Budget: 0.01}); k != Sketch {
		t.Fatalf("empty engine chose %s", k)
	}
	// ohm resistance resolves an engine without a method.
	if s, why := (EngineSpec{Removes: true}).Resolve(g); s.Kind != Sketch || why == "" {
		t.Fatalf("EngineSpec.Resolve chose %s: %s", s.Kind, why)
	}
	_, err := Run(g, Config{Method: ERR, Budget: 0.01, Engine: Incremental})
	var me *sysmem.Error
	if !errors.As(err, &me) {
		t.Fatalf("incremental engine beyond memory: %v", err)
	}
	// The sketch engine's estimate on these 3 000 nodes (M at up to n²,
	// twice while it grows: 144 MB of its 212) fits where the dense
	// state (252 MB) does not; under 100 MB neither does, and the sketch
	// engine refuses too.
	if _, err := Run(g, Config{Method: ERR, Budget: 0.002, Engine: Auto}); !errors.As(err, &me) || !strings.Contains(err.Error(), "the sketch resistance engine") {
		t.Fatalf("auto beyond memory for both engines: %v", err)
	}
	t.Setenv("OHM_MEMORY", "230M")
	r, err := Run(g, Config{Method: ERR, Budget: 0.002, Engine: Auto})
	if err != nil || r.Engine != Sketch {
		t.Fatalf("auto beyond memory: %v, engine %v", err, r)
	}
	if err := (Config{Method: ERRHop, Budget: 0.1, Engine: Sketch}).Check(false); err == nil {
		t.Fatal("sketch engine accepted err-hop")
	}
}
