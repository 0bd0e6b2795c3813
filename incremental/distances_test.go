package incremental

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

// distRef returns the distance matrix of g by a plain BFS from every node
// (a fresh queue per source), Unreachable for no path.
func distRef(g *linalg.Graph) [][]int {
	n := g.N()
	D := make([][]int, n)
	for s := range n {
		row := make([]int, n)
		for j := range row {
			row[j] = Unreachable
		}
		row[s] = 0
		q := []int{s}
		for len(q) > 0 {
			x := q[0]
			q = q[1:]
			for _, y := range g.Out(x) {
				if row[y] == Unreachable {
					row[y] = row[x] + 1
					q = append(q, y)
				}
			}
		}
		D[s] = row
	}
	return D
}

// distRandomGraph returns a graph on n nodes with about m random edges (arcs)
// spread over parts blocks with no edge between them, a few self-loops, and
// some nodes left isolated.
func distRandomGraph(r *rand.Rand, n, m, parts int, directed bool) *linalg.Graph {
	g := linalg.NewGraph(n, directed)
	if n == 0 {
		return g
	}
	block := (n + parts - 1) / parts
	isolated := func(x int) bool { return n > 4 && x%7 == 3 }
	for try := 0; g.NumEdges() < m && try < 100*m; try++ {
		u := r.IntN(n)
		lo := u / block * block
		v := lo + r.IntN(min(block, n-lo))
		if isolated(u) || isolated(v) {
			continue
		}
		g.AddEdge(u, v)
	}
	g.AddEdge(0, 0)
	return g
}

// distGraph returns the graph on n nodes with the given edges (arcs).
func distGraph(n int, directed bool, edges ...[2]int) *linalg.Graph {
	g := linalg.NewGraph(n, directed)
	for _, e := range edges {
		g.AddEdge(e[0], e[1])
	}
	return g
}

// distCompare reports the first entry where d differs from the reference, and
// checks Row against At.
func distCompare(t *testing.T, d *Distances, want [][]int, ctx string) {
	t.Helper()
	for i, row := range want {
		got := d.Row(i)
		if len(got) != len(row) {
			t.Fatalf("%s: row %d has length %d, want %d", ctx, i, len(got), len(row))
		}
		for j, w := range row {
			if int(got[j]) != w || d.At(i, j) != w {
				t.Fatalf("%s: d(%d,%d) = %d (At %d), want %d", ctx, i, j, got[j], d.At(i, j), w)
			}
		}
	}
}

func TestDistancesNew(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, directed := range []bool{false, true} {
		for _, n := range []int{0, 1, 2, 5, 10, 40, 100} {
			for _, parts := range []int{1, 3} {
				for _, dens := range []float64{0.5, 1, 2, 5} {
					m := int(dens * float64(n))
					g := distRandomGraph(r, n, m, parts, directed)
					d := NewDistances(g)
					distCompare(t, d, distRef(g),
						fmt.Sprintf("directed=%v n=%d parts=%d m=%d", directed, n, parts, m))
					if d.N() != n || d.Directed() != directed || d.Recomputed() != 0 {
						t.Fatalf("N=%d Directed=%v Recomputed=%d", d.N(), d.Directed(), d.Recomputed())
					}
				}
			}
		}
	}
}

func TestDistancesSmall(t *testing.T) {
	// Path 0–1–2–3 plus isolated 4.
	g := distGraph(5, false, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3})
	d := NewDistances(g)
	for _, c := range []struct{ i, j, want int }{
		{0, 0, 0}, {0, 3, 3}, {3, 0, 3}, {1, 3, 2}, {0, 4, Unreachable}, {4, 4, 0},
	} {
		if got := d.At(c.i, c.j); got != c.want {
			t.Errorf("undirected d(%d,%d) = %d, want %d", c.i, c.j, got, c.want)
		}
	}
	h := distGraph(3, true, [2]int{0, 1}, [2]int{1, 2})
	e := NewDistances(h)
	if e.At(0, 2) != 2 || e.At(2, 0) != Unreachable || e.At(1, 0) != Unreachable {
		t.Errorf("directed path: d(0,2)=%d d(2,0)=%d d(1,0)=%d", e.At(0, 2), e.At(2, 0), e.At(1, 0))
	}
}

