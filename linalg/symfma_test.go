package linalg

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestAddToSymFMA: AddToSym with the fused multiply–add kernel agrees with
// a plain sum of every entry to rounding (each entry within 4ε times the
// sum of its terms' magnitudes), leaves x symmetric bit for bit and the
// padding beyond column n untouched, for orders around the kernel's groups
// of four rows, blocks of eight columns, strips of 64 rows and tiles of
// 512 columns.
func TestAddToSymFMA(t *testing.T) {
	if !fmaKernel {
		t.Skip("no fused multiply–add kernel on this build or CPU")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct{ n, r int }{
		{1, 1}, {3, 2}, {4, 1}, {7, 5}, {8, 3}, {11, 8}, {12, 1}, {16, 16}, {63, 26}, {64, 9},
		{65, 33}, {130, 65}, {517, 7}, {600, 91}, {1031, 40},
	} {
		n, r := tc.n, tc.r
		l := randomLowRankSym(rng, n, r)
		ld := n + 3
		x := randomSymPadded(rng, n, ld)
		got := append([]float64(nil), x...)
		const alpha = 2
		l.AddToSym(alpha, got, ld)
		for i := range n {
			for j := range ld {
				g := got[i*ld+j]
				if j >= n {
					if g != float64(j) {
						t.Fatalf("n=%d r=%d: padding (%d, %d) changed to %v", n, r, i, j, g)
					}
					continue
				}
				if math.Float64bits(g) != math.Float64bits(got[j*ld+i]) {
					t.Fatalf("n=%d r=%d: (%d, %d) = %v but (%d, %d) = %v", n, r, i, j, g, j, i, got[j*ld+i])
				}
				want, mag := x[i*ld+j], math.Abs(x[i*ld+j])
				for c := range r {
					term := alpha * l.Z[i*r+c] * l.D[c*r+c] * l.Z[j*r+c]
					want += term
					mag += math.Abs(term)
				}
				if d := math.Abs(g - want); d > 4*float64(r+2)*0x1p-52*mag {
					t.Fatalf("n=%d r=%d: (%d, %d) = %v, want %v (off by %.3g of %.3g)", n, r, i, j, g, want, d, mag)
				}
			}
		}
	}
}

// TestMulAddFMA: MulAdd and the Gram–Schmidt pass with the fused
// multiply–add kernel agree with plain sums to rounding, for shapes around
// the kernel's groups of four rows and blocks of eight columns, products
// above and below the threshold of the goroutines, and a read by rows or
// by columns.
func TestMulAddFMA(t *testing.T) {
	if !fmaKernel {
		t.Skip("no fused multiply–add kernel on this build or CPU")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct{ m, nc, k int }{
		{1, 1, 1}, {3, 7, 2}, {4, 8, 1}, {5, 9, 13}, {16, 2485, 90}, {16, 180, 2485}, {70, 33, 65}, {2485, 91, 184},
	} {
		a, b, c := randSlice(rng, tc.m*tc.k), randSlice(rng, tc.k*tc.nc), randSlice(rng, tc.m*tc.nc)
		for _, byRows := range []bool{true, false} {
			sa, sl, aa := tc.k, 1, a
			if !byRows {
				aa = make([]float64, len(a))
				for r := range tc.m {
					for l := range tc.k {
						aa[l*tc.m+r] = a[r*tc.k+l]
					}
				}
				sa, sl = 1, tc.m
			}
			got := append([]float64(nil), c...)
			MulAdd(tc.m, tc.nc, tc.k, aa, sa, sl, b, tc.nc, got, tc.nc)
			for r := range tc.m {
				for j := range tc.nc {
					want, mag := c[r*tc.nc+j], math.Abs(c[r*tc.nc+j])
					for l := range tc.k {
						p := a[r*tc.k+l] * b[l*tc.nc+j]
						want += p
						mag += math.Abs(p)
					}
					if d := math.Abs(got[r*tc.nc+j] - want); d > 4*float64(tc.k+2)*0x1p-52*mag {
						t.Fatalf("%+v by rows %v: (%d, %d) = %v, want %v", tc, byRows, r, j, got[r*tc.nc+j], want)
					}
				}
			}
		}
	}
	// One Gram–Schmidt pass: h = cols·Q, cols −= h·Qᵀ.
	for _, tc := range []struct{ n, k, q0 int }{{7, 1, 1}, {100, 4, 3}, {2485, 16, 90}} {
		cols, qt := randSlice(rng, tc.k*tc.n), randSlice(rng, tc.q0*tc.n)
		orig := append([]float64(nil), cols...)
		h := make([]float64, tc.k*tc.q0)
		projectOutFMA(tc.n, tc.k, tc.q0, cols, qt, h)
		for c := range tc.k {
			for b := range tc.q0 {
				var want, mag float64
				for i := range tc.n {
					p := orig[c*tc.n+i] * qt[b*tc.n+i]
					want += p
					mag += math.Abs(p)
				}
				if d := math.Abs(h[c*tc.q0+b] - want); d > 4*float64(tc.n+2)*0x1p-52*mag {
					t.Fatalf("%+v: h(%d, %d) = %v, want %v", tc, c, b, h[c*tc.q0+b], want)
				}
			}
			for i := range tc.n {
				want, mag := orig[c*tc.n+i], math.Abs(orig[c*tc.n+i])
				for b := range tc.q0 {
					p := h[c*tc.q0+b] * qt[b*tc.n+i]
					want -= p
					mag += math.Abs(p)
				}
				if d := math.Abs(cols[c*tc.n+i] - want); d > 4*float64(tc.q0+2)*0x1p-52*mag {
					t.Fatalf("%+v: cols(%d, %d) = %v, want %v", tc, c, i, cols[c*tc.n+i], want)
				}
			}
		}
	}
}

// BenchmarkProjectOut: one Gram–Schmidt pass of the ADI's basis on Cora's
// largest SCC (2485 rows, a batch of 16 columns against 180 basis
// vectors), with the fused multiply–add kernel in place and with the
// ordered kernels.
func BenchmarkProjectOut(b *testing.B) {
	const n, k, q0 = 2485, 16, 180
	rng := rand.New(rand.NewPCG(1, 2))
	cols, qt, h := randSlice(rng, k*n), randSlice(rng, q0*n), make([]float64, k*q0)
	b.Run("fma", func(b *testing.B) {
		if !fmaKernel {
			b.Skip("no fused multiply–add kernel on this build or CPU")
		}
		for b.Loop() {
			projectOutFMA(n, k, q0, cols, qt, h)
		}
	})
	b.Run("ordered", func(b *testing.B) {
		if !symKernel {
			b.Skip("no product kernel on this build or CPU")
		}
		for b.Loop() {
			projectOut(n, k, q0, cols, qt, h)
		}
	})
}

// TestOrthoCoreFMA: the ADI's core R·D·Rᵀ by the fused product
// (orthoBasis.core with fmaKernel) equals, to rounding, the rows' outer
// products summed in order (without it) and a sum over the coefficients
// computed here, for bases whose order q is and is not a multiple of the
// 4×8 blocks, with dependent columns (R not square).
func TestOrthoCoreFMA(t *testing.T) {
	if !fmaKernel {
		t.Skip("no fused multiply–add kernel on this build or CPU")
	}
	rng := rand.New(rand.NewPCG(51, 7))
	for _, tc := range []struct{ n, blocks, k int }{{40, 3, 4}, {200, 9, 4}, {150, 13, 2}, {97, 5, 3}} {
		o := newOrthoBasis(tc.n)
		var d []float64
		for blk := range tc.blocks {
			v := randSlice(rng, tc.n*tc.k)
			if blk%4 == 3 {
				// A column the basis already spans: no new vector.
				for i := range tc.n {
					v[i*tc.k] = o.qt[i]
				}
			}
			o.add(v, tc.k)
			for range tc.k {
				d = append(d, rng.NormFloat64())
			}
		}
		q := o.q()
		want := make([]float64, q*q)
		for a := range q {
			for b := range q {
				var s float64
				for l, col := range o.r {
					if a < len(col) && b < len(col) {
						s += d[l] * col[a] * col[b]
					}
				}
				want[a*q+b] = s
			}
		}
		got := o.core(d)
		fmaKernel = false
		ordered := o.core(d)
		fmaKernel = true
		var scale float64
		for _, v := range want {
			scale = math.Max(scale, math.Abs(v))
		}
		for e := range want {
			if math.Abs(got[e]-want[e]) > 1e-13*scale || math.Abs(ordered[e]-want[e]) > 1e-13*scale {
				t.Fatalf("n=%d q=%d: entry (%d, %d): fused %v, ordered %v, want %v", tc.n, q, e/q, e%q, got[e], ordered[e], want[e])
			}
		}
		if q == len(o.r) && tc.blocks > 4 {
			t.Fatalf("n=%d: no dependent column dropped (q %d)", tc.n, q)
		}
	}
}

// TestAddToSymUpper: AddToSymUpper leaves the bits of AddToSym in the upper
// triangle (diagonal included) and the padding, the lower triangle as it
// was (fused kernel) or AddToSym's; MirrorUpper then gives AddToSym's
// matrix bit for bit.
func TestAddToSymUpper(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct{ n, r int }{{1, 1}, {7, 5}, {12, 1}, {65, 33}, {600, 91}, {1031, 40}} {
		n, r := tc.n, tc.r
		l := randomLowRankSym(rng, n, r)
		ld := n + 2
		x := randomSymPadded(rng, n, ld)
		want := append([]float64(nil), x...)
		l.AddToSym(2, want, ld)
		got := append([]float64(nil), x...)
		l.AddToSymUpper(2, got, ld)
		for a := range n {
			for b := range ld {
				i := a*ld + b
				switch {
				case b >= a || b >= n:
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("n=%d r=%d: (%d,%d) = %v, AddToSym gives %v", n, r, a, b, got[i], want[i])
					}
				case fmaKernel && got[i] != x[i]:
					t.Fatalf("n=%d r=%d: lower (%d,%d) changed to %v", n, r, a, b, got[i])
				}
			}
		}
		MirrorUpper(n, got, ld)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("n=%d r=%d: after MirrorUpper entry %d = %v, AddToSym gives %v", n, r, i, got[i], want[i])
			}
		}
	}
}

