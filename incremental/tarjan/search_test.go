package tarjan

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

// TestSearcherNoAllocs checks that a sized Searcher answers queries on
// directed and undirected graphs without allocating.
func TestSearcherNoAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, directed := range []bool{false, true} {
		g := randGraph(r, 200, directed, 3.0/200, 0.3)
		es := g.Edges()
		s := NewSearcher(g.N())
		i := 0
		allocs := testing.AllocsPerRun(200, func() {
			e := es[i%len(es)]
			i++
			s.IsBridge(g, e.U, e.V)
			s.IsBridge(g, e.V, e.U)
			s.SplitsSCC(g, e.U, e.V)
			s.SplitsSCC(g, e.V, e.U)
		})
		if allocs != 0 {
			t.Errorf("directed=%v: %v allocations per query batch, want 0", directed, allocs)
		}
	}
}

// TestSearcherGenerationWrap drives the generation counter through its
// wrap-around and checks the answers stay right.
func TestSearcherGenerationWrap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	g := randGraph(r, 40, true, 2.0/40, 0.4)
	want := map[E]bool{}
	wantSplit := map[E]bool{}
	base := sccMasks(g, E{U: -1, V: -1})
	for _, e := range g.Edges() {
		want[e] = bruteBridgeOf(g, e)
		wantSplit[e] = bruteSplits(g, base, e.U, e.V)
	}
	s := NewSearcher(g.N())
	s.gen = math.MaxUint32 - 9
	for range 3 {
		for _, e := range g.Edges() {
			if got := s.IsBridge(g, e.U, e.V); got != want[e] {
				t.Fatalf("gen %d: IsBridge(%d, %d) = %v, want %v", s.gen, e.U, e.V, got, want[e])
			}
			if got := s.SplitsSCC(g, e.U, e.V); got != wantSplit[e] {
				t.Fatalf("gen %d: SplitsSCC(%d, %d) = %v, want %v", s.gen, e.U, e.V, got, wantSplit[e])
			}
		}
	}
	if s.gen > 1<<20 {
		t.Fatalf("generation counter did not wrap: %d", s.gen)
	}
}

func bruteBridgeOf(g *linalg.Graph, e E) bool {
	ug := g.Undirected()
	return bruteCount(ug, e) > bruteCount(ug, E{U: -1, V: -1})
}

// TestSearcherAcrossEditsAndGraphs reuses one Searcher while the graph is
// rewired edge by edge (as the rewiring loop does) and across graphs of
// different sizes, checking every answer against Bridges and brute force.
func TestSearcherAcrossEditsAndGraphs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var s Searcher
	for round := range 40 {
		directed := round%2 == 0
		n := 5 + r.IntN(50)
		g := randGraph(r, n, directed, 1.5/float64(n), 0.3)
		for range 30 {
			// Random edit: toggle a random pair.
			u, v := r.IntN(n), r.IntN(n)
			if g.HasEdge(u, v) {
				g.RemoveEdge(u, v)
			} else {
				g.AddEdge(u, v)
			}
			bs := Bridges(g)
			if !slices.Equal(bs.Edges(), bruteBridges(g)) {
				t.Fatalf("round %d: Bridges wrong after edit", round)
			}
			base := sccMasks(g, E{U: -1, V: -1})
			for _, e := range g.Edges() {
				if s.IsBridge(g, e.U, e.V) != bs.Has(e.U, e.V) {
					t.Fatalf("round %d: IsBridge(%d, %d) disagrees with Bridges", round, e.U, e.V)
				}
				want := bs.Has(e.U, e.V)
				if directed {
					want = bruteSplits(g, base, e.U, e.V)
				}
				if s.SplitsSCC(g, e.U, e.V) != want {
					t.Fatalf("round %d: SplitsSCC(%d, %d) != %v", round, e.U, e.V, want)
				}
			}
		}
	}
}

// TestSmallSideEarlyExit checks that the bidirectional search stops after
// work proportional to the smaller side: a leaf hanging off a clique, an edge
// inside the clique, and the last edge of a long path are all settled after
// discovering a handful of nodes.
func TestSmallSideEarlyExit(t *testing.T) {
	const k = 300
	g := linalg.NewGraph(k+1, false)
	for u := range k {
		for v := u + 1; v < k; v++ {
			g.AddEdge(u, v)
		}
	}
	g.AddEdge(0, k) // leaf k hangs off the clique
	s := NewSearcher(g.N())
	for _, q := range []struct {
		u, v   int
		bridge bool
	}{{0, k, true}, {k, 0, true}, {1, 2, false}, {0, 1, false}} {
		if got := s.IsBridge(g, q.u, q.v); got != q.bridge {
			t.Fatalf("IsBridge(%d, %d) = %v, want %v", q.u, q.v, got, q.bridge)
		}
		if s.seen > 6 {
			t.Errorf("IsBridge(%d, %d) discovered %d nodes, want a handful", q.u, q.v, s.seen)
		}
	}

	const n = 100_000
	p := pathGraph(n, false, false)
	if !s.IsBridge(p, n-2, n-1) {
		t.Fatal("path end not a bridge")
	}
	if s.seen > 6 {
		t.Errorf("IsBridge at the end of a path discovered %d nodes", s.seen)
	}

	// An arc inside a complete digraph: u reaches v another way at once.
	d := linalg.NewGraph(k, true)
	for u := range k {
		for v := range k {
			if u != v {
				d.AddEdge(u, v)
			}
		}
	}
	if s.SplitsSCC(d, 0, 1) {
		t.Fatal("arc of a complete digraph splits")
	}
	if s.seen > 6 {
		t.Errorf("SplitsSCC in a complete digraph discovered %d nodes", s.seen)
	}
}
