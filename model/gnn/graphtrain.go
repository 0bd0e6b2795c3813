package gnn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/internal/parallel"
)

// ErrNaNLoss is wrapped by the error a graph run stops with when a training
// batch's loss is not finite.
var ErrNaNLoss = errors.New("loss is not finite") // reason: the CLI names the flag or the run before it

// ErrSplitMissesClass is wrapped by the error of a run whose random split
// leaves a class out of training.
var ErrSplitMissesClass = errors.New("out of training") // reason: the CLI names the flag or the run before it

// The second PCG words of a graph run's generators: the split, the order of
// the training graphs in every epoch; the model's weights and dropout use
// pcgStream.
const (
	splitStream   = 0x6f686d2d73706c74 // "ohm-splt"
	shuffleStream = 0x6f686d2d73686666 // "ohm-shff"
)

// GraphSplit is a partition of a GraphSet's graph indices.
type GraphSplit struct{ Train, Val, Test []int }

// RandomGraphSplit returns torch's random_split of n graphs into
// ⌊trainFrac·n⌋ training, ⌊valFrac·n⌋ validation and the remaining test
// graphs: a uniform permutation (rng.Perm) cut in that order. O(n).
func RandomGraphSplit(n int, trainFrac, valFrac float64, rng *rand.Rand) GraphSplit {
	p := rng.Perm(n)
	a := int(trainFrac * float64(n))
	b := a + int(valFrac*float64(n))
	return GraphSplit{Train: p[:a], Val: p[a:b], Test: p[b:]}
}

// GraphResult is the outcome of one graph-classification run (definitions
// §4.5). Accuracies are fractions in [0, 1].
type GraphResult struct {
	Seed      uint64
	Epochs    int // epochs run
	BestEpoch int // 1-based epoch whose accuracies are kept
	// TrainAcc, ValAcc and TestAcc are those of BestEpoch.
	TrainAcc, ValAcc, TestAcc float64
	// LastValAcc and LastTestAcc are those of the last epoch, the numbers
	// FoSR's code returns.
	LastValAcc, LastTestAcc float64
	Seconds                 float64 // wall time of the epochs
}

// GraphEpoch are the numbers of one epoch.
type GraphEpoch struct {
	Epoch                     int     // 1-based
	Loss                      float64 // sum of the training batches' mean losses
	LR                        float64 // the learning rate after the scheduler's step
	TrainAcc, ValAcc, TestAcc float64
}

// GraphTrainer trains one graph model from one seed, an epoch at a time.
type GraphTrainer struct {
	data    *GraphData
	cfg     GraphConfig
	split   GraphSplit
	model   *GraphModel
	opt     *Adam
	sched   *Plateau
	shuffle *rand.Rand
	eval    [3][]*Batch // fixed batches of the training, validation and test graphs
	hasBN   bool
	rows    []int         // 0, 1, … : the rows of a batch's scores
	shadows []*GraphModel // evaluation workers' models (SetEvalWorkers)
	grad    *mat.Dense    // dL/d(scores) of a batch

	res       GraphResult
	goal      float64 // validation accuracy to beat for a new best
	noImprove int
	done      bool
}

