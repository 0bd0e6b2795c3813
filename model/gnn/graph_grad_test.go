package gnn

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// testGraphSet returns a small graph-classification set with the cases the
// operators must handle: a self-loop, a duplicate arc, an isolated node, a
// one-way arc, arcs of both relations, and a graph with one node.
func testGraphSet(rng *rand.Rand, feats, classes int) *GraphSet {
	s := &GraphSet{Name: "test", Features: feats, Classes: classes}
	sizes := []int{5, 1, 7, 4, 6}
	for gi, n := range sizes {
		g := GraphItem{N: n, Label: gi % classes}
		for k := 0; k < n*feats; k++ {
			g.X = append(g.X, 2*rng.Float64()-1)
		}
		add := func(u, v, t int) {
			g.Src, g.Dst, g.Type = append(g.Src, u), append(g.Dst, v), append(g.Type, t)
		}
		for u := range n - 1 {
			if u == 2 && n > 4 {
				continue // node 3.. stays reachable; leaves a gap
			}
			add(u, u+1, 0)
			add(u+1, u, 0)
		}
		if n >= 4 {
			add(0, 0, 0)   // self-loop
			add(1, 0, 0)   // duplicate arc
			add(0, n-1, 1) // added edge, both arcs
			add(n-1, 0, 1) //
			add(2, n-2, 1) // a one-way added arc
			g.N = n + 1    // an isolated node at the end
			g.X = append(g.X, make([]float64, feats)...)
			for k := range feats {
				g.X[n*feats+k] = rng.Float64()
			}
		}
		s.Graphs = append(s.Graphs, g)
	}
	return s
}

// perturb adds noise to every parameter so that zero biases and unit BatchNorm
// scales take part in the check.
func perturb(ps []*Param, rng *rand.Rand) {
	for _, p := range ps {
		for k, v := 0, rawDense(p.Value); k < len(v); k++ {
			v[k] += 0.4 * (rng.Float64() - 0.5)
		}
	}
}

// TestGraphModelGradients checks every parameter of GCN, GIN, R-GCN and
// R-GIN graph models (2 hidden layers, mean and sum pooling, BatchNorm in
// training mode) against central differences of the cross-entropy of the
// pooled scores, with and without replayed dropout.
func TestGraphModelGradients(t *testing.T) {
	const feats, hidden, classes = 4, 5, 3
	for _, kind := range []GraphKind{GraphGCN, GraphGIN, GraphRGCN, GraphRGIN} {
		for _, p := range []Pool{PoolMean, PoolSum} {
			for _, dropout := range []float64{0, 0.3} {
				t.Run(fmt.Sprintf("%v/%v/dropout=%v", kind, p, dropout), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(3, 9))
					set := testGraphSet(rng, feats, classes)
					d, err := NewGraphData(set, kind)
					if err != nil {
						t.Fatal(err)
					}
					b := d.NewBatch([]int{0, 1, 2, 3, 4})
					arch := GraphArch{Kind: kind, Layers: 2, In: feats, Hidden: hidden, Classes: classes, Dropout: dropout, Pool: p}
					pcg := rand.NewPCG(5, 5)
					m, err := NewGraphModel(arch, rand.New(pcg))
					if err != nil {
						t.Fatal(err)
					}
					perturb(m.Params(), rng)
					state, _ := pcg.MarshalBinary()
					rows := []int{0, 1, 2, 3, 4}
					f := func() float64 {
						if err := pcg.UnmarshalBinary(state); err != nil {
							t.Fatal(err)
						}
						return CrossEntropy(m.Forward(b, true), b.Labels, rows, nil)
					}
					grad := mat.NewDense(len(rows), classes, nil)
					if err := pcg.UnmarshalBinary(state); err != nil {
						t.Fatal(err)
					}
					CrossEntropy(m.Forward(b, true), b.Labels, rows, grad)
					m.Backward(b, grad)
					for _, p := range m.Params() {
						if strings.HasSuffix(p.Name, "mlp0.bias") {
							// BatchNorm centres its input in training mode, so
							// the bias before it has no effect.
							checkZeroGrad(t, p.Name, f, copyOf(p.Grad), rawDense(p.Value))
							continue
						}
						checkGrad(t, p.Name, f, copyOf(p.Grad), rawDense(p.Value))
					}
				})
			}
		}
	}
}

