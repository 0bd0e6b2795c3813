package linalg

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// spdFactor is the upper Cholesky factor (lapack64.Potrf) of spdMatrix,
// with some exact zeros in the factor's upper triangle when zeros is set.
func spdFactor(t *testing.T, r *rand.Rand, n, lda int, dense, zeros bool) []float64 {
	a := spdMatrix(r, n, lda, dense)
	if _, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: n, Data: a, Stride: lda}); !ok {
		t.Fatalf("n = %d: not positive definite", n)
	}
	if zeros {
		for i := range n {
			for j := i + 1; j < n; j++ {
				if r.IntN(7) == 0 {
					a[i*lda+j] = 0
				}
			}
		}
	}
	return a
}

// spdMatrix is a random symmetric positive definite n×n matrix with row
// stride lda (both triangles): L + J/n of a random connected graph (the
// matrices ComponentPinv inverts) or, when dense is set, BᵀB + nI of a
// random B.
func spdMatrix(r *rand.Rand, n, lda int, dense bool) []float64 {
	a := make([]float64, n*lda)
	if dense {
		bm := make([]float64, n*n)
		for i := range bm {
			bm[i] = 2*r.Float64() - 1
		}
		for i := range n {
			for j := range n {
				s := 0.0
				for k := range n {
					s += bm[k*n+i] * bm[k*n+j]
				}
				if i == j {
					s += float64(n)
				}
				a[i*lda+j] = s
			}
		}
	} else {
		inv := 1 / float64(n)
		for i := range n {
			for j := range n {
				a[i*lda+j] = inv
			}
		}
		edge := func(u, v int) {
			a[u*lda+u]++
			a[v*lda+v]++
			a[u*lda+v]--
			a[v*lda+u]--
		}
		for v := 1; v < n; v++ {
			edge(r.IntN(v), v) // a random tree: connected
		}
		for range n {
			if u, v := r.IntN(n), r.IntN(n); u != v {
				edge(u, v)
			}
		}
	}
	return a
}

// TestPotriUpperBitForBit: potriUpper leaves every entry of the upper
// triangle as gonum's Dpotri (lapack64.Potri) does, bit for bit, on both
// sides of the block size 64 and past Dgemm's parallel threshold (330:
// Dlauum's last product is summed in chunks), for graph Laplacians and
// dense matrices, with and without exact zeros in the factor (which Dtrmm
// skips), with a row stride above n.
func TestPotriUpperBitForBit(t *testing.T) {
	if !symKernel {
		t.Log("no AVX2 here: potriUpper is lapack64.Potri")
	}
	r := rand.New(rand.NewPCG(21, 8))
	for _, n := range []int{1, 2, 3, 5, 8, 33, 63, 64, 65, 67, 100, 128, 129, 131, 200, 257, 330} {
		for trial := range 4 {
			lda := n + trial%2*3
			a := spdFactor(t, r, n, lda, trial%2 == 1, trial >= 2)
			b := append([]float64(nil), a...)
			if !potriUpper(n, a, lda) {
				t.Fatalf("n = %d: potriUpper failed", n)
			}
			if _, ok := lapack64.Potri(blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: n, Data: b, Stride: lda}); !ok {
				t.Fatalf("n = %d: Potri failed", n)
			}
			for i := range n {
				for j := i; j < n; j++ {
					if math.Float64bits(a[i*lda+j]) != math.Float64bits(b[i*lda+j]) {
						t.Fatalf("n = %d, trial %d: entry (%d, %d) = %v, gonum's %v", n, trial, i, j, a[i*lda+j], b[i*lda+j])
					}
				}
			}
		}
	}
}

