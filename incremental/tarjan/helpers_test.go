package tarjan

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
)

// mustGraph builds a graph from an edge list or fails the test.
func mustGraph(t testing.TB, n int, directed bool, edges []linalg.Edge) *linalg.Graph {
	t.Helper()
	g, err := linalg.FromEdges(n, directed, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// randGraph returns a seeded random graph on n nodes: every pair (ordered
// when directed) is an edge with probability p; a directed arc is reciprocated
// with extra probability recip; every node gets a self-loop with probability
// 0.1 (self-loops must change nothing).
func randGraph(r *rand.Rand, n int, directed bool, p, recip float64) *linalg.Graph {
	g := linalg.NewGraph(n, directed)
	for u := range n {
		if r.Float64() < 0.1 {
			g.AddEdge(u, u)
		}
		for v := range n {
			if u == v || (!directed && v < u) {
				continue
			}
			if r.Float64() < p {
				g.AddEdge(u, v)
				if directed && r.Float64() < recip {
					g.AddEdge(v, u)
				}
			}
		}
	}
	return g
}

// randCase is one random graph of the cross-checking corpus.
type randCase struct {
	name string
	g    *linalg.Graph
}

// randCorpus returns the random graphs all cross-checks run on: n from 1 to
// 60, densities from a forest-like average degree 0.3 to nearly complete,
// directed (with and without reciprocated arcs) and undirected.
func randCorpus() []randCase {
	r := rand.New(rand.NewPCG(2024, 7))
	avgDeg := []float64{0.3, 0.7, 1, 1.3, 1.7, 2.2, 3, 5}
	dense := []float64{0.15, 0.3, 0.6, 0.95}
	var cs []randCase
	for i := range 480 {
		directed := i%2 == 1
		n := 1 + r.IntN(60)
		if i < 40 { // make sure the tiny sizes are all there
			n = 1 + i/2
		}
		var p float64
		if r.IntN(4) == 0 {
			p = dense[r.IntN(len(dense))]
		} else {
			p = min(1, avgDeg[r.IntN(len(avgDeg))]/float64(max(n-1, 1)))
		}
		recip := 0.0
		if directed && r.IntN(2) == 0 {
			recip = 0.5
		}
		g := randGraph(r, n, directed, p, recip)
		cs = append(cs, randCase{name: caseName(i, n, directed, p, recip), g: g})
	}
	return cs
}

func caseName(i, n int, directed bool, p, recip float64) string {
	d := "undirected"
	if directed {
		d = "directed"
	}
	return fmt.Sprintf("%s/%d/n=%d/p=%.3f/recip=%.1f", d, i, n, p, recip)
}

// toGonum converts g to gonum simple graphs: the directed graph (nil for an
// undirected g) and the underlying undirected graph. Self-loops are dropped.
func toGonum(g *linalg.Graph) (*simple.DirectedGraph, *simple.UndirectedGraph) {
	ug := simple.NewUndirectedGraph()
	var dg *simple.DirectedGraph
	if g.Directed() {
		dg = simple.NewDirectedGraph()
	}
	for i := range g.N() {
		ug.AddNode(simple.Node(i))
		if dg != nil {
			dg.AddNode(simple.Node(i))
		}
	}
	for _, e := range g.Edges() {
		ug.SetEdge(simple.Edge{F: simple.Node(e.U), T: simple.Node(e.V)})
		if dg != nil {
			dg.SetEdge(simple.Edge{F: simple.Node(e.U), T: simple.Node(e.V)})
		}
	}
	return dg, ug
}

// canonical turns a partition into labels numbered by smallest member id, the
// labelling rule of Components and SCC.
func canonical(n int, parts [][]graph.Node) ([]int, int) {
	type part struct{ min, k int }
	ps := make([]part, len(parts))
	for k, p := range parts {
		m := n
		for _, x := range p {
			m = min(m, int(x.ID()))
		}
		ps[k] = part{m, k}
	}
	slices.SortFunc(ps, func(a, b part) int { return a.min - b.min })
	lab := make([]int, n)
	for i := range lab {
		lab[i] = -1
	}
	for c, p := range ps {
		for _, x := range parts[p.k] {
			lab[x.ID()] = c
		}
	}
	return lab, len(parts)
}

// samePartition reports whether two labellings induce the same partition of
// the nodes, whatever the label values.
func samePartition(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	ab, ba := map[int]int{}, map[int]int{}
	for i := range a {
		if x, ok := ab[a[i]]; ok && x != b[i] {
			return false
		}
		if y, ok := ba[b[i]]; ok && y != a[i] {
			return false
		}
		ab[a[i]], ba[b[i]] = b[i], a[i]
	}
	return true
}

// checkLabelRule checks that comp uses labels 0..count-1, numbered in order of
// their smallest node id.
func checkLabelRule(t *testing.T, comp []int, count int) {
	t.Helper()
	next := 0
	for v, c := range comp {
		switch {
		case c == next:
			next++
		case c < 0 || c > next:
			t.Fatalf("label rule broken at node %d: label %d, next new label %d (comp %v)", v, c, next, comp)
		}
	}
	if next != count {
		t.Fatalf("count %d, but %d labels used", count, next)
	}
}

// gonumComponents and gonumSCC give the reference partitions, canonically
// labelled.
func gonumComponents(g *linalg.Graph) ([]int, int) {
	_, ug := toGonum(g)
	return canonical(g.N(), topo.ConnectedComponents(ug))
}

func gonumSCC(g *linalg.Graph) ([]int, int) {
	dg, ug := toGonum(g)
	if dg == nil {
		return canonical(g.N(), topo.ConnectedComponents(ug))
	}
	return canonical(g.N(), topo.TarjanSCC(dg))
}

// uf is a union-find for brute-force undirected connectivity.
type uf []int

func newUF(n int) uf {
	u := make(uf, n)
	for i := range u {
		u[i] = i
	}
	return u
}

func (u uf) find(x int) int {
	for u[x] != x {
		u[x] = u[u[x]]
		x = u[x]
	}
	return x
}

func (u uf) union(a, b int) bool {
	a, b = u.find(a), u.find(b)
	if a == b {
		return false
	}
	u[a] = b
	return true
}

// bruteCount counts connected components of the underlying undirected graph
// of g with the undirected edge skip removed (skip.U = -1: nothing removed).
func bruteCount(g *linalg.Graph, skip linalg.Edge) int {
	u := newUF(g.N())
	c := g.N()
	for _, e := range g.Edges() {
		if (e.U == skip.U && e.V == skip.V) || (e.U == skip.V && e.V == skip.U) {
			continue
		}
		if u.union(e.U, e.V) {
			c--
		}
	}
	return c
}

// bruteBridges lists the bridges of the underlying undirected graph by
// removing each edge in turn and recounting components.
func bruteBridges(g *linalg.Graph) []linalg.Edge {
	ug := g.Undirected()
	base := bruteCount(ug, linalg.Edge{U: -1, V: -1})
	var bs []linalg.Edge
	for _, e := range ug.Edges() {
		if bruteCount(ug, e) > base {
			bs = append(bs, e)
		}
	}
	return bs
}

// sccMasks returns, for each node of a directed graph with at most 64 nodes,
// the bit set of nodes in its strongly connected component, computed from the
// transitive closure with the arc skip removed (skip.U = -1: nothing removed).
func sccMasks(g *linalg.Graph, skip linalg.Edge) []uint64 {
	n := g.N()
	reach := make([]uint64, n)
	for u := range n {
		reach[u] = 1 << u
		for _, v := range g.Out(u) {
			if u == skip.U && v == skip.V {
				continue
			}
			reach[u] |= 1 << v
		}
	}
	for k := range n {
		for i := range n {
			if reach[i]>>k&1 == 1 {
				reach[i] |= reach[k]
			}
		}
	}
	same := make([]uint64, n)
	for i := range n {
		for r := reach[i]; r != 0; r &= r - 1 {
			j := bits.TrailingZeros64(r)
			if reach[j]>>i&1 == 1 {
				same[i] |= 1 << j
			}
		}
	}
	return same
}

// bruteSplits reports whether removing arc u→v changes the SCC partition.
func bruteSplits(g *linalg.Graph, base []uint64, u, v int) bool {
	return !slices.Equal(base, sccMasks(g, linalg.Edge{U: u, V: v}))
}