// TestBatchNormGradient checks BatchNorm's dγ, dβ and dX in both modes
// against central differences, and its running statistics against a direct
// computation.
func TestBatchNormGradient(t *testing.T) {
	for _, train := range []bool{true, false} {
		t.Run(fmt.Sprint("train=", train), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			x, r := randDense(7, 4, rng), randDense(7, 4, rng)
			bn := NewBatchNorm("bn", 4)
			perturb(bn.Params(), rng)
			for k := range bn.RunMean {
				bn.RunMean[k], bn.RunVar[k] = rng.Float64()-0.5, 0.5+rng.Float64()
			}
			rm, rv := append([]float64(nil), bn.RunMean...), append([]float64(nil), bn.RunVar...)
			f := func() float64 {
				y := weighted(bn.Forward(x, train), r)
				copy(bn.RunMean, rm)
				copy(bn.RunVar, rv)
				return y
			}
			f()
			dx := copyOf(bn.Backward(r))
			for _, p := range bn.Params() {
				checkGrad(t, p.Name, f, copyOf(p.Grad), rawDense(p.Value))
			}
			checkGrad(t, "input", f, dx, rawDense(x))
			if !train {
				return
			}
			bn.Forward(x, true)
			for k := range 4 {
				col := mat.Col(nil, k, x)
				var mu, ss float64
				for _, v := range col {
					mu += v
				}
				mu /= 7
				for _, v := range col {
					ss += (v - mu) * (v - mu)
				}
				wantM, wantV := 0.9*rm[k]+0.1*mu, 0.9*rv[k]+0.1*ss/6
				if d := bn.RunMean[k] - wantM; d > 1e-14 || d < -1e-14 {
					t.Errorf("running mean %d: %v, want %v", k, bn.RunMean[k], wantM)
				}
				if d := bn.RunVar[k] - wantV; d > 1e-14 || d < -1e-14 {
					t.Errorf("running var %d: %v, want %v", k, bn.RunVar[k], wantV)
				}
			}
		})
	}
}

// TestGraphBuffersReused: a model that ran on a larger batch before gives
// on a smaller one the scores and gradients of a fresh model with the same
// weights (buffers reused across batch shapes are overwritten whole), for
// every kind, in training mode, and in evaluation mode.
func TestGraphBuffersReused(t *testing.T) {
	const feats, hidden, classes = 4, 6, 3
	for _, kind := range []GraphKind{GraphGCN, GraphGIN, GraphRGCN, GraphRGIN} {
		rng := rand.New(rand.NewPCG(8, 1))
		set := testGraphSet(rng, feats, classes)
		d, err := NewGraphData(set, kind)
		if err != nil {
			t.Fatal(err)
		}
		big, small := d.NewBatch([]int{0, 1, 2, 3, 4}), d.NewBatch([]int{3, 1})
		arch := GraphArch{Kind: kind, Layers: 2, In: feats, Hidden: hidden, Classes: classes}
		used, _ := NewGraphModel(arch, rand.New(rand.NewPCG(2, 2)))
		fresh, _ := NewGraphModel(arch, rand.New(rand.NewPCG(2, 2)))
		perturb(used.Params(), rand.New(rand.NewPCG(3, 3)))
		perturb(fresh.Params(), rand.New(rand.NewPCG(3, 3)))
		g := mat.NewDense(5, classes, nil)
		CrossEntropy(used.Forward(big, true), big.Labels, []int{0, 1, 2, 3, 4}, g)
		used.Backward(big, g)
		for _, m := range []*GraphModel{used, fresh} { // the same running statistics
			for _, bn := range m.BatchNorms() {
				clear(bn.RunMean)
				for k := range bn.RunVar {
					bn.RunVar[k] = 1
				}
			}
		}
		for _, train := range []bool{true, false} {
			gu, gf := mat.NewDense(2, classes, nil), mat.NewDense(2, classes, nil)
			su, sf := used.Forward(small, train), fresh.Forward(small, train)
			if !mat.Equal(su, sf) {
				t.Fatalf("%v train=%v: scores %v, fresh %v", kind, train, mat.Formatted(su), mat.Formatted(sf))
			}
			CrossEntropy(su, small.Labels, []int{0, 1}, gu)
			CrossEntropy(sf, small.Labels, []int{0, 1}, gf)
			used.Backward(small, gu)
			fresh.Backward(small, gf)
			for i, p := range used.Params() {
				if q := fresh.Params()[i]; !mat.Equal(p.Grad, q.Grad) {
					t.Fatalf("%v train=%v: %s gradient differs from a fresh model's", kind, train, p.Name)
				}
			}
		}
	}
}
