package rewire

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/exact"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
)

// fullKappa is κ of every underlying edge of g from scratch.
func fullKappa(t *testing.T, g *linalg.Graph, alpha float64) map[uint64]float64 {
	t.Helper()
	ks, err := Curvatures(g, alpha, 1)
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[uint64]float64, len(ks))
	for _, e := range ks {
		m[ukey(e.U, e.V)] = e.Kappa
	}
	return m
}

// sameKappa fails unless the state's κ equal a full recomputation on its
// graph, bit for bit (both use the same deterministic kernel on the same
// neighbour lists, so any difference is a κ the update missed).
func sameKappa(t *testing.T, label string, s *curvatureState) {
	t.Helper()
	want := fullKappa(t, s.g, s.alpha)
	if len(want) != len(s.kappa) {
		t.Fatalf("%s: %d κ kept, %d edges", label, len(s.kappa), len(want))
	}
	for k, w := range want {
		if got, ok := s.kappa[k]; !ok || got != w {
			t.Fatalf("%s: edge (%d,%d): κ kept %v (present %v), full %v", label, k>>32, uint32(k), got, ok, w)
		}
	}
}

// TestCurvatureHandBuilt: logs worked out by hand.
func TestCurvatureHandBuilt(t *testing.T) {
	p4 := pathGraph(t, 4)
	// Weakly a path 0-1-2-3, as arcs 1→0, 1→2, 3→2: no cycle, every SCC a
	// single node.
	dp4 := mustGraph(t, 4, true, [2]int{1, 0}, [2]int{1, 2}, [2]int{3, 2})
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
		{"C4", cycleGraph(t, 4, false), 0.5, 0.5, "1 remove 0 1\n2 add 0 1\n2 remove 0 3\n", []float64{0.5, 0.5, 0.5}, ""},
		// Directed 4-cycle: no candidate, and every arc's removal splits the
		// SCC: nothing at all.
		{"directed C4", cycleGraph(t, 4, true), 0.5, 1, "", nil, "iteration 1 changed nothing"},
	} {
		for _, engine := range []EngineKind{Incremental, Exact} {
			r, err := Run(tc.g, Config{Method: Curvature, Budget: tc.budget, Engine: engine, Alpha: &tc.alpha})
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
	g := pathGraph(t, 4)
	for _, tc := range []struct {
		cfg   Config
		alpha float64
		msg   string
	}{
		{Config{Method: ERR, Budget: 0.5}, 0.5, "not \"err\""},
		{Config{Method: Curvature, Budget: 0.5}, -1, "alpha -1 outside [0, 1]"},
		{Config{Method: Curvature, Budget: 2}, 0.5, "budget 2 outside (0, 1]"},
		{Config{Method: Curvature, Budget: 0.5, Engine: "fast"}, 0.5, "unknown engine"},
	} {
		if _, err := runCurvature(g, tc.cfg, tc.alpha, nil); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%+v α=%v: %v, want %q", tc.cfg, tc.alpha, err, tc.msg)
		}
	}
	if m, err := ParseMethod("Curvature"); err != nil || m != Curvature || !m.Removes() || m.PerHop() {
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
			g := load(t, name, directed)
			for _, alpha := range []float64{0.5, 0} {
				label := fmt.Sprintf("%s/directed=%v/α=%v", name, directed, alpha)
				edits := 0
				cfg := Config{Method: Curvature, Budget: 0.1, OnIteration: checkCurvatureIteration(t, g)}
				inc, err := runCurvature(g, cfg, alpha, func(s *curvatureState) {
					edits++
					sameKappa(t, fmt.Sprintf("%s edit %d", label, edits), s)
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
				ex, err := Run(g, Config{Method: Curvature, Budget: 0.1, Engine: Exact, Alpha: &alpha})
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
				if added != nil && ukey(added.U, added.V) == ukey(e.U, e.V) {
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
	g := load(t, "cornell", false)
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

// TestCurvatureRandomEdits: κ kept by the local updates equals a full
// recomputation after each of many random additions and removals (not only
// the operator's) on random graphs, directed and undirected.
func TestCurvatureRandomEdits(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for trial := range 12 {
		directed := trial%2 == 1
		g := randomGraph(r, 16, 0.2, directed)
		alpha := []float64{0, 0.5, 0.3}[trial%3]
		s := newCurvatureState(g, alpha, 1+trial%2, false)
		for step := range 60 {
			a, b := r.IntN(16), r.IntN(16)
			if a == b {
				continue
			}
			var err error
			if s.g.HasEdge(a, b) {
				err = s.remove(a, b)
			} else if !s.g.Directed() || !s.g.HasEdge(b, a) || r.IntN(2) == 0 {
				err = s.add(a, b)
			}
			if err != nil {
				t.Fatal(err)
			}
			if directed && !s.ug.Equal(s.g.Undirected()) {
				t.Fatalf("trial %d step %d: underlying graph out of sync", trial, step)
			}
			sameKappa(t, fmt.Sprintf("trial %d step %d", trial, step), s)
		}
	}
}

// TestCurvatureRadiusTight: the update radius (edges with an endpoint in
// B(a) ∪ B(b)) cannot shrink to the edges at the edit's endpoints, and edits
// farther away indeed change nothing. Graph: the double star x = 0, y = 1
// with leaves 2, 3 of x and 4, 5 of y, plus 6 ~ 4 and 7 ~ 5. The optimal
// plan of κ(0,1) moves mass from a leaf of x to a leaf of y at distance 3
// (closed forms above). Adding {2,6} — neither end is 0 or 1, but 2 is a
// neighbour of 0 — makes d(2,4) = 2 and changes κ(0,1); adding {6,7}, both
// ends at distance 2 from {0,1}, does not.
func TestCurvatureRadiusTight(t *testing.T) {
	for _, alpha := range []float64{0, 0.5} {
		g := doubleStar(t, 3)
		g2 := linalg.NewGraph(8, false)
		for _, e := range g.Edges() {
			g2.AddEdge(e.U, e.V)
		}
		g2.AddEdge(4, 6)
		g2.AddEdge(5, 7)
		before := fullKappa(t, g2, alpha)[ukey(0, 1)]
		s := newCurvatureState(g2, alpha, 1, false)
		for _, tc := range []struct {
			a, b    int
			changes bool
		}{{2, 6, true}, {6, 7, false}} {
			h := g2.Clone()
			h.AddEdge(tc.a, tc.b)
			after := fullKappa(t, h, alpha)[ukey(0, 1)]
			if (after != before) != tc.changes {
				t.Errorf("α=%v: adding {%d,%d}: κ(0,1) %v → %v", alpha, tc.a, tc.b, before, after)
			}
			h.RemoveEdge(tc.a, tc.b)
			s.g, s.ug = h, h
			h.AddEdge(tc.a, tc.b)
			if slices.Contains(s.affected(tc.a, tc.b), linalg.Edge{U: 0, V: 1}) != tc.changes {
				t.Errorf("α=%v: (0,1) among the affected edges of {%d,%d}: %v", alpha, tc.a, tc.b, !tc.changes)
			}
		}
	}
}

// TestCurvatureCandidateOrder: with more than 256 candidates, those at
// distance 3 come first, then distance 2, each row-major, checked against
// BFS distances; with fewer, all of them, row-major, each once.
func TestCurvatureCandidateOrder(t *testing.T) {
	// u = 0 and v = 1 adjacent; u has neighbours 2..21, v has 22..41, and
	// the hubs 42, 43 join some of them (distance 2 through a hub).
	g := linalg.NewGraph(44, false)
	g.AddEdge(0, 1)
	for k := range 20 {
		g.AddEdge(0, 2+k)
		g.AddEdge(1, 22+k)
	}
	for k := 0; k < 20; k += 3 {
		g.AddEdge(42, 2+k)
		g.AddEdge(43, 22+k)
	}
	g.AddEdge(42, 25)
	g.AddEdge(43, 7)
	g.AddEdge(2, 22) // one pair already an edge
	s := newCurvatureState(g, 0.5, 1, false)
	got := s.candidates(0, 1)
	dist := exact.AllPairsBFS(g)
	var all []incremental.Pair
	for i := 2; i < 22; i++ {
		for j := 22; j < 42; j++ {
			if !g.HasEdge(i, j) {
				all = append(all, incremental.Pair{U: i, V: j, Score: float64(dist[i][j])})
			}
		}
	}
	if len(all) <= MaxCurvatureCandidates {
		t.Fatalf("only %d candidates", len(all))
	}
	var want []incremental.Pair
	for _, d := range []float64{3, 2} {
		for _, p := range all {
			if p.Score == d {
				want = append(want, p)
			}
		}
	}
	want = want[:MaxCurvatureCandidates]
	if !slices.Equal(got, want) {
		t.Fatalf("candidates\n%v\nwant\n%v", got, want)
	}
	// Few candidates, reached from both sides (common neighbours 3 and 4).
	h := mustGraph(t, 6, false, [2]int{0, 1}, [2]int{0, 3}, [2]int{0, 4}, [2]int{1, 3}, [2]int{1, 4}, [2]int{0, 2}, [2]int{1, 5})
	s = newCurvatureState(h, 0.5, 1, false)
	var ps []string
	for _, p := range s.candidates(0, 1) {
		ps = append(ps, fmt.Sprintf("%d-%d", p.U, p.V))
	}
	// i ∈ {2,3,4}, j ∈ {3,4,5}, i ≠ j, not an edge: {2,3} {2,4} {2,5} {3,4}
	// (from (3,4) and (4,3)) {3,5} {4,5}.
	if got := strings.Join(ps, " "); got != "2-3 2-4 2-5 3-4 3-5 4-5" {
		t.Fatalf("candidates %s", got)
	}
}
