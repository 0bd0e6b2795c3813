package gnn

import (
	"errors"
	"time"

	"github.com/james-bowman/sparse"
)

// A Batch trains S runs of one setting — one Data, one Config, S (seed,
// split) pairs — together, an epoch of every run at a time. The runs share Â
// and the features, so their activations are stored side by side: every
// n×w matrix of a run is a block of w columns of an n×(S·w) matrix, and each
// product with a sparse operator is one pass over it with S·w columns.
// Everything that is particular to a run — its weights, generator, dropout
// masks, PairNorm statistics, loss, optimiser and best epoch — stays per run.
//
// Measured on Cora (BenchmarkEpoch, thread CPU time, 2-core AMD EPYC): the
// wide Â products are about 1.7× cheaper per column, but the n×(S·w)
// matrices leave the L2 cache that one run's fit in, and the first layer
// (per-run weights and dropped-out features) gains nothing; the epoch per
// run is 0.7–1.2× the cost of Trainer.Epoch (GCN-8 with PairNorm gains,
// GCN-2 and DirGCN-2 lose). TrainRuns and the sweep therefore keep training
// run by run; Batch stays as the measured alternative and the bit-exact
// check of the side-by-side kernels.
//
// Each run's numbers are bit for bit those of Train with the same seed and
// split: every output element sums the same terms in the same order as the
// per-run kernels (a wide product sums each column like the narrow one; the
// batched code only changes which columns one pass visits). This holds for
// the default GOAMD64=v1/v2 builds, where Go never fuses a multiply-add; a
// build that fuses (GOAMD64=v3, arm64) may differ in the last bits, as the
// narrow kernels would be fused where the wide ones (gonum's assembly) are
// not. TestBatchMatchesTrain checks the equality.
type Batch struct {
	data   *Data
	cfg    Config
	runs   []Run
	models []*Model // per run: weights, generator, input dropout
	opts   []*Adam
	layers []*batchLayer
	norm   []float64 // PairNorm work buffers
	gy     []float64

	pre    [][]float64 // stage k: n×(S·Hidden) input of the ReLU (a conv output or norms[k])
	norms  [][]float64 // stage k: PairNorm output (with PairNorm)
	h      [][]float64 // stage k: the ReLU's output after dropout
	sigma  [][]float64 // [stage][run] PairNorm σ
	mask   [][][]float64
	drop   bool
	logits []float64 // n×(S·C)
	grad   []float64
	res    []Result
	bestV  []float64
}

// NewBatch builds the models of runs (each exactly as NewTrainer builds it)
// for training together. O(S·number of weights).
func NewBatch(data *Data, cfg Config, runs []Run) (*Batch, error) {
	if err := data.check(cfg); err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, errors.New("no runs")
	}
	b := &Batch{data: data, cfg: cfg, runs: runs}
	for _, r := range runs {
		t, err := NewTrainer(data, cfg, r.Split, r.Seed)
		if err != nil {
			return nil, err
		}
		b.models = append(b.models, t.model)
		b.opts = append(b.opts, t.opt)
		b.res = append(b.res, t.res)
		b.bestV = append(b.bestV, -1)
	}
	S, n, L := len(runs), data.Ops.N, cfg.Layers
	for l := range L {
		bl := &batchLayer{kind: cfg.Kind, ops: data.Ops, n: n, s: S}
		for _, m := range b.models {
			ps := m.convs[l].Params()
			bl.w, bl.b = append(bl.w, rawDense(ps[0].Value)), append(bl.b, rawDense(ps[1].Value))
			bl.dw, bl.db = append(bl.dw, rawDense(ps[0].Grad)), append(bl.db, rawDense(ps[1].Grad))
		}
		bl.in, bl.out = b.models[0].convs[l].Dims()
		bl.alloc()
		b.layers = append(b.layers, bl)
	}
	for range L - 1 {
		b.pre = append(b.pre, nil)
		if cfg.PairNorm {
			b.norms = append(b.norms, make([]float64, n*S*cfg.Hidden))
		} else {
			b.norms = append(b.norms, nil)
		}
		b.h = append(b.h, make([]float64, n*S*cfg.Hidden))
		b.sigma = append(b.sigma, make([]float64, S))
		ms := make([][]float64, S)
		for s := range ms {
			ms[s] = make([]float64, n*cfg.Hidden)
		}
		b.mask = append(b.mask, ms)
	}
	b.norm, b.gy = make([]float64, S*cfg.Hidden), make([]float64, S)
	b.grad = make([]float64, n*S*data.Classes)
	return b, nil
}

