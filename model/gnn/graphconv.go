package gnn

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// graphConv is one convolution of a graph-classification model on a batch
// (definitions §4.4). forward caches what backward needs; backward sets the
// Grad of every parameter and returns dL/d(input) when needInput. Returned
// matrices belong to the layer.
type graphConv interface {
	forward(b *Batch, x *mat.Dense, train bool) *mat.Dense
	backward(b *Batch, dy *mat.Dense, needInput bool) *mat.Dense
	params() []*Param
	// batchNorms returns the layer's BatchNorms (none for GCN and R-GCN).
	batchNorms() []*BatchNorm
	// setTeam makes the layer's kernels split their work over p.
	setTeam(p *team)
}

// gcnConv is PyG's GCNConv on the batch's Â: Â·(x·W) + b, W Glorot, b zero.
type gcnConv struct{ l *GCNLayer }

func newGCNConv(prefix string, in, out int, rng *rand.Rand) *gcnConv {
	return &gcnConv{newGCNLayer(nil, nil, in, out, rng, prefix)}
}

func (c *gcnConv) forward(b *Batch, x *mat.Dense, _ bool) *mat.Dense {
	c.l.A, c.l.at = b.Op[0], b.OpT[0]
	return c.l.Forward(x)
}

func (c *gcnConv) backward(_ *Batch, dy *mat.Dense, needInput bool) *mat.Dense {
	return c.l.Backward(dy, needInput)
}

func (c *gcnConv) params() []*Param         { return c.l.Params() }
func (c *gcnConv) batchNorms() []*BatchNorm { return nil }
func (c *gcnConv) setTeam(p *team)          { c.l.team = p }

// ginConv is PyG's GINConv with eps 0 on operator op of the batch (A + I):
// MLP(S·x) with the MLP Linear(in, out) → BatchNorm1d(out) → ReLU →
// Linear(out, out), both Linear as PyTorch initialises them.
type ginConv struct {
	op         int
	agg        prop
	lin1, lin2 *linear
	bn         *BatchNorm // with its ReLU (BatchNorm.relu)
	team       *team
}

func newGINConv(prefix string, op, in, out int, rng *rand.Rand) *ginConv {
	c := &ginConv{op: op, lin1: newLinear(prefix+".mlp0", in, out, true),
		bn: NewBatchNorm(prefix+".mlp1", out), lin2: newLinear(prefix+".mlp3", out, out, true)}
	c.bn.relu = true
	c.lin1.initTorch(rng)
	c.lin2.initTorch(rng)
	return c
}

func (c *ginConv) forward(b *Batch, x *mat.Dense, train bool) *mat.Dense {
	h := c.agg.forward(b.Op[c.op], x)
	return c.lin2.forward(c.bn.Forward(c.lin1.forward(h), train))
}

func (c *ginConv) backward(b *Batch, dy *mat.Dense, needInput bool) *mat.Dense {
	g := c.bn.Backward(c.lin2.backward(dy, true))
	needH := needInput
	g = c.lin1.backward(g, needH)
	if !needInput {
		return nil
	}
	return c.agg.backward(b.OpT[c.op], g)
}

func (c *ginConv) params() []*Param {
	return append(append(c.lin1.params(), c.bn.Params()...), c.lin2.params()...)
}

func (c *ginConv) batchNorms() []*BatchNorm { return []*BatchNorm{c.bn} }

func (c *ginConv) setTeam(p *team) {
	c.team, c.agg.team, c.lin1.team, c.lin2.team, c.bn.team = p, p, p, p, p
}

// rgcnConv is PyG's RGCNConv with two relations, mean aggregation, a root
// weight and a bias: x·Root + b + Σ_r (M_r·x)·W_r, Root and W_r Glorot, b
// zero (PyG's reset_parameters).
type rgcnConv struct {
	root *linear
	rel  [NumRelations]*linear
	agg  [NumRelations]prop
	y, d *mat.Dense
}

func newRGCNConv(prefix string, in, out int, rng *rand.Rand) *rgcnConv {
	c := &rgcnConv{}
	for r := range NumRelations {
		c.rel[r] = newLinear(prefix+".weight"+string(rune('0'+r)), in, out, false)
		glorot(rawDense(c.rel[r].W.Value), in, out, rng)
	}
	c.root = newLinear(prefix+".root", in, out, true)
	glorot(rawDense(c.root.W.Value), in, out, rng)
	return c
}

func (c *rgcnConv) forward(b *Batch, x *mat.Dense, _ bool) *mat.Dense {
	n, _ := x.Dims()
	c.y = ensure(c.y, n, c.root.out)
	c.y.Copy(c.root.forward(x))
	for r := range NumRelations {
		addInto(c.y, c.rel[r].forward(c.agg[r].forward(b.Op[r], x)))
	}
	return c.y
}

func (c *rgcnConv) backward(b *Batch, dy *mat.Dense, needInput bool) *mat.Dense {
	dx := c.root.backward(dy, needInput)
	if needInput {
		n, w := dx.Dims()
		c.d = ensure(c.d, n, w)
		c.d.Copy(dx)
	}
	for r := range NumRelations {
		g := c.rel[r].backward(dy, needInput)
		if needInput {
			addInto(c.d, c.agg[r].backward(b.OpT[r], g))
		}
	}
	if !needInput {
		return nil
	}
	return c.d
}

func (c *rgcnConv) params() []*Param {
	ps := c.root.params()
	for _, l := range c.rel {
		ps = append(ps, l.params()...)
	}
	return ps
}

func (c *rgcnConv) batchNorms() []*BatchNorm { return nil }

func (c *rgcnConv) setTeam(p *team) {
	c.root.team = p
	for r := range NumRelations {
		c.rel[r].team, c.agg[r].team = p, p
	}
}

// rginConv is FoSR's RGINConv: Linear(x) (self_loop_conv) + Σ_r GINConv_r
// over relation r's arcs.
type rginConv struct {
	self *linear
	gin  [NumRelations]*ginConv
	y, d *mat.Dense
}

func newRGINConv(prefix string, in, out int, rng *rand.Rand) *rginConv {
	c := &rginConv{self: newLinear(prefix+".self", in, out, true)}
	c.self.initTorch(rng)
	for r := range NumRelations {
		c.gin[r] = newGINConv(prefix+".conv"+string(rune('0'+r)), r, in, out, rng)
	}
	return c
}

func (c *rginConv) forward(b *Batch, x *mat.Dense, train bool) *mat.Dense {
	n, _ := x.Dims()
	c.y = ensure(c.y, n, c.self.out)
	c.y.Copy(c.self.forward(x))
	for _, g := range c.gin {
		addInto(c.y, g.forward(b, x, train))
	}
	return c.y
}

func (c *rginConv) backward(b *Batch, dy *mat.Dense, needInput bool) *mat.Dense {
	dx := c.self.backward(dy, needInput)
	if needInput {
		n, w := dx.Dims()
		c.d = ensure(c.d, n, w)
		c.d.Copy(dx)
	}
	for _, g := range c.gin {
		gx := g.backward(b, dy, needInput)
		if needInput {
			addInto(c.d, gx)
		}
	}
	if !needInput {
		return nil
	}
	return c.d
}

func (c *rginConv) params() []*Param {
	ps := c.self.params()
	for _, g := range c.gin {
		ps = append(ps, g.params()...)
	}
	return ps
}

func (c *rginConv) batchNorms() []*BatchNorm {
	return []*BatchNorm{c.gin[0].bn, c.gin[1].bn}
}

func (c *rginConv) setTeam(p *team) {
	c.self.team = p
	for _, g := range c.gin {
		g.setTeam(p)
	}
}
