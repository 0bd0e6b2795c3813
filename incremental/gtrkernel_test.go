package incremental

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGTRRowKernel checks gtrRowFMA against the scalar loop of gtrPass:
// the updated entries of L⁺ and S bit for bit, and its test b > t·D, D and
// b as gtrScore computes them, over the pairs (of component ci with the
// mask; NaNs never pass), for rows of every length up to 40 in every mode,
// at thresholds below, at and above the row's greatest score, and at −Inf.
func TestGTRRowKernel(t *testing.T) {
	if !gtrKernel {
		t.Skip("gtrRowFMA is not built or this CPU lacks AVX2 and FMA")
	}
	rng := rand.New(rand.NewPCG(7, 48))
	for q := 1; q <= 40; q++ {
		for mode := range 4 {
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
			aL, aSx, aSy, dL1, dS0, ci := rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()+4, rng.NormFloat64(), 1.0
			wantL, wantS := append([]float64(nil), l...), append([]float64(nil), s...)
			top := math.Inf(-1) // the greatest score of the pairs tested
			var b, d []float64
			in := func(k int) bool { return mode&2 == 0 || cf[k] == ci }
			for k := range q {
				if mode&1 != 0 {
					wantL[k] = math.FMA(-aL, x[k], wantL[k])
					wantS[k] = math.FMA(-aSy, y[k], math.FMA(-aSx, x[k], wantS[k]))
				}
				b, d = append(b, math.FMA(-2, wantS[k], ds[k]+dS0)), append(d, math.FMA(-2, wantL[k], dl[k]+dL1))
				if sc := gtrScore(wantL[k], wantS[k], dl[k]+dL1, ds[k]+dS0); in(k) && sc > top {
					top = sc
				}
			}
			for _, thr := range []float64{math.Inf(-1), top - 1, top, top + 1, math.Nextafter(top, math.Inf(1))} {
				want := false
				for k := range q {
					want = want || in(k) && math.FMA(-thr, d[k], b[k]) > 0
				}
				lk, sk := append([]float64(nil), l...), append([]float64(nil), s...)
				got := gtrRowFMA(&lk[0], &sk[0], &x[0], &y[0], &dl[0], &ds[0], &cf[0], q, aL, aSx, aSy, dL1, dS0, ci, thr, mode)
				if got != want {
					t.Errorf("q=%d mode=%d t=%v: %v, want %v", q, mode, thr, got, want)
				}
				for k := range q {
					if math.Float64bits(lk[k]) != math.Float64bits(wantL[k]) || math.Float64bits(sk[k]) != math.Float64bits(wantS[k]) {
						t.Fatalf("q=%d mode=%d k=%d: L %v S %v, want %v %v", q, mode, k, lk[k], sk[k], wantL[k], wantS[k])
					}
				}
			}
		}
	}
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
		gtrRowFMA(&v[0][0], &v[1][0], &v[2][0], &v[3][0], &v[4][0], &v[5][0], &v[6][0], q, 1e-9, 1e-9, 1e-9, 2, 2, 1, 100, 3)
	}
}
