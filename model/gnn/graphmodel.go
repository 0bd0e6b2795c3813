package gnn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// GraphArch fixes the shape of a graph-classification model (definitions
// §4.4).
type GraphArch struct {
	Kind GraphKind
	// Layers is the number of hidden layers L ≥ 0: the model has L+1
	// convolutions, In → Hidden → … → Hidden → Classes (FoSR's num_layers).
	Layers              int
	In, Hidden, Classes int
	// Dropout is the drop probability in [0, 1) after every hidden ReLU.
	Dropout float64
	// Pool reduces the last convolution's node rows to graph rows.
	Pool Pool
}

// Validate reports the first invalid field. O(1).
func (a GraphArch) Validate() error {
	switch {
	case a.Kind < GraphGCN || a.Kind > GraphRGIN:
		return fmt.Errorf("gnn: unknown graph model kind %d", int(a.Kind))
	case a.Layers < 0:
		return fmt.Errorf("gnn: layers %d: must be ≥ 0", a.Layers)
	case a.In < 1:
		return fmt.Errorf("gnn: input width %d: must be ≥ 1", a.In)
	case a.Hidden < 1:
		return fmt.Errorf("gnn: hidden width %d: must be ≥ 1", a.Hidden)
	case a.Classes < 2:
		return fmt.Errorf("gnn: classes %d: must be ≥ 2", a.Classes)
	case !(a.Dropout >= 0 && a.Dropout < 1):
		return fmt.Errorf("gnn: dropout %v: must lie in [0, 1)", a.Dropout)
	case a.Pool != PoolMean && a.Pool != PoolSum:
		return fmt.Errorf("gnn: unknown pooling %d", int(a.Pool))
	}
	return nil
}

// GraphModel is FoSR's GNN for graph classification: conv → ReLU → dropout
// → … → conv, then the pooling of the last convolution's outputs (the class
// scores) per graph. Forward and Backward reuse buffers, so a GraphModel
// serves one goroutine. Dropout draws its decisions from the model's
// generator as Model does (two per Uint64 draw, layer by layer, row by row).
type GraphModel struct {
	Arch  GraphArch
	convs []graphConv
	rng   *rand.Rand

	drop   bool
	pre    []*mat.Dense // stage k: the output of conv k (input of its ReLU)
	h      []*mat.Dense // stage k: relu(pre)·mask, the input of conv k+1
	mask   [][]float64
	words  []uint64
	logits *mat.Dense
	dlast  *mat.Dense
	team   *team // nil: every kernel on the caller's goroutine
}

// NewGraphModel builds arch, drawing every convolution's weights layer by
// layer from rng (GCN and R-GCN: Glorot, zero bias, as PyG; GIN's Linear
// layers as PyTorch's nn.Linear) and keeping rng for dropout.
// O(number of weights).
func NewGraphModel(arch GraphArch, rng *rand.Rand) (*GraphModel, error) {
	if err := arch.Validate(); err != nil {
		return nil, err
	}
	m := &GraphModel{Arch: arch, rng: rng}
	for l := range arch.Layers + 1 {
		in, out := arch.Hidden, arch.Hidden
		if l == 0 {
			in = arch.In
		}
		if l == arch.Layers {
			out = arch.Classes
		}
		name := fmt.Sprintf("layer%d", l)
		var c graphConv
		switch arch.Kind {
		case GraphGCN:
			c = newGCNConv(name, in, out, rng)
		case GraphGIN:
			c = newGINConv(name, 0, in, out, rng)
		case GraphRGCN:
			c = newRGCNConv(name, in, out, rng)
		case GraphRGIN:
			c = newRGINConv(name, in, out, rng)
		}
		m.convs = append(m.convs, c)
	}
	m.pre = make([]*mat.Dense, arch.Layers)
	m.h = make([]*mat.Dense, arch.Layers)
	m.mask = make([][]float64, arch.Layers)
	return m, nil
}

// Params returns every parameter, layer by layer.
func (m *GraphModel) Params() []*Param {
	var ps []*Param
	for _, c := range m.convs {
		ps = append(ps, c.params()...)
	}
	return ps
}

