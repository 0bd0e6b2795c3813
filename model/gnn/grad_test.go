package gnn

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLayerGradients checks dW, db and (dense input) dX of GCN and DirGCN
// layers against central differences of Σ R∘layer(X).
func TestLayerGradients(t *testing.T) {
	const n, in, out = 11, 6, 4
	for _, tc := range []struct {
		name     string
		kind     Kind
		directed bool
		sparseX  bool
	}{
		{"gcn/dense", GCN, false, false},
		{"gcn/sparse", GCN, false, true},
		{"gcn/directed-input", GCN, true, false},
		{"dirgcn/dense", DirGCN, true, false},
		{"dirgcn/sparse", DirGCN, true, true},
		{"dirgcn/undirected", DirGCN, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 7))
			ops := NewOperators(testGraph(t, n, tc.directed, 3), tc.kind)
			var conv Conv
			if tc.kind == GCN {
				conv = newGCNLayer(ops.Norm, transposeCSR(ops.Norm), in, out, rng, "l")
			} else {
				conv = newDirGCNLayer(ops.In, ops.Out, transposeCSR(ops.In), transposeCSR(ops.Out), in, out, rng, "l")
			}
			var x mat.Matrix
			var xd *mat.Dense
			if tc.sparseX {
				x = randCSR(n, in, 0.4, rng)
			} else {
				xd = randDense(n, in, rng)
				x = xd
			}
			// Non-zero biases, so that they take part in the check.
			for k, b := 0, rawDense(conv.Params()[1].Value); k < len(b); k++ {
				b[k] = rng.Float64() - 0.5
			}
			r := randDense(n, out, rng)
			f := func() float64 { return weighted(conv.Forward(x), r) }
			f()
			dx := conv.Backward(r, true)
			for _, p := range conv.Params() {
				checkGrad(t, p.Name, f, copyOf(p.Grad), rawDense(p.Value))
			}
			if tc.sparseX {
				if dx != nil {
					t.Error("sparse input: Backward returned an input gradient")
				}
				return
			}
			checkGrad(t, "input", f, copyOf(dx), rawDense(xd))
		})
	}
}

// TestPairNormGradient checks PairNorm's dX against central differences, for
// two scales.
func TestPairNormGradient(t *testing.T) {
	for _, s := range []float64{1, 2.5} {
		t.Run(fmt.Sprint("s=", s), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, 2))
			x, r := randDense(9, 5, rng), randDense(9, 5, rng)
			pn := NewPairNorm(s)
			f := func() float64 { return weighted(pn.Forward(x), r) }
			f()
			checkGrad(t, "input", f, copyOf(pn.Backward(r)), rawDense(x))
		})
	}
}

// TestLossGradient checks the cross-entropy gradient with respect to the
// logits (rows outside the node set must get zero).
func TestLossGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	const n, c = 10, 4
	z := randDense(n, c, rng)
	for k, d := 0, rawDense(z); k < len(d); k++ {
		d[k] *= 3
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = rng.IntN(c)
	}
	nodes := []int{0, 2, 3, 7, 9}
	g := mat.NewDense(n, c, nil)
	f := func() float64 { return CrossEntropy(z, labels, nodes, nil) }
	CrossEntropy(z, labels, nodes, g)
	checkGrad(t, "logits", f, copyOf(g), rawDense(z))
	for c := range c {
		if g.At(1, c) != 0 {
			t.Fatalf("row 1 is not a training node but has gradient %v", mat.Row(nil, 1, g))
		}
	}
}