// TestGemmEdgesBits: gemmEdges gives, bit for bit, each entry as the sum
// over l in order from 0 added to c, for a transposed A (its loop with l
// outermost) and a row-major one, with edge columns and rows of every width.
func TestGemmEdgesBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, tc := range []struct{ m, nc, k int }{{1, 1, 1}, {5, 7, 3}, {13, 79, 170}, {2485, 15, 40}, {8, 8, 9}, {3, 5, 2}} {
		m, nc, k := tc.m, tc.nc, tc.k
		mg, nb8 := m/4*4, nc/8*8
		a := make([]float64, m*k)
		b := make([]float64, k*nc)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		for _, tr := range []bool{false, true} {
			sa, sl := k, 1
			if tr {
				sa, sl = 1, m
			}
			ldc := nc + 1
			c := make([]float64, m*ldc)
			for i := range c {
				c[i] = rng.NormFloat64()
			}
			want := append([]float64(nil), c...)
			for r := range m {
				for j := range nc {
					if r < mg && j < nb8 {
						continue
					}
					var s float64
					for l := range k {
						s += a[r*sa+l*sl] * b[l*nc+j]
					}
					want[r*ldc+j] += s
				}
			}
			gemmEdges(m, nc, k, mg, nb8, a, sa, sl, b, nc, 1, c, ldc)
			for i := range c {
				if math.Float64bits(c[i]) != math.Float64bits(want[i]) {
					t.Fatalf("m=%d nc=%d k=%d transposed=%v: entry %d = %v, want %v", m, nc, k, tr, i, c[i], want[i])
				}
			}
		}
	}
}

