package laplace

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ohmgnn/ohm/linalg"
)

// Sketch is the Spielman–Srivastava embedding of effective resistances:
// Z = Q B L⁺ / √k with Q a k×m matrix of random signs and B the edge-node
// incidence matrix, so that R_uv ≈ ‖Z (e_u − e_v)‖² within a factor 1 ± ε
// for all pairs with high probability when k = O(log n / ε²) (the
// Johnson–Lindenstrauss lemma; the relative error of one pair has standard
// deviation about √(2/k)). Building it costs k Laplacian solves and k·n
// floats; a pair's estimate costs O(k).
type Sketch struct {
	k, n int
	z    []float64 // row q is z[q·n : (q+1)·n]
}

// NewSketch solves the k systems L z_q = Bᵀ q_q (q_q random signs on the
// edges, from seed) to relative residual tol. O(k·(m + solve)).
func NewSketch(s *Solver, g *linalg.Graph, k int, seed uint64, tol float64) (*Sketch, error) {
	if k < 1 {
		return nil, fmt.Errorf("laplace: sketch of %d rows", k)
	}
	n := g.N()
	r := rand.New(rand.NewPCG(seed, 0x5e7c))
	sk := &Sketch{k: k, n: n, z: make([]float64, k*n)}
	b := make([]float64, n)
	edges := g.Edges()
	for q := range k {
		clear(b)
		for _, e := range edges {
			if e.U == e.V {
				continue
			}
			sign := 1.0
			if r.Uint64()&1 == 1 {
				sign = -1
			}
			b[e.U] += sign
			b[e.V] -= sign
		}
		x, _, err := s.Solve(b, tol, 10*n+100)
		if err != nil {
			return nil, fmt.Errorf("sketch row %d: %w", q, err)
		}
		row := sk.z[q*n : (q+1)*n]
		scale := 1 / math.Sqrt(float64(k))
		for i := range row {
			row[i] = x[i] * scale
		}
	}
	return sk, nil
}

// R returns the sketch's estimate of R_uv (inside one component). O(k).
func (sk *Sketch) R(u, v int) float64 {
	s := 0.0
	for q := range sk.k {
		d := sk.z[q*sk.n+u] - sk.z[q*sk.n+v]
		s += d * d
	}
	return s
}
