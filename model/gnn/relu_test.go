package gnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestReLUAVXBits: reluGrad, reluDropGrad and reluDrop give the same bits
// with and without the AVX-512 kernels, for every length 0–70, dropout
// rates 0, 0.5 and 0.9, draws at the threshold and just below it, and
// inputs holding ±0, ±Inf, NaN and subnormals.
func TestReLUAVXBits(t *testing.T) {
	if !useAVX512 {
		t.Skip("no AVX-512 on this machine: only the Go loops run")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -5e-324}
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for k := range v {
			if rng.IntN(4) == 0 {
				v[k] = special[rng.IntN(len(special))]
			} else {
				v[k] = rng.NormFloat64()
			}
		}
		return v
	}
	for n := 0; n <= 70; n++ {
		for _, p := range []float64{0, 0.5, 0.9} {
			d, pre, mask, z := vec(n), vec(n), vec(n), vec(n)
			words := make([]uint64, (n+1)/2)
			thr, _ := dropThreshold(p)
			for k := range words {
				words[k] = rng.Uint64()
				if k%3 == 1 { // halves at the threshold and just below it
					words[k] = thr | (thr-1)&0xffffffff<<32
				}
			}
			run := func() [][]float64 {
				g, dg := slices.Clone(d), slices.Clone(d)
				reluGrad(g, pre)
				reluDropGrad(dg, pre, mask)
				h, m := make([]float64, n), make([]float64, n)
				reluDrop(h, m, z, words, p)
				return [][]float64{g, dg, h, m}
			}
			var want, got [][]float64
			withAVX512(false, func() { want = run() })
			withAVX512(true, func() { got = run() })
			for q, name := range []string{"reluGrad", "reluDropGrad", "reluDrop h", "reluDrop mask"} {
				sameBitsNaN(t, fmt.Sprintf("%s n=%d p=%g", name, n, p), got[q], want[q])
			}
		}
	}
}