// BatchNorms returns every BatchNorm, layer by layer.
func (m *GraphModel) BatchNorms() []*BatchNorm {
	var bs []*BatchNorm
	for _, c := range m.convs {
		bs = append(bs, c.batchNorms()...)
	}
	return bs
}

// Forward returns the B×Classes pooled scores of the batch's graphs. With
// train true, BatchNorm uses (and updates) batch statistics and dropout
// draws fresh masks; otherwise BatchNorm uses its running statistics and
// dropout is the identity. The result belongs to the model. Cost: the
// convolutions' costs plus O(n·Hidden) per stage.
func (m *GraphModel) Forward(b *Batch, train bool) *mat.Dense {
	m.drop = train && m.Arch.Dropout > 0
	x := b.X
	last := len(m.convs) - 1
	for l, c := range m.convs {
		z := c.forward(b, x, train)
		if l == last {
			m.logits = ensure(m.logits, len(b.Graphs), m.Arch.Classes)
			pool(m.logits, z, b.Ptr, m.Arch.Pool)
			return m.logits
		}
		m.pre[l] = z
		r, w := z.Dims()
		m.h[l] = ensure(m.h[l], r, w)
		h, zs := rawDense(m.h[l]), rawDense(z)
		if m.drop {
			if cap(m.mask[l]) < len(h) {
				m.mask[l] = make([]float64, len(h), len(h)+len(h)/4)
			}
			mask, words := m.mask[l][:len(h)], m.draws(len(h))
			m.mask[l] = mask
			m.team.elems(len(h), func(lo, hi int) { // lo even: a draw covers two entries
				reluDrop(h[lo:hi], mask[lo:hi], zs[lo:hi], words[lo/2:], m.Arch.Dropout)
			})
		} else {
			m.team.elems(len(h), func(lo, hi int) {
				for k, v := range zs[lo:hi] {
					h[lo+k] = max(v, 0)
				}
			})
		}
		x = m.h[l]
	}
	panic("unreachable")
}

// draws returns the model's next ⌈n/2⌉ draws in a buffer of the model.
func (m *GraphModel) draws(n int) []uint64 {
	c := (n + 1) / 2
	if cap(m.words) < c {
		m.words = make([]uint64, c)
	}
	w := m.words[:c]
	for k := range w {
		w[k] = m.rng.Uint64()
	}
	return w
}

// Backward sets the Grad of every parameter from dL/d(scores) of the last
// Forward on b. Cost: the convolutions' backward costs.
func (m *GraphModel) Backward(b *Batch, dscores *mat.Dense) {
	m.dlast = ensure(m.dlast, b.N(), m.Arch.Classes)
	unpool(m.dlast, dscores, b.Ptr, m.Arch.Pool)
	g := m.dlast
	for l := len(m.convs) - 1; l >= 0; l-- {
		dx := m.convs[l].backward(b, g, l > 0)
		if l == 0 {
			return
		}
		d, pre, mask := rawDense(dx), rawDense(m.pre[l-1]), m.mask[l-1]
		m.team.elems(len(d), func(lo, hi int) {
			if m.drop {
				reluDropGrad(d[lo:hi], pre[lo:hi], mask[lo:hi])
			} else {
				reluGrad(d[lo:hi], pre[lo:hi])
			}
		})
		g = dx
	}
}

// setTeam makes every kernel of m split its work over p (nil: the
// caller's goroutine alone); the results do not depend on it.
func (m *GraphModel) setTeam(p *team) {
	m.team = p
	for _, c := range m.convs {
		c.setTeam(p)
	}
}

// shareWeights makes m use src's parameter values and BatchNorm running
// statistics (the same storage), for evaluation on another goroutine while
// src does not change them. m and src must have the same architecture.
func (m *GraphModel) shareWeights(src *GraphModel) {
	for i, p := range m.Params() {
		p.Value = src.Params()[i].Value
	}
	sb := src.BatchNorms()
	for i, b := range m.BatchNorms() {
		b.RunMean, b.RunVar = sb[i].RunMean, sb[i].RunVar
	}
}

// finite reports whether every entry of x is finite.
func finite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