// TestPotrfUpperBitForBit: potrfUpper leaves the upper triangle as gonum's
// Dpotrf (lapack64.Potrf) does, bit for bit, on both sides of the block
// size 64, for graph Laplacians and dense matrices, with exact zeros in
// the matrix (which Dgemm skips once they reach the factor), and fails
// where it fails.
func TestPotrfUpperBitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 9))
	for _, n := range []int{1, 2, 7, 63, 64, 65, 100, 128, 129, 200, 257} {
		for trial := range 4 {
			lda := n + trial%2*5
			a := spdMatrix(r, n, lda, trial%2 == 1)
			if trial == 2 && n > 1 {
				for j := 1; j < n; j++ { // a zero row in the upper part of the first row
					a[j], a[j*lda] = 0, 0
				}
			}
			if trial == 3 && n > 70 {
				a[70*lda+70] = -1 // not positive definite in the second block
			}
			b := append([]float64(nil), a...)
			ok := potrfUpper(n, a, lda)
			_, okb := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: n, Data: b, Stride: lda})
			if ok != okb {
				t.Fatalf("n = %d, trial %d: ok %v, gonum's %v", n, trial, ok, okb)
			}
			if !ok {
				continue
			}
			for i := range n {
				for j := i; j < n; j++ {
					if math.Float64bits(a[i*lda+j]) != math.Float64bits(b[i*lda+j]) {
						t.Fatalf("n = %d, trial %d: entry (%d, %d) = %v, gonum's %v", n, trial, i, j, a[i*lda+j], b[i*lda+j])
					}
				}
			}
		}
	}
}

// BenchmarkPotriUpper times the inverse from the Cholesky factor of L + J/n
// of a random connected graph of 300 nodes (PROTEINS' largest graphs are
// 200–620): potriUpper against gonum's Dpotri.
func BenchmarkPotriUpper(b *testing.B) {
	const n = 300
	r := rand.New(rand.NewPCG(2, 3))
	f := spdFactor(&testing.T{}, r, n, n, false, false)
	a := make([]float64, n*n)
	b.Run("potriUpper", func(b *testing.B) {
		for b.Loop() {
			copy(a, f)
			potriUpper(n, a, n)
		}
	})
	b.Run("gonum", func(b *testing.B) {
		for b.Loop() {
			copy(a, f)
			lapack64.Potri(blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: n, Data: a, Stride: n})
		}
	})
}

// BenchmarkPotrfUpper times the Cholesky factor of L + J/n of a random
// connected graph of 300 nodes: potrfUpper against gonum's Dpotrf.
func BenchmarkPotrfUpper(b *testing.B) {
	const n = 300
	m := spdMatrix(rand.New(rand.NewPCG(2, 3)), n, n, false)
	a := make([]float64, n*n)
	b.Run("potrfUpper", func(b *testing.B) {
		for b.Loop() {
			copy(a, m)
			potrfUpper(n, a, n)
		}
	})
	b.Run("gonum", func(b *testing.B) {
		for b.Loop() {
			copy(a, m)
			lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: n, Data: a, Stride: n})
		}
	})
}

// TestTrsmRightUpperNegBitForBit: trsmRightUpperNeg leaves b as gonum's
// Dtrsm(Right, Upper, NoTrans, NonUnit, m, n, −1, …) does, bit for bit,
// for widths 1–64 and heights 1–13, with zeros and negative zeros in b
// (which Dtrsm skips) and in U, and entries that underflow.
func TestTrsmRightUpperNegBitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 4))
	for _, n := range []int{1, 2, 7, 8, 9, 16, 17, 33, 63, 64} {
		for m := 1; m <= 13; m++ {
			for trial := range 3 {
				lda, ldb := n+trial, n+2*trial
				a := make([]float64, n*lda)
				for i := range n {
					a[i*lda+i] = 0.5 + r.Float64()
					for j := i + 1; j < n; j++ {
						a[i*lda+j] = r.NormFloat64()
						if trial == 1 && r.IntN(5) == 0 {
							a[i*lda+j] = 0
						}
					}
				}
				b := make([]float64, m*ldb)
				for i := range m {
					for j := range n {
						switch v := r.IntN(10); {
						case trial == 2 && v == 0:
							b[i*ldb+j] = 0
						case trial == 2 && v == 1:
							b[i*ldb+j] = math.Copysign(0, -1)
						case trial == 2 && v == 2:
							b[i*ldb+j] = 1e-310
						default:
							b[i*ldb+j] = r.NormFloat64()
						}
					}
				}
				want := append([]float64(nil), b...)
				blas64.Implementation().Dtrsm(blas.Right, blas.Upper, blas.NoTrans, blas.NonUnit, m, n, -1, a, lda, want, ldb)
				trsmRightUpperNeg(m, n, a, lda, b, ldb)
				for i := range m {
					for j := range n {
						if math.Float64bits(b[i*ldb+j]) != math.Float64bits(want[i*ldb+j]) {
							t.Fatalf("n = %d, m = %d, trial %d: entry (%d, %d) = %v, gonum's %v", n, m, trial, i, j, b[i*ldb+j], want[i*ldb+j])
						}
					}
				}
			}
		}
	}
}