// Runs returns the runs, in the order of Results.
func (b *Batch) Runs() []Run { return b.runs }

// Epoch runs one epoch of every run (see Trainer.Epoch) and returns their
// stats in the order of the runs. Cost: that of S epochs of Trainer.Epoch,
// with the sparse products done S at a time.
func (b *Batch) Epoch() []EpochStats {
	t0 := time.Now()
	d, S, C := b.data, len(b.runs), b.data.Classes
	n := d.Ops.N
	z := b.forward(true)
	losses := make([]float64, S)
	for s, r := range b.runs {
		losses[s] = crossEntropy(strided{z, S * C, s * C}, n, C, d.Labels, d.Splits[r.Split].Train,
			strided{b.grad, S * C, s * C})
	}
	b.backward(b.grad)
	for s, m := range b.models {
		b.opts[s].Step(m.Params())
	}
	z = b.forward(false)
	st := make([]EpochStats, S)
	dt := time.Since(t0).Seconds() / float64(S)
	for s, r := range b.runs {
		sp, zs := d.Splits[r.Split], strided{z, S * C, s * C}
		res := &b.res[s]
		res.Epochs++
		st[s] = EpochStats{Epoch: res.Epochs, Loss: losses[s],
			TrainAcc: accuracy(zs, C, d.Labels, sp.Train),
			ValAcc:   accuracy(zs, C, d.Labels, sp.Val),
			TestAcc:  accuracy(zs, C, d.Labels, sp.Test)}
		if st[s].ValAcc > b.bestV[s] {
			b.bestV[s] = st[s].ValAcc
			res.BestEpoch, res.ValAcc, res.TestAcc = st[s].Epoch, st[s].ValAcc, st[s].TestAcc
		}
		res.Seconds += dt
	}
	return st
}

// Results returns the results so far, in the order of the runs; each run's
// Seconds is its share (1/S) of the batch's wall time.
func (b *Batch) Results() []Result { return append([]Result(nil), b.res...) }

// Models returns the runs' models (their weights are the ones trained).
func (b *Batch) Models() []*Model { return b.models }

// forward returns the n×(S·C) logits of every run.
func (b *Batch) forward(train bool) []float64 {
	S, p := len(b.runs), b.cfg.Dropout
	b.drop = train && p > 0
	xs := make([]*sparse.CSR, S)
	for s, m := range b.models {
		xs[s] = b.data.X
		if b.drop {
			xs[s] = m.dropInput(b.data.X).(*sparse.CSR)
		}
	}
	in := batchInput{csr: xs}
	n, H := b.data.Ops.N, b.cfg.Hidden
	last := len(b.layers) - 1
	for l, bl := range b.layers {
		z := bl.forward(in)
		if l == last {
			return z
		}
		pre := z // the conv output itself without PairNorm, as in Model
		if b.cfg.PairNorm {
			pre = b.norms[l]
			pairNormForward(pre, z, n, H, b.cfg.PairNormScale, b.sigma[l], b.norm)
		}
		b.pre[l] = pre
		h := b.h[l]
		if b.drop {
			for s, m := range b.models {
				dropMask(b.mask[l][s], p, m.rng)
			}
			for i := range n {
				for s := range S {
					o := (i*S + s) * H
					hi, pi, mi := h[o:o+H], pre[o:o+H], b.mask[l][s][i*H:i*H+H]
					for k, v := range pi {
						hi[k] = max(v, 0) * mi[k]
					}
				}
			}
		} else {
			for k, v := range pre {
				h[k] = max(v, 0)
			}
		}
		in = batchInput{dense: h}
	}
	panic("unreachable")
}

