package incremental

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGTRRowsKernel checks gtrRowsFMA against the scalar loop of gtrPass
// on packed triangles of 1 to 40 nodes, from every first row, in every
// mode: the diagonals set, the updated entries of L⁺ and S bit for bit,
// and the first row with a pair (of the row's component with the mask;
// NaNs never pass) where b > t·D, D and b as gtrScore computes them, at
// thresholds of −Inf, 0.5, 2 and 10 (scores here lie around 1).
func TestGTRRowsKernel(t *testing.T) {
	if !gtrKernel {
		t.Skip("gtrRowsFMA is not built or this CPU lacks AVX2 and FMA")
	}
	rng := rand.New(rand.NewPCG(7, 48))
	for n := 1; n <= 40; n++ {
		vec := func(base float64) []float64 {
			v := make([]float64, n)
			for k := range v {
				v[k] = base + rng.NormFloat64()
			}
			return v
		}
		p := newPacked(n)
		for k := range p.data {
			p.data[k] = 0.3 * rng.NormFloat64()
		}
		sq := newPacked(n)
		for k := range sq.data {
			sq.data[k] = 0.3 * rng.NormFloat64()
		}
		if n == 9 {
			p.data[p.start[2]+3] = math.NaN() // a NaN never passes
		}
		x, y, dl, ds := vec(0), vec(0), vec(2), vec(3)
		cf := make([]float64, n)
		for k := range cf {
			cf[k] = float64(rng.IntN(2))
		}
		c, c2xx := rng.NormFloat64(), rng.NormFloat64()
		for i0 := range n {
			for mode := range 4 {
				for _, thr := range []float64{math.Inf(-1), 0.5, 2, 10} {
					wantL, wantS := p.clone(), sq.clone()
					want := n - i0
					for i := i0; i < n && want == n-i0; i++ {
						rowL, rowS := wantL.row(i), wantS.row(i)
						rowL[0], rowS[0] = dl[i], ds[i]
						aL, aSx := c*x[i], c*y[i]-c2xx*x[i]
						for k := 1; k < len(rowL); k++ {
							if mode&1 != 0 {
								rowL[k] = math.FMA(-aL, x[i+k], rowL[k])
								rowS[k] = math.FMA(-aL, y[i+k], math.FMA(-aSx, x[i+k], rowS[k]))
							}
							b, d := gtrScore(rowL[k], rowS[k], dl[i+k]+(dl[i]+1), ds[i+k]+ds[i])
							if (mode&2 == 0 || cf[i+k] == cf[i]) && math.FMA(-thr, d, b) > 0 {
								want = i - i0
							}
						}
					}
					gotL, gotS := p.clone(), sq.clone()
					got := gtrRowsFMA(&gotL.data[gotL.start[i0]], &gotS.data[gotS.start[i0]], &x[i0], &y[i0], &dl[i0], &ds[i0], &cf[i0],
						n-i0, n-i0, c, c2xx, thr, mode)
					if got != want {
						t.Fatalf("n=%d i0=%d mode=%d t=%v: row %d, want %d", n, i0, mode, thr, got, want)
					}
					for k := range gotL.data {
						if math.Float64bits(gotL.data[k]) != math.Float64bits(wantL.data[k]) || math.Float64bits(gotS.data[k]) != math.Float64bits(wantS.data[k]) {
							t.Fatalf("n=%d i0=%d mode=%d t=%v entry %d: L %v S %v, want %v %v", n, i0, mode, thr, k, gotL.data[k], gotS.data[k], wantL.data[k], wantS.data[k])
						}
					}
				}
			}
		}
	}
}

// clone is a copy of p. O(n²).
func (p packed) clone() packed {
	return packed{n: p.n, start: p.start, data: append([]float64(nil), p.data...)}
}

// TestGTRFilter: every score that exceeds the floor, rounded, passes the
// kernel's division-free test b > gtrFilter(floor)·D, whatever the
// magnitudes; at floor ≤ 0 everything passes.
func TestGTRFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 48))
	for range 100000 {
		b := math.Ldexp(1+rng.Float64(), rng.IntN(80)-40)
		d := 1 + math.Ldexp(rng.Float64(), rng.IntN(40)-20)
		s := b / d
		for _, floor := range []float64{math.Nextafter(s, 0), math.Nextafter(math.Nextafter(s, 0), 0)} {
			if !(math.FMA(-gtrFilter(floor), d, b) > 0) {
				t.Fatalf("b=%v d=%v: score %v > floor %v but the test fails", b, d, s, floor)
			}
		}
	}
	for _, floor := range []float64{0, -1, math.Inf(-1), math.NaN()} {
		if f := gtrFilter(floor); !math.IsInf(f, -1) {
			t.Errorf("gtrFilter(%v) = %v, want −Inf", floor, f)
		}
	}
}

// BenchmarkGTRRowsKernel times the kernel on the rows of a 256-node
// triangle (the update and the test, which no pair passes).
func BenchmarkGTRRowsKernel(b *testing.B) {
	const n = 256
	p, sq := newPacked(n), newPacked(n)
	v := make([][]float64, 5)
	for i := range v {
		v[i] = make([]float64, n)
		for k := range v[i] {
			v[i][k] = 1 + float64(k%7)/8
		}
	}
	for b.Loop() {
		gtrRowsFMA(&p.data[0], &sq.data[0], &v[0][0], &v[1][0], &v[2][0], &v[3][0], &v[4][0], n, n, 1e-9, 1e-9, 100, 3)
	}
}
