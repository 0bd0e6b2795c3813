package rewire

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/incremental/exact"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset/testgraph"
)

func TestBudget(t *testing.T) {
	for _, tc := range []struct {
		r    float64
		e0   int
		want int
	}{
		{0.1, 280, 28}, {0.29, 100, 29}, {0.15, 5278, 791}, {0.01, 10556, 105},
		{0.05, 295, 14}, {1, 5, 5}, {0.01, 50, 0}, {0.07, 100, 7},
	} {
		if got := Budget(tc.r, tc.e0); got != tc.want {
			t.Errorf("Budget(%v, %d) = %d, want %d", tc.r, tc.e0, got, tc.want)
		}
	}
}

// TestCheck: every configuration that cannot run is refused with a
// *ConfigError naming its field.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		cfg      Config
		directed bool
		field    Field
		msg      string
	}{
		{Config{Method: "erx", Budget: 0.1}, false, FieldMethod, `method erx: unknown (known: res, res-hop, err, err-hop, curvature, gtr, fosr)`},
		{Config{Method: ERR, Budget: 0}, false, FieldBudget, "budget 0: must lie in (0, 1]"},
		{Config{Method: ERR, Budget: 1.5}, false, FieldBudget, "budget 1.5: must lie in (0, 1]"},
		{Config{Method: ERR, Budget: math.NaN()}, false, FieldBudget, "must lie in (0, 1]"},
		{Config{Method: ERR, Budget: 0.1, WithinComponents: true}, true, FieldWithinComponents, "within components: applies to undirected"},
		{Config{Method: ERR, Budget: 0.1, Engine: "fast"}, false, FieldEngine, `engine fast: unknown`},
		{Config{Method: ERR, Budget: 0.1, MaxIterations: -1}, false, FieldMaxIterations, "max iterations -1: must be ≥ 0"},
		{Config{Method: GTR, Budget: 0.1}, true, FieldForm, "gtr rewires undirected graphs only"},
		{Config{Method: FoSR, Budget: 0.1, Engine: Exact}, false, FieldEngine, "no exact engine"},
		{Config{Method: ERRHop, Budget: 0.1, Engine: Sketch}, false, FieldEngine, "undirected graphs only"},
		{Config{Method: ERR, Budget: 0.1, Engine: Sketch}, true, FieldEngine, "undirected graphs only"},
		{Config{Method: ERR, Budget: 0.1, Curvature: &CurvatureOptions{Alpha: 2}}, false, FieldAlpha, "alpha 2: must lie in [0, 1]"},
	} {
		err := tc.cfg.Check(tc.directed)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%+v: %v, want %s error %q", tc.cfg, err, tc.field, tc.msg)
		}
	}
	if err := (Config{Method: ERR, Budget: 0.1}).Check(true); err != nil {
		t.Errorf("a valid configuration: %v", err)
	}
}

// TestNewPlan: the plan fixes B, the iterations allowed and the engine
// once, and refuses a start vector of the wrong length.
func TestNewPlan(t *testing.T) {
	g := testgraph.Path(t, 11) // E0 = 10
	for _, tc := range []struct {
		cfg           Config
		b, iterations int
		engine        EngineKind
		reason        bool
	}{
		{Config{Method: ERR, Budget: 0.5}, 5, 5, Incremental, true},
		{Config{Method: ERR, Budget: 0.5, Engine: Auto, MaxIterations: 2}, 5, 2, Incremental, true},
		{Config{Method: ERR, Budget: 0.5, Engine: Exact, MaxIterations: 9}, 5, 5, Exact, false},
		{Config{Method: Res, Budget: 1, Engine: Sketch}, 10, 10, Sketch, false},
		{Config{Method: Curvature, Budget: 0.3}, 3, 3, Incremental, false},
		{Config{Method: Curvature, Budget: 0.3, Engine: Exact}, 3, 3, Exact, false},
		{Config{Method: FoSR, Budget: 0.3}, 3, 3, Incremental, false},
	} {
		p, err := NewPlan(g, tc.cfg)
		if err != nil {
			t.Fatalf("%+v: %v", tc.cfg, err)
		}
		if p.B != tc.b || p.Iterations != tc.iterations || p.Engine != tc.engine || (p.EngineReason != "") != tc.reason {
			t.Errorf("%+v: B %d, iterations %d, engine %s (%q); want %d, %d, %s", tc.cfg, p.B, p.Iterations, p.Engine, p.EngineReason, tc.b, tc.iterations, tc.engine)
		}
	}
	_, err := NewPlan(g, Config{Method: FoSR, Budget: 0.3, FoSR: &FoSROptions{X0: make([]float64, 3)}})
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Field != FieldStartVector {
		t.Errorf("a start vector of 3 entries for 11 nodes: %v", err)
	}
}

