package tarjan

import (
	"slices"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

type E = linalg.Edge

// handCase is a small graph with its known answers.
type handCase struct {
	name     string
	n        int
	directed bool
	edges    []E
	comp     []int // want Components
	scc      []int // want SCC; nil: same as comp
	bridges  []E   // want Bridges().Edges(), sorted with U < V
	splits   []E   // directed: the arcs whose removal splits their SCC
}

func binaryTree(n int) []E {
	var es []E
	for i := 1; i < n; i++ {
		es = append(es, E{U: i, V: (i - 1) / 2})
	}
	return es
}

func sortedUndirected(es []E) []E {
	out := make([]E, len(es))
	for i, e := range es {
		out[i] = E{U: min(e.U, e.V), V: max(e.U, e.V)}
	}
	slices.SortFunc(out, func(a, b E) int {
		if a.U != b.U {
			return a.U - b.U
		}
		return a.V - b.V
	})
	return out
}

func both(es ...E) []E {
	var out []E
	for _, e := range es {
		out = append(out, e, E{U: e.V, V: e.U})
	}
	return out
}

func zeros(n int) []int { return make([]int, n) }

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func handCases() []handCase {
	dirCycle := []E{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 3, V: 4}, {U: 4, V: 5}, {U: 5, V: 0}}
	triangles := []E{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 0}, {U: 3, V: 4}, {U: 4, V: 5}, {U: 5, V: 3}}
	var dag []E
	for i := range 5 {
		for j := i + 1; j < 5; j++ {
			dag = append(dag, E{U: i, V: j})
		}
	}
	recipBase := []E{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 0}, {U: 3, V: 4}, {U: 5, V: 6}, {U: 6, V: 4}}
	return []handCase{
		{name: "empty undirected", n: 0, comp: []int{}},
		{name: "empty directed", n: 0, directed: true, comp: []int{}},
		{name: "single node", n: 1, comp: []int{0}},
		{name: "single node with self-loop", n: 1, directed: true, edges: []E{{U: 0, V: 0}}, comp: []int{0}},
		{name: "isolated nodes", n: 4, comp: seq(4)},
		{name: "isolated nodes directed", n: 4, directed: true, comp: seq(4)},
		{
			name: "path tree", n: 5, edges: []E{{U: 3, V: 1}, {U: 1, V: 4}, {U: 4, V: 0}, {U: 0, V: 2}},
			comp: zeros(5), bridges: sortedUndirected([]E{{U: 3, V: 1}, {U: 1, V: 4}, {U: 4, V: 0}, {U: 0, V: 2}}),
		},
		{
			name: "star tree", n: 6, edges: []E{{U: 5, V: 0}, {U: 5, V: 1}, {U: 5, V: 2}, {U: 5, V: 3}, {U: 5, V: 4}},
			comp: zeros(6), bridges: []E{{U: 0, V: 5}, {U: 1, V: 5}, {U: 2, V: 5}, {U: 3, V: 5}, {U: 4, V: 5}},
		},
		{
			name: "binary tree", n: 15, edges: binaryTree(15),
			comp: zeros(15), bridges: sortedUndirected(binaryTree(15)),
		},
		{
			name: "forest with isolated node", n: 7, edges: []E{{U: 0, V: 2}, {U: 2, V: 4}, {U: 1, V: 3}, {U: 3, V: 5}},
			comp: []int{0, 1, 0, 1, 0, 1, 2}, bridges: []E{{U: 0, V: 2}, {U: 1, V: 3}, {U: 2, V: 4}, {U: 3, V: 5}},
		},
		{
			name: "directed tree (arborescence)", n: 7, directed: true, edges: binaryTree(7),
			comp: zeros(7), scc: seq(7), bridges: sortedUndirected(binaryTree(7)),
		},
		{
			name: "undirected cycle", n: 6, edges: dirCycle, comp: zeros(6),
		},
		{
			name: "directed cycle", n: 6, directed: true, edges: dirCycle,
			comp: zeros(6), splits: dirCycle,
		},
		{
			name: "two cycles joined by an edge", n: 6, edges: append([]E{{U: 2, V: 3}}, triangles...),
			comp: zeros(6), bridges: []E{{U: 2, V: 3}},
		},
		{
			name: "two directed cycles joined by a reciprocated pair", n: 6, directed: true,
			edges: append([]E{{U: 2, V: 3}, {U: 3, V: 2}}, triangles...),
			comp:  zeros(6), bridges: []E{{U: 2, V: 3}},
			splits: append([]E{{U: 2, V: 3}, {U: 3, V: 2}}, triangles...),
		},
		{
			name: "two directed cycles joined by one arc", n: 6, directed: true,
			edges: append([]E{{U: 2, V: 3}}, triangles...),
			comp:  zeros(6), scc: []int{0, 0, 0, 1, 1, 1}, bridges: []E{{U: 2, V: 3}},
			splits: triangles,
		},
		{
			name: "bowtie (articulation point, no bridge)", n: 5,
			edges: []E{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 0}, {U: 2, V: 3}, {U: 3, V: 4}, {U: 4, V: 2}}, comp: zeros(5),
		},
		{
			name: "complete DAG", n: 5, directed: true, edges: dag,
			comp: zeros(5), scc: seq(5),
		},
		{
			name: "reversed path DAG", n: 5, directed: true, edges: []E{{U: 4, V: 3}, {U: 3, V: 2}, {U: 2, V: 1}, {U: 1, V: 0}},
			comp: zeros(5), scc: seq(5), bridges: []E{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 3, V: 4}},
		},
		{
			name: "labels by smallest id, not Tarjan order", n: 4, directed: true,
			edges: []E{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 1}, {U: 3, V: 0}},
			comp:  zeros(4), scc: []int{0, 1, 1, 2}, bridges: []E{{U: 0, V: 1}, {U: 0, V: 3}, {U: 1, V: 2}},
			splits: []E{{U: 1, V: 2}, {U: 2, V: 1}},
		},
		{
			name: "reciprocated arcs only", n: 8, directed: true, edges: both(recipBase...),
			comp:    []int{0, 0, 0, 1, 1, 1, 1, 2},
			bridges: []E{{U: 3, V: 4}, {U: 4, V: 6}, {U: 5, V: 6}},
			splits:  both(E{U: 3, V: 4}, E{U: 4, V: 6}, E{U: 5, V: 6}),
		},
		{
			name: "undirected path with self-loops", n: 3, edges: []E{{U: 0, V: 0}, {U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 2}},
			comp: zeros(3), bridges: []E{{U: 0, V: 1}, {U: 1, V: 2}},
		},
		{
			name: "directed cycle with self-loop", n: 3, directed: true,
			edges: []E{{U: 0, V: 1}, {U: 1, V: 1}, {U: 1, V: 2}, {U: 2, V: 0}},
			comp:  zeros(3), bridges: nil, splits: []E{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 0}},
		},
	}
}

