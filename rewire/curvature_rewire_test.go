package rewire

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset/testgraph"
	"github.com/ohmgnn/ohm/rewire/curvature"
)

// sameKappa fails unless the κ the state keeps equal a full recomputation
// on its graph, bit for bit (both use the same deterministic kernel on the
// same neighbour lists, so any difference is a κ the update missed; package
// curvature's own tests check the same on random edits).
func sameKappa(t *testing.T, label string, s *curvature.State, alpha float64) {
	t.Helper()
	want, err := curvature.Curvatures(s.Graph(), alpha, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Edges()); n != len(want) {
		t.Fatalf("%s: %d κ kept, %d edges", label, n, len(want))
	}
	for _, w := range want {
		if got, ok := s.Kappa(w.U, w.V); !ok || got != w.Kappa {
			t.Fatalf("%s: edge (%d,%d): κ kept %v (present %v), full %v", label, w.U, w.V, got, ok, w.Kappa)
		}
	}
}

// TestCurvatureHandBuilt: logs worked out by hand.
func TestCurvatureHandBuilt(t *testing.T) {
	p4 := testgraph.Path(t, 4)
	// Weakly a path 0-1-2-3, as arcs 1→0, 1→2, 3→2: no cycle, every SCC a
	// single node.
	dp4 := testgraph.MustGraph(t, 4, true, [2]int{1, 0}, [2]int{1, 2}, [2]int{3, 2})
	for _, tc := range []struct {
		name    string
		g       *linalg.Graph
		alpha   float64
		budget  float64
		want    string
		scores  []float64
		stopped string
	}{
		// P4, α = 0: every κ is 0 (closed forms), so (0,1) comes first; it has
		// no candidate (N(0)∖{1} is empty) and (1,2) is next: i = 0, j = 3.
		// In the 4-cycle 0-1-2-3-0, μ1 = ½(δ0+δ2), μ2 = ½(δ1+δ3), every
		// support pair at distance 1: W1 = 1, κ(1,2) = 0. Removal: every κ of
		// C4 ties at 0; (0,3) was just added; (0,1) is not a bridge.
		{"P4 α=0", p4, 0, 0.34, "1 add 0 3\n1 remove 0 1\n", []float64{0, 0}, ""},
		// P4, α = ½: κ = ½, 0, ½; (1,2) is the least curved, candidate (0,3).
		// In C4 μ1 − μ2 = ¼(δ0 + δ1 − δ2 − δ3) with d(0,3) = d(1,2) = 1:
		// W1 = ½, κ(1,2) = ½, and by symmetry every edge of C4 has κ = ½.
		{"P4 α=½", p4, 0.5, 0.34, "1 add 0 3\n1 remove 0 1\n", []float64{0.5, 0.5}, ""},
		// Directed, same underlying path, α = ½: (1,2) again, i = 0 on 1's
		// side, so the arc 0→3. Removal: (0,1) ties first; 0→1 is absent,
		// 1→0 keeps the SCC partition (all singletons).
		{"directed P4 α=½", dp4, 0.5, 0.34, "1 add 0 3\n1 remove 1 0\n", []float64{0.5, 0.5}, ""},
		// C4: no edge has a candidate (the outer neighbours of an edge are
		// adjacent) and no edge is a bridge, so iteration 1 only removes
		// (0,1). The path 1-2-3-0 is then P4 again: its interior edge (2,3)
		// gets the candidate {1,0}, back to C4 (κ(2,3) = ½), and (0,3) goes.
		{"C4", testgraph.Cycle(t, 4, false), 0.5, 0.5, "1 remove 0 1\n2 add 0 1\n2 remove 0 3\n", []float64{0.5, 0.5, 0.5}, ""},
		// Directed 4-cycle: no candidate, and every arc's removal splits the
		// SCC: nothing at all.
		{"directed C4", testgraph.Cycle(t, 4, true), 0.5, 1, "", nil, "iteration 1 changed nothing"},
	} {
		for _, engine := range []EngineKind{Incremental, Exact} {
			r, err := Run(tc.g, Config{Method: Curvature, Budget: tc.budget, Engine: engine, Curvature: &CurvatureOptions{Alpha: tc.alpha}})
			if err != nil {
				t.Fatal(err)
			}
			label := tc.name + "/" + string(engine)
			if got := fmtLog(r.Log); got != tc.want {
				t.Errorf("%s: log\n%s\nwant\n%s", label, got, tc.want)
				continue
			}
			for k, s := range tc.scores {
				if math.Abs(r.Log[k].Score-s) > 1e-12 {
					t.Errorf("%s: edit %d score %v, want %v", label, k, r.Log[k].Score, s)
				}
			}
			if !strings.HasPrefix(r.StoppedEarly, tc.stopped) || (tc.stopped == "") != (r.StoppedEarly == "") {
				t.Errorf("%s: stopped %q, want %q", label, r.StoppedEarly, tc.stopped)
			}
		}
	}
}

