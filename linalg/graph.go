package linalg

import (
	"fmt"
	"maps"
	"slices"
)

// Edge is an ordered pair of node ids. In an undirected graph ohm reports every
// edge {u,v} with U < V; in a directed graph it is the arc U→V.
type Edge struct{ U, V int }

// Graph is a simple graph on nodes 0..n-1, directed or undirected, with
// self-loops kept apart from the other edges.
//
// Edge membership is O(1) (a hash set of arcs), or, on a graph of at most
// SmallGraph nodes, a search of the shorter of the two sorted lists (at most
// 8 comparisons, and no hash set to build or copy: what graphs of tens of
// nodes, rewired by the thousand, spend most on); neighbour lists are kept
// sorted, so adding or removing an edge costs O(deg) and iteration is
// deterministic. A Graph is not safe for concurrent mutation.
type Graph struct {
	n        int
	directed bool
	out      [][]int             // sorted out-neighbours (undirected: all neighbours), no self-loops
	in       [][]int             // sorted in-neighbours; nil for an undirected graph
	set      map[uint64]struct{} // nil for n ≤ SmallGraph (lookups search the lists)
	loop     []bool
	nloops   int
	m        int // edges (undirected) or arcs (directed), self-loops excluded
}

// NewGraph returns an empty graph with n nodes.
func NewGraph(n int, directed bool) *Graph {
	if n < 0 {
		panic(fmt.Sprintf("linalg: negative node count %d", n))
	}
	g := &Graph{
		n:        n,
		directed: directed,
		out:      make([][]int, n),
		loop:     make([]bool, n),
	}
	if n > SmallGraph {
		g.set = make(map[uint64]struct{})
	}
	if directed {
		g.in = make([][]int, n)
	}
	return g
}

// FromEdges builds a graph with n nodes from a list of edges (arcs when
// directed). Duplicates are coalesced; a self-loop is stored as a self-loop;
// in an undirected graph (u,v) and (v,u) are the same edge. An id outside
// [0, n) is an error naming the offending position; so is a node count
// beyond MaxNodes or one whose graph would not fit in the available memory
// (CheckGraphSize), checked before anything is allocated. Cost O(m log m).
func FromEdges(n int, directed bool, edges []Edge) (*Graph, error) {
	if n < 0 {
		return nil, fmt.Errorf("linalg: negative node count %d", n)
	}
	if err := CheckGraphSize(n, len(edges), directed); err != nil {
		return nil, err
	}
	g := NewGraph(n, directed)
	for k, e := range edges {
		if e.U < 0 || e.U >= n || e.V < 0 || e.V >= n {
			return nil, fmt.Errorf("linalg: edge %d (%d, %d): node id out of range [0, %d)", k, e.U, e.V, n)
		}
		g.AddEdge(e.U, e.V)
	}
	return g, nil
}

// N returns the number of nodes.
func (g *Graph) N() int { return g.n }

// Directed reports whether edges are arcs.
func (g *Graph) Directed() bool { return g.directed }

func (g *Graph) key(u, v int) uint64 {
	if !g.directed && u > v {
		u, v = v, u
	}
	return uint64(u)<<32 | uint64(uint32(v))
}

func (g *Graph) check(u, v int) {
	if u < 0 || u >= g.n || v < 0 || v >= g.n {
		panic(fmt.Sprintf("linalg: node pair (%d, %d) out of range [0, %d)", u, v, g.n))
	}
}

// HasEdge reports whether the edge {u,v} (directed: the arc u→v) is present.
// HasEdge(u, u) reports a self-loop. O(1).
func (g *Graph) HasEdge(u, v int) bool {
	g.check(u, v)
	if u == v {
		return g.loop[u]
	}
	return g.has(u, v)
}

// SmallGraph is the most nodes of a graph that keeps no hash set of its
// edges: membership searches the shorter of the sorted lists of u and v
// (fewer than 256 entries: at most 8 comparisons).
const SmallGraph = 256

