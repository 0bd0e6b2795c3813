package incremental

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGTRRowKernel checks gtrRowAVX2 against the scalar loop of gtrPass:
// the updated entries of L⁺ and S and the scores bit for bit (0 for other
// components' pairs), and the greatest score (NaN scores left out), for
// rows of every length up to 40 with and without the update.
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
				dl[3], l[3] = math.NaN(), math.NaN() // a NaN score is never the maximum
			}
			aL, aSx, aSy, dL0, dS0, ci := rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()+3, rng.NormFloat64(), 1.0
			wantL, wantS := append([]float64(nil), l...), append([]float64(nil), s...)
			want := math.Inf(-1)
			wantSc := make([]float64, q)
			for k := range q {
				if upd != 0 {
					wantL[k] -= aL * x[k]
					wantS[k] -= aSx*x[k] + aSy*y[k]
				}
				sc := 0.0
				if cf[k] == ci {
					r := dL0 + dl[k] - 2*wantL[k]
					sc = (dS0 + ds[k] - 2*wantS[k]) / (1 + r)
				}
				wantSc[k] = sc
				if sc > want {
					want = sc
				}
			}
			sc := make([]float64, q)
			got := gtrRowAVX2(&l[0], &s[0], &x[0], &y[0], &dl[0], &ds[0], &cf[0], &sc[0], q, aL, aSx, aSy, dL0, dS0, ci, upd)
			if got != want {
				t.Errorf("q=%d upd=%d: top %v, want %v", q, upd, got, want)
			}
			for k := range q {
				if math.Float64bits(l[k]) != math.Float64bits(wantL[k]) || math.Float64bits(s[k]) != math.Float64bits(wantS[k]) ||
					math.Float64bits(sc[k]) != math.Float64bits(wantSc[k]) && !(math.IsNaN(sc[k]) && math.IsNaN(wantSc[k])) {
					t.Fatalf("q=%d upd=%d k=%d: L %v S %v score %v, want %v %v %v", q, upd, k, l[k], s[k], sc[k], wantL[k], wantS[k], wantSc[k])
				}
			}
		}
	}
}

// BenchmarkGTRRowKernel times the kernel on a row of 256 entries (the
// update and the scores).
func BenchmarkGTRRowKernel(b *testing.B) {
	const q = 256
	v := make([][]float64, 8)
	for i := range v {
		v[i] = make([]float64, q)
		for k := range v[i] {
			v[i][k] = 1 + float64(k%7)/8
		}
	}
	for b.Loop() {
		gtrRowAVX2(&v[0][0], &v[1][0], &v[2][0], &v[3][0], &v[4][0], &v[5][0], &v[6][0], &v[7][0], q, 1e-9, 1e-9, 1e-9, 2, 2, 1, 1)
	}
}