// TestCurvatureConfig: runCurvature rejects other methods, a bad α and what
// Config.Validate rejects.
func TestCurvatureConfig(t *testing.T) {
	g := testgraph.Path(t, 4)
	for _, tc := range []struct {
		cfg   Config
		alpha float64
		msg   string
	}{
		{Config{Method: ERR, Budget: 0.5}, 0.5, "not \"err\""},
		{Config{Method: Curvature, Budget: 0.5}, -1, "alpha -1: must lie in [0, 1]"},
		{Config{Method: Curvature, Budget: 2}, 0.5, "budget 2: must lie in (0, 1]"},
		{Config{Method: Curvature, Budget: 0.5, Engine: "fast"}, 0.5, "engine fast: unknown"},
	} {
		if _, err := runCurvature(g, tc.cfg, tc.alpha, nil); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%+v α=%v: %v, want %q", tc.cfg, tc.alpha, err, tc.msg)
		}
	}
	if m, err := ParseMethod("Curvature"); err != nil || m != Curvature || !m.Info().Removes || m.Info().PerHop {
		t.Errorf("ParseMethod(Curvature) = %v, %v", m, err)
	}
	if slices.Contains(Methods, Curvature) || !slices.Contains(AllMethods, Curvature) {
		t.Error("Curvature belongs to AllMethods, not Methods")
	}
}

// TestCurvatureIncrementalEqualsFullWebKB: on Cornell and Texas, both forms,
// a curvature rewiring at 10 % keeps every κ equal to a full recomputation
// after every edit (α = ½ and 0); the exact engine (full recomputation) makes
// the same decisions (α = ½); every iteration respects the operator's
// invariants.
func TestCurvatureIncrementalEqualsFullWebKB(t *testing.T) {
	for _, name := range []string{"cornell", "texas"} {
		for _, directed := range []bool{false, true} {
			g := testgraph.Dataset(t, name, directed)
			for _, alpha := range []float64{0.5, 0} {
				label := fmt.Sprintf("%s/directed=%v/α=%v", name, directed, alpha)
				edits := 0
				cfg := Config{Method: Curvature, Budget: 0.1, OnIteration: checkCurvatureIteration(t, g)}
				inc, err := runCurvature(g, cfg, alpha, func(s *curvature.State) {
					edits++
					sameKappa(t, fmt.Sprintf("%s edit %d", label, edits), s, alpha)
				})
				if err != nil {
					t.Fatal(err)
				}
				if edits != len(inc.Log) || inc.Iterations != Budget(0.1, g.E0()) {
					t.Fatalf("%s: %d edits checked, log %d, %d iterations (%s)", label, edits, len(inc.Log), inc.Iterations, inc.StoppedEarly)
				}
				if alpha != 0.5 {
					continue
				}
				ex, err := Run(g, Config{Method: Curvature, Budget: 0.1, Engine: Exact, Curvature: &CurvatureOptions{Alpha: alpha}})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(inc.Log, ex.Log) || !inc.Graph.Equal(ex.Graph) {
					t.Fatalf("%s: engines differ:\n%s\nvs\n%s", label, fmtLog(inc.Log), fmtLog(ex.Log))
				}
			}
		}
	}
}

// checkCurvatureIteration returns an OnIteration hook asserting the
// operator's invariants against a mirror of the graph: at most one addition,
// then at most one removal; the addition is new (directed: neither arc was
// present) and not a self-loop; the removal is an edge present after the
// addition, not the edge just added, and keeps the component count
// (undirected) or the SCC partition (directed) of the graph after the
// addition; the graph is the mirror with the edits applied.
func checkCurvatureIteration(t *testing.T, g0 *linalg.Graph) func(int, *linalg.Graph, []Edit) {
	mirror := g0.Clone()
	blocks := func(g *linalg.Graph) string {
		if g.Directed() {
			comp, _ := tarjan.SCC(g)
			return fmt.Sprint(comp)
		}
		_, count := tarjan.Components(g)
		return fmt.Sprint(count)
	}
	return func(it int, g *linalg.Graph, edits []Edit) {
		if len(edits) > 2 || (len(edits) == 2 && (edits[0].Op != "add" || edits[1].Op != "remove")) {
			t.Fatalf("iteration %d: edits %v", it, edits)
		}
		var added *Edit
		for k, e := range edits {
			switch e.Op {
			case "add":
				if e.U == e.V || mirror.HasEdge(e.U, e.V) || mirror.HasEdge(e.V, e.U) {
					t.Fatalf("iteration %d: added %v: self-loop or existing edge", it, e)
				}
				mirror.AddEdge(e.U, e.V)
				added = &edits[k]
			case "remove":
				if added != nil && min(added.U, added.V) == min(e.U, e.V) && max(added.U, added.V) == max(e.U, e.V) {
					t.Fatalf("iteration %d: removed the edge just added", it)
				}
				before := blocks(mirror)
				if !mirror.RemoveEdge(e.U, e.V) {
					t.Fatalf("iteration %d: removed %v, absent", it, e)
				}
				if blocks(mirror) != before {
					t.Fatalf("iteration %d: removing %v changed the components", it, e)
				}
			}
		}
		if !mirror.Equal(g) {
			t.Fatalf("iteration %d: graph differs from the log applied", it)
		}
	}
}

// TestCurvatureThreads: the edit log on Cornell at 10 % is the same with 1
// and 2 threads (and twice with 2), scores included.
func TestCurvatureThreads(t *testing.T) {
	g := testgraph.Dataset(t, "cornell", false)
	var logs [][]Edit
	for _, w := range []int{1, 2, 2} {
		r, err := Run(g, Config{Method: Curvature, Budget: 0.1, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, r.Log)
	}
	if len(logs[0]) == 0 || !slices.Equal(logs[0], logs[1]) || !slices.Equal(logs[0], logs[2]) {
		t.Fatalf("logs differ between thread counts:\n%s\nvs\n%s", fmtLog(logs[0]), fmtLog(logs[1]))
	}
}