func TestDistancesRandomEdits(t *testing.T) {
	for _, directed := range []bool{false, true} {
		for _, n := range []int{1, 2, 10, 60, 150} {
			for _, parts := range []int{1, 3} {
				for _, dens := range []int{3, 8} {
					name := fmt.Sprintf("directed=%v/n=%d/parts=%d/m=%dn/2", directed, n, parts, dens)
					t.Run(name, func(t *testing.T) {
						r := rand.New(rand.NewPCG(uint64(n), uint64(parts*10+dens)))
						g := distRandomGraph(r, n, dens*n/2, parts, directed)
						d := NewDistances(g)
						for step := range 300 {
							es := g.Edges()
							var op string
							var u, v int
							switch {
							case len(es) > 0 && r.IntN(2) == 0:
								// Remove, favouring sparse states where removals
								// disconnect (an edge is mostly a bridge).
								e := es[r.IntN(len(es))]
								u, v = e.U, e.V
								if !directed && r.IntN(2) == 0 {
									u, v = v, u
								}
								g.RemoveEdge(u, v)
								d.Removed(g, u, v)
								op = "remove"
							default:
								u, v = r.IntN(n), r.IntN(n)
								if r.IntN(8) != 0 {
									// Prefer an absent non-loop pair.
									for try := 0; try < 20 && (u == v || g.HasEdge(u, v)); try++ {
										u, v = r.IntN(n), r.IntN(n)
									}
								}
								if g.HasEdge(u, v) {
									continue
								}
								g.AddEdge(u, v)
								d.Added(g, u, v)
								op = "add"
							}
							distCompare(t, d, distRef(g), fmt.Sprintf("step %d %s (%d,%d)", step, op, u, v))
							fresh := NewDistances(g)
							if !slices.Equal(fresh.d, d.d) {
								t.Fatalf("step %d %s (%d,%d): differs from NewDistances", step, op, u, v)
							}
						}
					})
				}
			}
		}
	}
}

func TestDistancesRecomputeCount(t *testing.T) {
	// Path 0–1–2–3–4: removing {1,2} changes every source's distances.
	path := distGraph(5, false, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 4})
	d := NewDistances(path)
	path.RemoveEdge(1, 2)
	d.Removed(path, 1, 2)
	if d.Recomputed() != 5 {
		t.Errorf("path: Recomputed = %d, want 5", d.Recomputed())
	}
	distCompare(t, d, distRef(path), "path")

	// K4 minus {0,1}: only d(0,1) changes, so only sources 0 and 1 recompute.
	var k4 []linalg.Edge
	for i := range 4 {
		for j := i + 1; j < 4; j++ {
			k4 = append(k4, linalg.Edge{U: i, V: j})
		}
	}
	g, _ := linalg.FromEdges(4, false, k4)
	d = NewDistances(g)
	g.RemoveEdge(0, 1)
	d.Removed(g, 0, 1)
	if d.Recomputed() != 2 {
		t.Errorf("K4: Recomputed = %d, want 2", d.Recomputed())
	}
	distCompare(t, d, distRef(g), "K4")

	// Removing the chord {0,2} of the cycle 0–1–2–3–0: d(0,2) = 1 → 2, and
	// sources 1 and 3 keep their distances (two parents each).
	c := distGraph(4, false, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{0, 3}, [2]int{0, 2})
	d = NewDistances(c)
	c.RemoveEdge(2, 0)
	d.Removed(c, 2, 0)
	if d.Recomputed() != 2 {
		t.Errorf("chorded C4: Recomputed = %d, want 2", d.Recomputed())
	}
	distCompare(t, d, distRef(c), "chorded C4")

	// Directed: arcs 0→1, 0→2, 1→3, 2→3. Removing 1→3 leaves 3 reachable
	// from 0 through 2 at the same distance and changes only source 1.
	dg := distGraph(4, true, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 3}, [2]int{2, 3})
	d = NewDistances(dg)
	dg.RemoveEdge(1, 3)
	d.Removed(dg, 1, 3)
	if d.Recomputed() != 1 {
		t.Errorf("directed diamond: Recomputed = %d, want 1", d.Recomputed())
	}
	distCompare(t, d, distRef(dg), "directed diamond")

	// Any removal of a real edge changes d(u,v) and so recomputes at least
	// source u; a self-loop removal costs nothing.
	g.AddEdge(1, 1)
	d = NewDistances(g)
	before := d.Recomputed()
	g.RemoveEdge(1, 1)
	d.Removed(g, 1, 1)
	if d.Recomputed() != before {
		t.Errorf("self-loop removal recomputed %d sources", d.Recomputed()-before)
	}
}

