package linalg

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// TestAddToSymKernelBits: AddToSym with its own product kernel (symKernel)
// leaves the same bits as with gonum's Dgemm, for orders on both sides of
// the recursion's leaf and of Dgemm's parallel threshold, inner dimensions
// below, at and above one chunk of 64 (with tails of 1–3), and the Go
// remainder of the AVX2 kernel's groups of eight columns; D full or
// diagonal (scaleDiag).
func TestAddToSymKernelBits(t *testing.T) {
	if !symKernel {
		t.Skip("no product kernel on this build or CPU")
	}
	defer func(old bool) { fmaKernel = old }(fmaKernel)
	fmaKernel = false
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct{ n, r int }{
		{1, 1}, {5, 3}, {63, 26}, {64, 64}, {130, 65}, {193, 90}, {200, 1}, {401, 129}, {777, 91}, {1000, 150},
	} {
		l := &LowRankSym{N: tc.n, R: tc.r, Z: make([]float64, tc.n*tc.r), D: make([]float64, tc.r*tc.r)}
		for i := range l.Z {
			l.Z[i] = rng.NormFloat64()
		}
		// A full D, or (every other case) a diagonal one as the ADI
		// gives, with a zero in Z that Dgemm skips.
		for a := range tc.r {
			for b := a; b < tc.r; b++ {
				if v := rng.NormFloat64(); a == b || tc.n%2 == 0 {
					l.D[a*tc.r+b], l.D[b*tc.r+a] = v, v
				}
			}
		}
		l.Z[0] = 0
		ld := tc.n + 3
		x := make([]float64, tc.n*ld)
		for a := range tc.n {
			for b := a; b < tc.n; b++ {
				v := rng.NormFloat64()
				x[a*ld+b], x[b*ld+a] = v, v
			}
		}
		want := append([]float64(nil), x...)
		symKernel = false
		l.AddToSym(2, want, ld)
		symKernel = true
		got := append([]float64(nil), x...)
		l.AddToSym(2, got, ld)
		for k := range got {
			if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
				t.Fatalf("n=%d r=%d: entry (%d, %d) = %v, Dgemm gives %v", tc.n, tc.r, k/ld, k%ld, got[k], want[k])
			}
		}
	}
}

// BenchmarkAddToSym: the update of a 2485-node SCC's X (Cora's largest) by
// a correction of rank 90, with the fused multiply–add kernel, with the
// ordered product kernel and with Dgemm.
func BenchmarkAddToSym(b *testing.B) {
	const n, r = 2485, 90
	rng := rand.New(rand.NewPCG(1, 2))
	l := &LowRankSym{N: n, R: r, Z: make([]float64, n*r), D: make([]float64, r*r)}
	for i := range l.Z {
		l.Z[i] = rng.NormFloat64()
	}
	for a := range r {
		l.D[a*r+a] = rng.NormFloat64()
	}
	x := make([]float64, n*n)
	for _, tc := range []struct {
		name     string
		sym, fma bool
	}{{"fma", true, true}, {"kernel", true, false}, {"dgemm", false, false}} {
		if (tc.sym && !symKernel) || (tc.fma && !fmaKernel) {
			continue
		}
		b.Run(tc.name, func(b *testing.B) {
			oldS, oldF := symKernel, fmaKernel
			symKernel, fmaKernel = tc.sym, tc.fma
			defer func() { symKernel, fmaKernel = oldS, oldF }()
			for b.Loop() {
				l.AddToSym(1e-9, x, n)
			}
		})
	}
}

// sameBits fails the test at the first entry where got and want differ in
// a bit.
func sameBits(t *testing.T, what string, got, want []float64) {
	t.Helper()
	for k := range got {
		if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
			t.Fatalf("%s: entry %d = %v, Dgemm gives %v", what, k, got[k], want[k])
		}
	}
}

func randSlice(rng *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = rng.NormFloat64()
	}
	return s
}

