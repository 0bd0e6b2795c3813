package gnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestBatchNormAVXBits: BatchNorm's row loops give the same bits with and
// without the AVX-512 kernels, for blocks of every width 1–70 at column
// offsets 0 and 3 of a wider matrix, row counts 0–5 and 37, values of
// mixed sign and scale with ±0, ±Inf and NaN among them, and the
// normalisation with and without its ReLU.
func TestBatchNormAVXBits(t *testing.T) {
	if !useAVX512 {
		t.Skip("no AVX-512 on this machine: only the Go loops run")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for k := range v {
			v[k] = rng.NormFloat64() * float64(int(1)<<rng.IntN(8))
			if rng.IntN(16) == 0 { // ±0, ±Inf and NaN reach every kernel
				v[k] = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN()}[rng.IntN(5)]
			}
		}
		return v
	}
	for w := 1; w <= 70; w++ {
		for _, c0 := range []int{0, 3} {
			for _, n := range []int{0, 1, 2, 3, 5, 37} {
				c := c0 + w + c0 // c0 columns either side of the block
				xs, d, h := vec(n*c), vec(n*c), vec(n*c)
				mean, inv, g, be, a, s0, d0 := vec(c), vec(c), vec(c), vec(c), vec(c), vec(c), vec(c)
				fn := float64(n) + 0.5
				run := func() (out [][]float64) {
					sq, s, dt := slices.Clone(d0[:w]), slices.Clone(s0[:w]), slices.Clone(d0[:w])
					bnColSqDev(sq, xs, n, c, c0, w, mean[c0:])
					bnColSumDot(s, dt, d, h, n, c, c0, w)
					xh, y, dx := make([]float64, n*c), make([]float64, n*c), make([]float64, n*c)
					yr := make([]float64, n*c)
					lo := min(1, n)
					bnNormRows(xs, xh, y, lo, n, c, mean, inv, g, be, false)
					bnNormRows(xs, xh, yr, lo, n, c, mean, inv, g, be, true)
					bnGradRows(dx, d, h, lo, n, c, a, s0, d0, fn)
					return [][]float64{sq, s, dt, xh, y, yr, dx}
				}
				var want, got [][]float64
				withAVX512(false, func() { want = run() })
				withAVX512(true, func() { got = run() })
				for q, name := range []string{"sqdev", "sum(dy)", "dot", "xhat", "y", "relu(y)", "dx"} {
					sameBitsNaN(t, fmt.Sprintf("%s w=%d c0=%d n=%d", name, w, c0, n), got[q], want[q])
				}
			}
		}
	}
}

// BenchmarkBatchNorm: a training-mode Forward and Backward of BatchNorm on
// a PROTEINS-sized batch (2 500 rows of 64 channels), one goroutine, with
// and without the AVX-512 kernels. GB/s counts the bytes the two passes
// must read and write (10 passes over n×64 doubles).
func BenchmarkBatchNorm(b *testing.B) {
	const n, c = 2500, 64
	rng := rand.New(rand.NewPCG(1, 2))
	x, dy := mat.NewDense(n, c, nil), mat.NewDense(n, c, nil)
	for k, v := range rawDense(x) {
		rawDense(x)[k] = v + rng.NormFloat64()
		rawDense(dy)[k] = rng.NormFloat64()
	}
	for _, avx := range []bool{false, true} {
		if avx && !useAVX512 {
			continue
		}
		b.Run(fmt.Sprintf("avx512=%v", avx), func(b *testing.B) {
			withAVX512(avx, func() {
				bn := NewBatchNorm("bn", c)
				for b.Loop() {
					bn.Forward(x, true)
					bn.Backward(dy)
				}
				b.ReportMetric(float64(10*n*c*8)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
			})
		})
	}
}
