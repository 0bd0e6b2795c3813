package laplace

import (
	"math"
	"math/rand/v2"
	"testing"
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