// TestProjectOutBits: the Gram–Schmidt pass of the kernels and the
// product of orthoBasis.result (gemmSeq with a transposed a) give Dgemm's
// bits, for batches of 1–16 columns against bases below and above Dgemm's
// parallel threshold (3 blocks of 64).
func TestProjectOutBits(t *testing.T) {
	if !symKernel {
		t.Skip("no product kernel on this build or CPU")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	impl := blas64.Implementation()
	for _, tc := range []struct{ n, k, q0 int }{
		{7, 1, 1}, {100, 4, 3}, {300, 16, 60}, {1000, 16, 193}, {513, 12, 250}, {2485, 16, 90},
	} {
		cols, qt := randSlice(rng, tc.k*tc.n), randSlice(rng, tc.q0*tc.n)
		want, wantH := append([]float64(nil), cols...), make([]float64, tc.k*tc.q0)
		impl.Dgemm(blas.NoTrans, blas.Trans, tc.k, tc.q0, tc.n, 1, want, tc.n, qt, tc.n, 0, wantH, tc.q0)
		impl.Dgemm(blas.NoTrans, blas.NoTrans, tc.k, tc.n, tc.q0, -1, wantH, tc.q0, qt, tc.n, 1, want, tc.n)
		gotH := make([]float64, tc.k*tc.q0)
		projectOut(tc.n, tc.k, tc.q0, cols, qt, gotH)
		sameBits(t, "h", gotH, wantH)
		sameBits(t, "cols", cols, want)

		// orthoBasis.result's z = Qᵀᵀ·u, from +0.
		rk := 1 + tc.k*5
		u := randSlice(rng, tc.q0*rk)
		wantZ, gotZ := make([]float64, tc.n*rk), make([]float64, tc.n*rk)
		impl.Dgemm(blas.Trans, blas.NoTrans, tc.n, rk, tc.q0, 1, qt, tc.n, u, rk, 0, wantZ, rk)
		gemmSeq(tc.n, rk, tc.q0, qt, 1, tc.n, u, rk, gotZ, rk)
		sameBits(t, "z", gotZ, wantZ)
	}
}

// TestMulAddOrderedBits: MulAddOrdered gives the bits of Dgemm(NoTrans,
// NoTrans) with alpha −1 folded into a, for few rows (the one-row kernel and
// its remainder) and many, a read by rows or by columns.
func TestMulAddOrderedBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	impl := blas64.Implementation()
	for _, tc := range []struct{ m, nc, k int }{{1, 16, 1}, {2, 37, 48}, {3, 2485, 20}, {5, 100, 7}, {70, 33, 65}} {
		a, b, c := randSlice(rng, tc.m*tc.k), randSlice(rng, tc.k*tc.nc), randSlice(rng, tc.m*tc.nc)
		want := append([]float64(nil), c...)
		impl.Dgemm(blas.NoTrans, blas.NoTrans, tc.m, tc.nc, tc.k, -1, a, tc.k, b, tc.nc, 1, want, tc.nc)
		neg := make([]float64, len(a))
		for i, v := range a {
			neg[i] = -v
		}
		MulAddOrdered(tc.m, tc.nc, tc.k, neg, tc.k, 1, b, tc.nc, c, tc.nc)
		sameBits(t, "c", c, want)
		// The same product with a given transposed (sa = 1, sl = m).
		at := make([]float64, len(a))
		for r := range tc.m {
			for l := range tc.k {
				at[l*tc.m+r] = neg[r*tc.k+l]
			}
		}
		c2 := append([]float64(nil), want...)
		impl.Dgemm(blas.NoTrans, blas.NoTrans, tc.m, tc.nc, tc.k, -1, a, tc.k, b, tc.nc, 1, want, tc.nc)
		MulAddOrdered(tc.m, tc.nc, tc.k, at, 1, tc.m, b, tc.nc, c2, tc.nc)
		sameBits(t, "c (a transposed)", c2, want)
	}
}
