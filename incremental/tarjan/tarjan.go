// Package tarjan answers the connectivity questions a graph-rewiring loop asks
// over and over: connected components, strongly connected components, bridges,
// "is {u,v} a bridge?" and "would removing the arc u→v split its strongly
// connected component?".
//
// Every algorithm is iterative (explicit stacks and queues, no recursion), so
// a path of millions of nodes cannot overflow the goroutine stack, and runs in
// O(n + m) time for a graph with n nodes and m edges. Self-loops are ignored:
// they never appear in a linalg.Graph's neighbour lists and change no answer.
//
// Whole-graph functions (Components, SCC, Bridges) allocate O(n) scratch per
// call. The single-edge queries are best made through a Searcher, which keeps
// its buffers between calls and allocates nothing per query; the
// package-level IsBridge and SplitsSCC build a fresh Searcher each time.
package tarjan

import "github.com/ohmgnn/ohm/linalg"

// undirectedNbr returns the k-th neighbour of u in the underlying undirected
// graph and whether k is in range: Out(u) followed by, for a directed graph,
// In(u). A node adjacent both ways appears twice; callers tolerate that.
func undirectedNbr(out, in []int, k int) (int, bool) {
	if k < len(out) {
		return out[k], true
	}
	k -= len(out)
	if k < len(in) {
		return in[k], true
	}
	return 0, false
}

// inList returns In(u) for a directed graph and nil for an undirected one
// (whose Out(u) already holds every neighbour), without allocating.
func inList(g *linalg.Graph, u int) []int {
	if g.Directed() {
		return g.In(u)
	}
	return nil
}

// Components labels the connected components of the underlying undirected
// graph of g (for a directed graph: its weakly connected components).
// comp[u] is u's component and count the number of components. Labels are
// deterministic: components are numbered 0, 1, ... in increasing order of
// their smallest node id, so node 0 (if any) is in component 0.
// Time O(n + m), O(n) extra space, iterative.
func Components(g *linalg.Graph) (comp []int, count int) {
	n := g.N()
	comp = make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	stack := make([]int, 0, 64)
	for s := range n {
		if comp[s] >= 0 {
			continue
		}
		comp[s] = count
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, y := range g.Out(x) {
				if comp[y] < 0 {
					comp[y] = count
					stack = append(stack, y)
				}
			}
			for _, y := range inList(g, x) {
				if comp[y] < 0 {
					comp[y] = count
					stack = append(stack, y)
				}
			}
		}
		count++
	}
	return comp, count
}

// SCC labels the strongly connected components of g with Tarjan's algorithm,
// run iteratively. comp[u] is u's component and count the number of
// components. Labels follow the same rule as Components: numbered in
// increasing order of their smallest node id. For an undirected graph the
// strongly connected components are the connected components, and SCC returns
// exactly Components(g). Time O(n + m), O(n) extra space.
func SCC(g *linalg.Graph) (comp []int, count int) {
	if !g.Directed() {
		return Components(g)
	}
	n := g.N()
	comp = make([]int, n)
	scratch := make([]int, 3*n)
	index := scratch[:n:n] // DFS discovery time, 1-based; 0 = unvisited
	low := scratch[n : 2*n : 2*n]
	pos := scratch[2*n:] // next out-neighbour to scan, per node on the call stack
	var stack []int      // Tarjan's stack: visited nodes not yet assigned
	var call []int       // DFS call stack
	for i := range comp {
		comp[i] = -1
	}
	t := 0
	for s := range n {
		if index[s] != 0 {
			continue
		}
		t++
		index[s], low[s] = t, t
		stack = append(stack, s)
		call = append(call, s)
		for len(call) > 0 {
			x := call[len(call)-1]
			out := g.Out(x)
			if pos[x] < len(out) {
				y := out[pos[x]]
				pos[x]++
				if index[y] == 0 {
					t++
					index[y], low[y] = t, t
					stack = append(stack, y)
					call = append(call, y)
				} else if comp[y] < 0 && index[y] < low[x] { // y on the stack
					low[x] = index[y]
				}
				continue
			}
			call = call[:len(call)-1]
			if low[x] == index[x] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					comp[w] = count
					if w == x {
						break
					}
				}
				count++
			}
			if len(call) > 0 {
				if p := call[len(call)-1]; low[x] < low[p] {
					low[p] = low[x]
				}
			}
		}
	}
	// Tarjan numbers components in reverse topological order; renumber them
	// by smallest node id. index is reused as the old→new label map.
	remap := index[:count]
	for i := range remap {
		remap[i] = -1
	}
	next := 0
	for v := range n {
		c := comp[v]
		if remap[c] < 0 {
			remap[c] = next
			next++
		}
		comp[v] = remap[c]
	}
	return comp, count
}