func TestHandMade(t *testing.T) {
	s := NewSearcher(0) // grows as needed; shared across cases on purpose
	for _, tc := range handCases() {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGraph(t, tc.n, tc.directed, tc.edges)
			comp, count := Components(g)
			if !slices.Equal(comp, tc.comp) {
				t.Errorf("Components = %v, want %v", comp, tc.comp)
			}
			checkLabelRule(t, comp, count)
			wantSCC := tc.scc
			if wantSCC == nil {
				wantSCC = tc.comp
			}
			scc, nscc := SCC(g)
			if !slices.Equal(scc, wantSCC) {
				t.Errorf("SCC = %v, want %v", scc, wantSCC)
			}
			checkLabelRule(t, scc, nscc)

			bs := Bridges(g)
			if got := bs.Edges(); !slices.Equal(got, tc.bridges) {
				t.Errorf("Bridges = %v, want %v", got, tc.bridges)
			}
			if bs.Len() != len(tc.bridges) {
				t.Errorf("Len = %d, want %d", bs.Len(), len(tc.bridges))
			}
			for u := range tc.n {
				for v := range tc.n {
					want := slices.Contains(tc.bridges, E{U: min(u, v), V: max(u, v)})
					if bs.Has(u, v) != want {
						t.Errorf("Has(%d, %d) = %v, want %v", u, v, !want, want)
					}
					if got := s.IsBridge(g, u, v); got != want {
						t.Errorf("Searcher.IsBridge(%d, %d) = %v, want %v", u, v, got, want)
					}
					if got := isBridge(g, u, v); got != want {
						t.Errorf("IsBridge(%d, %d) = %v, want %v", u, v, got, want)
					}
					wantSplit := want
					if tc.directed {
						wantSplit = slices.Contains(tc.splits, E{U: u, V: v})
					}
					if got := s.SplitsSCC(g, u, v); got != wantSplit {
						t.Errorf("Searcher.SplitsSCC(%d, %d) = %v, want %v", u, v, got, wantSplit)
					}
					if got := splitsSCC(g, u, v); got != wantSplit {
						t.Errorf("SplitsSCC(%d, %d) = %v, want %v", u, v, got, wantSplit)
					}
				}
			}
			// Ids outside the graph are "not an edge": false, no panic.
			for _, p := range [][2]int{{-1, 0}, {0, tc.n}, {tc.n, tc.n + 1}, {-3, -3}} {
				if bs.Has(p[0], p[1]) || s.IsBridge(g, p[0], p[1]) || isBridge(g, p[0], p[1]) ||
					s.SplitsSCC(g, p[0], p[1]) || splitsSCC(g, p[0], p[1]) {
					t.Errorf("out-of-range pair %v reported true", p)
				}
			}
		})
	}
}