// TestModelGradients checks every parameter of 3-layer models, GCN and
// DirGCN, with and without PairNorm, on sparse and dense inputs (and of 1-
// and 2-layer ones), against central differences of the training loss
// (dropout off).
func TestModelGradients(t *testing.T) {
	const n, in, hidden, classes = 12, 7, 5, 3
	type tcase struct {
		kind     Kind
		layers   int
		pairnorm bool
		sparseX  bool
	}
	var cases []tcase
	for _, kind := range []Kind{GCN, DirGCN} {
		for _, pn := range []bool{false, true} {
			for _, sparseX := range []bool{true, false} {
				cases = append(cases, tcase{kind, 3, pn, sparseX})
			}
		}
		cases = append(cases, tcase{kind, 1, false, true}, tcase{kind, 2, true, true})
	}
	for _, tc := range cases {
		name := fmt.Sprintf("%v/layers=%d/pairnorm=%v/sparse=%v", tc.kind, tc.layers, tc.pairnorm, tc.sparseX)
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(21, 4))
			ops := NewOperators(testGraph(t, n, true, 9), tc.kind)
			arch := Architecture{Kind: tc.kind, Layers: tc.layers, In: in, Hidden: hidden, Classes: classes,
				PairNorm: tc.pairnorm, PairNormScale: 1.3}
			m, err := NewModel(arch, ops, rng)
			if err != nil {
				t.Fatal(err)
			}
			var x mat.Matrix = randDense(n, in, rng)
			if tc.sparseX {
				x = randCSR(n, in, 0.5, rng)
			}
			// Perturb the zero biases (and the other weights), so that every
			// parameter matters.
			for _, p := range m.Params() {
				if p.Name != "conv0.weight" {
					for k, v := 0, rawDense(p.Value); k < len(v); k++ {
						v[k] += 0.3 * (rng.Float64() - 0.5)
					}
				}
			}
			labels := make([]int, n)
			for i := range labels {
				labels[i] = rng.IntN(classes)
			}
			train := []int{0, 1, 4, 6, 8, 10}
			grad := mat.NewDense(n, classes, nil)
			f := func() float64 { return CrossEntropy(m.Forward(x, false), labels, train, nil) }
			CrossEntropy(m.Forward(x, false), labels, train, grad)
			m.Backward(grad)
			for l, p := range m.Params() {
				if tc.pairnorm && l%2 == 1 && l < 2*arch.Layers-1 {
					// PairNorm centres its input, so the bias of a layer it
					// follows has no effect: both gradients must vanish.
					checkZeroGrad(t, p.Name, f, copyOf(p.Grad), rawDense(p.Value))
					continue
				}
				checkGrad(t, p.Name, f, copyOf(p.Grad), rawDense(p.Value))
			}
		})
	}
}

// TestDropoutBackward checks that with dropout on, Backward differentiates
// the very function Forward computed: a model whose masks are replayed
// (same generator state) matches central differences — without PairNorm,
// and with PairNorm after the ReLU (its mask drawn after the PairNorm), for
// both kinds.
func TestDropoutBackward(t *testing.T) {
	const n, in, hidden, classes = 10, 6, 5, 3
	for _, arch := range []Architecture{
		{Kind: GCN, Layers: 3, In: in, Hidden: hidden, Classes: classes, Dropout: 0.4},
		{Kind: GCN, Layers: 3, In: in, Hidden: hidden, Classes: classes, Dropout: 0.4, PairNorm: true, PairNormScale: 1, PairNormAt: PairNormPost},
		{Kind: DirGCN, Layers: 3, In: in, Hidden: hidden, Classes: classes, Dropout: 0.4, PairNorm: true, PairNormScale: 1, PairNormAt: PairNormPost},
	} {
		ops := NewOperators(testGraph(t, n, true, 4), arch.Kind)
		rng := rand.New(rand.NewPCG(8, 8))
		x := randCSR(n, in, 0.6, rng)
		labels := []int{0, 1, 2, 0, 1, 2, 0, 1, 2, 0}
		train := []int{0, 2, 3, 5, 7, 9}
		pcg := rand.NewPCG(3, 3)
		m, err := NewModel(arch, ops, rand.New(pcg))
		if err != nil {
			t.Fatal(err)
		}
		state, _ := pcg.MarshalBinary()
		f := func() float64 {
			if err := pcg.UnmarshalBinary(state); err != nil {
				t.Fatal(err)
			}
			return CrossEntropy(m.Forward(x, true), labels, train, nil)
		}
		grad := mat.NewDense(n, classes, nil)
		if err := pcg.UnmarshalBinary(state); err != nil {
			t.Fatal(err)
		}
		CrossEntropy(m.Forward(x, true), labels, train, grad)
		m.Backward(grad)
		for _, p := range m.Params() {
			checkGrad(t, fmt.Sprintf("%v pairnorm=%v %s", arch.Kind, arch.PairNorm, p.Name), f, copyOf(p.Grad), rawDense(p.Value))
		}
	}
}
