package gnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/james-bowman/sparse"
	"gonum.org/v1/gonum/mat"
)

// mutagLike returns n graphs shaped like MUTAG's: 10–28 nodes with one of
// 7 one-hot labels, a path with a few chords (about 2.2 arcs a node), class
// 1 holding a ring (the path closed), class 0 not.
func mutagLike(n int, seed uint64) *GraphSet {
	rng := rand.New(rand.NewPCG(seed, 49))
	s := &GraphSet{Name: "mutag-like", Features: 7, Classes: 2}
	for i := range n {
		k := 10 + rng.IntN(19)
		g := GraphItem{N: k, Label: i % 2}
		for range k {
			row := make([]float64, 7)
			row[min(6, rng.IntN(9))] = 1
			g.X = append(g.X, row...)
		}
		arc := func(u, v int) { g.Src, g.Dst = append(g.Src, u, v), append(g.Dst, v, u) }
		for u := range k - 1 {
			arc(u, u+1)
		}
		for range k / 10 {
			if u, v := rng.IntN(k), rng.IntN(k); u+1 < v {
				arc(u, v)
			}
		}
		if g.Label == 1 {
			arc(k-1, 0)
		}
		s.Graphs = append(s.Graphs, g)
	}
	return s
}

// speedConfig is a small protocol on mutagLike: 3 hidden layers of 40
// (a 16-, a 16- and an 8-column block in the kernels), batches of 24.
func speedConfig(k GraphKind) GraphConfig {
	c := GraphDefaults(k)
	c.Layers, c.Hidden, c.BatchSize, c.Patience, c.MaxEpochs = 3, 40, 24, 4, 14
	return c
}

