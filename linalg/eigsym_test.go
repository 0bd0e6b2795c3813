package linalg

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

// TestSymEigVectorsBits: symEigVectors gives gonum's Dsyev (EVCompute,
// upper triangle) bit for bit — eigenvalues and eigenvectors — with 1, 2
// and 3 goroutines, for random symmetric matrices of orders around the
// row split's threshold, an indefinite low-rank core like
// orthoBasis.result's, a diagonal one, tiny and huge scales (Dsyev's
// scaling) and a matrix with repeated eigenvalues (splits of the
// tridiagonal).
func TestSymEigVectorsBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	type tc struct {
		name string
		a    []float64
		r    int
	}
	random := func(r int, scale float64) []float64 {
		a := make([]float64, r*r)
		for i := range r {
			for j := i; j < r; j++ {
				v := scale * rng.NormFloat64()
				a[i*r+j], a[j*r+i] = v, v
			}
		}
		return a
	}
	lowRank := func(r, k int) []float64 {
		z := randSlice(rng, r*k)
		a := make([]float64, r*r)
		for l := range k {
			d := rng.NormFloat64() * math.Pow(10, -float64(l)/3)
			for i := range r {
				for j := range r {
					a[i*r+j] += d * z[i*k+l] * z[j*k+l]
				}
			}
		}
		return a
	}
	repeated := func(r int) []float64 {
		a := make([]float64, r*r)
		for i := range r {
			a[i*r+i] = float64(i % 3)
		}
		return a
	}
	cases := []tc{
		{"1", random(1, 1), 1}, {"2", random(2, 1), 2}, {"7", random(7, 1), 7}, {"40", random(40, 1), 40},
		{"64", random(64, 1), 64}, {"170", random(170, 1), 170}, {"low rank 170", lowRank(170, 60), 170},
		{"tiny", random(50, 1e-160), 50}, {"huge", random(50, 1e160), 50}, {"repeated", repeated(90), 90},
	}
	for _, c := range cases {
		r := c.r
		want := append([]float64(nil), c.a...)
		ww := make([]float64, r)
		work := make([]float64, 1)
		impl := gonum.Implementation{}
		impl.Dsyev(lapack.EVCompute, blas.Upper, r, want, r, ww, work, -1)
		work = make([]float64, max(int(work[0]), 3*r))
		okWant := impl.Dsyev(lapack.EVCompute, blas.Upper, r, want, r, ww, work, len(work))
		for _, procs := range []int{1, 2, 3} {
			old := runtime.GOMAXPROCS(procs)
			got := append([]float64(nil), c.a...)
			w := make([]float64, r)
			ok := symEigVectors(r, got, w, make([]float64, len(work)))
			runtime.GOMAXPROCS(old)
			if ok != okWant {
				t.Fatalf("%s, %d goroutines: ok %v, Dsyev %v", c.name, procs, ok, okWant)
			}
			for i := range w {
				if math.Float64bits(w[i]) != math.Float64bits(ww[i]) {
					t.Fatalf("%s, %d goroutines: eigenvalue %d = %v, Dsyev %v", c.name, procs, i, w[i], ww[i])
				}
			}
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("%s, %d goroutines: vector entry %d = %v, Dsyev %v", c.name, procs, i, got[i], want[i])
				}
			}
		}
	}
}

// BenchmarkSymEigVectors: the eigen-decomposition of a 170×170 core (the
// order of orthoBasis.result's on Cora's largest SCC), by gonum's Dsyev and
// by symEigVectors.
func BenchmarkSymEigVectors(b *testing.B) {
	const r = 170
	rng := rand.New(rand.NewPCG(33, 34))
	a := make([]float64, r*r)
	for i := range r {
		for j := i; j < r; j++ {
			v := rng.NormFloat64()
			a[i*r+j], a[j*r+i] = v, v
		}
	}
	work := make([]float64, 1)
	impl := gonum.Implementation{}
	impl.Dsyev(lapack.EVCompute, blas.Upper, r, a, r, nil, work, -1)
	work = make([]float64, max(int(work[0]), 3*r))
	c, w := make([]float64, r*r), make([]float64, r)
	b.Run("Dsyev", func(b *testing.B) {
		for b.Loop() {
			copy(c, a)
			impl.Dsyev(lapack.EVCompute, blas.Upper, r, c, r, w, work, len(work))
		}
	})
	b.Run("symEigVectors", func(b *testing.B) {
		for b.Loop() {
			copy(c, a)
			symEigVectors(r, c, w, work)
		}
	})
}