// has reports whether the arc u→v (undirected: the edge), u ≠ v, is
// present: the hash set, or a search of the shorter list. O(1), or
// O(log deg) for a small graph.
func (g *Graph) has(u, v int) bool {
	if g.set != nil {
		_, ok := g.set[g.key(u, v)]
		return ok
	}
	a, x := g.out[u], v
	b := g.out[v]
	if g.directed {
		b = g.in[v]
	}
	if len(b) < len(a) {
		a, x = b, u
	}
	return contains(a, x)
}

// contains reports whether the sorted s holds x: a scan of a short list,
// else a binary search.
func contains(s []int, x int) bool {
	if len(s) <= 16 {
		for _, w := range s {
			if w >= x {
				return w == x
			}
		}
		return false
	}
	_, ok := slices.BinarySearch(s, x)
	return ok
}

// AddEdge inserts the edge {u,v} (directed: the arc u→v) and reports whether it
// was absent. u == v stores a self-loop. O(deg).
func (g *Graph) AddEdge(u, v int) bool {
	g.check(u, v)
	if u == v {
		if g.loop[u] {
			return false
		}
		g.loop[u] = true
		g.nloops++
		return true
	}
	if g.has(u, v) {
		return false
	}
	if g.set != nil {
		g.set[g.key(u, v)] = struct{}{}
	}
	g.m++
	g.out[u] = insertSorted(g.out[u], v)
	if g.directed {
		g.in[v] = insertSorted(g.in[v], u)
	} else {
		g.out[v] = insertSorted(g.out[v], u)
	}
	return true
}

// RemoveEdge deletes the edge {u,v} (directed: the arc u→v) and reports whether
// it was present. u == v removes a self-loop. O(deg).
func (g *Graph) RemoveEdge(u, v int) bool {
	g.check(u, v)
	if u == v {
		if !g.loop[u] {
			return false
		}
		g.loop[u] = false
		g.nloops--
		return true
	}
	if !g.has(u, v) {
		return false
	}
	if g.set != nil {
		delete(g.set, g.key(u, v))
	}
	g.m--
	g.out[u] = deleteSorted(g.out[u], v)
	if g.directed {
		g.in[v] = deleteSorted(g.in[v], u)
	} else {
		g.out[v] = deleteSorted(g.out[v], u)
	}
	return true
}

func insertSorted(s []int, x int) []int {
	i, _ := slices.BinarySearch(s, x)
	return slices.Insert(s, i, x)
}

func deleteSorted(s []int, x int) []int {
	i, ok := slices.BinarySearch(s, x)
	if !ok {
		panic("linalg: adjacency lists out of sync")
	}
	return slices.Delete(s, i, i+1)
}

// HasSelfLoop reports whether u has a self-loop.
func (g *Graph) HasSelfLoop(u int) bool { return g.loop[u] }

// SelfLoops returns the nodes with a self-loop, ascending.
func (g *Graph) SelfLoops() []int {
	s := make([]int, 0, g.nloops)
	for u, l := range g.loop {
		if l {
			s = append(s, u)
		}
	}
	return s
}

// NumSelfLoops returns the number of self-loops.
func (g *Graph) NumSelfLoops() int { return g.nloops }

// NumEdges returns the number of edges (undirected: unordered pairs; directed:
// arcs), self-loops excluded.
func (g *Graph) NumEdges() int { return g.m }

// E0 is the edge count of definitions §1 that budgets are taken from: arcs including
// self-loops for a directed graph; unordered pairs plus each self-loop once for
// an undirected one (as networkx counts them).
func (g *Graph) E0() int { return g.m + g.nloops }

// Out returns the sorted out-neighbours of u (undirected: all neighbours),
// self-loop excluded. The slice is the graph's own: do not modify it, and do
// not keep it across an edit.
func (g *Graph) Out(u int) []int { return g.out[u] }

// OutLists returns every node's sorted out-neighbours (undirected: all
// neighbours), self-loops excluded, and the self-loop flags: the graph's
// own slices, for kernels that sweep them all (Out and HasSelfLoop node
// by node). Do not modify them, and do not keep them across an edit.
// O(1).
func (g *Graph) OutLists() ([][]int, []bool) { return g.out, g.loop }

