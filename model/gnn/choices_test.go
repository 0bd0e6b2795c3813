package gnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/james-bowman/sparse"
	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
)

// denseAdjacency returns A (A_ij = 1 iff the arc i→j, self-loops on the
// diagonal) of g as a dense matrix, written from the arcs alone.
func denseAdjacency(g *linalg.Graph) *mat.Dense {
	n := g.N()
	a := mat.NewDense(n, n, nil)
	for i := range n {
		for _, j := range g.Out(i) {
			a.Set(i, j, 1)
		}
		if g.HasSelfLoop(i) {
			a.Set(i, i, 1)
		}
	}
	return a
}

// rowScaled returns diag(1/rowsum)·a, rows of zero sum left zero.
func rowScaled(a *mat.Dense) *mat.Dense {
	n, c := a.Dims()
	out := mat.NewDense(n, c, nil)
	for i := range n {
		s := mat.Sum(a.RowView(i))
		for j := range c {
			if s != 0 {
				out.Set(i, j, a.At(i, j)/s)
			}
		}
	}
	return out
}

// referenceLogits is the model of definitions §4 written densely and
// directly from its formulas, without dropout: GCN's
// Â = D̃^{-1/2}(A + I)D̃^{-1/2} (one self-loop per node) on the undirected
// form, DirGCN's D_in⁻¹A_in H W_in + D_out⁻¹A_out H W_out + H W_self + b;
// between layers ReLU then PairNorm (PairNormPost) or PairNorm then ReLU
// (PairNormPre), PairNorm being s(H − H̄)/√((1/n²) Σ_ij ‖h_i − h_j‖²).
func referenceLogits(g *linalg.Graph, kind Kind, x *mat.Dense, params []*Param, pn bool, at PairNormAt, scale float64) *mat.Dense {
	n := g.N()
	var prop func(h *mat.Dense, w *mat.Dense) *mat.Dense
	switch kind {
	case GCN:
		a := denseAdjacency(g.Undirected())
		for i := range n {
			a.Set(i, i, 1)
		}
		d := make([]float64, n)
		for i := range n {
			d[i] = 1 / math.Sqrt(mat.Sum(a.RowView(i)))
		}
		for i := range n {
			for j := range n {
				a.Set(i, j, d[i]*a.At(i, j)*d[j])
			}
		}
		prop = func(h, w *mat.Dense) *mat.Dense {
			var hw, z mat.Dense
			hw.Mul(h, w)
			z.Mul(a, &hw)
			return &z
		}
	case DirGCN:
		a := denseAdjacency(g)
		pOut := rowScaled(a)
		pIn := rowScaled(mat.DenseCopyOf(a.T()))
		prop = func(h, w *mat.Dense) *mat.Dense {
			_, c := w.Dims()
			out := c / 3
			var z, t mat.Dense
			z.Mul(h, w.Slice(0, w.RawMatrix().Rows, 2*out, 3*out))
			t.Mul(h, w.Slice(0, w.RawMatrix().Rows, 0, out))
			var u mat.Dense
			u.Mul(pIn, &t)
			z.Add(&z, &u)
			t.Reset()
			t.Mul(h, w.Slice(0, w.RawMatrix().Rows, out, 2*out))
			u.Reset()
			u.Mul(pOut, &t)
			z.Add(&z, &u)
			return &z
		}
	}
	pairNorm := func(h *mat.Dense) *mat.Dense {
		r, c := h.Dims()
		var ss float64 // Σ_ij ‖h_i − h_j‖², pair by pair
		for i := range r {
			for j := range r {
				for k := range c {
					d := h.At(i, k) - h.At(j, k)
					ss += d * d
				}
			}
		}
		sigma := math.Sqrt(ss / float64(r*r))
		out := mat.NewDense(r, c, nil)
		for k := range c {
			mean := mat.Sum(h.ColView(k)) / float64(r)
			for i := range r {
				out.Set(i, k, scale*(h.At(i, k)-mean)/sigma)
			}
		}
		return out
	}
	relu := func(h *mat.Dense) *mat.Dense {
		out := mat.DenseCopyOf(h)
		out.Apply(func(_, _ int, v float64) float64 { return max(v, 0) }, out)
		return out
	}
	h := x
	L := len(params) / 2
	for l := range L {
		z := prop(h, params[2*l].Value)
		b := params[2*l+1].Value
		r, c := z.Dims()
		for i := range r {
			for k := range c {
				z.Set(i, k, z.At(i, k)+b.At(0, k))
			}
		}
		if l == L-1 {
			return z
		}
		switch {
		case !pn:
			h = relu(z)
		case at == PairNormPost:
			h = pairNorm(relu(z))
		default:
			h = relu(pairNorm(z))
		}
	}
	panic("unreachable")
}

