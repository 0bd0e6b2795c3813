package gnn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// syntheticGraphs returns n small graphs of two classes that a model can
// tell apart: class 1 graphs are rings with a chord, class 0 paths, and the
// features are a constant plus noise.
func syntheticGraphs(n int, seed uint64) *GraphSet {
	rng := rand.New(rand.NewPCG(seed, 3))
	s := &GraphSet{Name: "synthetic", Features: 2, Classes: 2}
	for i := range n {
		k := 4 + rng.IntN(5)
		g := GraphItem{N: k, Label: i % 2}
		for range k {
			g.X = append(g.X, 1, rng.Float64())
		}
		arc := func(u, v int) { g.Src, g.Dst = append(g.Src, u, v), append(g.Dst, v, u) }
		for u := range k - 1 {
			arc(u, u+1)
		}
		if g.Label == 1 {
			arc(k-1, 0)
			arc(0, k/2)
		}
		s.Graphs = append(s.Graphs, g)
	}
	return s
}

func smallGraphConfig(k GraphKind) GraphConfig {
	c := GraphDefaults(k)
	c.Layers, c.Hidden, c.BatchSize, c.Patience, c.MaxEpochs = 2, 8, 8, 5, 30
	return c
}

// TestTrainGraphDeterministic: a run is reproduced by its seed, whatever the
// number of workers (a lone run evaluating its batches across them too).
func TestTrainGraphDeterministic(t *testing.T) {
	for _, k := range []GraphKind{GraphGCN, GraphGIN, GraphRGCN, GraphRGIN} {
		d, err := NewGraphData(syntheticGraphs(60, 1), k)
		if err != nil {
			t.Fatal(err)
		}
		cfg := smallGraphConfig(k)
		seeds := []uint64{0, 1, 2}
		one, err := TrainGraphRuns(context.Background(), d, cfg, seeds, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		two, err := TrainGraphRuns(context.Background(), d, cfg, seeds, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		// One run on three workers: its evaluation batches across them.
		par, err := TrainGraphRuns(context.Background(), d, cfg, seeds[:1], 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := one[0], par[0]; a.Epochs != b.Epochs || a.BestEpoch != b.BestEpoch || a.TestAcc != b.TestAcc ||
			a.ValAcc != b.ValAcc || a.TrainAcc != b.TrainAcc || a.LastTestAcc != b.LastTestAcc {
			t.Errorf("%v: evaluation on one goroutine %+v, on three %+v", k, a, b)
		}
		for i := range seeds {
			a, b := one[i], two[i]
			a.Seconds, b.Seconds = 0, 0
			if a != b {
				t.Errorf("%v seed %d: one worker %+v, two workers %+v", k, seeds[i], a, b)
			}
			if a.Epochs < 1 || a.BestEpoch < 1 || a.BestEpoch > a.Epochs {
				t.Errorf("%v seed %d: epochs %d, best %d", k, seeds[i], a.Epochs, a.BestEpoch)
			}
		}
	}
}

// TestGraphTrainerStopping replays the early-stopping rule on the epochs a
// trainer reports: a new best needs a validation accuracy above 1.01× the
// last new best and resets the count; a value between the best and that goal
// is kept without a reset; training stops when the count exceeds the
// patience.
func TestGraphTrainerStopping(t *testing.T) {
	d, err := NewGraphData(syntheticGraphs(80, 2), GraphGCN)
	if err != nil {
		t.Fatal(err)
	}
	cfg := smallGraphConfig(GraphGCN)
	cfg.MaxEpochs = 200
	tr, err := NewGraphTrainer(d, cfg, 7)
	if err != nil {
		t.Fatal(err)
	}
	goal, best, bestTest, bestEpoch, bad := 0.0, 0.0, 0.0, 0, 0
	for !tr.Done() {
		st, err := tr.Epoch()
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case st.ValAcc > goal:
			best, bestTest, bestEpoch, bad, goal = st.ValAcc, st.TestAcc, st.Epoch, 0, st.ValAcc*1.01
		case st.ValAcc > best:
			best, bestTest, bestEpoch = st.ValAcc, st.TestAcc, st.Epoch
			bad++
		default:
			bad++
		}
		if stop := bad > cfg.Patience || st.Epoch >= cfg.MaxEpochs; stop != tr.Done() {
			t.Fatalf("epoch %d: done %v, the rule says %v", st.Epoch, tr.Done(), stop)
		}
	}
	r := tr.Result()
	if r.BestEpoch != bestEpoch || r.ValAcc != best || r.TestAcc != bestTest {
		t.Errorf("kept epoch %d (%v, %v), the rule keeps %d (%v, %v)", r.BestEpoch, r.ValAcc, r.TestAcc, bestEpoch, best, bestTest)
	}
}

// TestRandomGraphSplit: torch's random_split sizes, a partition of all
// graphs.
func TestRandomGraphSplit(t *testing.T) {
	for _, n := range []int{188, 600, 1113, 11} {
		sp := RandomGraphSplit(n, 0.8, 0.1, rand.New(rand.NewPCG(1, 1)))
		a, b := int(0.8*float64(n)), int(0.1*float64(n))
		if len(sp.Train) != a || len(sp.Val) != b || len(sp.Test) != n-a-b {
			t.Errorf("n=%d: sizes %d/%d/%d", n, len(sp.Train), len(sp.Val), len(sp.Test))
		}
		seen := make([]bool, n)
		for _, part := range [][]int{sp.Train, sp.Val, sp.Test} {
			for _, g := range part {
				if seen[g] {
					t.Fatalf("n=%d: graph %d twice", n, g)
				}
				seen[g] = true
			}
		}
	}
}

// TestGraphBadInput: one class, a class missing from training and a NaN
// loss give errors that say so (the NaN one names epoch and batch).
func TestGraphBadInput(t *testing.T) {
	one := syntheticGraphs(20, 1)
	for i := range one.Graphs {
		one.Graphs[i].Label = 0
	}
	one.Classes = 1
	if _, err := NewGraphData(one, GraphGCN); err == nil || !strings.Contains(err.Error(), "1 class") {
		t.Errorf("one class: %v", err)
	}
	rare := syntheticGraphs(40, 1)
	rare.Classes = 3
	rare.Graphs[5].Label = 2 // one graph of class 2: some splits leave it out of training
	d, err := NewGraphData(rare, GraphGCN)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for seed := uint64(0); seed < 50 && !found; seed++ {
		if _, err := NewGraphTrainer(d, smallGraphConfig(GraphGCN), seed); err != nil {
			if !strings.Contains(err.Error(), "leaves class 2 out of training") {
				t.Fatalf("seed %d: %v", seed, err)
			}
			found = true
		}
	}
	if !found {
		t.Error("no seed left class 2 out of training")
	}
	d, err = NewGraphData(syntheticGraphs(40, 1), GraphGIN)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewGraphTrainer(d, smallGraphConfig(GraphGIN), 0)
	if err != nil {
		t.Fatal(err)
	}
	rawDense(tr.Model().Params()[0].Value)[0] = math.NaN()
	_, err = tr.Epoch()
	if !errors.Is(err, ErrNaNLoss) || !strings.Contains(err.Error(), "epoch 1, batch 1") {
		t.Errorf("NaN weight: %v", err)
	}
}

// TestPlateau follows ReduceLROnPlateau's defaults: the rate drops tenfold
// on the 11th epoch without a relative improvement of 1e-4, and the count
// restarts after a drop.
func TestPlateau(t *testing.T) {
	opt := NewAdam(1e-3)
	p := NewPlateau()
	p.Step(10, opt) // best 10
	for e := 1; e <= 10; e++ {
		if p.Step(10*(1-0.5e-4), opt) { // not an improvement
			t.Fatalf("reduced after %d bad epochs", e)
		}
	}
	if !p.Step(10, opt) || math.Abs(opt.LR-1e-4) > 1e-18 {
		t.Fatalf("11th bad epoch: lr %v", opt.LR)
	}
	if p.Step(9, opt) || p.best != 9 {
		t.Fatalf("improvement: best %v", p.best)
	}
	for range 11 {
		p.Step(9, opt)
	}
	if math.Abs(opt.LR-1e-5) > 1e-19 {
		t.Fatalf("second drop: lr %v", opt.LR)
	}
	opt.LR = 1e-8
	for range 11 {
		p.Step(9, opt)
	}
	if opt.LR != 1e-8 {
		t.Fatalf("a change below eps was applied: lr %v", opt.LR)
	}
}
