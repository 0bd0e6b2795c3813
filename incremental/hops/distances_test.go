package hops

import (
	"fmt"
	"math"
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
					d := New(g)
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
	d := New(g)
	for _, c := range []struct{ i, j, want int }{
		{0, 0, 0}, {0, 3, 3}, {3, 0, 3}, {1, 3, 2}, {0, 4, Unreachable}, {4, 4, 0},
	} {
		if got := d.At(c.i, c.j); got != c.want {
			t.Errorf("undirected d(%d,%d) = %d, want %d", c.i, c.j, got, c.want)
		}
	}
	h := distGraph(3, true, [2]int{0, 1}, [2]int{1, 2})
	e := New(h)
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
						d := New(g)
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
							fresh := New(g)
							if !slices.Equal(fresh.d, d.d) {
								t.Fatalf("step %d %s (%d,%d): differs from New", step, op, u, v)
							}
						}
					})
				}
			}
		}
	}
}

func TestDistancesRecomputeCount(t *testing.T) {
	// Recomputed counts the sources Removed repairs. A directed removal
	// repairs every source whose row changes. An undirected removal of {u,v}
	// only repairs those on u's side (d(s,v) = d(s,u)+1) and writes each
	// changed d(s,w) into d(w,s) too, so the v-side rows are fixed without a
	// repair of their own: the undirected counts below are about half of the
	// rows that change.
	// Repaired counts the changed entries of the repaired rows (undirected:
	// the changed pairs).

	// Path 0–1–2–3–4: removing {1,2} changes every source's distances; the
	// u side is {0, 1}, each with A = {2, 3, 4}.
	path := distGraph(5, false, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 4})
	d := New(path)
	path.RemoveEdge(1, 2)
	d.Removed(path, 1, 2)
	if d.Recomputed() != 2 || d.Repaired() != 6 {
		t.Errorf("path: Recomputed = %d, Repaired = %d, want 2, 6", d.Recomputed(), d.Repaired())
	}
	distCompare(t, d, distRef(path), "path")

	// The same removal named the other way round: the u side is now
	// {2, 3, 4}, each with A = {0, 1}.
	path = distGraph(5, false, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 4})
	d = New(path)
	path.RemoveEdge(2, 1)
	d.Removed(path, 2, 1)
	if d.Recomputed() != 3 || d.Repaired() != 6 {
		t.Errorf("path reversed: Recomputed = %d, Repaired = %d, want 3, 6", d.Recomputed(), d.Repaired())
	}
	distCompare(t, d, distRef(path), "path reversed")

	// K4 minus {0,1}: only d(0,1) changes, so only source 0 is repaired
	// (source 1 gets d(1,0) by symmetry).
	var k4 []linalg.Edge
	for i := range 4 {
		for j := i + 1; j < 4; j++ {
			k4 = append(k4, linalg.Edge{U: i, V: j})
		}
	}
	g, _ := linalg.FromEdges(4, false, k4)
	d = New(g)
	g.RemoveEdge(0, 1)
	d.Removed(g, 0, 1)
	if d.Recomputed() != 1 || d.Repaired() != 1 {
		t.Errorf("K4: Recomputed = %d, Repaired = %d, want 1, 1", d.Recomputed(), d.Repaired())
	}
	distCompare(t, d, distRef(g), "K4")

	// Removing the chord {0,2} of the cycle 0–1–2–3–0: d(0,2) = 1 → 2, and
	// sources 1 and 3 keep their distances (two parents each); source 2 is
	// repaired, source 0 fixed by symmetry.
	c := distGraph(4, false, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{0, 3}, [2]int{0, 2})
	d = New(c)
	c.RemoveEdge(2, 0)
	d.Removed(c, 2, 0)
	if d.Recomputed() != 1 || d.Repaired() != 1 {
		t.Errorf("chorded C4: Recomputed = %d, Repaired = %d, want 1, 1", d.Recomputed(), d.Repaired())
	}
	distCompare(t, d, distRef(c), "chorded C4")

	// Directed: arcs 0→1, 0→2, 1→3, 2→3. Removing 1→3 leaves 3 reachable
	// from 0 through 2 at the same distance and changes only source 1.
	dg := distGraph(4, true, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 3}, [2]int{2, 3})
	d = New(dg)
	dg.RemoveEdge(1, 3)
	d.Removed(dg, 1, 3)
	if d.Recomputed() != 1 || d.Repaired() != 1 {
		t.Errorf("directed diamond: Recomputed = %d, Repaired = %d, want 1, 1", d.Recomputed(), d.Repaired())
	}
	distCompare(t, d, distRef(dg), "directed diamond")

	// Any removal of a real edge changes d(u,v) and so repairs at least
	// source u; a self-loop removal costs nothing.
	g.AddEdge(1, 1)
	d = New(g)
	before := d.Recomputed()
	g.RemoveEdge(1, 1)
	d.Removed(g, 1, 1)
	if d.Recomputed() != before || d.Repaired() != 0 {
		t.Errorf("self-loop removal repaired %d sources, %d entries", d.Recomputed()-before, d.Repaired())
	}
}

