package gnn

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestAdamStep checks two Adam steps, with and without weight decay, against
// values worked out by hand (PyTorch's update, lr 0.01, β 0.9/0.999, ε 1e-8).
func TestAdamStep(t *testing.T) {
	p := &Param{Name: "w", Value: mat.NewDense(1, 2, []float64{1, -2}),
		Grad: mat.NewDense(1, 2, []float64{0.5, 0.1}), WeightDecay: 0.1}
	q := &Param{Name: "b", Value: mat.NewDense(1, 1, []float64{3}),
		Grad: mat.NewDense(1, 1, []float64{-0.2})} // no decay
	a := NewAdam(0.01)
	a.Step([]*Param{p, q})

	// Step 1, p: g = grad + λθ = (0.5 + 0.1·1, 0.1 + 0.1·(−2)) = (0.6, −0.1).
	// m = 0.1·g = (0.06, −0.01); v = 0.001·g² = (0.00036, 0.00001).
	// Bias corrections: 1 − 0.9 = 0.1 and √(1 − 0.999) = √0.001.
	// √v/√0.001 = (√0.36, √0.01) = (0.6, 0.1); step size lr/0.1 = 0.1.
	// θ = (1 − 0.1·0.06/(0.6 + 1e-8), −2 − 0.1·(−0.01)/(0.1 + 1e-8)).
	p1 := []float64{1 - 0.1*0.06/(0.6+1e-8), -2 + 0.1*0.01/(0.1+1e-8)}
	// q: g = −0.2 (no decay); m = −0.02; √v/√0.001 = 0.2;
	// θ = 3 − 0.1·(−0.02)/(0.2 + 1e-8).
	q1 := 3 + 0.1*0.02/(0.2+1e-8)
	near(t, "step 1 p", rawDense(p.Value), p1)
	near(t, "step 1 q", rawDense(q.Value), []float64{q1})
	// Roughly lr per entry, against the sign of g.
	near(t, "step 1 p (rounded)", rawDense(p.Value), []float64{0.99, -1.99}, 1e-8)

	// Step 2 with new gradients (0.2, −0.4) for p, 0.3 for q.
	p.Grad.SetRawMatrix(mat.NewDense(1, 2, []float64{0.2, -0.4}).RawMatrix())
	q.Grad.Set(0, 0, 0.3)
	a.Step([]*Param{p, q})
	// p: g = (0.2 + 0.1·p1[0], −0.4 + 0.1·p1[1]);
	// m = 0.9·m1 + 0.1·g; v = 0.999·v1 + 0.001·g²;
	// bias corrections 1 − 0.81 = 0.19 and √(1 − 0.998001) = √0.001999.
	g := []float64{0.2 + 0.1*p1[0], -0.4 + 0.1*p1[1]}
	m1, v1 := []float64{0.06, -0.01}, []float64{0.00036, 0.00001}
	p2 := make([]float64, 2)
	for k := range p2 {
		m := 0.9*m1[k] + 0.1*g[k]
		v := 0.999*v1[k] + 0.001*g[k]*g[k]
		p2[k] = p1[k] - (0.01/0.19)*m/(math.Sqrt(v)/math.Sqrt(0.001999)+1e-8)
	}
	// q: g = 0.3; m = 0.9·(−0.02) + 0.03 = 0.012; v = 0.999·0.00004 + 0.001·0.09.
	qm, qv := 0.012, 0.999*0.00004+0.00009
	q2 := q1 - (0.01/0.19)*qm/(math.Sqrt(qv)/math.Sqrt(0.001999)+1e-8)
	near(t, "step 2 p", rawDense(p.Value), p2)
	near(t, "step 2 q", rawDense(q.Value), []float64{q2})
	if a.Steps() != 2 {
		t.Fatalf("Steps() = %d", a.Steps())
	}
}

// near fails unless got and want agree to a relative 1e-13 (or tol).
func near(t *testing.T, what string, got, want []float64, tol ...float64) {
	t.Helper()
	e := 1e-13
	if len(tol) > 0 {
		e = tol[0]
	}
	for k := range want {
		if math.Abs(got[k]-want[k]) > e*max(1, math.Abs(want[k])) {
			t.Fatalf("%s: got %v, want %v", what, got, want)
		}
	}
}