// fmtLog renders a log without scores, one edit per line.
func fmtLog(log []Edit) string {
	var b strings.Builder
	for _, e := range log {
		fmt.Fprintf(&b, "%d %s %d %d\n", e.Iteration, e.Op, e.U, e.V)
	}
	return b.String()
}

// TestHandBuilt runs the operators on graphs whose logs can be worked out by
// hand; the expected logs are written out with their scores.
func TestHandBuilt(t *testing.T) {
	// Tree: the path 1-2-3-4-5 with node 0 hanging off 3. R is the hop
	// distance; the max pair is (1,5) with R = 4, not an edge, so it is
	// added. Every edge of G(t) has R = 1 (a tie), so they come in
	// row-major order: (0,3) is a bridge even after the addition and is
	// skipped, (1,2) lies on the new cycle 1-2-3-4-5-1 and is removed.
	tree := testgraph.MustGraph(t, 6, false, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 4}, [2]int{4, 5}, [2]int{0, 3})
	// Directed 3-cycle 0→1→2→0: every pair ties (R is symmetric under the
	// rotation); (0,1) wins and is an arc, so case 2: n_v ∈ N(1) = {0, 2}
	// gives the arc 0→2 (0 itself is excluded); n_u ∈ N(0) = {1, 2} gives
	// 1→2, already an arc. After adding 0→2, removing any arc of G(t)
	// leaves some node unreachable: 0→1 (1 then has no in-arc), 1→2 (1 no
	// out-arc), 2→0 (0 no in-arc). So one addition and no removal.
	cyc := testgraph.MustGraph(t, 3, true, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 0})
	for _, tc := range []struct {
		name    string
		g       *linalg.Graph
		cfg     Config
		want    string
		scores  []float64 // NaN: checked against the exact engine instead
		stopped string
	}{
		// K4 with res: the max pair is an edge (every R = 1/2) and N(v*)
		// holds only edges of u*, so nothing can be added: the first
		// iteration changes nothing.
		{"complete-res", testgraph.Complete(t, 4), Config{Method: Res, Budget: 1}, "", nil, "iteration 1 changed nothing"},
		// K4 with err, one iteration (floor(0.2·6) = 1): no addition; the
		// edges tie at 2/4 and (0,1) goes.
		{"complete-err", testgraph.Complete(t, 4), Config{Method: ERR, Budget: 0.2}, "1 remove 0 1\n", []float64{0.5}, ""},
		// K2: the only pair is the edge; no candidate; the edge is a bridge.
		{"k2-err", testgraph.MustGraph(t, 2, false, [2]int{0, 1}), Config{Method: ERR, Budget: 1}, "", nil, "iteration 1 changed nothing"},
		{"tree-err", tree, Config{Method: ERR, Budget: 0.2}, "1 add 1 5\n1 remove 1 2\n", []float64{4, 1}, ""},
		// Per hop on the tree every pair scores R/d = 1: all pairs tie, the
		// larger R (= d on a tree) wins, so the ends of the longest path,
		// (1,5) with R = 4, not the leaf edge (0,1) that row-major order
		// alone would take; it is not an edge and is added.
		{"tree-res-hop", tree, Config{Method: ResHop, Budget: 0.2}, "1 add 1 5\n", []float64{1}, ""},
		{"cycle-err", cyc, Config{Method: ERR, Budget: 0.34}, "1 add 0 2\n", []float64{math.NaN()}, ""},
	} {
		for _, engine := range []EngineKind{Incremental, Exact} {
			cfg := tc.cfg
			cfg.Engine = engine
			res, err := Run(tc.g, cfg)
			if err != nil {
				t.Fatalf("%s/%s: %v", tc.name, engine, err)
			}
			if got := fmtLog(res.Log); got != tc.want {
				t.Errorf("%s/%s: log\n%s\nwant\n%s", tc.name, engine, got, tc.want)
				continue
			}
			if !strings.HasPrefix(res.StoppedEarly, tc.stopped) || (tc.stopped == "" && res.StoppedEarly != "") {
				t.Errorf("%s/%s: stopped %q, want %q", tc.name, engine, res.StoppedEarly, tc.stopped)
			}
			for k, s := range tc.scores {
				if math.IsNaN(s) {
					// The case-2 score is R_01 once 0→2 is added alone.
					e, _ := exact.New(tc.g, exact.Options{})
					s, _ = e.ResistanceAfterAdd(0, 1, 0, 2)
				}
				if got := res.Log[k].Score; math.Abs(got-s) > 1e-9 {
					t.Errorf("%s/%s: edit %d score %v, want %v", tc.name, engine, k, got, s)
				}
			}
		}
	}
}