// In returns the sorted in-neighbours of u (undirected: all neighbours),
// self-loop excluded. The slice is the graph's own.
func (g *Graph) In(u int) []int {
	if g.directed {
		return g.in[u]
	}
	return g.out[u]
}

// Neighbours returns the sorted union of in- and out-neighbours of u, self-loop
// excluded. For an undirected graph it is the graph's own slice; for a directed
// graph a new one (O(deg)).
func (g *Graph) Neighbours(u int) []int {
	if !g.directed {
		return g.out[u]
	}
	return mergeSorted(g.out[u], g.in[u])
}

func mergeSorted(a, b []int) []int {
	s := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			s = append(s, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			s = append(s, b[j])
			j++
		default:
			s = append(s, a[i])
			i++
			j++
		}
	}
	return s
}

// OutDegree returns the number of out-neighbours of u (undirected: the degree),
// self-loop excluded.
func (g *Graph) OutDegree(u int) int { return len(g.out[u]) }

// InDegree returns the number of in-neighbours of u, self-loop excluded.
func (g *Graph) InDegree(u int) int { return len(g.In(u)) }

// Degree returns the number of distinct neighbours of u (in or out), self-loop
// excluded. O(1) undirected, O(deg) directed.
func (g *Graph) Degree(u int) int {
	if !g.directed {
		return len(g.out[u])
	}
	return len(mergeSorted(g.out[u], g.in[u]))
}

// Edges returns every edge in row-major order, self-loops excluded: undirected
// edges as (u, v) with u < v sorted by u then v; directed arcs sorted by
// source then target. O(m).
func (g *Graph) Edges() []Edge {
	es := make([]Edge, 0, g.m)
	for u, nb := range g.out {
		for _, v := range nb {
			if g.directed || u < v {
				es = append(es, Edge{u, v})
			}
		}
	}
	return es
}

// Arcs returns the arc list of the graph in PyTorch Geometric's convention,
// sorted by (source, target): a directed graph's arcs; for an undirected graph
// both arcs of every edge. Self-loops are included once each. O(m).
func (g *Graph) Arcs() []Edge {
	na := g.m + g.nloops
	if !g.directed {
		na += g.m
	}
	as := make([]Edge, 0, na)
	for u, nb := range g.out {
		i, _ := slices.BinarySearch(nb, u)
		for _, v := range nb[:i] {
			as = append(as, Edge{u, v})
		}
		if g.loop[u] {
			as = append(as, Edge{u, u})
		}
		for _, v := range nb[i:] {
			as = append(as, Edge{u, v})
		}
	}
	return as
}

// Clone returns a deep copy of g. O(n + m).
func (g *Graph) Clone() *Graph {
	c := &Graph{
		n:        g.n,
		directed: g.directed,
		out:      cloneLists(g.out),
		in:       cloneLists(g.in),
		set:      maps.Clone(g.set), // the runtime copies the table whole; nil stays nil
		loop:     slices.Clone(g.loop),
		nloops:   g.nloops,
		m:        g.m,
	}
	return c
}

// CloneArena makes copies of graphs (Clone) whose memory — the Graph,
// its lists, its self-loop flags — is carved from blocks shared by many
// copies, instead of allocations of their own: for a batch that copies
// thousands of graphs of tens of nodes, where allocating (and collecting)
// the small pieces costs more than copying them. A block lives as long as
// any copy made in it. The zero value is ready; not safe for concurrent
// use.
type CloneArena struct {
	ints   []int
	lists  [][]int
	loops  []bool
	graphs []Graph
}

// arenaBlock is the least number of entries a CloneArena allocates at
// once (of ints; an eighth of it of the others).
const arenaBlock = 1 << 15

// Clone returns a deep copy of g, as g.Clone, made in the arena. O(n + m).
func (a *CloneArena) Clone(g *Graph) *Graph {
	if len(a.graphs) == 0 {
		a.graphs = make([]Graph, arenaBlock/256)
	}
	c := &a.graphs[0]
	a.graphs = a.graphs[1:]
	*c = Graph{n: g.n, directed: g.directed, set: maps.Clone(g.set), nloops: g.nloops, m: g.m}
	c.out = a.cloneLists(g.out)
	c.in = a.cloneLists(g.in)
	c.loop = take(&a.loops, len(g.loop), arenaBlock)
	copy(c.loop, g.loop)
	return c
}

