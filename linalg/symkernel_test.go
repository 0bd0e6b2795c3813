package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAddToSymKernelBits: AddToSym with its own product kernel (symKernel)
// leaves the same bits as with gonum's Dgemm, for orders on both sides of
// the recursion's leaf and of Dgemm's parallel threshold, inner dimensions
// below, at and above one chunk of 64 (with tails of 1–3), and the Go
// remainder of the AVX2 kernel's groups of eight columns.
func TestAddToSymKernelBits(t *testing.T) {
	if !symKernel {
		t.Skip("no product kernel on this build or CPU")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct{ n, r int }{
		{1, 1}, {5, 3}, {63, 26}, {64, 64}, {130, 65}, {193, 90}, {200, 1}, {401, 129}, {777, 91}, {1000, 150},
	} {
		l := &LowRankSym{N: tc.n, R: tc.r, Z: make([]float64, tc.n*tc.r), D: make([]float64, tc.r*tc.r)}
		for i := range l.Z {
			l.Z[i] = rng.NormFloat64()
		}
		for a := range tc.r {
			for b := a; b < tc.r; b++ {
				v := rng.NormFloat64()
				l.D[a*tc.r+b], l.D[b*tc.r+a] = v, v
			}
		}
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
// a correction of rank 90, with the product kernel and with Dgemm.
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
	for _, k := range []bool{true, false} {
		name := "dgemm"
		if k {
			name = "kernel"
			if !symKernel {
				continue
			}
		}
		b.Run(name, func(b *testing.B) {
			old := symKernel
			symKernel = k
			defer func() { symKernel = old }()
			for b.Loop() {
				l.AddToSym(1e-9, x, n)
			}
		})
	}
}