// distEdits applies steps random edits to g and d, a removal with probability
// pRemove (when g has an edge) and otherwise the addition of an absent pair,
// and after each checks d entry by entry against a fresh BFS. After a removal
// it also checks the counters against the exact set of changed entries: a
// directed removal repairs every row that changes and rewrites exactly its
// changed entries; an undirected removal of {u,v} repairs exactly the
// changed rows s with d(s,v) = d(s,u)+1 before the edit and rewrites each
// changed pair once.
func distEdits(t *testing.T, r *rand.Rand, g *linalg.Graph, steps int, pRemove float64) {
	t.Helper()
	if testing.Short() {
		steps /= 4
	}
	n, directed := g.N(), g.Directed()
	d := New(g)
	old := distRef(g)
	for step := range steps {
		var op string
		var u, v int
		es := g.Edges()
		if len(es) > 0 && r.Float64() < pRemove {
			e := es[r.IntN(len(es))]
			u, v = e.U, e.V
			if !directed && r.IntN(2) == 0 {
				u, v = v, u
			}
			rec, rep := d.Recomputed(), d.Repaired()
			g.RemoveEdge(u, v)
			d.Removed(g, u, v)
			op = "remove"
			now := distRef(g)
			wantRec, wantRep := 0, 0
			for s := range n {
				changed := 0
				for j := range n {
					if now[s][j] != old[s][j] {
						if now[s][j] < old[s][j] {
							t.Fatalf("step %d: removal shortened d(%d,%d)", step, s, j)
						}
						changed++
					}
				}
				if changed > 0 && (directed || old[s][v] == old[s][u]+1) {
					wantRec++
					wantRep += changed
				}
			}
			if gotRec, gotRep := d.Recomputed()-rec, d.Repaired()-rep; gotRec != wantRec || gotRep != wantRep {
				t.Fatalf("step %d remove (%d,%d): repaired %d sources, %d entries; want %d, %d",
					step, u, v, gotRec, gotRep, wantRec, wantRep)
			}
			old = now
		} else {
			if len(es) == n*(n-1)/2*map[bool]int{false: 1, true: 2}[directed] {
				continue // complete
			}
			u, v = r.IntN(n), r.IntN(n)
			for u == v || g.HasEdge(u, v) {
				u, v = r.IntN(n), r.IntN(n)
			}
			g.AddEdge(u, v)
			d.Added(g, u, v)
			op = "add"
			old = distRef(g)
		}
		distCompare(t, d, old, fmt.Sprintf("step %d %s (%d,%d)", step, op, u, v))
	}
}