// backward sets every run's parameter gradients from dL/d(logits) (n×(S·C)).
func (b *Batch) backward(g []float64) {
	S, H, n := len(b.runs), b.cfg.Hidden, b.data.Ops.N
	for l := len(b.layers) - 1; l >= 0; l-- {
		dx := b.layers[l].backward(g, l > 0)
		if l == 0 {
			return
		}
		k := l - 1
		pre := b.pre[k]
		for i := range n {
			for s := range S {
				o := (i*S + s) * H
				di, pi := dx[o:o+H], pre[o:o+H]
				if b.drop {
					reluDropGrad(di, pi, b.mask[k][s][i*H:i*H+H])
				} else {
					reluGrad(di, pi)
				}
			}
		}
		if b.cfg.PairNorm {
			out := b.layers[k].z // dL/d(conv output), overwriting the forward value no longer needed
			pairNormBackward(out, dx, pre, n, H, b.cfg.PairNormScale, b.sigma[k], b.norm, b.gy)
			dx = out
		}
		g = dx
	}
}

// TrainBatch trains runs together (see Batch) for cfg.Epochs epochs and
// returns their results in the order of runs. O(Epochs · epoch cost).
func TrainBatch(data *Data, cfg Config, runs []Run) ([]Result, error) {
	b, err := NewBatch(data, cfg, runs)
	if err != nil {
		return nil, err
	}
	for range cfg.Epochs {
		b.Epoch()
	}
	return b.Results(), nil
}

// batchInput is a layer's input for every run: the sparse features of each
// run (csr, possibly one matrix shared by all), or n×(S·in) dense
// activations.
type batchInput struct {
	csr   []*sparse.CSR
	dense []float64
}

// batchLayer is one convolution of every run of a batch: the per-run
// weights, and the side-by-side buffers.
type batchLayer struct {
	kind    Kind
	ops     *Operators
	n, s    int
	in, out int
	w, b    [][]float64 // per run: weight and bias values
	dw, db  [][]float64 // per run: their gradients
	x       batchInput  // cached input
	m       []float64   // per-run products x·W: n×(S·wd), run after run
	mp      []float64   // DirGCN: m rearranged part-major (in | out | self, S·out columns each)
	tmp     []float64   // DirGCN: P_out product before it is added
	z       []float64   // n×(S·out)
	dm      []float64   // n×(S·wd), run after run
	dmp     []float64   // DirGCN: part-major P_inᵀ·dy, P_outᵀ·dy
	dx      []float64   // n×(S·in)
	bt      [][]float64 // per run: Wᵀ
	ws      scratch
}

// wd returns the width of one run's product x·W: out for GCN, 3·out for
// DirGCN.
func (l *batchLayer) wd() int {
	if l.kind == DirGCN {
		return 3 * l.out
	}
	return l.out
}

func (l *batchLayer) alloc() {
	n, S, wd := l.n, l.s, l.wd()
	l.m = make([]float64, n*S*wd)
	l.z = make([]float64, n*S*l.out)
	l.dm = make([]float64, n*S*wd)
	l.dx = make([]float64, n*S*l.in)
	l.bt = make([][]float64, S)
	for s := range l.bt {
		l.bt[s] = make([]float64, l.in*wd)
	}
	if l.kind == DirGCN {
		l.mp = make([]float64, n*S*wd)
		l.tmp = make([]float64, n*S*l.out)
		l.dmp = make([]float64, n*S*2*l.out)
	}
}