// NewGraphTrainer draws the split of seed, checks that its training part
// holds every class, and builds the model of cfg on d. Generators:
// rand.NewPCG(seed, stream) with one stream for the split, one for the
// weights and dropout (those of NewTrainer) and one for the order of the
// training graphs, so a run is reproduced by its seed. O(graphs + weights).
func NewGraphTrainer(d *GraphData, cfg GraphConfig, seed uint64) (*GraphTrainer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Kind != d.Kind {
		return nil, fmt.Errorf("gnn: data prepared for %s, config asks for %s", d.Kind, cfg.Kind)
	}
	s := d.Set
	sp := RandomGraphSplit(len(s.Graphs), cfg.TrainFrac, cfg.ValFrac, rand.New(rand.NewPCG(seed, splitStream)))
	if len(sp.Train) == 0 || len(sp.Val) == 0 || len(sp.Test) == 0 {
		return nil, fmt.Errorf("gnn: dataset %s: %d graphs are too few for a %v/%v split", s.Name, len(s.Graphs), cfg.TrainFrac, cfg.ValFrac)
	}
	seen := make([]bool, s.Classes)
	for _, g := range sp.Train {
		seen[s.Graphs[g].Label] = true
	}
	if c := slices.Index(seen, false); c >= 0 {
		return nil, fmt.Errorf("dataset %s: the split of seed %d leaves class %d %w", s.Name, seed, c, ErrSplitMissesClass) // reason: the CLI names the flag or the run before it
	}
	arch := GraphArch{Kind: cfg.Kind, Layers: cfg.Layers, In: s.Features, Hidden: cfg.Hidden, Classes: s.Classes,
		Dropout: cfg.Dropout, Pool: cfg.Pool}
	m, err := NewGraphModel(arch, rand.New(rand.NewPCG(seed, pcgStream)))
	if err != nil {
		return nil, err
	}
	for _, p := range m.Params() {
		p.WeightDecay = cfg.WeightDecay
	}
	t := &GraphTrainer{data: d, cfg: cfg, split: sp, model: m, opt: NewAdam(cfg.LR), sched: NewPlateau(),
		shuffle: rand.New(rand.NewPCG(seed, shuffleStream)), hasBN: len(m.BatchNorms()) > 0, res: GraphResult{Seed: seed}}
	for k, part := range [3][]int{sp.Train, sp.Val, sp.Test} {
		for lo := 0; lo < len(part); lo += cfg.BatchSize {
			t.eval[k] = append(t.eval[k], d.NewBatch(part[lo:min(lo+cfg.BatchSize, len(part))]))
		}
	}
	return t, nil
}

// Split returns the run's split.
func (t *GraphTrainer) Split() GraphSplit { return t.split }

// Model returns the model being trained.
func (t *GraphTrainer) Model() *GraphModel { return t.model }

// Done reports whether training has stopped: more than Patience epochs
// without a new best, or MaxEpochs run.
func (t *GraphTrainer) Done() bool { return t.done }

// Epoch runs one epoch: the training graphs in a fresh random order, in
// batches of BatchSize, each a forward pass in training mode, the mean
// cross-entropy, a backward pass and an Adam step; then the scheduler's
// step on the summed loss, the accuracies in evaluation mode and the
// early-stopping rule (definitions §4.5). A non-finite loss stops the run
// with an error wrapping ErrNaNLoss that names the epoch and batch.
// Cost: a forward and backward pass over the training graphs and a
// forward pass over all graphs.
func (t *GraphTrainer) Epoch() (GraphEpoch, error) {
	t0 := time.Now()
	d, cfg := t.data, t.cfg
	ep := t.res.Epochs + 1
	order := slices.Clone(t.split.Train)
	t.shuffle.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var total float64
	for k, lo := 0, 0; lo < len(order); k, lo = k+1, lo+cfg.BatchSize {
		b := d.NewBatch(order[lo:min(lo+cfg.BatchSize, len(order))])
		if t.hasBN && b.N() < 2 {
			return GraphEpoch{}, fmt.Errorf("gnn: epoch %d, batch %d: %d node(s), BatchNorm needs at least 2 in training", ep, k+1, b.N())
		}
		scores := t.model.Forward(b, true)
		for len(t.rows) < len(b.Graphs) {
			t.rows = append(t.rows, len(t.rows))
		}
		rows := t.rows[:len(b.Graphs)]
		t.grad = ensure(t.grad, len(rows), d.Set.Classes)
		loss := CrossEntropy(scores, b.Labels, rows, t.grad)
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			return GraphEpoch{}, fmt.Errorf("epoch %d, batch %d: %w (%v)", ep, k+1, ErrNaNLoss, loss) // reason: the CLI names the flag or the run before it
		}
		total += loss
		t.model.Backward(b, t.grad)
		t.opt.Step(t.model.Params())
	}
	t.sched.Step(total, t.opt)
	st := GraphEpoch{Epoch: ep, Loss: total, LR: t.opt.LR,
		TrainAcc: t.accuracy(0), ValAcc: t.accuracy(1), TestAcc: t.accuracy(2)}
	t.res.Epochs = ep
	t.res.LastValAcc, t.res.LastTestAcc = st.ValAcc, st.TestAcc
	switch {
	case st.ValAcc > t.goal:
		t.keep(st)
		t.noImprove = 0
		t.goal = st.ValAcc * cfg.Threshold
	case st.ValAcc > t.res.ValAcc:
		t.keep(st)
		t.noImprove++
	default:
		t.noImprove++
	}
	t.done = t.noImprove > cfg.Patience || ep >= cfg.MaxEpochs
	t.res.Seconds += time.Since(t0).Seconds()
	return st, nil
}

