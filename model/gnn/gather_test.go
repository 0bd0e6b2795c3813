package gnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// withAVX runs f with useAVX set to on, restoring it after.
func withAVX(on bool, f func()) {
	old := useAVX
	useAVX = on
	defer func() { useAVX = old }()
	f()
}

// withAVX512 runs f with useAVX512 set to on, restoring it after.
func withAVX512(on bool, f func()) {
	old := useAVX512
	useAVX512 = on
	defer func() { useAVX512 = old }()
	f()
}

// TestGatherAVXBits: with and without the AVX kernels, gather, scatter and axpy give
// the same bits for every width 1–70, with and without add, strided and
// offset sources, negative and subnormal values, and empty index lists.
func TestGatherAVXBits(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX on this machine: only the scalar kernels run")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for w := 1; w <= 70; w++ {
		for _, add := range []bool{false, true} {
			for _, terms := range []int{0, 1, 7} {
				ss, so := w+3, 2
				src := make([]float64, 20*ss+so+w)
				for k := range src {
					src[k] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
				}
				src[so] = 5e-324 // a subnormal
				idx := make([]int, terms)
				v := make([]float64, terms)
				for q := range idx {
					idx[q], v[q] = rng.IntN(20), rng.NormFloat64()
				}
				d0 := make([]float64, w)
				for k := range d0 {
					d0[k] = rng.NormFloat64()
				}
				var got, want []float64
				withAVX(true, func() { got = slices.Clone(d0); gather(got, idx, v, src, ss, so, add) })
				withAVX(false, func() { want = slices.Clone(d0); gather(want, idx, v, src, ss, so, add) })
				name := fmt.Sprintf("gather w=%d add=%v terms=%d", w, add, terms)
				sameBits(t, name, got, want)
				// scatter onto rows of src (a repeated row too: order matters).
				sidx := append(slices.Clone(idx), 3, 3)
				sv := append(slices.Clone(v), 0.5, -2)
				withAVX(true, func() { got = slices.Clone(src); scatter(got[so:], ss, sidx, sv, d0, w) })
				withAVX(false, func() { want = slices.Clone(src); scatter(want[so:], ss, sidx, sv, d0, w) })
				sameBits(t, fmt.Sprintf("scatter w=%d terms=%d", w, terms), got, want)
				withAVX(true, func() { got = slices.Clone(d0); axpy(got, v0(v), src[so:]) })
				withAVX(false, func() { want = slices.Clone(d0); axpy(want, v0(v), src[so:]) })
				sameBits(t, fmt.Sprintf("axpy w=%d", w), got, want)
			}
		}
	}
}

func v0(v []float64) float64 {
	if len(v) == 0 {
		return -1.5
	}
	return v[0]
}

func sameBits(t *testing.T, name string, got, want []float64) {
	t.Helper()
	for k := range got {
		if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
			t.Fatalf("%s: entry %d is %v with AVX, %v without", name, k, got[k], want[k])
		}
	}
}

// TestTrainAVXBits: training with the AVX kernels gives exactly the epochs,
// result and weights of the scalar kernels (GCN and DirGCN, hidden 16 and
// 40, with PairNorm and dropout).
func TestTrainAVXBits(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX on this machine")
	}
	for _, k := range []Kind{GCN, DirGCN} {
		data := bottleneckData(t, k)
		for _, hidden := range []int{16, 40} {
			cfg := Defaults("bottleneck")
			cfg.Kind, cfg.Layers, cfg.PairNorm, cfg.Hidden, cfg.Epochs = k, 3, true, hidden, 15
			type out struct {
				st []EpochStats
				w  []float64
			}
			train := func() (o out) {
				tr, err := NewTrainer(data, cfg, 0, 9)
				if err != nil {
					t.Fatal(err)
				}
				for range cfg.Epochs {
					o.st = append(o.st, tr.Epoch())
				}
				for _, p := range tr.Model().Params() {
					o.w = append(o.w, rawDense(p.Value)...)
				}
				return o
			}
			var a, b out
			withAVX(true, func() { a = train() })
			withAVX(false, func() { b = train() })
			if !slices.Equal(a.st, b.st) {
				t.Fatalf("%v hidden %d: epochs differ with AVX:\n%v\n%v", k, hidden, a.st, b.st)
			}
			sameBits(t, fmt.Sprintf("%v hidden %d weights", k, hidden), a.w, b.w)
		}
	}
}

// TestAdamAVXBits: five Adam steps with and without AVX give the same bits
// on parameters of 1, 13 and 100 entries, with weight decay, gradients of
// mixed sign and size, and a zero gradient entry.
func TestAdamAVXBits(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX on this machine")
	}
	for _, n := range []int{1, 13, 100} {
		run := func() []float64 {
			rng := rand.New(rand.NewPCG(uint64(n), 1))
			p := newParam("w", 1, n)
			p.WeightDecay = 5e-3
			th, g := rawDense(p.Value), rawDense(p.Grad)
			for k := range th {
				th[k] = rng.NormFloat64()
			}
			a := NewAdam(0.01)
			for range 5 {
				for k := range g {
					g[k] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
				}
				g[0] = 0
				a.Step([]*Param{p})
			}
			return slices.Clone(th)
		}
		var got, want []float64
		withAVX(true, func() { got = run() })
		withAVX(false, func() { want = run() })
		sameBits(t, fmt.Sprintf("adam n=%d", n), got, want)
	}
}
