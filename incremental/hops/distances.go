// Package hops keeps the all-pairs unweighted shortest-path distances
// (hops) of a graph exact under edge additions and removals (definitions §2.3):
// the per-hop scores of the dense resistance engines divide R by them.
package hops

import (
	"fmt"
	"math"

	"github.com/ohmgnn/ohm/linalg"
)

// Unreachable is the stored distance of a pair with no path.
const Unreachable = math.MaxUint16

// Distances keeps the all-pairs unweighted shortest-path distances d(i,j) of a
// graph exact under edge additions and removals (definitions §2.3). For a directed
// graph d(i,j) is the length of a shortest directed path i→j along arcs; for
// an undirected graph it is symmetric. Self-loops are ignored.
//
// Storage is the full n×n matrix of uint16, row-major (row i holds the
// distances from i; the undirected case keeps both triangles so every row is
// contiguous), 2n² bytes. An addition is one O(n²) pass over the rows that
// can improve; a removal repairs, in each row whose distances change, only the
// entries that change (Ramalingam–Reps), O(|A|·deg) for the |A| changed
// entries. Neither allocates. A Distances does not keep the graph: every
// update is passed the caller's graph, already edited.
type Distances struct {
	n        int
	directed bool
	d        []uint16 // d[i*n+j] = d(i,j)

	ru, rv []uint16 // scratch: copies of rows/columns u and v
	queue  []int32  // scratch: BFS queue; in Removed, the affected set A
	fifo   []int32  // scratch: Removed's queue of lowered nodes
	head   []int32  // scratch: Removed's seed buckets by distance, all −1 between calls
	next   []int32  // scratch: Removed's bucket lists
	mark   []uint32 // scratch: Removed's node marks, valid when equal to gen or gen+1
	gen    uint32

	recomputed int // sources repaired by Removed
	repaired   int // entries (undirected: pairs) rewritten by Removed
}

// MaxNodes is the largest graph Distances holds: its uint16 distances
// need n < Unreachable, so that no distance (at most n − 1) collides with
// Unreachable (definitions §2.3).
const MaxNodes = Unreachable - 1

// CheckNodes reports, as an error, a graph of n nodes too large for
// Distances (n > MaxNodes): callers check it before they allocate anything
// n²-sized. O(1).
func CheckNodes(n int) error {
	if n > MaxNodes {
		return fmt.Errorf("hops: per-hop scores need the hop distance of every pair as a 16-bit number, which holds graphs of at most %d nodes; this one has %d", MaxNodes, n)
	}
	return nil
}

