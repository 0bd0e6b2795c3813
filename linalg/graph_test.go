package linalg

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// denseModel is an independent, naive model of a graph: an n×n boolean matrix
// of arcs (undirected: symmetric) plus a self-loop vector.
type denseModel struct {
	n        int
	directed bool
	a        [][]bool
}

func newDense(n int, directed bool) *denseModel {
	a := make([][]bool, n)
	for i := range a {
		a[i] = make([]bool, n)
	}
	return &denseModel{n, directed, a}
}

func (d *denseModel) set(u, v int, on bool) {
	d.a[u][v] = on
	if !d.directed {
		d.a[v][u] = on
	}
}

// compare checks every query of g against the dense model.
func compare(t *testing.T, g *Graph, d *denseModel) {
	t.Helper()
	m, loops := 0, 0
	for u := 0; u < d.n; u++ {
		var out, in, both []int
		for v := 0; v < d.n; v++ {
			if g.HasEdge(u, v) != d.a[u][v] {
				t.Fatalf("HasEdge(%d,%d) = %v, want %v", u, v, !d.a[u][v], d.a[u][v])
			}
			if u == v {
				if d.a[u][u] {
					loops++
				}
				continue
			}
			if d.a[u][v] {
				out = append(out, v)
				if d.directed || u < v {
					m++
				}
			}
			if d.a[v][u] {
				in = append(in, v)
			}
			if d.a[u][v] || d.a[v][u] {
				both = append(both, v)
			}
		}
		if !slices.Equal(g.Out(u), out) || !slices.Equal(g.In(u), in) || !slices.Equal(g.Neighbours(u), both) {
			t.Fatalf("node %d: out %v in %v nb %v, want %v %v %v", u, g.Out(u), g.In(u), g.Neighbours(u), out, in, both)
		}
		if g.OutDegree(u) != len(out) || g.InDegree(u) != len(in) || g.Degree(u) != len(both) {
			t.Fatalf("node %d: degrees %d %d %d", u, g.OutDegree(u), g.InDegree(u), g.Degree(u))
		}
		if g.HasSelfLoop(u) != d.a[u][u] {
			t.Fatalf("self-loop %d", u)
		}
	}
	if g.NumEdges() != m || g.NumSelfLoops() != loops || g.E0() != m+loops {
		t.Fatalf("counts: edges %d loops %d E0 %d, want %d %d %d", g.NumEdges(), g.NumSelfLoops(), g.E0(), m, loops, m+loops)
	}
	// Row-major edges and arcs.
	var edges, arcs []Edge
	for u := 0; u < d.n; u++ {
		for v := 0; v < d.n; v++ {
			if !d.a[u][v] {
				continue
			}
			arcs = append(arcs, Edge{u, v})
			if u != v && (d.directed || u < v) {
				edges = append(edges, Edge{u, v})
			}
		}
	}
	if !slices.Equal(g.Edges(), edges) {
		t.Fatalf("Edges() = %v, want %v", g.Edges(), edges)
	}
	if !slices.Equal(g.Arcs(), arcs) {
		t.Fatalf("Arcs() = %v, want %v", g.Arcs(), arcs)
	}
	// Adjacency and Laplacian against the dense model.
	A, L := g.Adjacency(), g.Laplacian()
	for u := 0; u < d.n; u++ {
		deg := 0
		for v := 0; v < d.n; v++ {
			if u != v && d.a[u][v] {
				deg++
			}
		}
		for v := 0; v < d.n; v++ {
			wa, wl := 0.0, 0.0
			if d.a[u][v] {
				wa = 1
				if u != v {
					wl = -1
				}
			}
			if u == v {
				wl = float64(deg)
			}
			if A.At(u, v) != wa || L.At(u, v) != wl {
				t.Fatalf("A(%d,%d)=%v L=%v, want %v %v", u, v, A.At(u, v), L.At(u, v), wa, wl)
			}
		}
	}
	// Every CSR row sorted and without repeats (the sparse library adds repeats).
	raw := A.RawMatrix()
	for i := 0; i < d.n; i++ {
		row := raw.Ind[raw.Indptr[i]:raw.Indptr[i+1]]
		if !slices.IsSorted(row) || len(slices.Compact(slices.Clone(row))) != len(row) {
			t.Fatalf("adjacency row %d not sorted/unique: %v", i, row)
		}
	}
}

// TestGraphRandomEdits checks random edits against a dense matrix, on
// graphs without a hash set (n ≤ SmallGraph: seeds 0–39) and with one
// (n > SmallGraph: seeds 40–47, the edits mostly among the first 16 nodes,
// so that they meet).
func TestGraphRandomEdits(t *testing.T) {
	for _, directed := range []bool{false, true} {
		for seed := range uint64(48) {
			r := rand.New(rand.NewPCG(seed, 7))
			n := 1 + r.IntN(15)
			if seed >= 40 {
				n = SmallGraph + 1 + r.IntN(15)
			}
			node := func() int {
				if r.IntN(10) == 0 {
					return r.IntN(n)
				}
				return r.IntN(min(n, 16))
			}
			g, d := NewGraph(n, directed), newDense(n, directed)
			if (g.set != nil) != (n > SmallGraph) {
				t.Fatalf("n = %d: hash set %v", n, g.set != nil)
			}
			for step := 0; step < 120; step++ {
				u, v := node(), node()
				if r.IntN(3) == 0 {
					was := d.a[u][v]
					if got := g.RemoveEdge(u, v); got != was {
						t.Fatalf("RemoveEdge(%d,%d) = %v, want %v", u, v, got, was)
					}
					d.set(u, v, false)
				} else {
					was := d.a[u][v]
					if got := g.AddEdge(u, v); got == was {
						t.Fatalf("AddEdge(%d,%d) = %v, want %v", u, v, got, !was)
					}
					d.set(u, v, true)
				}
				if step%20 == 0 {
					compare(t, g, d)
				}
			}
			compare(t, g, d)
			c := g.Clone()
			if !c.Equal(g) {
				t.Fatal("Clone not Equal")
			}
			// Edits of the clone must not reach the original.
			for u := range n {
				for v := range n {
					if !c.RemoveEdge(u, v) {
						c.AddEdge(u, v)
					}
				}
			}
			compare(t, g, d)
		}
	}
}

