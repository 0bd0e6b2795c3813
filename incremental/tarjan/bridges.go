package tarjan

import (
	"cmp"
	"slices"

	"github.com/ohmgnn/ohm/linalg"
)

// BridgeSet is the set of bridges of a graph's underlying undirected graph, as
// returned by Bridges. Every bridge is an edge of the DFS forest, so the set is
// stored as "the edge from v to its DFS parent is a bridge", which makes
// membership O(1) without hashing. The zero BridgeSet is empty. A BridgeSet
// describes the graph at the time of the Bridges call; it is not updated by
// later edits.
type BridgeSet struct {
	parent []int  // DFS-forest parent, -1 for roots
	bridge []bool // bridge[v]: the edge {v, parent[v]} is a bridge
	edges  []linalg.Edge
}

// Has reports whether {u,v} is a bridge; the order of u and v does not matter.
// Ids outside the graph give false. O(1).
func (b BridgeSet) Has(u, v int) bool {
	n := len(b.parent)
	if u < 0 || v < 0 || u >= n || v >= n {
		return false
	}
	return (b.bridge[v] && b.parent[v] == u) || (b.bridge[u] && b.parent[u] == v)
}

// Len returns the number of bridges. O(1).
func (b BridgeSet) Len() int { return len(b.edges) }

// Edges returns the bridges as edges with U < V, sorted by U then V, in a new
// slice the caller may keep. O(number of bridges).
func (b BridgeSet) Edges() []linalg.Edge { return slices.Clone(b.edges) }

// Bridges returns every bridge of the underlying undirected graph of g: the
// edges whose removal increases the number of connected components. For a
// directed g the underlying graph has the edge {u,v} when u→v or v→u is an
// arc; a pair with arcs both ways is one undirected edge and can still be a
// bridge. Self-loops are never bridges. Iterative lowlink DFS; time
// O(n + m + b log b) for b bridges, O(n) extra space.
func Bridges(g *linalg.Graph) BridgeSet {
	n := g.N()
	scratch := make([]int, 3*n)
	disc := scratch[:n:n] // discovery time, 1-based; 0 = unvisited
	low := scratch[n : 2*n : 2*n]
	pos := scratch[2*n:] // next neighbour to scan (Out, then In if directed)
	parent := make([]int, n)
	bridge := make([]bool, n)
	var call []int
	var edges []linalg.Edge
	t := 0
	for s := range n {
		if disc[s] != 0 {
			continue
		}
		t++
		disc[s], low[s], parent[s] = t, t, -1
		call = append(call, s)
		for len(call) > 0 {
			x := call[len(call)-1]
			y, ok := undirectedNbr(g.Out(x), inList(g, x), pos[x])
			if ok {
				pos[x]++
				// The graph is simple, so the tree edge to the parent is the
				// only edge to it (both arcs of a reciprocated pair included).
				if y == parent[x] {
					continue
				}
				if disc[y] == 0 {
					t++
					disc[y], low[y], parent[y] = t, t, x
					call = append(call, y)
				} else if disc[y] < low[x] {
					low[x] = disc[y]
				}
				continue
			}
			call = call[:len(call)-1]
			if p := parent[x]; p >= 0 {
				if low[x] < low[p] {
					low[p] = low[x]
				}
				if low[x] > disc[p] {
					bridge[x] = true
					edges = append(edges, linalg.Edge{U: min(p, x), V: max(p, x)})
				}
			}
		}
	}
	slices.SortFunc(edges, func(a, b linalg.Edge) int {
		if c := cmp.Compare(a.U, b.U); c != 0 {
			return c
		}
		return cmp.Compare(a.V, b.V)
	})
	return BridgeSet{parent: parent, bridge: bridge, edges: edges}
}
