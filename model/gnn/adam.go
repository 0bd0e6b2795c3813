package gnn

import "math"

// Adam is the Adam optimiser as PyTorch implements it, with L2 weight decay
// added to the gradient (not decoupled as in AdamW). At step t, for every
// parameter θ with gradient g and decay λ = Param.WeightDecay:
//
//	g ← g + λ·θ
//	m ← β1·m + (1−β1)·g
//	v ← β2·v + (1−β2)·g²
//	θ ← θ − (lr/(1−β1ᵗ)) · m / (√v/√(1−β2ᵗ) + ε)
//
// Each Step costs O(number of parameter entries).
type Adam struct {
	LR, Beta1, Beta2, Eps float64 // learning rate, moment decays, ε

	t     int
	state map[*Param]*adamState
}

type adamState struct{ m, v []float64 }

// NewAdam returns Adam with learning rate lr and PyTorch's defaults β1 = 0.9,
// β2 = 0.999, ε = 1e-8.
func NewAdam(lr float64) *Adam {
	return &Adam{LR: lr, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, state: map[*Param]*adamState{}}
}

// Steps returns the number of steps taken.
func (a *Adam) Steps() int { return a.t }

// Step updates every parameter from its Grad (left unchanged).
func (a *Adam) Step(params []*Param) {
	a.t++
	bc1 := 1 - math.Pow(a.Beta1, float64(a.t))
	inv2 := 1 / math.Sqrt(1-math.Pow(a.Beta2, float64(a.t)))
	step := a.LR / bc1
	b1, b2, eps := a.Beta1, a.Beta2, a.Eps
	for _, p := range params {
		th, g := rawDense(p.Value), rawDense(p.Grad)
		st := a.state[p]
		if st == nil {
			st = &adamState{m: make([]float64, len(th)), v: make([]float64, len(th))}
			a.state[p] = st
		}
		g, m, v, wd := g[:len(th)], st.m[:len(th)], st.v[:len(th)], p.WeightDecay
		k0 := 0
		if useAVX && len(th) >= 4 {
			// The same operations, four entries at a time: same bits.
			k0 = len(th) &^ 3
			c := [8]float64{wd, b1, 1 - b1, b2, 1 - b2, inv2, eps, step}
			adamAVX(&th[0], &g[0], &m[0], &v[0], k0, &c)
		}
		for k := k0; k < len(th); k++ {
			gk := g[k] + wd*th[k]
			mk := b1*m[k] + (1-b1)*gk
			vk := b2*v[k] + (1-b2)*gk*gk
			m[k], v[k] = mk, vk
			th[k] -= step * mk / (math.Sqrt(vk)*inv2 + eps)
		}
	}
}
