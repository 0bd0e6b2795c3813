// Package graphgen generates random graphs of any size in time and memory
// linear in their nodes and edges, as undirected edge lists (u < v, no
// self-loops, no duplicates) with, where the model has them, node labels:
// stochastic block models, random geometric graphs, Barabási–Albert graphs
// and rings of cliques. They are the scale tests of ohm's engines and of
// its loaders (ohm data synth). Every generator is reproducible from its
// seed.
package graphgen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/linalg"
)

// Graph is a generated graph: n nodes, undirected edges (U < V), and a
// label per node (nil when the model has none).
type Graph struct {
	N      int
	Edges  []linalg.Edge
	Labels []int
}

// Undirected returns the generated graph as an undirected linalg.Graph.
// O(n + m).
func (g *Graph) Undirected() (*linalg.Graph, error) {
	return linalg.FromEdges(g.N, false, g.Edges)
}

// Arcs returns both arcs of every edge, PyG's convention for edge_index.
// O(m).
func (g *Graph) Arcs() []linalg.Edge {
	out := make([]linalg.Edge, 0, 2*len(g.Edges))
	for _, e := range g.Edges {
		out = append(out, e, linalg.Edge{U: e.V, V: e.U})
	}
	return out
}

// SBMByDegree is SBM with the probabilities set by a mean degree and a
// homophily h (the share of a node's expected edges inside its block):
// pIn = d·h/(n/k − 1), pOut = d·(1 − h)/(n − n/k), each capped at 1 — the
// SBM of `ohm data synth --model sbm`. Errors as SBM's, and for h outside
// [0, 1].
func SBMByDegree(n, k int, avgDegree, homophily float64, seed uint64) (*Graph, error) {
	if !(homophily >= 0 && homophily <= 1) {
		return nil, fmt.Errorf("sbm: homophily %v outside [0, 1]", homophily)
	}
	if k < 1 || k > max(n, 1) {
		return nil, fmt.Errorf("sbm: %d blocks for %d nodes", k, n)
	}
	per := float64(n) / float64(k)
	pIn := avgDegree * homophily / max(per-1, 1)
	pOut := avgDegree * (1 - homophily) / max(float64(n)-per, 1)
	return SBM(n, k, min(pIn, 1), min(pOut, 1), seed)
}

// SBM is the stochastic block model with k equal blocks (node i in block
// i·k/n, its label): an edge between two nodes of one block with
// probability pIn, of two blocks with pOut. Pairs are drawn by geometric
// skipping over the pairs of each block (pair), so the cost is
// O(n + m + k²). Errors for probabilities outside [0, 1] or k outside
// [1, n].
func SBM(n, k int, pIn, pOut float64, seed uint64) (*Graph, error) {
	if k < 1 || k > max(n, 1) {
		return nil, fmt.Errorf("sbm: %d blocks for %d nodes", k, n)
	}
	if !(pIn >= 0 && pIn <= 1 && pOut >= 0 && pOut <= 1) {
		return nil, fmt.Errorf("sbm: probabilities %v, %v outside [0, 1]", pIn, pOut)
	}
	per := float64(n) / float64(k)
	in := float64(k) * pairs(per)
	if err := checkSize("sbm", n, in*pIn+(pairs(float64(n))-in)*pOut); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, 0x5b3))
	start := make([]int, k+1)
	for b := range k + 1 {
		start[b] = b * n / k
	}
	g := &Graph{N: n, Labels: make([]int, n)}
	for b := range k {
		for i := start[b]; i < start[b+1]; i++ {
			g.Labels[i] = b
		}
	}
	for a := range k {
		for b := a; b < k; b++ {
			p := pOut
			if a == b {
				p = pIn
			}
			na, nb := start[a+1]-start[a], start[b+1]-start[b]
			var total int
			if a == b {
				total = na * (na - 1) / 2
			} else {
				total = na * nb
			}
			skip(r, total, p, func(t int) {
				var u, v int
				if a == b {
					// t-th pair (i, j), i < j, of the block, row by row.
					i := int((1 + math.Sqrt(1+8*float64(t))) / 2)
					for i*(i-1)/2 > t {
						i--
					}
					for (i+1)*i/2 <= t {
						i++
					}
					j := t - i*(i-1)/2
					u, v = start[a]+j, start[a]+i
				} else {
					u, v = start[a]+t/nb, start[b]+t%nb
				}
				g.Edges = append(g.Edges, linalg.Edge{U: min(u, v), V: max(u, v)})
			})
		}
	}
	return g, nil
}

// skip calls f for each of the indices 0..total-1 kept with probability p,
// in increasing order, by geometric jumps: O(1 + kept).
func skip(r *rand.Rand, total int, p float64, f func(int)) {
	if p <= 0 || total <= 0 {
		return
	}
	if p >= 1 {
		for t := range total {
			f(t)
		}
		return
	}
	lq := math.Log1p(-p)
	for t := -1; ; {
		t += 1 + int(math.Floor(math.Log(1-r.Float64())/lq))
		if t >= total || t < 0 {
			return
		}
		f(t)
	}
}