// forward sets and returns z = the layer's output for every run (see
// GCNLayer.Forward and DirGCNLayer.Forward for one run).
func (l *batchLayer) forward(x batchInput) []float64 {
	l.x = x
	n, S, o, wd := l.n, l.s, l.out, l.wd()
	if x.csr != nil {
		// Run after run: each run's weights stay in cache.
		for s := range S {
			spmm(strided{l.m, S * wd, s * wd}, x.csr[s].RawMatrix(), whole(l.w[s], wd), wd, false)
		}
	} else {
		mulNNb(l.m, x.dense, l.w, n, l.in, wd, &l.ws)
	}
	So := S * o
	if l.kind == GCN {
		spmm(whole(l.z, So), l.ops.Norm.RawMatrix(), whole(l.m, So), So, false)
		for i := range n {
			for s := range S {
				axpy(l.z[i*So+s*o:i*So+s*o+o], 1, l.b[s])
			}
		}
		return l.z
	}
	// DirGCN: rearrange x·W part-major, so that each operator sees S·out
	// adjacent columns.
	for i := range n {
		for s := range S {
			src := l.m[i*S*wd+s*wd : i*S*wd+s*wd+wd]
			for p := range 3 {
				copy(l.mp[i*3*So+p*So+s*o:i*3*So+p*So+s*o+o], src[p*o:p*o+o])
			}
		}
	}
	spmm(whole(l.z, So), l.ops.In.RawMatrix(), strided{l.mp, 3 * So, 0}, So, false)
	if o <= 32 {
		// The one-run kernel sums P_out's terms in registers and then adds
		// the P_in product: (Σ terms) + z.
		spmm(whole(l.tmp, So), l.ops.Out.RawMatrix(), strided{l.mp, 3 * So, So}, So, false)
		for k, v := range l.tmp {
			l.z[k] = v + l.z[k]
		}
	} else {
		// The one-run kernel adds the terms to z one at a time, as here.
		spmm(whole(l.z, So), l.ops.Out.RawMatrix(), strided{l.mp, 3 * So, So}, So, true)
	}
	for i := range n {
		for s := range S {
			zi := l.z[i*So+s*o : i*So+s*o+o]
			axpy(zi, 1, l.mp[i*3*So+2*So+s*o:])
			axpy(zi, 1, l.b[s])
		}
	}
	return l.z
}

// backward sets every run's dW and db from dy = dL/dz (n×(S·out)) and
// returns dL/dx (n×(S·in)) when needInput and the input was dense, else nil.
func (l *batchLayer) backward(dy []float64, needInput bool) []float64 {
	n, S, o, wd := l.n, l.s, l.out, l.wd()
	So := S * o
	if l.kind == GCN {
		spmmT(whole(l.dm, So), l.ops.Norm.RawMatrix(), whole(dy, So), So)
	} else {
		spmmT(strided{l.dmp, 2 * So, 0}, l.ops.In.RawMatrix(), whole(dy, So), So)
		spmmT(strided{l.dmp, 2 * So, So}, l.ops.Out.RawMatrix(), whole(dy, So), So)
		for i := range n {
			for s := range S {
				d := l.dm[i*S*wd+s*wd : i*S*wd+s*wd+wd]
				copy(d[:o], l.dmp[i*2*So+s*o:])
				copy(d[o:2*o], l.dmp[i*2*So+So+s*o:])
				copy(d[2*o:], dy[i*So+s*o:i*So+s*o+o])
			}
		}
	}
	for _, db := range l.db {
		clear(db)
	}
	for i := range n {
		for s, db := range l.db {
			axpy(db, 1, dy[i*So+s*o:i*So+s*o+o])
		}
	}
	if l.x.csr != nil {
		for s := range S {
			spmmT(whole(l.dw[s], wd), l.x.csr[s].RawMatrix(), strided{l.dm, S * wd, s * wd}, wd)
		}
	} else {
		mulTNb(l.dw, l.x.dense, l.dm, n, l.in, wd)
	}
	if !needInput || l.x.csr != nil {
		return nil
	}
	for s, w := range l.w {
		transpose(l.bt[s], w, l.in, wd)
	}
	mulNTb(l.dx, l.dm, l.bt, n, l.in, wd, &l.ws)
	return l.dx
}