// New returns the distances of g, computed by a BFS from every node,
// O(n(n+m)). It panics if CheckNodes(g.N()) fails: callers check first.
func New(g *linalg.Graph) *Distances {
	n := g.N()
	if err := CheckNodes(n); err != nil {
		panic(err)
	}
	d := &Distances{
		n:        n,
		directed: g.Directed(),
		d:        make([]uint16, n*n),
		ru:       make([]uint16, n),
		rv:       make([]uint16, n),
		queue:    make([]int32, n),
		fifo:     make([]int32, n),
		head:     make([]int32, n),
		next:     make([]int32, n),
		mark:     make([]uint32, n),
	}
	for i := range d.head {
		d.head[i] = -1
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

// Recomputed returns how many sources Removed has repaired since New:
// the sources whose row changed, except that for an undirected graph only the
// sources on u's side of a removed edge {u,v} (d(s,v) = d(s,u)+1) count; the
// rows on v's side are rewritten through symmetry by those repairs.
func (d *Distances) Recomputed() int { return d.recomputed }

// Repaired returns how many distances Removed has rewritten since
// New, summed over the repaired sources: the size of each affected
// set, which is exactly the set of entries of the row that change. For an
// undirected graph each changed pair {s,w} counts once (d(s,w) and its mirror
// d(w,s) are written together). Repaired/Recomputed is the mean work per
// repaired source, against n for a BFS.
func (d *Distances) Repaired() int { return d.repaired }

// check panics if g does not match the Distances or (u, v) is out of range.
func (d *Distances) check(g *linalg.Graph, u, v int) {
	if g.N() != d.n || g.Directed() != d.directed {
		panic("hops: Distances updated with a different graph")
	}
	if u < 0 || u >= d.n || v < 0 || v >= d.n {
		panic(fmt.Sprintf("hops: node pair (%d, %d) out of range [0, %d)", u, v, d.n))
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
// arc u→v); call it after the graph edit. A self-loop (u == v) changes
// nothing.
//
// The distances from a source s change iff d(s,v) does (every other shortest
// path through the arc reroutes through another parent of v), that is iff
// d(s,v) = d(s,u)+1 and no remaining in-neighbour w of v has
// d(s,w) = d(s,v)−1. Row s of such a source is repaired in place (see
// repair), touching only the affected set A of nodes whose every shortest
// path from s used the arc, i.e. exactly the entries that change.
//
// Undirected graphs only repair the sources on u's side (d(s,v) = d(s,u)+1)
// and write every new d(s,w) into d(w,s) as well. That covers the other
// orientation: a pair {s,w} whose distance changes had all its shortest paths
// through the edge in one orientation (two orientations would need both
// d(s,v) = d(s,u)+1 and d(s,u) = d(s,v)+1), so one of s, w lies on u's side
// and has the other in its affected set. It also keeps the sources
// independent within a call: the mirror writes only land in rows w with
// d(w,u) = d(w,v)+1, which are never repaired and whose test reads columns u
// and v only — column v is never written, and column u only ever grows,
// which cannot make d(w,v) = d(w,u)+1 — while the rows that are repaired, the
// sources' own, are written by nobody else. Each repair thus reads the
// distances from before the removal everywhere but in its own finished
// entries, whatever the source order.
//
// Cost O(n·deg(v)) for the test plus O(Σ_{w∈A} deg(w) + Σ_{y child of A}
// deg(y)) per repaired source; no allocation.
func (d *Distances) Removed(g *linalg.Graph, u, v int) {
	d.check(g, u, v)
	if u == v {
		return
	}
	n := d.n
	inV := g.In(v)
	for s := range n {
		row := d.d[s*n : (s+1)*n : (s+1)*n]
		du, dv := int(row[u]), int(row[v])
		if dv == du+1 && onlyParent(row, inV, dv) {
			d.repair(g, s, v)
		}
	}
}

// repair rewrites row s after the removal of the arc u→v (undirected: the
// edge, with s on u's side), given that every shortest path from s to v used
// it. Row s holds the distances from before the removal; on return it holds
// the new ones, and for an undirected graph so does column s at every entry
// that changed. Three steps, each over the affected set A only:
//
//  1. A, the nodes whose every shortest path from s ran through u→v, by a
//     walk down the shortest-path DAG from v in BFS order: a child y
//     (d(s,y) = d(s,w)+1, w ∈ A) is affected iff all its parents, the
//     in-neighbours x with d(s,x) = d(s,y)−1, are. They all lie one level up
//     and are settled before y is looked at, since the walk is FIFO.
//  2. Each w ∈ A gets the tentative distance min d(s,x)+1 over its
//     in-neighbours x outside A (final values), Unreachable if none; the
//     finite ones are dropped into buckets by distance.
//  3. Dijkstra with unit weights inside A: the buckets (in increasing order)
//     merged with a FIFO of the nodes lowered through an arc, both pop in
//     non-decreasing distance order. A node is final when popped; an
//     out-neighbour y of it is lowered iff its entry exceeds the popped
//     distance+1, which can only hold inside A (an entry outside A is final,
//     hence at most that). A node is lowered at most once, so the FIFO holds
//     at most |A|. Nodes never reached keep Unreachable.
func (d *Distances) repair(g *linalg.Graph, s, v int) {
	n := d.n
	row := d.d[s*n : (s+1)*n : (s+1)*n]
	mark := d.mark
	if d.gen >= math.MaxUint32-2 {
		clear(mark)
		d.gen = 0
	}
	d.gen += 2
	aff, seen := d.gen, d.gen+1 // in A; looked at and not in A

	// 1. The affected set, in the queue in BFS order.
	q := d.queue
	q[0] = int32(v)
	mark[v] = aff
	k := 1
	for h := 0; h < k; h++ {
		w := int(q[h])
		child := int(row[w]) + 1 // finite: w is reached through v
		for _, y := range g.Out(w) {
			if int(row[y]) != child || mark[y] == aff || mark[y] == seen {
				continue
			}
			if unaffectedParent(row, mark, aff, g.In(y), child) {
				mark[y] = seen
				continue
			}
			mark[y] = aff
			q[k] = int32(y)
			k++
		}
	}
	A := q[:k]

	// 2. Tentative distances from the unaffected in-neighbours, into buckets.
	head, next := d.head, d.next
	lo, hi := n, -1
	for _, w32 := range A {
		w := int(w32)
		t := Unreachable
		for _, x := range g.In(w) {
			if mark[x] != aff {
				t = min(t, int(row[x])+1) // Unreachable+1 never wins
			}
		}
		row[w] = uint16(t)
		if t < Unreachable {
			next[w] = head[t]
			head[t] = w32
			lo, hi = min(lo, t), max(hi, t)
		}
	}

	// 3. Dijkstra inside A, buckets merged with the FIFO.
	fifo := d.fifo
	fh, ft := 0, 0
	b, sn := lo, int32(-1) // next bucket to open; current seed, at distance b−1
	for {
		for sn < 0 && b <= hi {
			sn = head[b]
			head[b] = -1
			b++
		}
		var w, dw int
		switch {
		case sn >= 0 && (fh == ft || b-1 <= int(row[fifo[fh]])):
			w, dw = int(sn), b-1
			sn = next[w]
			if int(row[w]) != dw {
				continue // lowered through an arc and popped already
			}
		case fh < ft:
			w = int(fifo[fh])
			fh++
			dw = int(row[w])
		default:
			// sn < 0 with b > hi: every bucket is back to −1.
			if !d.directed {
				for _, w32 := range A {
					w := int(w32)
					d.d[w*n+s] = row[w]
				}
			}
			d.recomputed++
			d.repaired += k
			return
		}
		nd := uint16(dw + 1)
		for _, y := range g.Out(w) {
			if row[y] > nd {
				row[y] = nd
				fifo[ft] = int32(y)
				ft++
			}
		}
	}
}

// unaffectedParent reports whether some in-neighbour x in in, a parent of the
// node at distance dist (row[x] = dist−1), is not marked aff.
func unaffectedParent(row []uint16, mark []uint32, aff uint32, in []int, dist int) bool {
	for _, x := range in {
		if int(row[x])+1 == dist && mark[x] != aff {
			return true
		}
	}
	return false
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

// AddEdge adds the edge {u,v} (arc u→v) to g and, when d is not nil,
// updates the distances to match (Added, whose cost it has): with
// RemoveEdge, the one place the engines change their graph.
func (d *Distances) AddEdge(g *linalg.Graph, u, v int) {
	g.AddEdge(u, v)
	if d != nil {
		d.Added(g, u, v)
	}
}

// RemoveEdge removes the edge {u,v} (arc u→v) from g and, when d is not
// nil, updates the distances to match (Removed, whose cost it has).
func (d *Distances) RemoveEdge(g *linalg.Graph, u, v int) {
	g.RemoveEdge(u, v)
	if d != nil {
		d.Removed(g, u, v)
	}
}
