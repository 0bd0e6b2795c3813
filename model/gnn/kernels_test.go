package gnn

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestKernels compares every product kernel with gonum's dense products, for
// widths that take each code path (1, 4 and 8 columns at a time, the axpy
// form above 32 columns) and inputs with many zeros (as after ReLU).
func TestKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, k = 23, 9
	var s scratch
	for _, m := range []int{1, 3, 4, 7, 8, 12, 16, 31, 33, 64, 100} {
		t.Run(fmt.Sprint("m=", m), func(t *testing.T) {
			a := randDense(n, k, rng)
			for i, d := 0, rawDense(a); i < len(d); i++ {
				if rng.Float64() < 0.5 {
					d[i] = 0
				}
			}
			b, g, bt := randDense(k, m, rng), randDense(n, m, rng), randDense(k, m, rng)
			for c := range m {
				g.Set(4, c, 0) // a zero row of g
			}
			x := randCSR(n, k, 0.4, rng)
			p := randCSR(n, n, 0.3, rng)
			var want mat.Dense

			got := mat.NewDense(n, m, nil)
			mulNN(rawDense(got), rawDense(a), rawDense(b), n, k, m, &s)
			want.Mul(a, b)
			same(t, "mulNN", got, &want)

			gotT := mat.NewDense(k, m, nil)
			mulTN(rawDense(gotT), rawDense(a), rawDense(g), n, k, m, &s)
			want.Reset()
			want.Mul(a.T(), g)
			same(t, "mulTN", gotT, &want)

			gotNT := mat.NewDense(n, k, nil)
			mulNT(rawDense(gotNT), rawDense(g), rawDense(bt), n, k, m, &s)
			want.Reset()
			want.Mul(g, bt.T())
			same(t, "mulNT", gotNT, &want)

			mulInput(rawDense(got), x, rawDense(b), m, &s)
			want.Reset()
			want.Mul(x.ToDense(), b)
			same(t, "sparse X·W", got, &want)

			inputGradW(rawDense(gotT), x, rawDense(g), m, &s)
			want.Reset()
			want.Mul(x.ToDense().T(), g)
			same(t, "sparse Xᵀ·G", gotT, &want)

			// P·g added into the middle block of a wider matrix, and Pᵀ·g.
			wide := randDense(n, 3*m, rng)
			before := mat.DenseCopyOf(wide)
			spmm(strided{rawDense(wide), 3 * m, m}, p.RawMatrix(), whole(rawDense(g), m), m, true)
			want.Reset()
			want.Mul(p.ToDense(), g)
			same(t, "spmm add (middle block)", wide.Slice(0, n, m, 2*m).(*mat.Dense), addDense(before.Slice(0, n, m, 2*m), &want))
			same(t, "spmm add (left block untouched)", wide.Slice(0, n, 0, m).(*mat.Dense), before.Slice(0, n, 0, m).(*mat.Dense))
			spmmT(whole(rawDense(got), m), p.RawMatrix(), whole(rawDense(g), m), m)
			want.Reset()
			want.Mul(p.ToDense().T(), g)
			same(t, "spmmT", got, &want)
		})
	}
}

func addDense(a, b mat.Matrix) *mat.Dense {
	var c mat.Dense
	c.Add(a, b)
	return &c
}

func same(t *testing.T, what string, got, want *mat.Dense) {
	t.Helper()
	if !mat.EqualApprox(got, want, 1e-13) {
		t.Fatalf("%s:\ngot  %v\nwant %v", what, mat.Formatted(got), mat.Formatted(want))
	}
}