func TestZeroBridgeSet(t *testing.T) {
	var b BridgeSet
	if b.Len() != 0 || b.Has(0, 1) || len(b.Edges()) != 0 {
		t.Fatal("zero BridgeSet not empty")
	}
}

func TestBridgeSetEdgesIsCopy(t *testing.T) {
	g := mustGraph(t, 3, false, []E{{U: 0, V: 1}, {U: 1, V: 2}})
	b := Bridges(g)
	es := b.Edges()
	es[0] = E{U: 7, V: 8}
	if got := b.Edges(); got[0] != (E{U: 0, V: 1}) {
		t.Fatalf("Edges shares storage: %v", got)
	}
}

// TestAgainstGonum compares Components and SCC with gonum's topo package on
// the random corpus: the partitions must agree, and ours must follow the
// smallest-id labelling rule (so they equal gonum's canonically relabelled).
func TestAgainstGonum(t *testing.T) {
	for _, rc := range randCorpus() {
		g := rc.g
		comp, count := Components(g)
		checkLabelRule(t, comp, count)
		want, wantCount := gonumComponents(g)
		if !samePartition(comp, want) || count != wantCount {
			t.Fatalf("%s: Components partition differs from gonum: %v (%d) vs %v (%d)", rc.name, comp, count, want, wantCount)
		}
		if !slices.Equal(comp, want) {
			t.Fatalf("%s: Components labels %v, canonical %v", rc.name, comp, want)
		}

		scc, nscc := SCC(g)
		checkLabelRule(t, scc, nscc)
		want, wantCount = gonumSCC(g)
		if !samePartition(scc, want) || nscc != wantCount {
			t.Fatalf("%s: SCC partition differs from gonum: %v (%d) vs %v (%d)", rc.name, scc, nscc, want, wantCount)
		}
		if !slices.Equal(scc, want) {
			t.Fatalf("%s: SCC labels %v, canonical %v", rc.name, scc, want)
		}
		if g.Directed() {
			// Third opinion: the transitive closure.
			masks := sccMasks(g, E{U: -1, V: -1})
			for u := range g.N() {
				for v := range g.N() {
					if (scc[u] == scc[v]) != (masks[u]>>v&1 == 1) {
						t.Fatalf("%s: SCC disagrees with closure on (%d, %d)", rc.name, u, v)
					}
				}
			}
		} else if !slices.Equal(scc, comp) {
			t.Fatalf("%s: undirected SCC %v != Components %v", rc.name, scc, comp)
		}
	}
}