// RGGByDegree is RGG with the radius that gives about avgDegree
// neighbours a node away from the border: (n−1)·π·r² = avgDegree (r at
// most 1.4, which joins every pair of the unit square).
func RGGByDegree(n int, avgDegree float64, seed uint64) (*Graph, error) {
	return RGG(n, min(1.4, math.Sqrt(avgDegree/(math.Pi*float64(max(n-1, 1))))), seed)
}

// RGG is the random geometric graph: n points uniform in the unit square,
// joined when closer than radius. A grid of cells of side radius finds the
// pairs in O(n + m) expected time. No labels.
func RGG(n int, radius float64, seed uint64) (*Graph, error) {
	if !(radius > 0 && radius <= math.Sqrt2) {
		return nil, fmt.Errorf("rgg: radius %v outside (0, √2]", radius)
	}
	if err := checkSize("rgg", n, pairs(float64(n))*min(1, math.Pi*radius*radius)); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, 0x266))
	xs, ys := make([]float64, n), make([]float64, n)
	for i := range n {
		xs[i], ys[i] = r.Float64(), r.Float64()
	}
	cells := max(1, int(1/radius))
	cell := func(x float64) int { return min(cells-1, int(x*float64(cells))) }
	grid := make([][]int, cells*cells)
	for i := range n {
		c := cell(xs[i])*cells + cell(ys[i])
		grid[c] = append(grid[c], i)
	}
	g := &Graph{N: n}
	r2 := radius * radius
	for i := range n {
		cx, cy := cell(xs[i]), cell(ys[i])
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				x, y := cx+dx, cy+dy
				if x < 0 || y < 0 || x >= cells || y >= cells {
					continue
				}
				for _, j := range grid[x*cells+y] {
					if j > i {
						if ddx, ddy := xs[i]-xs[j], ys[i]-ys[j]; ddx*ddx+ddy*ddy < r2 {
							g.Edges = append(g.Edges, linalg.Edge{U: i, V: j})
						}
					}
				}
			}
		}
	}
	slices.SortFunc(g.Edges, func(a, b linalg.Edge) int {
		if a.U != b.U {
			return a.U - b.U
		}
		return a.V - b.V
	})
	return g, nil
}

// BA is the Barabási–Albert graph: a clique of k+1 nodes, then every new
// node joined to k distinct earlier nodes chosen with probability
// proportional to their degree (from the list of edge ends). O(n·k). No
// labels.
func BA(n, k int, seed uint64) (*Graph, error) {
	if k < 1 || n < k+1 {
		return nil, fmt.Errorf("ba: %d edges per node needs at least %d nodes, not %d", k, k+1, n)
	}
	if err := checkSize("ba", n, float64(n)*float64(k)*1.5); err != nil { // the list of ends: 2 a edge
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, 0xba))
	g := &Graph{N: n}
	ends := make([]int, 0, 2*n*k)
	for i := range k + 1 {
		for j := i + 1; j <= k; j++ {
			g.Edges = append(g.Edges, linalg.Edge{U: i, V: j})
			ends = append(ends, i, j)
		}
	}
	chosen := make([]int, 0, k)
	for v := k + 1; v < n; v++ {
		chosen = chosen[:0]
		for len(chosen) < k {
			u := ends[r.IntN(len(ends))]
			if !slices.Contains(chosen, u) {
				chosen = append(chosen, u)
			}
		}
		for _, u := range chosen {
			g.Edges = append(g.Edges, linalg.Edge{U: u, V: v})
			ends = append(ends, u, v)
		}
	}
	return g, nil
}

// RingOfCliques is k cliques of s nodes, clique c joined to clique c+1
// (mod k) by one edge from its last node to the next one's first; labels
// are the clique indices. O(k·s²).
func RingOfCliques(k, s int) (*Graph, error) {
	if k < 1 || s < 1 {
		return nil, fmt.Errorf("graphgen: ring of cliques: %d cliques of %d nodes", k, s)
	}
	if err := sysmem.Check(fmt.Sprintf("ring of cliques: a graph of %.0f nodes and about %.4g edges", float64(k)*float64(s), float64(k)*(pairs(float64(s))+1)),
		Bytes(min(k*s, 1<<40), float64(k)*(pairs(float64(s))+1)), "fewer nodes or a lower degree"); err != nil {
		return nil, err
	}
	if float64(k)*float64(s) > linalg.MaxNodes {
		return nil, fmt.Errorf("ring of cliques: %d cliques of %d nodes: more than ohm's limit of %d nodes", k, s, linalg.MaxNodes)
	}
	g := &Graph{N: k * s, Labels: make([]int, k*s)}
	for c := range k {
		base := c * s
		for i := range s {
			g.Labels[base+i] = c
			for j := i + 1; j < s; j++ {
				g.Edges = append(g.Edges, linalg.Edge{U: base + i, V: base + j})
			}
		}
		if k > 1 {
			u, v := base+s-1, ((c+1)%k)*s
			if u != v && !(k == 2 && c == 1) {
				g.Edges = append(g.Edges, linalg.Edge{U: min(u, v), V: max(u, v)})
			}
		}
	}
	return g, nil
}