// Reserve makes the arena's next blocks hold at least ints list entries,
// lists lists (and self-loop flags) and graphs graphs, so that copies of
// that total size (CloneSize) take no further allocation: a batch sizes
// its arena once instead of allocating blocks of the default size.
// O(ints + lists + graphs) when it allocates.
func (a *CloneArena) Reserve(ints, lists, graphs int) {
	if len(a.ints) < ints {
		a.ints = make([]int, ints)
	}
	if len(a.lists) < lists {
		a.lists = make([][]int, lists)
	}
	if len(a.loops) < lists {
		a.loops = make([]bool, lists)
	}
	if len(a.graphs) < graphs {
		a.graphs = make([]Graph, graphs)
	}
}

// CloneSize returns the list entries and the lists a copy of g takes in a
// CloneArena (Reserve). O(n).
func CloneSize(g *Graph) (ints, lists int) {
	ints, lists = flatLen(g.out), len(g.out)
	if g.in != nil {
		ints += flatLen(g.in)
		lists += len(g.in)
	}
	return ints, lists
}

// take carves n entries off *block (a new block of at least min when it
// is short), capacity n.
func take[T any](block *[]T, n, min int) []T {
	if len(*block) < n {
		*block = make([]T, max(n, min))
	}
	s := (*block)[:n:n]
	*block = (*block)[n:]
	return s
}

// cloneLists is the package's cloneLists in the arena.
func (a *CloneArena) cloneLists(l [][]int) [][]int {
	if l == nil {
		return nil
	}
	c := take(&a.lists, len(l), arenaBlock/8)
	return fillLists(c, take(&a.ints, flatLen(l), arenaBlock), l)
}

// cloneLists copies the lists into one backing array (one allocation for
// all of them), each non-empty list with room for cloneSlack more entries:
// an edge added to a copy grows its two lists without allocating, and a
// list that outgrows its room moves out rather than overwrite the next.
// Empty lists stay nil (no room kept for isolated nodes: graphs of
// millions of them).
func cloneLists(l [][]int) [][]int {
	if l == nil {
		return nil
	}
	return fillLists(make([][]int, len(l)), make([]int, flatLen(l)), l)
}

// flatLen is the length of the one array cloneLists copies l into.
func flatLen(l [][]int) int {
	total := 0
	for _, s := range l {
		if len(s) > 0 {
			total += len(s) + cloneSlack
		}
	}
	return total
}

// fillLists copies l into flat (flatLen(l) entries) and makes c (len(l)
// entries, zero) its lists, as cloneLists describes; it returns c.
func fillLists(c [][]int, flat []int, l [][]int) [][]int {
	off := 0
	for i, s := range l {
		if len(s) == 0 {
			continue
		}
		copy(flat[off:], s)
		c[i] = flat[off : off+len(s) : off+len(s)+cloneSlack]
		off += len(s) + cloneSlack
	}
	return c
}

// cloneSlack is the room for more neighbours each list of a clone gets.
const cloneSlack = 2

// Undirected returns the symmetrization of g: every arc becomes the unordered
// pair {u,v}, duplicates dropped, self-loops kept (definitions §1). For an undirected
// g it returns a copy. O(n + m).
func (g *Graph) Undirected() *Graph {
	if !g.directed {
		return g.Clone()
	}
	s := NewGraph(g.n, false)
	for u, nb := range g.out {
		for _, v := range nb {
			s.AddEdge(u, v)
		}
		if g.loop[u] {
			s.AddEdge(u, u)
		}
	}
	return s
}

// Equal reports whether g and h have the same direction, node count, edges and
// self-loops. O(n + m).
func (g *Graph) Equal(h *Graph) bool {
	if g.n != h.n || g.directed != h.directed || g.m != h.m || g.nloops != h.nloops {
		return false
	}
	return slices.Equal(g.loop, h.loop) && slices.EqualFunc(g.out, h.out, slices.Equal[[]int])
}