func TestDistancesNoAllocation(t *testing.T) {
	for _, directed := range []bool{false, true} {
		r := rand.New(rand.NewPCG(7, 8))
		g := distRandomGraph(r, 120, 180, 1, directed)
		g.RemoveEdge(0, 0)
		d := NewDistances(g)
		es := g.Edges()
		k := 0
		allocs := testing.AllocsPerRun(200, func() {
			e := es[k%len(es)]
			k++
			g.RemoveEdge(e.U, e.V)
			d.Removed(g, e.U, e.V)
			g.AddEdge(e.U, e.V)
			d.Added(g, e.U, e.V)
		})
		if allocs != 0 {
			t.Errorf("directed=%v: %v allocations per Removed+Added", directed, allocs)
		}
		if d.Recomputed() == 0 {
			t.Errorf("directed=%v: no BFS run during the allocation test", directed)
		}
		distCompare(t, d, distRef(g), fmt.Sprintf("directed=%v after toggling", directed))
	}
}

func TestDistancesPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewDistances with n = 65535 did not panic")
		}
	}()
	NewDistances(linalg.NewGraph(Unreachable, false))
}

// distCora returns a connected Cora-size graph: a random spanning tree on
// n = 2708 nodes plus random edges up to m = 5278.
func distCora(directed bool) *linalg.Graph {
	const n, m = 2708, 5278
	r := rand.New(rand.NewPCG(2708, 5278))
	g := linalg.NewGraph(n, directed)
	perm := r.Perm(n)
	for k := 1; k < n; k++ {
		g.AddEdge(perm[r.IntN(k)], perm[k])
	}
	for g.NumEdges() < m {
		u, v := r.IntN(n), r.IntN(n)
		if u != v {
			g.AddEdge(u, v)
		}
	}
	return g
}

func BenchmarkDistancesAdded(b *testing.B) {
	for _, directed := range []bool{false, true} {
		b.Run(fmt.Sprintf("directed=%v", directed), func(b *testing.B) {
			g := distCora(directed)
			d := NewDistances(g)
			snap := slices.Clone(d.d)
			r := rand.New(rand.NewPCG(1, 1))
			n := g.N()
			b.ResetTimer()
			for range b.N {
				u, v := r.IntN(n), r.IntN(n)
				for u == v || g.HasEdge(u, v) {
					u, v = r.IntN(n), r.IntN(n)
				}
				g.AddEdge(u, v)
				d.Added(g, u, v)
				b.StopTimer()
				g.RemoveEdge(u, v)
				copy(d.d, snap) // undo, cheaper than Removed
				b.StartTimer()
			}
		})
	}
}

func BenchmarkDistancesRemoved(b *testing.B) {
	for _, directed := range []bool{false, true} {
		b.Run(fmt.Sprintf("directed=%v", directed), func(b *testing.B) {
			g := distCora(directed)
			d := NewDistances(g)
			es := g.Edges()
			r := rand.New(rand.NewPCG(1, 1))
			b.ResetTimer()
			before := d.Recomputed()
			for range b.N {
				e := es[r.IntN(len(es))]
				g.RemoveEdge(e.U, e.V)
				d.Removed(g, e.U, e.V)
				b.StopTimer()
				g.AddEdge(e.U, e.V)
				d.Added(g, e.U, e.V)
				b.StartTimer()
			}
			b.ReportMetric(float64(d.Recomputed()-before)/float64(b.N), "bfs/op")
		})
	}
}