// TestBridgesBruteForce checks Bridges, BridgeSet.Has and IsBridge against
// removing every edge in turn and recounting components.
func TestBridgesBruteForce(t *testing.T) {
	s := NewSearcher(8) // too small on purpose: must grow
	nb, nnot := 0, 0
	for _, rc := range randCorpus() {
		g := rc.g
		want := bruteBridges(g)
		bs := Bridges(g)
		if got := bs.Edges(); !slices.Equal(got, want) {
			t.Fatalf("%s: Bridges = %v, want %v", rc.name, got, want)
		}
		if bs.Len() != len(want) {
			t.Fatalf("%s: Len = %d, want %d", rc.name, bs.Len(), len(want))
		}
		ug := g.Undirected()
		for u := range g.N() {
			for v := range g.N() {
				isB := slices.Contains(want, E{U: min(u, v), V: max(u, v)})
				if bs.Has(u, v) != isB {
					t.Fatalf("%s: Has(%d, %d) = %v, want %v", rc.name, u, v, !isB, isB)
				}
				if got := s.IsBridge(g, u, v); got != isB {
					t.Fatalf("%s: IsBridge(%d, %d) = %v, want %v (edge %v)", rc.name, u, v, got, isB, ug.HasEdge(u, v))
				}
				if u < v && ug.HasEdge(u, v) {
					if isB {
						nb++
					} else {
						nnot++
					}
				}
			}
		}
	}
	t.Logf("edges checked: %d bridges, %d non-bridges", nb, nnot)
	if nb < 500 || nnot < 500 {
		t.Fatalf("corpus too one-sided: %d bridges, %d non-bridges", nb, nnot)
	}
}

// TestSplitsSCCBruteForce checks SplitsSCC against removing each arc and
// recomputing the SCC partition (transitive closure), on every ordered pair
// of every directed graph of the corpus; for undirected graphs SplitsSCC must
// equal IsBridge.
func TestSplitsSCCBruteForce(t *testing.T) {
	var s Searcher // zero value is usable
	ns, nnot, ncross := 0, 0, 0
	for _, rc := range randCorpus() {
		g := rc.g
		if !g.Directed() {
			for _, e := range g.Edges() {
				if s.SplitsSCC(g, e.U, e.V) != s.IsBridge(g, e.U, e.V) || s.SplitsSCC(g, e.V, e.U) != s.IsBridge(g, e.U, e.V) {
					t.Fatalf("%s: undirected SplitsSCC(%d, %d) != IsBridge", rc.name, e.U, e.V)
				}
			}
			continue
		}
		base := sccMasks(g, E{U: -1, V: -1})
		scc, _ := SCC(g)
		for u := range g.N() {
			for v := range g.N() {
				got := s.SplitsSCC(g, u, v)
				if u == v || !g.HasEdge(u, v) {
					if got {
						t.Fatalf("%s: SplitsSCC(%d, %d) true for a non-arc", rc.name, u, v)
					}
					continue
				}
				want := bruteSplits(g, base, u, v)
				if got != want {
					t.Fatalf("%s: SplitsSCC(%d, %d) = %v, want %v", rc.name, u, v, got, want)
				}
				switch {
				case scc[u] != scc[v]:
					ncross++
				case want:
					ns++
				default:
					nnot++
				}
			}
		}
	}
	t.Logf("arcs checked: %d split, %d inside an SCC without splitting, %d between SCCs", ns, nnot, ncross)
	if ns < 300 || nnot < 300 || ncross < 300 {
		t.Fatalf("corpus too one-sided: %d / %d / %d", ns, nnot, ncross)
	}
}

// isBridge is Searcher.IsBridge with a fresh Searcher: the same answer, plus
// an O(n) allocation. Use a Searcher for repeated queries.
func isBridge(g *linalg.Graph, u, v int) bool {
	return NewSearcher(g.N()).IsBridge(g, u, v)
}

// splitsSCC is Searcher.SplitsSCC with a fresh Searcher: the same answer, plus
// an O(n) allocation. Use a Searcher for repeated queries.
func splitsSCC(g *linalg.Graph, u, v int) bool {
	return NewSearcher(g.N()).SplitsSCC(g, u, v)
}
