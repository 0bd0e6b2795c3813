package gnn

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestDropMask: entries are 0 or 1/(1−p), kept with probability 1−p.
func TestDropMask(t *testing.T) {
	for _, p := range []float64{0, 0.1, 0.5, 0.9} {
		mask := make([]float64, 100001) // odd: the last draw is used alone
		dropMask(mask, p, rand.New(rand.NewPCG(1, 1)))
		kept := 0
		for _, v := range mask {
			switch v {
			case 0:
			case 1 / (1 - p):
				kept++
			default:
				t.Fatalf("p=%v: mask value %v", p, v)
			}
		}
		if f := float64(kept) / float64(len(mask)); math.Abs(f-(1-p)) > 0.01 {
			t.Errorf("p=%v: kept fraction %.4f", p, f)
		}
	}
}

// TestForwardModes: evaluation ignores the generator; training with dropout
// draws new masks each call, and dropout 0 makes both modes equal.
func TestForwardModes(t *testing.T) {
	const n, in = 10, 6
	ops := NewOperators(testGraph(t, n, true, 2), DirGCN)
	x := randCSR(n, in, 0.5, rand.New(rand.NewPCG(2, 2)))
	arch := Architecture{Kind: DirGCN, Layers: 3, In: in, Hidden: 8, Classes: 3, Dropout: 0.5}
	m, err := NewModel(arch, ops, rand.New(rand.NewPCG(4, 4)))
	if err != nil {
		t.Fatal(err)
	}
	e1 := mat.DenseCopyOf(m.Forward(x, false))
	t1 := mat.DenseCopyOf(m.Forward(x, true))
	t2 := mat.DenseCopyOf(m.Forward(x, true))
	e2 := mat.DenseCopyOf(m.Forward(x, false))
	if !mat.Equal(e1, e2) {
		t.Fatal("evaluation forward depends on the generator")
	}
	if mat.Equal(t1, t2) || mat.Equal(t1, e1) {
		t.Fatal("training forward does not draw dropout masks")
	}
	arch.Dropout = 0
	m, _ = NewModel(arch, ops, rand.New(rand.NewPCG(4, 4)))
	if !mat.Equal(m.Forward(x, true), mat.DenseCopyOf(m.Forward(x, false))) {
		t.Fatal("dropout 0: training and evaluation differ")
	}
}

// TestArchitectureErrors: invalid shapes are refused.
func TestArchitectureErrors(t *testing.T) {
	ops := NewOperators(testGraph(t, 8, false, 1), GCN)
	good := Architecture{Kind: GCN, Layers: 2, In: 3, Hidden: 4, Classes: 2}
	for _, edit := range []func(*Architecture){
		func(a *Architecture) { a.Layers = 0 },
		func(a *Architecture) { a.In = 0 },
		func(a *Architecture) { a.Hidden = 0 },
		func(a *Architecture) { a.Classes = 0 },
		func(a *Architecture) { a.Dropout = 1 },
		func(a *Architecture) { a.PairNorm, a.PairNormScale = true, -1 },
		func(a *Architecture) { a.Kind = DirGCN }, // operators built for GCN
	} {
		a := good
		edit(&a)
		if _, err := NewModel(a, ops, rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Errorf("%+v accepted", a)
		}
	}
	if _, err := NewModel(good, ops, rand.New(rand.NewPCG(1, 1))); err != nil {
		t.Fatal(err)
	}
}