// checkInvariants returns an OnIteration hook asserting definitions §3's invariants
// after every iteration against a mirror of the graph: undirected, the
// component partition is unchanged; directed, SCCs never split (each SCC of
// the previous iteration lies inside one SCC: they only merge, through arcs
// of case 2 that leave the SCC); additions are new non-loop pairs (inside
// one component with within); removals are edges present before the
// iteration; and the graph is the mirror with the edits applied. merges, if
// not nil, counts the iterations whose SCC count dropped.
func checkInvariants(t *testing.T, g0 *linalg.Graph, within bool, merges ...*int) func(int, *linalg.Graph, []Edit) {
	mirror := g0.Clone()
	comp0, count0 := tarjan.SCC(g0) // the connected components when undirected
	return func(it int, g *linalg.Graph, edits []Edit) {
		before := mirror.Clone()
		for _, e := range edits {
			switch e.Op {
			case "add":
				if e.U == e.V || before.HasEdge(e.U, e.V) || mirror.HasEdge(e.U, e.V) {
					t.Fatalf("iteration %d: added %v: self-loop or duplicate", it, e)
				}
				if within && comp0[e.U] != comp0[e.V] {
					t.Fatalf("iteration %d: added %v across blocks", it, e)
				}
				mirror.AddEdge(e.U, e.V)
			case "remove":
				if !before.HasEdge(e.U, e.V) {
					t.Fatalf("iteration %d: removed %v, absent before the iteration", it, e)
				}
				mirror.RemoveEdge(e.U, e.V)
			}
		}
		if !mirror.Equal(g) {
			t.Fatalf("iteration %d: graph differs from the log applied", it)
		}
		comp, count := tarjan.SCC(g)
		if !g.Directed() {
			if count != count0 || fmt.Sprint(comp) != fmt.Sprint(comp0) {
				t.Fatalf("iteration %d: partition changed (%d blocks, was %d)", it, count, count0)
			}
			return
		}
		into := map[int]int{}
		for i, c := range comp0 {
			if k, ok := into[c]; ok && k != comp[i] {
				t.Fatalf("iteration %d: an SCC split", it)
			}
			into[c] = comp[i]
		}
		if count < count0 && len(merges) > 0 {
			*merges[0]++
		}
		comp0, count0 = comp, count
	}
}

