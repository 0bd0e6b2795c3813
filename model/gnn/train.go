package gnn

import (
	"context"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/model/dataset"
)

// Result is the outcome of one run. Epochs are numbered from 1 (epoch e is
// the e-th optimiser step followed by an evaluation without dropout); the
// epoch with the highest validation accuracy, the earliest on ties, gives
// ValAcc and TestAcc. Accuracies are fractions in [0, 1].
type Result struct {
	Seed      uint64  // the run's seed
	Split     int     // the split trained on
	BestEpoch int     // 1-based epoch of the best validation accuracy
	ValAcc    float64 // validation accuracy at BestEpoch
	TestAcc   float64 // test accuracy at BestEpoch
	// Epochs is the number of epochs run, Seconds their wall time (training
	// steps and evaluations, without building the model).
	Epochs  int
	Seconds float64
}

// EpochMs returns the mean wall time of one epoch in milliseconds.
func (r Result) EpochMs() float64 {
	if r.Epochs == 0 {
		return 0
	}
	return 1000 * r.Seconds / float64(r.Epochs)
}

// EpochStats are the numbers of one epoch: the training loss (with dropout,
// before the step) and the accuracies after the step (without dropout).
type EpochStats struct {
	Epoch                     int     // 1-based
	Loss                      float64 // mean cross-entropy on the training nodes
	TrainAcc, ValAcc, TestAcc float64 // fractions in [0, 1]
}

// Trainer trains one model on one split from one seed, an epoch at a time.
type Trainer struct {
	data  *Data
	cfg   Config
	split dataset.Split
	model *Model
	opt   *Adam
	grad  *mat.Dense
	res   Result
	bestV float64
}

// pcgStream is the second PCG word of every run's generator ("ohm-gnn").
const pcgStream = 0x6f686d2d676e6e

// NewTrainer builds the model of cfg on data for split k. The run's only
// source of randomness is rand.New(rand.NewPCG(seed, 0x6f686d2d676e6e)): it
// draws the Glorot weights (layer by layer) and then every dropout mask, so
// a run is reproduced exactly by its seed, and the same seed gives the same
// initial weights on every split. O(number of weights).
func NewTrainer(data *Data, cfg Config, k int, seed uint64) (*Trainer, error) {
	if err := data.check(cfg); err != nil {
		return nil, err
	}
	if err := data.checkSplit(k); err != nil {
		return nil, err
	}
	if err := data.checkMemory(cfg, 1); err != nil {
		return nil, err
	}
	_, f := data.X.Dims()
	arch := Architecture{Kind: cfg.Kind, Layers: cfg.Layers, In: f, Hidden: cfg.Hidden,
		Classes: data.Classes, PairNorm: cfg.PairNorm, PairNormScale: cfg.PairNormScale, PairNormAt: cfg.PairNormAt,
		Dropout: cfg.Dropout}
	pcg := rand.NewPCG(seed, pcgStream)
	m, err := NewModel(arch, data.Ops, rand.New(pcg))
	if err != nil {
		return nil, err
	}
	m.pcg = pcg
	for i, p := range m.Params() {
		if cfg.DecayScope == DecayAll || i < len(m.convs[0].Params()) {
			p.WeightDecay = cfg.WeightDecay
		}
	}
	return &Trainer{data: data, cfg: cfg, split: data.Splits[k], model: m, opt: NewAdam(cfg.LR),
		grad: mat.NewDense(data.Ops.N, data.Classes, nil), res: Result{Seed: seed, Split: k}, bestV: -1}, nil
}

// Model returns the model being trained.
func (t *Trainer) Model() *Model { return t.model }

// Epoch runs one epoch — a forward pass with dropout, the loss on the
// training nodes, the backward pass and one Adam step, then a forward pass
// without dropout for the accuracies — and updates the best epoch. Cost:
// two forward passes, one backward pass, O(parameters).
func (t *Trainer) Epoch() EpochStats {
	t0 := time.Now()
	d := t.data
	logits := t.model.Forward(d.X, true)
	loss := CrossEntropy(logits, d.Labels, t.split.Train, t.grad)
	t.model.Backward(t.grad)
	t.opt.Step(t.model.Params())
	logits = t.model.Forward(d.X, false)
	t.res.Epochs++
	st := EpochStats{Epoch: t.res.Epochs, Loss: loss,
		TrainAcc: Accuracy(logits, d.Labels, t.split.Train),
		ValAcc:   Accuracy(logits, d.Labels, t.split.Val),
		TestAcc:  Accuracy(logits, d.Labels, t.split.Test)}
	if st.ValAcc > t.bestV {
		t.bestV = st.ValAcc
		t.res.BestEpoch, t.res.ValAcc, t.res.TestAcc = st.Epoch, st.ValAcc, st.TestAcc
	}
	t.res.Seconds += time.Since(t0).Seconds()
	return st
}

// Result returns the result so far.
func (t *Trainer) Result() Result { return t.res }

// Train runs cfg.Epochs epochs of a fresh model on split k from seed and
// returns the result. O(Epochs · epoch cost).
func Train(data *Data, cfg Config, k int, seed uint64) (Result, error) {
	return TrainContext(context.Background(), data, cfg, k, seed)
}

// TrainContext is Train until ctx is done: it checks ctx before every
// epoch and then returns ctx's error without a result (definitions §7.3).
func TrainContext(ctx context.Context, data *Data, cfg Config, k int, seed uint64) (Result, error) {
	t, err := NewTrainer(data, cfg, k, seed)
	if err != nil {
		return Result{}, err
	}
	for range cfg.Epochs {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		t.Epoch()
	}
	return t.Result(), nil
}

// TrainBest trains cfg on split k from seed for cfg.Epochs epochs and
// returns the model with the weights of its best validation epoch (the
// earliest on ties, the epoch whose test accuracy Result reports) and the
// result. Cost: that of Train plus a copy of the weights at every new best
// epoch.
func TrainBest(data *Data, cfg Config, k int, seed uint64) (*Model, Result, error) {
	tr, err := NewTrainer(data, cfg, k, seed)
	if err != nil {
		return nil, Result{}, err
	}
	params := tr.Model().Params()
	best := make([]*mat.Dense, len(params))
	for i, p := range params {
		best[i] = mat.DenseCopyOf(p.Value)
	}
	for range cfg.Epochs {
		st := tr.Epoch()
		if tr.Result().BestEpoch == st.Epoch {
			for i, p := range params {
				best[i].Copy(p.Value)
			}
		}
	}
	for i, p := range params {
		p.Value.Copy(best[i])
	}
	return tr.Model(), tr.Result(), nil
}
