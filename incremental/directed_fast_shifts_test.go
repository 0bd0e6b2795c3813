package incremental

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// TestLapNorm: the power iteration of lapNorm estimates ‖L‖₂ (a dense SVD)
// from below, within 2 % on random strongly connected digraphs, hubs
// included, from its first vector and again from the kept one after an
// edit; and max(1, 1.05·lapNorm) lies above the real part of every
// eigenvalue of M = ΠL + J/n (the top of the ADI shift interval).
func TestLapNorm(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 2))
	for _, tc := range []struct{ n, extra, hub int }{{2, 0, 0}, {5, 3, 0}, {30, 10, 0}, {60, 400, 0}, {120, 200, 40}, {200, 300, 90}} {
		g := dirStrong(r, tc.n, tc.extra)
		rows := outRows(g)
		// A hub: node 0 points to tc.hub more nodes.
		for j := 1; j < tc.n && len(rows[0]) < tc.hub; j++ {
			if !slices.Contains(rows[0], j) {
				rows[0] = append(rows[0], j)
			}
		}
		f := &fastSCC{}
		for pass := range 2 {
			lap := mat.NewDense(tc.n, tc.n, nil)
			for i, row := range rows {
				lap.Set(i, i, float64(len(row)))
				for _, j := range row {
					lap.Set(i, j, lap.At(i, j)-1)
				}
			}
			var svd mat.SVD
			if !svd.Factorize(lap, mat.SVDNone) {
				t.Fatal("SVD failed")
			}
			norm := svd.Values(nil)[0]
			est := f.lapNorm(rows)
			if est > norm*(1+1e-12) || est < 0.98*norm {
				t.Errorf("n %d, pass %d: lapNorm %.6g, ‖L‖₂ %.6g", tc.n, pass, est, norm)
			}
			var eig mat.Eigen
			if !eig.Factorize(denseM(rows, 0), mat.EigenNone) {
				t.Fatal("eigenvalues failed")
			}
			top := math.Max(1, shiftTopSafety*est)
			for _, l := range eig.Values(nil) {
				if real(l) > top {
					t.Errorf("n %d, pass %d: Re λ = %.6g above the shift interval's top %.6g", tc.n, pass, real(l), top)
				}
			}
			// An edit: the next pass starts from the kept vector.
			if tc.n > 2 && !slices.Contains(rows[1], 0) {
				rows[1] = append(rows[1], 0)
			}
		}
	}
}

// TestHalfMulVecBits: halfMulVec gives the bits of one Dgemv call with 1,
// 2 and 3 goroutines, for orders below and above its split (not multiples
// of 4 too) and a row stride beyond n.
func TestHalfMulVecBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, n := range []int{5, 511, 512, 1001, 2485} {
		ld := n + 3
		data := make([]float64, n*ld)
		for i := range data {
			data[i] = rng.NormFloat64()
		}
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		raw := blas64.Symmetric{N: n, Stride: ld, Data: data, Uplo: blas.Upper}
		want := make([]float64, n)
		blas64.Implementation().Dgemv(blas.NoTrans, n, n, 0.5, data, ld, x, 1, 0, want, 1)
		for _, procs := range []int{1, 2, 3} {
			old := runtime.GOMAXPROCS(procs)
			y := make([]float64, n)
			halfMulVec(raw, x, y)
			runtime.GOMAXPROCS(old)
			for i := range y {
				if math.Float64bits(y[i]) != math.Float64bits(want[i]) {
					t.Fatalf("n=%d, %d goroutines: row %d = %v, Dgemv %v", n, procs, i, y[i], want[i])
				}
			}
		}
	}
}
