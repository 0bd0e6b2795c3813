package linalg

import "github.com/james-bowman/sparse"

// Adjacency returns the n×n adjacency matrix in CSR form, A_ij = 1 iff the arc
// i→j is present (undirected: iff {i,j} is an edge), self-loops included on the
// diagonal. Column indices are sorted within each row and never repeated.
// O(n + m).
func (g *Graph) Adjacency() *sparse.CSR {
	ia := make([]int, g.n+1)
	ja := make([]int, 0, g.m*2+g.nloops)
	for u := range g.n {
		nb := g.out[u]
		placed := !g.loop[u]
		for _, v := range nb {
			if !placed && v > u {
				ja = append(ja, u)
				placed = true
			}
			ja = append(ja, v)
		}
		if !placed {
			ja = append(ja, u)
		}
		ia[u+1] = len(ja)
	}
	data := make([]float64, len(ja))
	for i := range data {
		data[i] = 1
	}
	return sparse.NewCSR(g.n, g.n, ia, ja, data)
}

// Laplacian returns the out-Laplacian L = D_out − A in CSR form (undirected:
// L = D − A), self-loops ignored, so that L·1 = 0. Column indices are sorted
// within each row. O(n + m).
func (g *Graph) Laplacian() *sparse.CSR {
	ia := make([]int, g.n+1)
	ja := make([]int, 0, g.m*2+g.n)
	data := make([]float64, 0, cap(ja))
	for u := range g.n {
		nb := g.out[u]
		diag := false
		for _, v := range nb {
			if !diag && v > u {
				ja, data = append(ja, u), append(data, float64(len(nb)))
				diag = true
			}
			ja, data = append(ja, v), append(data, -1)
		}
		if !diag {
			ja, data = append(ja, u), append(data, float64(len(nb)))
		}
		ia[u+1] = len(ja)
	}
	return sparse.NewCSR(g.n, g.n, ia, ja, data)
}