// keep makes st the kept epoch.
func (t *GraphTrainer) keep(st GraphEpoch) {
	t.res.BestEpoch, t.res.TrainAcc, t.res.ValAcc, t.res.TestAcc = st.Epoch, st.TrainAcc, st.ValAcc, st.TestAcc
}

// SetEvalWorkers makes the evaluation batches of every later epoch run on
// w goroutines (w ≤ 1: the trainer's own), each on a copy of the model that
// shares its weights and running statistics. Accuracies are counts, so
// they do not depend on w. O(weights) per copy, once.
func (t *GraphTrainer) SetEvalWorkers(w int) {
	for len(t.shadows) < w {
		m, _ := NewGraphModel(t.model.Arch, rand.New(rand.NewPCG(0, 0)))
		m.shareWeights(t.model)
		t.shadows = append(t.shadows, m)
	}
	t.shadows = t.shadows[:max(0, w)]
}

// accuracy returns the fraction of part k's graphs (0 training, 1
// validation, 2 test) whose arg-max score (the first on ties) is their
// label, in evaluation mode; the batches across the evaluation workers.
func (t *GraphTrainer) accuracy(k int) float64 {
	batches := t.eval[k]
	right := make([]int, len(batches))
	count := func(m *GraphModel, i int) {
		b := batches[i]
		s := rawDense(m.Forward(b, false))
		c := t.data.Set.Classes
		for j, y := range b.Labels {
			if argmax(s[j*c:j*c+c]) == y {
				right[i]++
			}
		}
	}
	if len(t.shadows) <= 1 {
		for i := range batches {
			count(t.model, i)
		}
	} else {
		parallel.Each(len(t.shadows), len(batches), func(w, i int) { count(t.shadows[w], i) })
	}
	all, sum := 0, 0
	for i, b := range batches {
		sum += right[i]
		all += len(b.Labels)
	}
	return float64(sum) / float64(all)
}

// Result returns the result so far.
func (t *GraphTrainer) Result() GraphResult { return t.res }

// TrainGraph trains a fresh model of cfg on d from seed until it stops and
// returns the result. O(epochs · epoch cost).
func TrainGraph(d *GraphData, cfg GraphConfig, seed uint64) (GraphResult, error) {
	return trainGraph(d, cfg, seed, 1)
}

// trainGraph is TrainGraph with evaluation on evalWorkers goroutines.
func trainGraph(d *GraphData, cfg GraphConfig, seed uint64, evalWorkers int) (GraphResult, error) {
	t, err := NewGraphTrainer(d, cfg, seed)
	if err != nil {
		return GraphResult{}, err
	}
	t.SetEvalWorkers(evalWorkers)
	for !t.Done() {
		if _, err := t.Epoch(); err != nil {
			return GraphResult{}, fmt.Errorf("seed %d: %w", seed, err) // reason: the CLI names the flag or the run before it
		}
	}
	return t.Result(), nil
}
