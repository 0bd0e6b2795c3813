package rewire

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFoSRKernels: divTo, scaleDivTo and center give the Go loops' bits
// (with the AVX2 kernels where they run) for every length 0–40, on
// entries of every magnitude, signed zeros and subnormals included.
func TestFoSRKernels(t *testing.T) {
	if !fosrKernel {
		t.Log("no AVX2 kernels here: the Go loops are compared with themselves")
	}
	r := rand.New(rand.NewPCG(7, 11))
	draw := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			switch r.IntN(8) {
			case 0:
				v[i] = math.Copysign(0, float64(r.IntN(2)*2-1))
			case 1:
				v[i] = 5e-324 * float64(r.IntN(1000)+1) // subnormal
			default:
				v[i] = (2*r.Float64() - 1) * math.Pow(10, float64(r.IntN(40)-20))
			}
		}
		return v
	}
	same := func(what string, n int, got, want []float64) {
		for k := range want {
			if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
				t.Fatalf("%s, n = %d, entry %d: %v, want %v", what, n, k, got[k], want[k])
			}
		}
	}
	for n := range 41 {
		for range 20 {
			a, b := draw(n), draw(n)
			d := (2*r.Float64() - 1) * 1e3
			got, want := make([]float64, n), make([]float64, n)
			divTo(got, a, b)
			for k := range want {
				want[k] = a[k] / b[k]
			}
			same("divTo", n, got, want)
			scaleDivTo(got, a, d)
			for k := range want {
				want[k] = a[k] / d
			}
			same("scaleDivTo", n, got, want)
			x, w, sd, isd := draw(n), make([]float64, n), draw(n), draw(n)
			xw, ww := append([]float64(nil), x...), make([]float64, n)
			dot, sum := draw(1)[0]+0.5, 1+99*r.Float64()
			center(x, w, sd, isd, dot, sum)
			for k := range xw {
				xk := xw[k] - dot*sd[k]/sum
				xw[k], ww[k] = xk, xk*isd[k]
			}
			same("center x", n, x, xw)
			same("center w", n, w, ww)
		}
	}
}

// BenchmarkFoSRKernels times the element-wise loops of a FoSR power step
// and choice on 33 entries (ENZYMES' mean graph): the kernels and the Go
// loops they replace.
func BenchmarkFoSRKernels(b *testing.B) {
	const n = 33
	r := rand.New(rand.NewPCG(1, 2))
	v := func() []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = 1 + r.Float64()
		}
		return s
	}
	x, w, sd, isd, y := v(), v(), v(), v(), v()
	b.Run("kernels", func(b *testing.B) {
		for b.Loop() {
			center(x, w, sd, isd, 1e-3, 1e3)
			scaleDivTo(x, y, 1.0000001)
			divTo(y, x, sd)
		}
	})
	b.Run("go", func(b *testing.B) {
		for b.Loop() {
			for k := range x {
				xk := x[k] - 1e-3*sd[k]/1e3
				x[k], w[k] = xk, xk*isd[k]
			}
			for k := range x {
				x[k] = y[k] / 1.0000001
			}
			for k := range y {
				y[k] = x[k] / sd[k]
			}
		}
	})
}

// TestFoSRDivScan: divScan gives the quotients of the Go loop and the
// extremes of extremePair's scalar scan (the values, the first indices)
// for every length 0–40, on vectors with ties, signed zeros, NaNs and
// entries of one sign only.
func TestFoSRDivScan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for n := range 41 {
		for trial := range 200 {
			x, sd1 := make([]float64, n), make([]float64, n)
			pool := []float64{-3, -2, -2, 0, math.Copysign(0, -1), 1, 2, 2, math.NaN()}
			for i := range x {
				switch {
				case trial%4 == 0: // few distinct values: ties
					x[i] = pool[r.IntN(len(pool))]
				case trial%4 == 1: // one sign
					x[i] = r.Float64() + 0.1
				default:
					x[i] = 2*r.Float64() - 1
				}
				sd1[i] = 1 + float64(r.IntN(5))
				if trial%4 == 3 {
					sd1[i] = math.Sqrt(sd1[i])
				}
			}
			if trial%8 == 5 {
				for i := range x {
					x[i] = -x[i]
				}
			}
			got, want := make([]float64, n), make([]float64, n)
			e := divScan(got, x, sd1)
			for k := range want {
				want[k] = x[k] / sd1[k]
			}
			for k := range want {
				if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
					t.Fatalf("n = %d, trial %d, y[%d] = %v, want %v", n, trial, k, got[k], want[k])
				}
			}
			w := scanExtremes(want)
			if math.Float64bits(e.a1) != math.Float64bits(w.a1) || math.Float64bits(e.a2) != math.Float64bits(w.a2) ||
				math.Float64bits(e.b1) != math.Float64bits(w.b1) || math.Float64bits(e.b2) != math.Float64bits(w.b2) ||
				e.ia != w.ia || e.ib != w.ib {
				t.Fatalf("n = %d, trial %d, y = %v:\n got %+v\nwant %+v", n, trial, want, e, w)
			}
		}
	}
}

// TestFoSRRoots: roots gives setDeg's √d, invSqrt(d) and √(d+1) bit for
// bit for every length 0–40, on degrees (zeros included) and on other
// non-negative values.
func TestFoSRRoots(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 17))
	for n := range 41 {
		for trial := range 20 {
			deg := make([]float64, n)
			for i := range deg {
				if trial%2 == 0 {
					deg[i] = float64(r.IntN(12))
				} else {
					deg[i] = r.Float64() * math.Pow(10, float64(r.IntN(20)-10))
				}
			}
			sd, isd, sd1 := make([]float64, n), make([]float64, n), make([]float64, n)
			roots(deg, sd, isd, sd1)
			for i, d := range deg {
				want := [3]float64{math.Sqrt(d), invSqrt(d), math.Sqrt(d + 1)}
				got := [3]float64{sd[i], isd[i], sd1[i]}
				for c := range 3 {
					if math.Float64bits(got[c]) != math.Float64bits(want[c]) {
						t.Fatalf("n = %d, deg[%d] = %v: root %d is %v, want %v", n, i, d, c, got[c], want[c])
					}
				}
			}
		}
	}
}