func TestUndirectedSymmetrization(t *testing.T) {
	// Arcs 0→1, 1→0 (reciprocated), 1→2, 3→3 (loop), 2→0: three undirected
	// pairs {0,1}, {1,2}, {0,2} and one self-loop.
	g, err := FromEdges(4, true, []Edge{{0, 1}, {1, 0}, {1, 2}, {3, 3}, {2, 0}, {1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if g.NumEdges() != 4 || g.E0() != 5 {
		t.Fatalf("directed: edges %d E0 %d, want 4 5", g.NumEdges(), g.E0())
	}
	u := g.Undirected()
	if u.Directed() || u.NumEdges() != 3 || u.NumSelfLoops() != 1 || u.E0() != 4 {
		t.Fatalf("undirected: edges %d loops %d E0 %d, want 3 1 4", u.NumEdges(), u.NumSelfLoops(), u.E0())
	}
	want := []Edge{{0, 1}, {0, 2}, {1, 2}}
	if !slices.Equal(u.Edges(), want) {
		t.Fatalf("Edges %v, want %v", u.Edges(), want)
	}
	wantArcs := []Edge{{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}, {3, 3}}
	if !slices.Equal(u.Arcs(), wantArcs) {
		t.Fatalf("Arcs %v, want %v", u.Arcs(), wantArcs)
	}
}

func TestFromEdgesOutOfRange(t *testing.T) {
	for _, e := range []Edge{{0, 3}, {-1, 0}, {3, 3}} {
		if _, err := FromEdges(3, false, []Edge{{0, 1}, e}); err == nil {
			t.Errorf("FromEdges with %v: no error", e)
		}
	}
}

func TestLaplacianRowSumsZero(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	g := NewGraph(50, true)
	for range 200 {
		g.AddEdge(r.IntN(50), r.IntN(50))
	}
	L := g.Laplacian()
	ones := make([]float64, 50)
	for i := range ones {
		ones[i] = 1
	}
	y := make([]float64, 50)
	L.MulVecTo(y, false, ones)
	for i, v := range y {
		if v != 0 {
			t.Fatalf("(L·1)_%d = %v", i, v)
		}
	}
}

// TestCloneArena: copies made in one arena equal Clone's, and editing one
// (past its lists' room) changes neither its original nor the copies made
// next to it in the same blocks.
func TestCloneArena(t *testing.T) {
	var a CloneArena
	r := rand.New(rand.NewPCG(3, 9))
	var orig, want, copies []*Graph
	for k := range 400 {
		n := 1 + r.IntN(40)
		if k%50 == 0 {
			n = SmallGraph + 1 + r.IntN(50) // with a hash set
		}
		g := NewGraph(n, k%3 == 0)
		for range 2 * n {
			g.AddEdge(r.IntN(n), r.IntN(n))
		}
		c := a.Clone(g)
		if !c.Equal(g) || (c.set == nil) != (g.set == nil) {
			t.Fatalf("graph %d: the arena's copy differs", k)
		}
		orig, want, copies = append(orig, g), append(want, g.Clone()), append(copies, c)
	}
	for k, c := range copies {
		n, ref := c.N(), want[k].Clone()
		for range 3 * n { // toggles: lists grow past their room and shrink
			u, v := r.IntN(n), r.IntN(n)
			if !c.RemoveEdge(u, v) {
				c.AddEdge(u, v)
			}
			if !ref.RemoveEdge(u, v) {
				ref.AddEdge(u, v)
			}
		}
		if !c.Equal(ref) {
			t.Fatalf("copy %d after the edits differs from a plain copy's", k)
		}
		for j := range copies[k+1:] {
			if !copies[k+1+j].Equal(want[k+1+j]) {
				t.Fatalf("editing copy %d changed copy %d", k, k+1+j)
			}
		}
		if !orig[k].Equal(want[k]) {
			t.Fatalf("editing copy %d changed its original", k)
		}
	}
}

// TestCloneArenaReserve: copies of the sizes CloneSize reports fill a
// reserved arena exactly, with no block beyond the reserved ones.
func TestCloneArenaReserve(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 1))
	var gs []*Graph
	ints, lists := 0, 0
	for k := range 30 {
		n := 1 + r.IntN(30)
		g := NewGraph(n, k%2 == 0)
		for range 2 * n {
			g.AddEdge(r.IntN(n), r.IntN(n))
		}
		a, b := CloneSize(g)
		ints, lists, gs = ints+a, lists+b, append(gs, g)
	}
	var a CloneArena
	a.Reserve(ints, lists, len(gs))
	for _, g := range gs {
		if c := a.Clone(g); !c.Equal(g) {
			t.Fatal("the arena's copy differs")
		}
	}
	if len(a.ints) != 0 || len(a.lists) != 0 || len(a.graphs) != 0 || cap(a.ints) != 0 {
		t.Fatalf("left %d ints, %d lists, %d graphs: the sizes are not exact", len(a.ints), len(a.lists), len(a.graphs))
	}
}