// eagerGraphRun is GraphTrainer.Epoch as commit 92da802 ran it: the
// training, validation and test accuracies at every epoch, then the
// early-stopping rule on them; the reference of the lazy evaluation. It
// returns the result and every epoch's numbers.
func eagerGraphRun(t *testing.T, d *GraphData, cfg GraphConfig, seed uint64) (GraphResult, []GraphEpoch) {
	tr, err := NewGraphTrainer(d, cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	var eps []GraphEpoch
	res := GraphResult{Seed: seed}
	goal, noImprove := 0.0, 0
	for done := false; !done; {
		ep := res.Epochs + 1
		total, err := tr.trainBatches(ep)
		if err != nil {
			t.Fatal(err)
		}
		tr.sched.Step(total, tr.opt)
		st := GraphEpoch{Epoch: ep, Loss: total, LR: tr.opt.LR,
			TrainAcc: tr.accuracy(0), ValAcc: tr.accuracy(1), TestAcc: tr.accuracy(2)}
		res.Epochs = ep
		res.LastValAcc, res.LastTestAcc = st.ValAcc, st.TestAcc
		keep := func() {
			res.BestEpoch, res.TrainAcc, res.ValAcc, res.TestAcc = st.Epoch, st.TrainAcc, st.ValAcc, st.TestAcc
		}
		switch {
		case st.ValAcc > goal:
			keep()
			noImprove = 0
			goal = st.ValAcc * cfg.Threshold
		case st.ValAcc > res.ValAcc:
			keep()
			noImprove++
		default:
			noImprove++
		}
		done = noImprove > cfg.Patience || ep >= cfg.MaxEpochs
		eps = append(eps, st)
	}
	return res, eps
}

// sameFloat reports whether a and b are the same float64 bits, or both NaN.
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// TestGraphLazyEvaluation: the trainer that computes the training and test
// accuracies only at kept epochs and the last gives every GraphResult of
// the eager trainer (eagerGraphRun), bit for bit, for several seeds, GCN,
// GIN, R-GCN and R-GIN, with and without SetEvalAll; its epochs report
// the eager losses, learning rates and validation accuracies, the eager
// training and test accuracies where computed, and NaN elsewhere.
func TestGraphLazyEvaluation(t *testing.T) {
	for _, k := range []GraphKind{GraphGCN, GraphGIN, GraphRGCN, GraphRGIN} {
		d, err := NewGraphData(mutagLike(72, 3), k)
		if err != nil {
			t.Fatal(err)
		}
		cfg := speedConfig(k)
		for _, seed := range []uint64{0, 1, 2, 5} {
			want, wantEps := eagerGraphRun(t, d, cfg, seed)
			for _, all := range []bool{false, true} {
				tr, err := NewGraphTrainer(d, cfg, seed)
				if err != nil {
					t.Fatal(err)
				}
				tr.SetEvalAll(all)
				name := fmt.Sprintf("%v seed %d evalAll=%v", k, seed, all)
				skipped := 0
				for e := 0; !tr.Done(); e++ {
					st, err := tr.Epoch()
					if err != nil {
						t.Fatal(err)
					}
					w := wantEps[e]
					if st.Epoch != w.Epoch || !sameFloat(st.Loss, w.Loss) || !sameFloat(st.LR, w.LR) || !sameFloat(st.ValAcc, w.ValAcc) {
						t.Fatalf("%s epoch %d: %+v, eager %+v", name, e+1, st, w)
					}
					for _, p := range [][2]float64{{st.TrainAcc, w.TrainAcc}, {st.TestAcc, w.TestAcc}} {
						if math.IsNaN(p[0]) {
							skipped++
						} else if !sameFloat(p[0], p[1]) {
							t.Fatalf("%s epoch %d: %+v, eager %+v", name, e+1, st, w)
						}
					}
				}
				got := tr.Result()
				got.Seconds = 0
				if got != want {
					t.Errorf("%s: %+v, eager %+v", name, got, want)
				}
				if all != (skipped == 0) {
					t.Errorf("%s: %d accuracies skipped in %d epochs", name, skipped, got.Epochs)
				}
			}
		}
	}
}

// TestGraphResultMidRun: Result read before the run is done holds the last
// epoch's test accuracy, computed then when the epoch skipped it.
func TestGraphResultMidRun(t *testing.T) {
	d, err := NewGraphData(mutagLike(72, 3), GraphGCN)
	if err != nil {
		t.Fatal(err)
	}
	cfg := speedConfig(GraphGCN)
	_, eps := eagerGraphRun(t, d, cfg, 1)
	tr, err := NewGraphTrainer(d, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	for e := range eps {
		if tr.Done() {
			break
		}
		if _, err := tr.Epoch(); err != nil {
			t.Fatal(err)
		}
		if r := tr.Result(); r.LastTestAcc != eps[e].TestAcc || r.LastValAcc != eps[e].ValAcc {
			t.Fatalf("epoch %d: last accuracies %v/%v, eager %v/%v", e+1, r.LastValAcc, r.LastTestAcc, eps[e].ValAcc, eps[e].TestAcc)
		}
	}
}

// graphRunBits folds every epoch's loss and accuracies and the final
// weights and running statistics of a run of tr into one hash.
func graphRunBits(t *testing.T, tr *GraphTrainer) (uint64, GraphResult) {
	h := uint64(1469598103934665603)
	fold := func(v float64) { h = h*1099511628211 ^ math.Float64bits(v) }
	for !tr.Done() {
		st, err := tr.Epoch()
		if err != nil {
			t.Fatal(err)
		}
		fold(st.Loss)
		fold(st.ValAcc)
	}
	for _, p := range tr.Model().Params() {
		for _, v := range rawDense(p.Value) {
			fold(v)
		}
	}
	for _, b := range tr.Model().BatchNorms() {
		for k := range b.RunMean {
			fold(b.RunMean[k])
			fold(b.RunVar[k])
		}
	}
	r := tr.Result()
	r.Seconds = 0
	return h, r
}

// TestGraphThreadsBits: a run on 1, 2 and 3 threads (SetThreads) gives the
// losses, accuracies, final weights and running statistics of the run on
// the trainer's goroutine alone, bit for bit, with every kernel split
// however small its work (minBlockWork 1) and with the default threshold,
// with and without AVX.
func TestGraphThreadsBits(t *testing.T) {
	defer func(old int) { minBlockWork = old }(minBlockWork)
	for _, k := range []GraphKind{GraphGCN, GraphGIN, GraphRGCN, GraphRGIN} {
		d, err := NewGraphData(mutagLike(72, 4), k)
		if err != nil {
			t.Fatal(err)
		}
		cfg := speedConfig(k)
		cfg.MaxEpochs = 6
		for _, avx := range []bool{true, false} {
			if avx && !useAVX {
				continue
			}
			withAVX(avx, func() {
				seeds := []uint64{0, 3}
				if !avx {
					seeds = seeds[:1]
				}
				for _, seed := range seeds {
					minBlockWork = 1 << 14
					tr, err := NewGraphTrainer(d, cfg, seed)
					if err != nil {
						t.Fatal(err)
					}
					want, wantRes := graphRunBits(t, tr)
					for _, c := range []struct{ mb, w int }{{1, 1}, {1, 2}, {1, 3}, {1 << 14, 2}} {
						mb, w := c.mb, c.w
						minBlockWork = mb
						{
							tr, err := NewGraphTrainer(d, cfg, seed)
							if err != nil {
								t.Fatal(err)
							}
							tr.SetThreads(w)
							if got, res := graphRunBits(t, tr); got != want || res != wantRes {
								t.Errorf("%v avx=%v seed %d threads %d minBlockWork %d: hash %016x %+v, one goroutine %016x %+v",
									k, avx, seed, w, mb, got, res, want, wantRes)
							}
						}
					}
				}
			})
		}
	}
}

// TestFillBatchReuse: a batch collated on the storage of earlier batches
// of other sizes (fillBatch, the trainer's training batch) equals a fresh
// NewBatch of the same graphs — nodes, features, labels and every operator
// and transpose, entry by entry.
func TestFillBatchReuse(t *testing.T) {
	d, err := NewGraphData(mutagLike(40, 2), GraphRGIN)
	if err != nil {
		t.Fatal(err)
	}
	b := &Batch{}
	for _, ids := range [][]int{{0, 1, 2, 3, 4, 5, 6, 7}, {9, 3}, {30, 31, 2, 5, 17, 8, 11, 12, 13, 39}, {7}, {1, 2, 3}} {
		b = d.fillBatch(b, ids)
		want := d.NewBatch(ids)
		if fmt.Sprint(b.Graphs, b.Ptr, b.Labels) != fmt.Sprint(want.Graphs, want.Ptr, want.Labels) ||
			!slices.Equal(rawDense(b.X), rawDense(want.X)) {
			t.Fatalf("%v: nodes, labels or features differ", ids)
		}
		if len(b.Op) != len(want.Op) || len(b.OpT) != len(want.OpT) {
			t.Fatalf("%v: %d/%d operators, want %d/%d", ids, len(b.Op), len(b.OpT), len(want.Op), len(want.OpT))
		}
		for k := range want.Op {
			for _, p := range [][2]*sparse.CSR{{b.Op[k], want.Op[k]}, {b.OpT[k], want.OpT[k]}} {
				if !mat.Equal(p[0], p[1]) {
					t.Errorf("%v: operator %d differs", ids, k)
				}
				g, w := p[0].RawMatrix(), p[1].RawMatrix()
				if !slices.Equal(g.Indptr[:g.I+1], w.Indptr[:w.I+1]) || !slices.Equal(g.Ind[:g.Indptr[g.I]], w.Ind[:w.Indptr[w.I]]) {
					t.Errorf("%v: operator %d's structure differs", ids, k)
				}
			}
		}
	}
}
