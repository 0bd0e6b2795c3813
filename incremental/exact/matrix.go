package exact

import (
	"fmt"

	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
	"gonum.org/v1/gonum/mat"
)

// matrix computes the blocks and L⁺ (undirected) or X (directed) of g
// from scratch.
func matrix(g *linalg.Graph) ([]int, *mat.SymDense, error) {
	if !g.Directed() {
		comp, _ := tarjan.Components(g)
		P, err := linalg.Pinv(g, comp)
		return comp, P, err
	}
	scc, _ := tarjan.SCC(g)
	n := g.N()
	X := mat.NewSymDense(max(n, 1), nil)
	for _, nodes := range linalg.Groups(scc) {
		ns := len(nodes)
		if ns < 2 {
			continue
		}
		local := make(map[int]int, ns)
		for a, i := range nodes {
			local[i] = a
		}
		// M = ΠL + J/n on the induced subgraph: (ΠL)_ab = L_ab − colsum_b/n.
		L := mat.NewDense(ns, ns, nil)
		for a, i := range nodes {
			for _, j := range g.Out(i) {
				if b, ok := local[j]; ok {
					L.Set(a, b, L.At(a, b)-1)
					L.Set(a, a, L.At(a, a)+1)
				}
			}
		}
		inv := 1 / float64(ns)
		M := mat.NewDense(ns, ns, nil)
		Pi := mat.NewSymDense(ns, nil)
		for b := range ns {
			col := 0.0
			for a := range ns {
				col += L.At(a, b)
			}
			for a := range ns {
				M.Set(a, b, L.At(a, b)-col*inv+inv)
			}
			for a := b; a < ns; a++ {
				v := -inv
				if a == b {
					v++
				}
				Pi.SetSym(b, a, v)
			}
		}
		Y, err := linalg.SolveLyapunov(M, Pi)
		if err != nil {
			return nil, nil, fmt.Errorf("exact: directed solve of an SCC of %d nodes: %w", ns, err)
		}
		for a, i := range nodes {
			for b := a; b < ns; b++ {
				X.SetSym(i, nodes[b], 2*Y.At(a, b))
			}
		}
	}
	return scc, X, nil
}

// AllPairsBFS returns d[i][j], the number of arcs on a shortest path i→j
// (undirected: edges), or -1, by a plain BFS from every node: the oracle's
// distances, independent of package incremental/hops. O(n(n+m)).
func AllPairsBFS(g *linalg.Graph) [][]int {
	n := g.N()
	d := make([][]int, n)
	q := make([]int, 0, n)
	for s := range n {
		row := make([]int, n)
		for j := range row {
			row[j] = -1
		}
		row[s] = 0
		q = append(q[:0], s)
		for h := 0; h < len(q); h++ {
			u := q[h]
			for _, v := range g.Out(u) {
				if row[v] < 0 {
					row[v] = row[u] + 1
					q = append(q, v)
				}
			}
		}
		d[s] = row
	}
	return d
}