// runBoth runs cfg with the incremental engine (cfg.OnIteration set, if
// any) and with the exact one, failing the test on an error.
func runBoth(t *testing.T, g *linalg.Graph, cfg Config) (inc, ex *Result) {
	t.Helper()
	inc, err := Run(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Engine, cfg.OnIteration = Exact, nil
	ex, err = Run(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return inc, ex
}

// sameLog asserts two logs make the same decisions, with scores equal to
// 1e-9 relative (sameEdits).
func sameLog(t *testing.T, name string, a, b []Edit) {
	t.Helper()
	if err := sameEdits(a, b); err != nil {
		t.Fatalf("%s: %v\n%s\nvs\n%s", name, err, fmtLog(a), fmtLog(b))
	}
}

// sameEdits reports the first edit where a and b differ: iteration, op or
// ends, or a score off by more than 1e-9 relative.
func sameEdits(a, b []Edit) error {
	if len(a) != len(b) {
		return fmt.Errorf("%d edits against %d", len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Iteration != y.Iteration || x.Op != y.Op || x.U != y.U || x.V != y.V || math.Abs(x.Score-y.Score) > 1e-9*math.Max(1, math.Abs(y.Score)) {
			return fmt.Errorf("edit %d: %+v against %+v", i, x, y)
		}
	}
	return nil
}

// TestTieOrder: the linear-scan phase and the sorted phase agree with the

// TestPassedOverAndMerges: one hand-built graph per rule of definitions §3's
// addition step, on both engines.
func TestPassedOverAndMerges(t *testing.T) {
	// An isolated edge {0,1} (R/d = 1) beside a 4-cycle 2-3-4-5 (edges 3/4):
	// the edge ranks first but gives nothing and is passed over; the next
	// pair, the cycle edge (2,3), gives (2,4) and (3,5).
	isolated := testgraph.MustGraph(t, 6, false, [2]int{0, 1}, [2]int{2, 3}, [2]int{3, 4}, [2]int{4, 5}, [2]int{5, 2})
	// Directed: SCC A = the 2-cycle 0⇄1 (R = 1), SCC B = the complete
	// digraph on {2,3,4} (R = 2/3), and the arc 2→0. (0,1) ranks first; 0's
	// side has no candidate, 1's side has none inside A, so it takes the arc
	// leaving A to the smallest id, 1→2, which closes 1→2→0→1: A and B
	// merge, and the next iteration ranks a pair of the merged SCC.
	merging := testgraph.MustGraph(t, 5, true, [2]int{0, 1}, [2]int{1, 0}, [2]int{2, 3}, [2]int{3, 2}, [2]int{2, 4},
		[2]int{4, 2}, [2]int{3, 4}, [2]int{4, 3}, [2]int{2, 0})
	// The complete digraph on three nodes: every pair is an arc with no
	// candidate on either side, so nothing can be added.
	k3 := testgraph.MustGraph(t, 3, true, [2]int{0, 1}, [2]int{1, 0}, [2]int{0, 2}, [2]int{2, 0}, [2]int{1, 2}, [2]int{2, 1})
	for _, tc := range []struct {
		name    string
		g       *linalg.Graph
		cfg     Config
		want    string
		passed  int
		stopped string
	}{
		{"isolated-edge", isolated, Config{Method: ResHop, Budget: 0.2}, "1 add 2 4\n1 add 3 5\n", 1, ""},
		{"isolated-edge-res", isolated, Config{Method: Res, Budget: 0.2}, "", -1, ""},
		{"merge", merging, Config{Method: Res, Budget: 0.25}, "1 add 1 2\n", -1, ""},
		{"nothing", k3, Config{Method: Res, Budget: 0.2}, "", 6, "iteration 1 changed nothing: no pair could be added"},
	} {
		for _, engine := range []EngineKind{Incremental, Exact} {
			cfg := tc.cfg
			cfg.Engine = engine
			merges := 0
			cfg.OnIteration = checkInvariants(t, tc.g, false, &merges)
			res, err := Run(tc.g, cfg)
			if err != nil {
				t.Fatalf("%s/%s: %v", tc.name, engine, err)
			}
			got := fmtLog(res.Log)
			if tc.want != "" && !strings.HasPrefix(got, tc.want) {
				t.Errorf("%s/%s: log\n%s\nwant it to start with\n%s", tc.name, engine, got, tc.want)
			}
			if tc.passed >= 0 && res.PassedOver != tc.passed {
				t.Errorf("%s/%s: %d pairs passed over, want %d", tc.name, engine, res.PassedOver, tc.passed)
			}
			if res.StoppedEarly != tc.stopped {
				t.Errorf("%s/%s: stopped %q, want %q", tc.name, engine, res.StoppedEarly, tc.stopped)
			}
			if tc.name == "merge" {
				_, before := tarjan.SCC(tc.g)
				_, after := tarjan.SCC(res.Graph)
				if merges != 1 || after != before-1 || res.Iterations != 2 || len(res.Log) < 2 {
					t.Fatalf("%s/%s: %d merges, SCCs %d → %d, log\n%s", tc.name, engine, merges, before, after, got)
				}
				// The second iteration's pair lies in the merged SCC and
				// joins nodes of the two old ones.
				e := res.Log[1]
				if (e.U <= 1) == (e.V <= 1) {
					t.Errorf("%s/%s: second edit %v does not join the merged SCCs", tc.name, engine, e)
				}
			}
		}
	}
}

// TestEnginesAgreeDigraphs: on random digraphs made of several dense blocks
// joined by one-way arcs (several SCCs, so case 2 leaves SCCs and merges
// them), the incremental engine (fast directed mode) and the exact one make
// identical decisions for the four methods; the merges are counted and must
// happen.
func TestEnginesAgreeDigraphs(t *testing.T) {
	total := 0
	for seed := range uint64(6) {
		r := rand.New(rand.NewPCG(seed, 11))
		const blocks, size = 4, 6
		var es [][2]int
		for b := range blocks {
			for i := range size {
				for j := range size {
					if i != j && r.Float64() < 0.6 {
						es = append(es, [2]int{b*size + i, b*size + j})
					}
				}
			}
			// A one-way arc to the next block (no cycle through blocks).
			if b+1 < blocks {
				es = append(es, [2]int{b*size + r.IntN(size), (b+1)*size + r.IntN(size)})
			}
		}
		g := testgraph.MustGraph(t, blocks*size, true, es...)
		for _, m := range Methods {
			merges := 0
			label := fmt.Sprintf("seed %d/%s", seed, m)
			inc, ex := runBoth(t, g, Config{Method: m, Budget: 0.3, OnIteration: checkInvariants(t, g, false, &merges)})
			sameLog(t, label, inc.Log, ex.Log)
			total += merges
		}
	}
	t.Logf("%d SCC merges over the runs", total)
	if total == 0 {
		t.Fatal("no SCC merge happened: the test does not test merges")
	}
}

// TestRunInterrupted: a run whose Context ends during iteration 3 stops
// before iteration 4, for every loop (the resistance operators on the
// dense and sketch engines, curvature, FoSR): it holds the 3 iterations a
// run with MaxIterations 3 makes, log for log, and says it was
// interrupted.
func TestRunInterrupted(t *testing.T) {
	cliques := twoCliques(t)
	for _, cfg := range []Config{
		{Method: ERR, Engine: Incremental},
		{Method: ERR, Engine: Sketch},
		{Method: Res, Engine: Exact},
		{Method: Curvature},
		{Method: FoSR},
	} {
		t.Run(string(cfg.Method)+"/"+string(cfg.Engine), func(t *testing.T) {
			cfg.Budget = 1
			limited := cfg
			limited.MaxIterations = 3
			want, err := Run(cliques, limited)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			calls := 0
			cfg.Context = ctx
			cfg.OnIteration = func(it int, _ *linalg.Graph, _ []Edit) {
				calls++
				if it == 3 {
					cancel()
				}
			}
			got, err := Run(cliques, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got.Iterations != 3 || calls != 3 || got.StoppedEarly != "interrupted after 3 iterations" {
				t.Fatalf("%d iterations (%d calls), stopped early %q; want 3 and interrupted after 3", got.Iterations, calls, got.StoppedEarly)
			}
			if want.Iterations != 3 || !slices.Equal(got.Log, want.Log) {
				t.Errorf("log %v, want the first 3 iterations' %v", got.Log, want.Log)
			}
		})
	}
}
