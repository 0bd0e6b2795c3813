package gnn

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Param is one trainable tensor: its value, the gradient the last backward
// pass set, and the L2 weight decay the optimiser adds to that gradient.
type Param struct {
	// Name says where the tensor sits, e.g. "conv0.weight".
	Name string
	// Value and Grad have the same shape; Backward overwrites Grad.
	Value, Grad *mat.Dense
	// WeightDecay is the L2 coefficient λ: Adam uses Grad + λ·Value.
	WeightDecay float64
}

// newParam returns an r×c parameter with zero value and gradient.
func newParam(name string, r, c int) *Param {
	return &Param{Name: name, Value: mat.NewDense(r, c, nil), Grad: mat.NewDense(r, c, nil)}
}

// glorot fills w with Glorot-uniform draws U(−a, a), a = √(6/(fanIn+fanOut)),
// in row-major order from rng. O(len(w)).
func glorot(w []float64, fanIn, fanOut int, rng *rand.Rand) {
	a := math.Sqrt(6 / float64(fanIn+fanOut))
	for k := range w {
		w[k] = a * (2*rng.Float64() - 1)
	}
}
