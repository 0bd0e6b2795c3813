package curvature

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/exact"
	"github.com/ohmgnn/ohm/internal/testgraph"
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
func sameKappa(t *testing.T, label string, s *State) {
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

// TestCurvatureRandomEdits: κ kept by the local updates equals a full
// recomputation after each of many random additions and removals (not only
// the operator's) on random graphs, directed and undirected.
func TestCurvatureRandomEdits(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for trial := range 12 {
		directed := trial%2 == 1
		g := randomGraph(r, 16, 0.2, directed)
		alpha := []float64{0, 0.5, 0.3}[trial%3]
		s := NewState(g, StateOptions{Alpha: alpha, Workers: 1 + trial%2})
		for step := range 60 {
			a, b := r.IntN(16), r.IntN(16)
			if a == b {
				continue
			}
			var err error
			if s.g.HasEdge(a, b) {
				err = s.Remove(a, b)
			} else if !s.g.Directed() || !s.g.HasEdge(b, a) || r.IntN(2) == 0 {
				err = s.Add(a, b)
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
		s := NewState(g2, StateOptions{Alpha: alpha, Workers: 1})
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
	s := NewState(g, StateOptions{Alpha: 0.5, Workers: 1})
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
	if len(all) <= MaxCandidates {
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
	want = want[:MaxCandidates]
	if !slices.Equal(got, want) {
		t.Fatalf("candidates\n%v\nwant\n%v", got, want)
	}
	// Few candidates, reached from both sides (common neighbours 3 and 4).
	h := testgraph.MustGraph(t, 6, false, [2]int{0, 1}, [2]int{0, 3}, [2]int{0, 4}, [2]int{1, 3}, [2]int{1, 4}, [2]int{0, 2}, [2]int{1, 5})
	s = NewState(h, StateOptions{Alpha: 0.5, Workers: 1})
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