// distGrid returns the r×c grid graph; directed, every edge becomes the arc
// pointing right or down, plus the reverse arc with probability back.
func distGrid(rnd *rand.Rand, r, c int, directed bool, back float64) *linalg.Graph {
	g := linalg.NewGraph(r*c, directed)
	add := func(a, b int) {
		g.AddEdge(a, b)
		if directed && rnd.Float64() < back {
			g.AddEdge(b, a)
		}
	}
	for i := range r {
		for j := range c {
			if j+1 < c {
				add(i*c+j, i*c+j+1)
			}
			if i+1 < r {
				add(i*c+j, (i+1)*c+j)
			}
		}
	}
	return g
}

// distBipartite returns K_{a,b} on a random labelling; directed, the arcs go
// from the a side to the b side, plus the reverse arc with probability back.
func distBipartite(rnd *rand.Rand, a, b int, directed bool, back float64) *linalg.Graph {
	g := linalg.NewGraph(a+b, directed)
	p := rnd.Perm(a + b)
	for i := range a {
		for j := a; j < a+b; j++ {
			g.AddEdge(p[i], p[j])
			if directed && rnd.Float64() < back {
				g.AddEdge(p[j], p[i])
			}
		}
	}
	return g
}

// distHypercube returns the k-dimensional hypercube; directed, arcs go from
// the smaller label to the larger, plus the reverse with probability back.
func distHypercube(rnd *rand.Rand, k int, directed bool, back float64) *linalg.Graph {
	n := 1 << k
	g := linalg.NewGraph(n, directed)
	for x := range n {
		for b := range k {
			if y := x | 1<<b; y != x {
				g.AddEdge(x, y)
				if directed && rnd.Float64() < back {
					g.AddEdge(y, x)
				}
			}
		}
	}
	return g
}

func TestDistancesRemovalHeavy(t *testing.T) {
	for _, directed := range []bool{false, true} {
		for _, c := range []struct {
			n, m, parts, steps int
			pRemove            float64
		}{
			{300, 600, 1, 500, 0.75},
			{300, 1500, 1, 400, 0.8},
			{300, 900, 3, 400, 0.75},
			{40, 200, 1, 400, 0.9}, // down to empty and back
		} {
			name := fmt.Sprintf("directed=%v/n=%d/m=%d/parts=%d", directed, c.n, c.m, c.parts)
			t.Run(name, func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(c.n), uint64(c.m+c.parts)))
				g := distRandomGraph(r, c.n, c.m, c.parts, directed)
				distEdits(t, r, g, c.steps, c.pRemove)
			})
		}
	}
}

func TestDistancesRemovalEqualPaths(t *testing.T) {
	// Graphs with many shortest paths of equal length: most removals change
	// nothing or only a little, and the affected sets have many parents to
	// check.
	for _, directed := range []bool{false, true} {
		for _, back := range []float64{0, 0.3} {
			if !directed && back > 0 {
				continue
			}
			for _, c := range []struct {
				name  string
				make  func(r *rand.Rand) *linalg.Graph
				steps int
			}{
				{"grid15x20", func(r *rand.Rand) *linalg.Graph { return distGrid(r, 15, 20, directed, back) }, 500},
				{"grid4x4", func(r *rand.Rand) *linalg.Graph { return distGrid(r, 4, 4, directed, back) }, 200},
				{"K12,14", func(r *rand.Rand) *linalg.Graph { return distBipartite(r, 12, 14, directed, back) }, 400},
				{"K3,40", func(r *rand.Rand) *linalg.Graph { return distBipartite(r, 3, 40, directed, back) }, 300},
				{"Q7", func(r *rand.Rand) *linalg.Graph { return distHypercube(r, 7, directed, back) }, 500},
			} {
				t.Run(fmt.Sprintf("directed=%v/back=%v/%s", directed, back, c.name), func(t *testing.T) {
					r := rand.New(rand.NewPCG(uint64(len(c.name)), uint64(back*10)))
					distEdits(t, r, c.make(r), c.steps, 0.85)
				})
			}
		}
	}
}

