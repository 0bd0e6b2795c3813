package axpy

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// TestAddScaledRows: the one-pass update is bit for bit floats.AddScaled
// called for each row in turn, with the AVX kernel and without, on
// lengths with and without a tail of fewer than 32 entries and on 0, 1
// and many rows.
func TestAddScaledRows(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, avx := range []bool{false, true} {
		if avx && !useAVXRows {
			continue
		}
		for _, n := range []int{1, 31, 32, 33, 100, 2048} {
			for _, m := range []int{0, 1, 3, 16} {
				stride := n + r.IntN(5)
				x := make([]float64, m*stride)
				for i := range x {
					x[i] = r.NormFloat64()
				}
				f := make([]float64, m)
				for i := range f {
					f[i] = r.NormFloat64()
				}
				y := make([]float64, n)
				for i := range y {
					y[i] = r.NormFloat64()
				}
				want := slices.Clone(y)
				for j := range m {
					floats.AddScaled(want, f[j], x[j*stride:j*stride+n])
				}
				saved := useAVXRows
				setAVXRows(avx)
				AddScaledRows(y, f, x, stride)
				setAVXRows(saved)
				if !slices.Equal(y, want) {
					t.Fatalf("avx %v, n %d, m %d: one pass differs from AddScaled row by row", avx, n, m)
				}
			}
		}
	}
}

// BenchmarkAddScaledRows updates 128 columns of 10⁵ numbers by 16 rank-one
// terms (a batch of the sketch engine's edits on its anchors' columns),
// tile by tile, against floats.AddScaled term by term.
func BenchmarkAddScaledRows(b *testing.B) {
	const n, m, cols, tile = 100000, 16, 128, 2048
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, m*n)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	f := make([]float64, m)
	for i := range f {
		f[i] = r.NormFloat64()
	}
	y := make([]float64, cols*n)
	for _, oneBy := range []bool{false, true} {
		b.Run(fmt.Sprintf("AddScaled=%v", oneBy), func(b *testing.B) {
			for range b.N {
				for lo := 0; lo < n; lo += tile {
					hi := min(n, lo+tile)
					for q := range cols {
						col := y[q*n+lo : q*n+hi]
						if oneBy {
							for j := range m {
								floats.AddScaled(col, f[j], x[j*n+lo:j*n+hi])
							}
						} else {
							AddScaledRows(col, f, x[lo:], n)
						}
					}
				}
			}
		})
	}
}
