package laplace

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// TestSketchRs: the batched distances are R's numbers bit for bit, for k
// a multiple of 4 (the AVX kernel) and not, partner counts with and
// without a remainder of four, and u among its partners.
func TestSketchRs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{1, 4, 7, 8, 192} {
		const n = 23
		sk := &Sketch{k: k, n: n, z: make([]float64, k*n)}
		for i := range sk.z {
			sk.z[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(7)-3))
		}
		for _, m := range []int{0, 1, 4, 5, 11, n} {
			vs := r.Perm(n)[:m]
			out := make([]float64, m)
			for u := range n {
				sk.Rs(u, vs, out)
				for q, v := range vs {
					if want := sk.R(u, v); math.Float64bits(out[q]) != math.Float64bits(want) {
						t.Fatalf("k=%d: R(%d, %d) = %v from Rs, %v from R", k, u, v, out[q], want)
					}
				}
			}
		}
	}
}

// TestSketchBlockFill: NewSketch, its signs drawn a block of rows at a
// time (SolveManyBlocks), gives the bits of the row-by-row construction
// (each row's signs edge by edge from its own generator, solved through
// SolveMany), on two workers and one, with a row count that leaves a
// partial block and a graph with two components.
func TestSketchBlockFill(t *testing.T) {
	gg, _ := graphgen.SBM(300, 3, 0.15, 0, 4) // three components
	g, s := solverOf(t, gg)
	const k, seed = 21, 9
	n := g.N()
	want := make([]float64, k*n)
	fill := func(q int, b []float64) {
		r := rand.New(rand.NewPCG(seed, 0x5e7c+uint64(q)))
		for u := range n {
			for _, v := range g.Neighbours(u) {
				if v > u {
					sign := float64(1 - 2*int(r.Uint64()&1))
					b[u] += sign
					b[v] -= sign
				}
			}
		}
	}
	use := func(q int, x []float64) {
		for u, v := range x {
			want[u*k+q] = v * (1 / math.Sqrt(k)) // NewSketch scales so
		}
	}
	if _, err := s.SolveMany(k, fill, use, 1e-6, 10*n+100, 2); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		sk, err := NewSketch(s, g, k, seed, 1e-6, workers)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range want {
			if math.Float64bits(sk.z[i]) != math.Float64bits(v) {
				t.Fatalf("%d workers: z[%d] (node %d, row %d) = %v, row by row %v", workers, i, i/k, i%k, sk.z[i], v)
			}
		}
	}
}
