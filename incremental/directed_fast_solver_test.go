package incremental

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// TestWoodburyApplyBits: woodburyApply leaves the bits of the Dgemm call it
// replaces, with zeros in z (skipped by both) and 1 to 9 right-hand sides.
func TestWoodburyApplyBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct{ n, m, k int }{{1, 1, 1}, {70, 1, 3}, {300, 4, 17}, {2485, 2, 48}, {513, 9, 48}} {
		z := make([]float64, tc.n*maxWoodbury)
		for i := range z {
			if rng.IntN(10) > 0 {
				z[i] = rng.NormFloat64()
			}
		}
		ldu := tc.m + 1
		u := make([]float64, tc.k*ldu)
		b := make([]float64, tc.n*tc.m)
		for i := range u {
			u[i] = rng.NormFloat64()
		}
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		want := append([]float64(nil), b...)
		blas64.Implementation().Dgemm(blas.NoTrans, blas.NoTrans, tc.n, tc.m, tc.k, -1, z, maxWoodbury, u, ldu, 1, want, tc.m)
		woodburyApply(tc.n, tc.m, tc.k, z, u, ldu, b)
		for i := range b {
			if math.Float64bits(b[i]) != math.Float64bits(want[i]) {
				t.Fatalf("n=%d m=%d k=%d: entry %d = %v, Dgemm gives %v", tc.n, tc.m, tc.k, i, b[i], want[i])
			}
		}
	}
}

// BenchmarkWoodburyApply: the Woodbury correction of one shifted solve of
// Cora's largest SCC (2485 nodes, 48 changed rows) for 1 and 4 right-hand
// sides.
func BenchmarkWoodburyApply(b *testing.B) {
	const n, k = 2485, 48
	rng := rand.New(rand.NewPCG(5, 6))
	z := make([]float64, n*maxWoodbury)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	for _, m := range []int{1, 4} {
		u, x := make([]float64, k*m), make([]float64, n*m)
		for i := range u {
			u[i] = rng.NormFloat64()
		}
		b.Run(fmt.Sprint(m), func(b *testing.B) {
			for b.Loop() {
				woodburyApply(n, m, k, z, u, m, x)
			}
		})
	}
}
