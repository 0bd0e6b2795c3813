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
	Epoch  int     // 1-based
	Loss   float64 // sum of the training batches' mean losses
	LR     float64 // the learning rate after the scheduler's step
	ValAcc float64
	// TrainAcc and TestAcc are computed only where the run needs them
	// (definitions §4.5): TrainAcc at a kept epoch, TestAcc at a kept epoch
	// and at the last one; NaN elsewhere, unless SetEvalAll asked for them
	// at every epoch.
	TrainAcc, TestAcc float64
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
	shadows []*GraphModel // evaluation workers' models (SetThreads)
	grad    *mat.Dense    // dL/d(scores) of a batch
	batch   *Batch        // the training batch, its storage reused
	evalAll bool          // every epoch's training and test accuracies (SetEvalAll)
	testAt  int           // the epoch whose test accuracy res.LastTestAcc holds

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
// step on the summed loss, the validation accuracy in evaluation mode, the
// early-stopping rule, and the training and test accuracies where the run
// keeps them: the training and test accuracies of a kept epoch, the test
// accuracy of the last (definitions §4.5). A non-finite loss stops the run
// with an error wrapping ErrNaNLoss that names the epoch and batch.
// Cost: a forward and backward pass over the training graphs and a
// forward pass over the validation graphs, plus one over the training and
// test graphs at a kept epoch, over the test graphs at the last.
func (t *GraphTrainer) Epoch() (GraphEpoch, error) {
	t0 := time.Now()
	ep := t.res.Epochs + 1
	total, err := t.trainBatches(ep)
	if err != nil {
		return GraphEpoch{}, err
	}
	cfg := t.cfg
	t.sched.Step(total, t.opt)
	st := GraphEpoch{Epoch: ep, Loss: total, LR: t.opt.LR, ValAcc: t.accuracy(1),
		TrainAcc: math.NaN(), TestAcc: math.NaN()}
	t.res.Epochs = ep
	t.res.LastValAcc = st.ValAcc
	keep := false
	switch {
	case st.ValAcc > t.goal:
		keep = true
		t.noImprove = 0
		t.goal = st.ValAcc * cfg.Threshold
	case st.ValAcc > t.res.ValAcc:
		keep = true
		t.noImprove++
	default:
		t.noImprove++
	}
	t.done = t.noImprove > cfg.Patience || ep >= cfg.MaxEpochs
	// The weights do not change after the validation accuracy, so the
	// training and test accuracies computed now are the ones an eager
	// evaluation would have given at this epoch.
	if keep || t.evalAll {
		st.TrainAcc = t.accuracy(0)
	}
	if keep || t.done || t.evalAll {
		st.TestAcc = t.accuracy(2)
		t.res.LastTestAcc, t.testAt = st.TestAcc, ep
	}
	if keep {
		t.res.BestEpoch, t.res.TrainAcc, t.res.ValAcc, t.res.TestAcc = st.Epoch, st.TrainAcc, st.ValAcc, st.TestAcc
	}
	t.res.Seconds += time.Since(t0).Seconds()
	return st, nil
}

// trainBatches runs the training batches of epoch ep and returns the sum
// of their mean losses.
func (t *GraphTrainer) trainBatches(ep int) (float64, error) {
	d, cfg := t.data, t.cfg
	order := slices.Clone(t.split.Train)
	t.shuffle.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var total float64
	for k, lo := 0, 0; lo < len(order); k, lo = k+1, lo+cfg.BatchSize {
		if t.batch == nil {
			t.batch = &Batch{}
		}
		t.batch = d.fillBatch(t.batch, order[lo:min(lo+cfg.BatchSize, len(order))])
		b := t.batch
		if t.hasBN && b.N() < 2 {
			return 0, fmt.Errorf("gnn: epoch %d, batch %d: %d node(s), BatchNorm needs at least 2 in training", ep, k+1, b.N())
		}
		scores := t.model.Forward(b, true)
		for len(t.rows) < len(b.Graphs) {
			t.rows = append(t.rows, len(t.rows))
		}
		rows := t.rows[:len(b.Graphs)]
		t.grad = ensure(t.grad, len(rows), d.Set.Classes)
		loss := CrossEntropy(scores, b.Labels, rows, t.grad)
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			return 0, fmt.Errorf("epoch %d, batch %d: %w (%v)", ep, k+1, ErrNaNLoss, loss) // reason: the CLI names the flag or the run before it
		}
		total += loss
		t.model.Backward(b, t.grad)
		t.opt.Step(t.model.Params())
	}
	return total, nil
}

// SetEvalAll makes every later epoch compute the training and test
// accuracies too, for output that shows them epoch by epoch; the result
// does not change. O(1).
func (t *GraphTrainer) SetEvalAll(on bool) { t.evalAll = on }

// SetThreads makes every later epoch run on w goroutines (w ≤ 1: the
// trainer's own): the kernels of each training batch split over a team of
// w (the same bits as one goroutine: definitions §4.5), and the evaluation
// batches across w copies of the model that share its weights and running
// statistics (accuracies are counts), or, with fewer batches than w, one
// batch at a time on the team. O(weights) per copy, once.
func (t *GraphTrainer) SetThreads(w int) {
	for len(t.shadows) < w {
		m, _ := NewGraphModel(t.model.Arch, rand.New(rand.NewPCG(0, 0)))
		m.shareWeights(t.model)
		t.shadows = append(t.shadows, m)
	}
	t.shadows = t.shadows[:max(0, w)]
	if w <= 1 {
		t.shadows = nil
	}
	t.model.setTeam(newTeam(w))
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
	if len(t.shadows) <= 1 || len(batches) < len(t.shadows) {
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

// Result returns the result so far. LastTestAcc is that of the last epoch
// run: when that epoch did not compute it (a run read before it is done),
// it is computed now, on the weights that epoch left. O(1), or a forward
// pass over the test graphs.
func (t *GraphTrainer) Result() GraphResult {
	if t.res.Epochs > 0 && t.testAt != t.res.Epochs {
		t.res.LastTestAcc, t.testAt = t.accuracy(2), t.res.Epochs
	}
	return t.res
}

// TrainGraph trains a fresh model of cfg on d from seed until it stops and
// returns the result. O(epochs · epoch cost).
func TrainGraph(d *GraphData, cfg GraphConfig, seed uint64) (GraphResult, error) {
	return trainGraph(d, cfg, seed, 1)
}

// trainGraph is TrainGraph on threads goroutines (SetThreads).
func trainGraph(d *GraphData, cfg GraphConfig, seed uint64, threads int) (GraphResult, error) {
	t, err := NewGraphTrainer(d, cfg, seed)
	if err != nil {
		return GraphResult{}, err
	}
	t.SetThreads(threads)
	for !t.Done() {
		if _, err := t.Epoch(); err != nil {
			return GraphResult{}, fmt.Errorf("seed %d: %w", seed, err) // reason: the CLI names the flag or the run before it
		}
	}
	return t.Result(), nil
}
