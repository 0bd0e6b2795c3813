package incremental

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGTRRowKernel checks gtrRowAVX2 against the scalar loop of gtrPass:
// the updated entries of L⁺ and S bit for bit, and its test b > t·(1 + r)
// over the pairs of component ci (NaNs never pass), for rows of every
// length up to 40 with and without the update, at thresholds below, at
// and above the row's greatest score, and at −Inf.
func TestGTRRowKernel(t *testing.T) {
	if !gtrKernel {
		t.Skip("gtrRowAVX2 is not built or this CPU lacks AVX2")
	}
	rng := rand.New(rand.NewPCG(7, 48))
	for q := 1; q <= 40; q++ {
		for _, upd := range []int{0, 1} {
			vec := func() []float64 {
				v := make([]float64, q)
				for k := range v {
					v[k] = rng.NormFloat64()
				}
				return v
			}
			l, s, x, y, dl, ds := vec(), vec(), vec(), vec(), vec(), vec()
			cf := make([]float64, q)
			for k := range cf {
				cf[k] = float64(rng.IntN(2))
			}
			if q == 8 {
				dl[3], l[3] = math.NaN(), math.NaN() // a NaN never passes
			}
			aL, aSx, aSy, dL0, dS0, ci := rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()+3, rng.NormFloat64(), 1.0
			wantL, wantS := append([]float64(nil), l...), append([]float64(nil), s...)
			top := math.Inf(-1) // the greatest b/(1 + r) of component ci
			var b, d []float64
			for k := range q {
				if upd != 0 {
					wantL[k] -= aL * x[k]
					wantS[k] -= aSx*x[k] + aSy*y[k]
				}
				r := dL0 + dl[k] - 2*wantL[k]
				b, d = append(b, dS0+ds[k]-2*wantS[k]), append(d, 1+r)
				if cf[k] == ci && b[k]/d[k] > top {
					top = b[k] / d[k]
				}
			}
			for _, thr := range []float64{math.Inf(-1), top - 1, top, top + 1, math.Nextafter(top, math.Inf(1))} {
				want := false
				for k := range q {
					want = want || cf[k] == ci && b[k] > thr*d[k]
				}
				lk, sk := append([]float64(nil), l...), append([]float64(nil), s...)
				got := gtrRowAVX2(&lk[0], &sk[0], &x[0], &y[0], &dl[0], &ds[0], &cf[0], q, aL, aSx, aSy, dL0, dS0, ci, thr, upd)
				if got != want {
					t.Errorf("q=%d upd=%d t=%v: %v, want %v", q, upd, thr, got, want)
				}
				for k := range q {
					if math.Float64bits(lk[k]) != math.Float64bits(wantL[k]) || math.Float64bits(sk[k]) != math.Float64bits(wantS[k]) {
						t.Fatalf("q=%d upd=%d k=%d: L %v S %v, want %v %v", q, upd, k, lk[k], sk[k], wantL[k], wantS[k])
					}
				}
			}
		}
	}
}

// TestGTRFilter: every score that exceeds the floor, rounded, passes the
// kernel's division-free test b > gtrFilter(floor)·(1 + r), whatever the
// magnitudes; at floor ≤ 0 everything passes.
func TestGTRFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 48))
	for range 100000 {
		b := math.Ldexp(1+rng.Float64(), rng.IntN(80)-40)
		d := 1 + math.Ldexp(rng.Float64(), rng.IntN(40)-20)
		s := b / d
		for _, floor := range []float64{math.Nextafter(s, 0), math.Nextafter(math.Nextafter(s, 0), 0)} {
			if !(b > gtrFilter(floor)*d) {
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

// BenchmarkGTRRowKernel times the kernel on a row of 256 entries (the
// update and the test, which no entry passes).
func BenchmarkGTRRowKernel(b *testing.B) {
	const q = 256
	v := make([][]float64, 7)
	for i := range v {
		v[i] = make([]float64, q)
		for k := range v[i] {
			v[i][k] = 1 + float64(k%7)/8
		}
	}
	for b.Loop() {
		gtrRowAVX2(&v[0][0], &v[1][0], &v[2][0], &v[3][0], &v[4][0], &v[5][0], &v[6][0], q, 1e-9, 1e-9, 1e-9, 2, 2, 1, 100, 1)
	}
}
