package linalg

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSquareSym checks SquareSym against mat.SymDense.SymOuterK (gonum's
// Dsyrk) bit for bit, for symmetric matrices of 1 to 70 and 131 nodes.
func TestSquareSym(t *testing.T) {
	rng := rand.New(rand.NewPCG(48, 2))
	for _, n := range append([]int{131}, seq(1, 70)...) {
		ld := SquareStride(n)
		p := make([]float64, n*ld)
		P := mat.NewDense(n, n, nil)
		for i := range n {
			for j := i; j < n; j++ {
				v := rng.NormFloat64()
				if j == i+1 {
					v = math.Copysign(0, -1) // signed zeros
				}
				p[i*ld+j], p[j*ld+i] = v, v
				P.Set(i, j, v)
				P.Set(j, i, v)
			}
		}
		var want mat.SymDense
		want.SymOuterK(1, P)
		s := make([]float64, n*ld)
		for k := range s {
			s[k] = math.NaN() // every upper entry must be written
		}
		SquareSym(n, p, s, ld)
		for i := range n {
			for j := i; j < n; j++ {
				if g, w := s[i*ld+j], want.At(i, j); math.Float64bits(g) != math.Float64bits(w) {
					t.Fatalf("n=%d (%d,%d): %v, want %v", n, i, j, g, w)
				}
			}
		}
	}
}

func seq(a, b int) []int {
	var s []int
	for i := a; i <= b; i++ {
		s = append(s, i)
	}
	return s
}

// BenchmarkSquareSym times P·P of a 256×256 symmetric matrix.
func BenchmarkSquareSym(b *testing.B) {
	const n = 256
	ld := SquareStride(n)
	p, s := make([]float64, n*ld), make([]float64, n*ld)
	for i := range n {
		for j := range n {
			p[i*ld+j] = 1 / float64(1+i+j)
		}
	}
	for b.Loop() {
		SquareSym(n, p, s, ld)
	}
}

// BenchmarkSymOuterK is BenchmarkSquareSym through gonum's Dsyrk.
func BenchmarkSymOuterK(b *testing.B) {
	const n = 256
	P := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			P.Set(i, j, 1/float64(1+i+j))
		}
	}
	var S mat.SymDense
	for b.Loop() {
		S.Reset()
		S.SymOuterK(1, P)
	}
}
