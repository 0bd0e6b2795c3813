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
// deviation about √(2/k)). Since Z 1 = 0 on every component, ‖Z e_u‖²
// estimates L⁺_uu the same way. Building it costs k Laplacian solves and
// k·n floats; a pair's estimate costs O(k).
type Sketch struct {
	k, n int
	z    []float64 // node-major: node u's k coordinates are z[u·k : (u+1)·k]
}

// NewSketch solves the k systems L z_q = Bᵀ q_q (q_q random signs on the
// edges, drawn from seed and q, so the sketch does not depend on workers)
// to relative residual tol, on up to workers goroutines. O(k·(m + solve)).
func NewSketch(s *Solver, g *linalg.Graph, k int, seed uint64, tol float64, workers int) (*Sketch, error) {
	if k < 1 {
		return nil, fmt.Errorf("laplace: sketch of %d rows", k)
	}
	n := g.N()
	sk := &Sketch{k: k, n: n, z: make([]float64, k*n)}
	scale := 1 / math.Sqrt(float64(k))
	// Row q's signs are drawn edge by edge ({u, v}, u < v, in the order of
	// u and of u's neighbours) from its own generator; a block's rows are
	// drawn in one pass over the edges, so the scattered b[v] of all of
	// them share one cache line (row by row, every edge's b[v] was a
	// random access of its own: 8 % of a round's start on the 10⁶-node
	// SBM). The entries are sums of ±1, exact in any order: the same
	// vectors as row by row (TestSketchBlockFill).
	fill := func(q0, c int, b []float64) {
		rs := make([]*rand.PCG, c) // rand.New(p).Uint64() is p.Uint64()
		for q := range rs {
			rs[q] = rand.NewPCG(seed, 0x5e7c+uint64(q0+q))
		}
		var sign [Block]float64
		for u := range n {
			bu := (*[Block]float64)(b[u*Block:])
			for _, v := range g.Neighbours(u) {
				if v <= u {
					continue
				}
				bv := (*[Block]float64)(b[v*Block:])
				for q, r := range rs {
					// 1 − 2·bit: the sign without a branch (half of them
					// would be mispredicted).
					sign[q] = float64(1 - 2*int(r.Uint64()&1))
				}
				for q := range c {
					bu[q] += sign[q]
					bv[q] -= sign[q]
				}
			}
		}
	}
	use := func(q int, x []float64) {
		for u, v := range x {
			sk.z[u*k+q] = v * scale
		}
	}
	if _, err := s.SolveManyBlocks(k, fill, use, tol, 10*n+100, workers); err != nil {
		return nil, fmt.Errorf("laplace: sketch: %w", err)
	}
	return sk, nil
}

// K is the number of rows of the sketch.
func (sk *Sketch) K() int { return sk.k }

// Point is node u's embedding, Z e_u (k entries; read-only).
func (sk *Sketch) Point(u int) []float64 { return sk.z[u*sk.k : (u+1)*sk.k] }

// R returns the sketch's estimate of R_uv (inside one component), summed
// in four interleaved partial sums (four independent chains of additions
// instead of one: the eccentricity estimates call it n·|anchors| times a
// round). O(k).
func (sk *Sketch) R(u, v int) float64 {
	a, b := sk.Point(u), sk.Point(v)
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	q := 0
	for ; q+4 <= len(a); q += 4 {
		d0, d1, d2, d3 := a[q]-b[q], a[q+1]-b[q+1], a[q+2]-b[q+2], a[q+3]-b[q+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; q < len(a); q++ {
		d := a[q] - b[q]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// Rs sets out[q] to R(u, vs[q]) for every q, the same numbers as R, four
// partners at a time through an AVX kernel whose lanes are R's four
// partial sums (the eccentricity estimates of the sketch engine's rounds
// take n·|anchors| of them: 24 s a round on the 10⁶-node SBM, one pair at
// a time). O(k·len(vs)).
func (sk *Sketch) Rs(u int, vs []int, out []float64) {
	out = out[:len(vs)]
	q := 0
	if useAVX && sk.k%4 == 0 && sk.k > 0 {
		a := sk.Point(u)
		var d [4]float64
		for ; q+4 <= len(vs); q += 4 {
			sqdist4AVX(&d, &a[0], &sk.Point(vs[q])[0], &sk.Point(vs[q+1])[0], &sk.Point(vs[q+2])[0], &sk.Point(vs[q+3])[0], sk.k)
			copy(out[q:q+4], d[:])
		}
	}
	for ; q < len(vs); q++ {
		out[q] = sk.R(u, vs[q])
	}
}

// Diag returns the estimate of L⁺_uu, ‖Z e_u‖². O(k).
func (sk *Sketch) Diag(u int) float64 {
	s := 0.0
	for _, x := range sk.Point(u) {
		s += x * x
	}
	return s
}