// randomLowRankSym is a random n×r Z with a random diagonal D, the
// correction Z D Zᵀ the AddToSym tests add.
func randomLowRankSym(rng *rand.Rand, n, r int) *LowRankSym {
	l := &LowRankSym{N: n, R: r, Z: make([]float64, n*r), D: make([]float64, r*r)}
	for i := range l.Z {
		l.Z[i] = rng.NormFloat64()
	}
	for a := range r {
		l.D[a*r+a] = rng.NormFloat64()
	}
	return l
}

// randomSymPadded is a random symmetric n×n matrix with row stride ld ≥ n,
// the padding of row a set to its column index (so that a test sees any
// write past column n).
func randomSymPadded(rng *rand.Rand, n, ld int) []float64 {
	x := make([]float64, n*ld)
	for a := range n {
		for b := a; b < n; b++ {
			v := rng.NormFloat64()
			x[a*ld+b], x[b*ld+a] = v, v
		}
		for b := n; b < ld; b++ {
			x[a*ld+b] = float64(b)
		}
	}
	return x
}

// TestGemmFMASplitBits: gemmFMA writes the same bits with 1, 2 and 3
// goroutines, for tall products whose few column blocks are split by rows
// (orthoBasis.result's Q·U, transposed A) and wide ones split by column
// blocks, with edge rows and columns.
func TestGemmFMASplitBits(t *testing.T) {
	if !fmaKernel {
		t.Skip("no fused multiply–add kernel on this build or CPU")
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for _, tc := range []struct{ m, nc, k int }{{2485, 79, 170}, {2483, 72, 60}, {1030, 13, 200}, {170, 170, 300}} {
		a, b := randSlice(rng, tc.m*tc.k), randSlice(rng, tc.k*tc.nc)
		c0 := randSlice(rng, tc.m*tc.nc)
		var ref []float64
		for _, procs := range []int{1, 2, 3} {
			old := runtime.GOMAXPROCS(procs)
			c := append([]float64(nil), c0...)
			gemmFMA(tc.m, tc.nc, tc.k, a, 1, tc.m, b, tc.nc, 1, c, tc.nc)
			runtime.GOMAXPROCS(old)
			if ref == nil {
				ref = c
				continue
			}
			for i := range c {
				if math.Float64bits(c[i]) != math.Float64bits(ref[i]) {
					t.Fatalf("%+v: %d goroutines: entry %d = %v, one goroutine %v", tc, procs, i, c[i], ref[i])
				}
			}
		}
	}
}