// TestPairNormAtReference checks the model's logits against the dense
// reference for both PairNorm positions, both kinds and raw (binary) and
// row-normalised features, and the gradients against central differences.
func TestPairNormAtReference(t *testing.T) {
	const n, in, hidden, classes = 12, 9, 6, 3
	for _, kind := range []Kind{GCN, DirGCN} {
		for _, at := range []PairNormAt{PairNormPre, PairNormPost} {
			for _, feat := range []Features{FeaturesRaw, FeaturesRow} {
				t.Run(fmt.Sprintf("%v/%v/%v", kind, at, feat), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(5, uint64(at)))
					g := testGraph(t, n, true, 3)
					d := binaryDataset(g, in, classes, rng)
					data, err := NewData(d, g, kind, feat)
					if err != nil {
						t.Fatal(err)
					}
					arch := Architecture{Kind: kind, Layers: 3, In: in, Hidden: hidden, Classes: classes,
						PairNorm: true, PairNormScale: 1.7, PairNormAt: at}
					m, err := NewModel(arch, data.Ops, rng)
					if err != nil {
						t.Fatal(err)
					}
					// Weights perturbed, biases left zero: with row-normalised
					// inputs a perturbed bias can make a column's ReLU all
					// active or all idle, where PairNorm after it hides the bias.
					for l, p := range m.Params() {
						for k, v := 0, rawDense(p.Value); k < len(v) && l%2 == 0; k++ {
							v[k] += 0.3 * (rng.Float64() - 0.5)
						}
					}
					xd := mat.DenseCopyOf(data.X)
					if feat == FeaturesRaw && !mat.Equal(xd, mat.DenseCopyOf(d.Features)) {
						t.Fatal("raw features differ from the dataset's")
					}
					want := referenceLogits(g, kind, xd, m.Params(), true, at, 1.7)
					got := m.Forward(data.X, false)
					if !mat.EqualApprox(got, want, 1e-12) {
						t.Fatalf("logits differ from the dense reference:\n%v\n%v", mat.Formatted(got), mat.Formatted(want))
					}
					train := []int{0, 1, 2, 4, 6, 7, 9}
					grad := mat.NewDense(n, classes, nil)
					f := func() float64 { return CrossEntropy(m.Forward(data.X, false), d.Labels, train, nil) }
					CrossEntropy(m.Forward(data.X, false), d.Labels, train, grad)
					m.Backward(grad)
					for l, p := range m.Params() {
						if at == PairNormPre && l%2 == 1 && l < 2*arch.Layers-1 {
							// PairNorm centres its input: the bias before it has no effect.
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

// binaryDataset returns a dataset on g with binary bag-of-words features
// (every row at least one word, some rows several) and random labels.
func binaryDataset(g *linalg.Graph, in, classes int, rng *rand.Rand) *dataset.Dataset {
	n := g.N()
	ia := make([]int, n+1)
	var ja []int
	var data []float64
	for i := range n {
		for j := range in {
			if j == i%in || rng.Float64() < 0.3 {
				ja = append(ja, j)
				data = append(data, 1)
			}
		}
		ia[i+1] = len(ja)
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = rng.IntN(classes)
	}
	return &dataset.Dataset{Name: "test", Graph: g, Features: sparse.NewCSR(n, in, ia, ja, data),
		Labels: labels, NumClasses: classes}
}

// TestChoiceNames checks the parsers against the names the types print.
func TestChoiceNames(t *testing.T) {
	for _, f := range []Features{FeaturesRow, FeaturesRaw} {
		if g, err := ParseFeatures(f.String()); err != nil || g != f {
			t.Errorf("ParseFeatures(%q) = %v, %v", f, g, err)
		}
	}
	for _, a := range []PairNormAt{PairNormPre, PairNormPost} {
		if b, err := ParsePairNormAt(a.String()); err != nil || b != a {
			t.Errorf("ParsePairNormAt(%q) = %v, %v", a, b, err)
		}
	}
	if _, err := ParseFeatures("normalised"); err == nil {
		t.Error("ParseFeatures accepted an unknown name")
	}
	if _, err := ParsePairNormAt("middle"); err == nil {
		t.Error("ParsePairNormAt accepted an unknown name")
	}
}
