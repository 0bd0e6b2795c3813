package incremental

import (
	"fmt"
	"math"

	"github.com/ohmgnn/ohm/linalg"
)

// Unreachable is the stored distance of a pair with no path.
const Unreachable = math.MaxUint16

// Distances keeps the all-pairs unweighted shortest-path distances d(i,j) of a
// graph exact under edge additions and removals (SPEC §2.3). For a directed
// graph d(i,j) is the length of a shortest directed path i→j along arcs; for
// an undirected graph it is symmetric. Self-loops are ignored.
//
// Storage is the full n×n matrix of uint16, row-major (row i holds the
// distances from i; the undirected case keeps both triangles so every row is
// contiguous), 2n² bytes. An addition is one O(n²) pass over the rows that
// can improve; a removal runs a fresh BFS, O(n+m) each, only from the sources
// whose distances change. Neither allocates. A Distances does not keep the
// graph: every update is passed the caller's graph, already edited.
type Distances struct {
	n        int
	directed bool
	d        []uint16 // d[i*n+j] = d(i,j)

	ru, rv []uint16 // scratch: copies of rows/columns u and v
	queue  []int32  // scratch: BFS queue

	recomputed int
}

// NewDistances returns the distances of g, computed by a BFS from every node,
// O(n(n+m)). It panics if g has 65535 nodes or more (a distance could then
// collide with Unreachable).
func NewDistances(g *linalg.Graph) *Distances {
	n := g.N()
	if n >= Unreachable {
		panic(fmt.Sprintf("incremental: NewDistances of a graph with %d nodes: uint16 distances need n < %d", n, Unreachable))
	}
	d := &Distances{
		n:        n,
		directed: g.Directed(),
		d:        make([]uint16, n*n),
		ru:       make([]uint16, n),
		rv:       make([]uint16, n),
		queue:    make([]int32, n),
	}
	for s := range n {
		d.bfs(g, s)
	}
	return d
}

// N returns the number of nodes.
func (d *Distances) N() int { return d.n }

// Directed reports whether the distances are directed ones.
func (d *Distances) Directed() bool { return d.directed }

// At returns d(i,j): 0 on the diagonal, Unreachable if there is no path from
// i to j. O(1).
func (d *Distances) At(i, j int) int { return int(d.d[i*d.n+j]) }

// Row returns row i, the distances from i to every node (Unreachable for no
// path). The slice is the Distances' own: read it, do not modify it, and do
// not expect it to stay unchanged across an update. O(1).
func (d *Distances) Row(i int) []uint16 {
	return d.d[i*d.n : (i+1)*d.n : (i+1)*d.n]
}

// Recomputed returns how many single-source BFS runs Removed has done since
// NewDistances.
func (d *Distances) Recomputed() int { return d.recomputed }

// check panics if g does not match the Distances or (u, v) is out of range.
func (d *Distances) check(g *linalg.Graph, u, v int) {
	if g.N() != d.n || g.Directed() != d.directed {
		panic("incremental: Distances updated with a different graph")
	}
	if u < 0 || u >= d.n || v < 0 || v >= d.n {
		panic(fmt.Sprintf("incremental: node pair (%d, %d) out of range [0, %d)", u, v, d.n))
	}
}

// Added updates the distances after g gained the edge {u,v} (directed: the
// arc u→v); call it after the graph edit. Undirected:
// d'(i,j) = min(d(i,j), d(i,u)+1+d(v,j), d(i,v)+1+d(u,j)); directed: only the
// first two terms. One pass over the rows that can improve — those with
// |d(i,u) − d(i,v)| ≥ 2 (directed: d(i,v) > d(i,u)+1) — O(n²) at worst, no
// allocation. A self-loop (u == v) changes nothing.
func (d *Distances) Added(g *linalg.Graph, u, v int) {
	d.check(g, u, v)
	if u == v {
		return
	}
	n := d.n
	if d.directed {
		d.addedArc(u, v)
		return
	}
	// Rows u and v change too: work from copies. By symmetry they are also
	// the columns d(·,u) and d(·,v).
	ru, rv := d.ru, d.rv
	copy(ru, d.Row(u))
	copy(rv, d.Row(v))
	for i := range n {
		a, b := int(ru[i]), int(rv[i])
		// Through the edge as i … u–v … j (a < b) or i … v–u … j (b < a); it
		// can shorten nothing unless the two ends differ by 2 or more.
		var via []uint16
		switch {
		case a+1 < b:
			via = rv
		case b+1 < a:
			via, a = ru, b
		default:
			continue
		}
		a++ // distance from i to the far end of the new edge
		row := d.d[i*n : (i+1)*n : (i+1)*n]
		via = via[:n]
		for j, x := range via {
			if t := a + int(x); t < int(row[j]) {
				row[j] = uint16(t)
			}
		}
	}
}

// addedArc is Added for the arc u→v: d'(i,j) = min(d(i,j), d(i,u)+1+d(v,j)).
// Row v and column u do not change.
func (d *Distances) addedArc(u, v int) {
	n := d.n
	rv := d.d[v*n : (v+1)*n : (v+1)*n]
	for i := range n {
		a := int(d.d[i*n+u]) + 1
		if a >= int(d.d[i*n+v]) {
			continue // already reaches v no later: the arc shortens nothing
		}
		row := d.d[i*n : (i+1)*n : (i+1)*n]
		for j, x := range rv {
			if t := a + int(x); t < int(row[j]) {
				row[j] = uint16(t)
			}
		}
	}
}

// Removed updates the distances after g lost the edge {u,v} (directed: the
// arc u→v); call it after the graph edit. The distances from a source s change
// iff d(s,v) does (every other shortest path through the edge reroutes through
// another parent of v), that is iff d(s,v) = d(s,u)+1 and no remaining
// in-neighbour w of v has d(s,w) = d(s,v)−1; undirected graphs also check the
// orientation v→u. Only those sources get a new BFS. Cost O(n·deg) for the
// test plus O(n+m) per recomputed source; no allocation. A self-loop (u == v)
// changes nothing.
func (d *Distances) Removed(g *linalg.Graph, u, v int) {
	d.check(g, u, v)
	if u == v {
		return
	}
	n := d.n
	inV, inU := g.In(v), g.In(u)
	for s := range n {
		row := d.d[s*n : (s+1)*n : (s+1)*n]
		du, dv := int(row[u]), int(row[v])
		switch {
		case dv == du+1:
			if onlyParent(row, inV, dv) {
				d.bfs(g, s)
				d.recomputed++
			}
		case !d.directed && du == dv+1:
			if onlyParent(row, inU, du) {
				d.bfs(g, s)
				d.recomputed++
			}
		}
	}
}

// onlyParent reports whether none of the in-neighbours in lies at distance
// dist−1 on row, i.e. the removed edge was the last step of every shortest
// path to the node at distance dist.
func onlyParent(row []uint16, in []int, dist int) bool {
	for _, w := range in {
		if int(row[w])+1 == dist {
			return false
		}
	}
	return true
}

// bfs rewrites row s with the distances from s in g, O(n+m).
func (d *Distances) bfs(g *linalg.Graph, s int) {
	n := d.n
	row := d.d[s*n : (s+1)*n : (s+1)*n]
	for j := range row {
		row[j] = Unreachable
	}
	row[s] = 0
	q := d.queue
	q[0] = int32(s)
	head, tail := 0, 1
	for head < tail {
		x := int(q[head])
		head++
		nd := row[x] + 1
		for _, y := range g.Out(x) {
			if row[y] == Unreachable {
				row[y] = nd
				q[tail] = int32(y)
				tail++
			}
		}
	}
}