func TestDistancesRemovalOrderIndependent(t *testing.T) {
	// The undirected repairs write mirror entries into rows the source loop
	// has not reached yet. Relabel small graphs at random, so that sources
	// on either side of the removed edge come in every order, and remove
	// every edge in turn (both namings) from a fresh copy.
	r := rand.New(rand.NewPCG(11, 12))
	bases := []struct {
		n     int
		edges [][2]int
	}{
		{7, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}}},                         // path
		{6, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {0, 3}}},                 // chorded C6
		{8, [][2]int{{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {4, 5}, {4, 6}, {5, 7}, {6, 7}}}, // two diamonds
		{7, [][2]int{{0, 1}, {0, 2}, {1, 3}, {1, 4}, {2, 5}, {2, 6}}},                         // binary tree
	}
	for _, directed := range []bool{false, true} {
		for bi, base := range bases {
			for range 60 {
				p := r.Perm(base.n)
				edges := make([][2]int, len(base.edges))
				for k, e := range base.edges {
					edges[k] = [2]int{p[e[0]], p[e[1]]}
				}
				for k := range edges {
					for _, flip := range []bool{false, true} {
						g := distGraph(base.n, directed, edges...)
						d := New(g)
						u, v := edges[k][0], edges[k][1]
						if flip {
							if directed {
								g.AddEdge(v, u)
								d.Added(g, v, u)
							}
							u, v = v, u
						}
						g.RemoveEdge(u, v)
						d.Removed(g, u, v)
						distCompare(t, d, distRef(g), fmt.Sprintf("directed=%v base %d perm %v remove (%d,%d)", directed, bi, p, u, v))
					}
				}
			}
		}
	}
}

func TestDistancesMarkWrap(t *testing.T) {
	// The mark stamps wrap around: clear and restart, still exact.
	for _, directed := range []bool{false, true} {
		r := rand.New(rand.NewPCG(5, 6))
		g := distRandomGraph(r, 50, 120, 1, directed)
		d := New(g)
		d.gen = math.MaxUint32 - 9
		for k := range 20 {
			es := g.Edges()
			e := es[r.IntN(len(es))]
			g.RemoveEdge(e.U, e.V)
			d.Removed(g, e.U, e.V)
			distCompare(t, d, distRef(g), fmt.Sprintf("directed=%v removal %d gen %d", directed, k, d.gen))
		}
		if d.gen >= math.MaxUint32-9 {
			t.Errorf("directed=%v: gen = %d, did not wrap", directed, d.gen)
		}
	}
}

func TestDistancesNoAllocation(t *testing.T) {
	for _, directed := range []bool{false, true} {
		r := rand.New(rand.NewPCG(7, 8))
		g := distRandomGraph(r, 120, 180, 1, directed)
		g.RemoveEdge(0, 0)
		d := New(g)
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
			t.Errorf("directed=%v: no source repaired during the allocation test", directed)
		}
		distCompare(t, d, distRef(g), fmt.Sprintf("directed=%v after toggling", directed))
	}
}

func TestDistancesPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("New with n = 65535 did not panic")
		}
	}()
	New(linalg.NewGraph(Unreachable, false))
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
			d := New(g)
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
			d := New(g)
			es := g.Edges()
			r := rand.New(rand.NewPCG(1, 1))
			b.ResetTimer()
			before, repBefore := d.Recomputed(), d.Repaired()
			for range b.N {
				e := es[r.IntN(len(es))]
				g.RemoveEdge(e.U, e.V)
				d.Removed(g, e.U, e.V)
				b.StopTimer()
				g.AddEdge(e.U, e.V)
				d.Added(g, e.U, e.V)
				b.StartTimer()
			}
			b.ReportMetric(float64(d.Recomputed()-before)/float64(b.N), "src/op")
			if r := d.Recomputed() - before; r > 0 {
				b.ReportMetric(float64(d.Repaired()-repBefore)/float64(r), "A/src")
			}
		})
	}
}
