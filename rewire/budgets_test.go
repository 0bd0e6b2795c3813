package rewire

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset/testgraph"
)

// TestRunBudgets: every cut of RunBudgets is the direct Run at its budget
// (log, graph, counts, stop reason), in the order the budgets were given;
// Seconds does not decrease with the budget; the caller's OnIteration sees
// every iteration of the one run.
func TestRunBudgets(t *testing.T) {
	cliques := twoCliques(t) // E0 = 24, as in TestPrefix
	// K5 less the edge {0, 4} (E0 = 9): res adds it, then has nothing left
	// to add and stops in iteration 2.
	var k5 [][2]int
	for i := range 5 {
		for j := i + 1; j < 5; j++ {
			if i != 0 || j != 4 {
				k5 = append(k5, [2]int{i, j})
			}
		}
	}
	nearComplete := testgraph.MustGraph(t, 5, false, k5...)
	// Four random 6-node blocks chained by one-way arcs, as in
	// TestEnginesAgreeDigraphs (seed 0).
	r := rand.New(rand.NewPCG(0, 11))
	var arcs [][2]int
	for b := range 4 {
		for i := range 6 {
			for j := range 6 {
				if i != j && r.Float64() < 0.6 {
					arcs = append(arcs, [2]int{b*6 + i, b*6 + j})
				}
			}
		}
		if b+1 < 4 {
			arcs = append(arcs, [2]int{b*6 + r.IntN(6), (b+1)*6 + r.IntN(6)})
		}
	}
	blocks := testgraph.MustGraph(t, 24, true, arcs...)

	for _, tc := range []struct {
		name    string
		g       *linalg.Graph
		cfg     Config
		budgets []float64
		stopped bool // the longest cut must have stopped early
	}{
		{"cliques/err", cliques, Config{Method: ERR}, []float64{0.5, 1.0 / 24, 0.25, 1, 3.0 / 24}, false},
		{"cliques/res", cliques, Config{Method: Res}, []float64{0.25, 0.01, 1.0 / 24, 0.5}, false},
		{"cliques/err-hop repeated", cliques, Config{Method: ERRHop}, []float64{0.25, 0.25, 2.0 / 24}, false},
		{"cliques/err max iterations", cliques, Config{Method: ERR, MaxIterations: 3}, []float64{2.0 / 24, 0.5, 3.0 / 24}, true},
		{"near-complete/res stops", nearComplete, Config{Method: Res}, []float64{1, 1.0 / 9, 2.0 / 9, 0.5}, true},
		{"blocks/err directed", blocks, Config{Method: ERR}, []float64{0.3, 0.05, 0.1}, false},
		{"blocks/res directed", blocks, Config{Method: Res}, []float64{0.02, 0.2}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls []int
			cfg := tc.cfg
			cfg.Budget = 0.123 // ignored
			cfg.OnIteration = func(it int, _ *linalg.Graph, _ []Edit) { calls = append(calls, it) }
			cuts, err := RunBudgets(tc.g, cfg, tc.budgets)
			if err != nil {
				t.Fatal(err)
			}
			if len(cuts) != len(tc.budgets) {
				t.Fatalf("%d cuts for %d budgets", len(cuts), len(tc.budgets))
			}
			var wantCalls []int
			for i, b := range tc.budgets {
				c := tc.cfg
				c.Budget = b
				if b == slices.Max(tc.budgets) && wantCalls == nil {
					c.OnIteration = func(it int, _ *linalg.Graph, _ []Edit) { wantCalls = append(wantCalls, it) }
				}
				want, err := Run(tc.g, c)
				if err != nil {
					t.Fatal(err)
				}
				got := cuts[i]
				name := fmt.Sprintf("budget %v (B = %d)", b, want.Budget)
				sameLog(t, name, got.Log, want.Log)
				if got.E0 != want.E0 || got.Budget != want.Budget || got.Iterations != want.Iterations ||
					got.Added != want.Added || got.Removed != want.Removed ||
					got.AddedNet != want.AddedNet || got.RemovedNet != want.RemovedNet || got.StoppedEarly != want.StoppedEarly ||
					got.Engine != want.Engine {
					t.Errorf("%s: cut %+v\nrun %+v", name, *got, *want)
				}
				if !got.Graph.Equal(want.Graph) {
					t.Errorf("%s: the cut's graph differs from the run's", name)
				}
				if tc.stopped && b == slices.Max(tc.budgets) && got.StoppedEarly == "" {
					t.Errorf("%s: did not stop early, the case tests nothing", name)
				}
			}
			if !slices.Equal(calls, wantCalls) {
				t.Errorf("OnIteration saw iterations %v, a direct run %v", calls, wantCalls)
			}
			order := make([]int, len(cuts))
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(a, b int) int { return cuts[a].Budget - cuts[b].Budget })
			for k, i := range order {
				if cuts[i].Seconds < 0 || k > 0 && cuts[i].Seconds < cuts[order[k-1]].Seconds {
					t.Errorf("seconds %v at B = %d after %v at B = %d", cuts[i].Seconds, cuts[i].Budget,
						cuts[order[k-1]].Seconds, cuts[order[k-1]].Budget)
				}
			}
		})
	}
}

// TestRunBudgetsErrors: bad budget lists are errors, not panics.
func TestRunBudgetsErrors(t *testing.T) {
	g := testgraph.Cycle(t, 6, false)
	for _, tc := range []struct {
		budgets []float64
		msg     string
	}{
		{nil, "no budgets"},
		{[]float64{0.5, 0}, "budget 0: must lie in (0, 1]"},
		{[]float64{1.5}, "budget 1.5: must lie in (0, 1]"},
	} {
		if _, err := RunBudgets(g, Config{Method: ERR}, tc.budgets); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%v: %v, want %q", tc.budgets, err, tc.msg)
		}
	}
	if _, err := RunBudgets(g, Config{Method: "erx"}, []float64{0.5}); err == nil {
		t.Error("unknown method accepted")
	}
}

// TestAddedEdges: the additions of the log in order, an edge added and
// later removed included, never nil.
func TestAddedEdges(t *testing.T) {
	r := &Result{Log: []Edit{
		{Iteration: 1, Op: "add", U: 0, V: 3}, {Iteration: 1, Op: "remove", U: 1, V: 2},
		{Iteration: 2, Op: "add", U: 2, V: 5}, {Iteration: 3, Op: "remove", U: 0, V: 3},
		{Iteration: 4, Op: "add", U: 4, V: 1},
	}}
	want := []linalg.Edge{{U: 0, V: 3}, {U: 2, V: 5}, {U: 4, V: 1}}
	if got := r.AddedEdges(); !slices.Equal(got, want) {
		t.Errorf("AddedEdges = %v, want %v", got, want)
	}
	if got := (&Result{}).AddedEdges(); got == nil || len(got) != 0 {
		t.Errorf("AddedEdges of an empty log = %#v, want empty, not nil", got)
	}
	res, err := Run(testgraph.Cycle(t, 8, false), Config{Method: ERR, Budget: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.AddedEdges(); len(got) != res.Added || len(got) == 0 {
		t.Errorf("%d added edges for %d additions", len(got), res.Added)
	}
}
