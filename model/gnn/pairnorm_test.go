package gnn

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPairNormFormula checks the output against the paper's definition
// with the pairwise sum computed directly: s (H − H̄) / √((1/n²) Σ_ij ‖h_i − h_j‖²).
func TestPairNormFormula(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1))
	const n, m, s = 7, 4, 1.7
	x := randDense(n, m, rng)
	var pair float64
	for i := range n {
		for j := range n {
			for k := range m {
				d := x.At(i, k) - x.At(j, k)
				pair += d * d
			}
		}
	}
	den := math.Sqrt(pair / (n * n))
	y := NewPairNorm(s).Forward(x)
	for k := range m {
		var mean float64
		for i := range n {
			mean += x.At(i, k) / n
		}
		for i := range n {
			if want := s * (x.At(i, k) - mean) / den; math.Abs(y.At(i, k)-want) > 1e-14 {
				t.Fatalf("y[%d,%d] = %v, want %v", i, k, y.At(i, k), want)
			}
		}
	}
}

// TestPairNormCollapsed: when all rows are equal, σ = 0: the output is zero
// and no gradient passes (no NaN).
func TestPairNormCollapsed(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 2, 1, 2, 1, 2})
	pn := NewPairNorm(1)
	if y := pn.Forward(x); !isZero(rawDense(y)) {
		t.Fatalf("output %v", rawDense(y))
	}
	if dx := pn.Backward(mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})); !isZero(rawDense(dx)) {
		t.Fatalf("gradient %v", rawDense(dx))
	}
}
