package gnn

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset"
)

func bottleneckData(t *testing.T, k Kind) *Data {
	t.Helper()
	data, err := NewData(dataset.Bottleneck(dataset.SynthOptions{}), nil, k, FeaturesRow)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestFitBottleneck: a 2-layer model with the defaults fits the training
// nodes of the built-in bottleneck dataset (80 nodes, 24 training).
func TestFitBottleneck(t *testing.T) {
	for _, k := range []Kind{GCN, DirGCN} {
		t.Run(k.String(), func(t *testing.T) {
			cfg := Defaults("bottleneck")
			cfg.Kind = k
			tr, err := NewTrainer(bottleneckData(t, k), cfg, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			var st EpochStats
			for range cfg.Epochs {
				st = tr.Epoch()
			}
			if st.TrainAcc != 1 {
				t.Fatalf("training accuracy %.3f after %d epochs (loss %.4f), want 1", st.TrainAcc, st.Epoch, st.Loss)
			}
			r := tr.Result()
			t.Logf("%v: loss %.4f, best epoch %d, val %.3f, test %.3f", k, st.Loss, r.BestEpoch, r.ValAcc, r.TestAcc)
		})
	}
}

// TestTrainDeterministic: the same seed gives bit-identical results, another
// seed different ones, and TrainRuns does not depend on the worker count.
func TestTrainDeterministic(t *testing.T) {
	for _, k := range []Kind{GCN, DirGCN} {
		t.Run(k.String(), func(t *testing.T) {
			data := bottleneckData(t, k)
			cfg := Defaults("bottleneck")
			cfg.Kind, cfg.Epochs, cfg.Layers, cfg.PairNorm = k, 30, 3, true
			trace := func(seed uint64) []EpochStats {
				tr, err := NewTrainer(data, cfg, 0, seed)
				if err != nil {
					t.Fatal(err)
				}
				var s []EpochStats
				for range cfg.Epochs {
					s = append(s, tr.Epoch())
				}
				return s
			}
			a, b, c := trace(5), trace(5), trace(6)
			if !slices.Equal(a, b) {
				t.Fatal("same seed, different epochs")
			}
			if slices.Equal(a, c) {
				t.Fatal("seeds 5 and 6 gave identical epochs")
			}
			runs := Runs(4, []int{0})
			var results [][]Result
			for _, w := range []int{1, 2, 3} {
				calls := 0
				res, err := TrainRuns(data, cfg, runs, w, func(Result) { calls++ })
				if err != nil {
					t.Fatal(err)
				}
				if calls != len(runs) {
					t.Fatalf("done called %d times for %d runs", calls, len(runs))
				}
				for i := range res {
					res[i].Seconds = 0
				}
				results = append(results, res)
			}
			if !slices.Equal(results[0], results[1]) || !slices.Equal(results[0], results[2]) {
				t.Fatalf("results depend on workers:\n%v\n%v\n%v", results[0], results[1], results[2])
			}
			for i, r := range results[0] {
				if r.Seed != runs[i].Seed || r.Split != runs[i].Split || r.Epochs != cfg.Epochs {
					t.Fatalf("result %d is %+v for run %+v", i, r, runs[i])
				}
			}
		})
	}
}

// TestBestEpoch: the reported epoch is the first with the highest
// validation accuracy, and its test accuracy is the one reported.
func TestBestEpoch(t *testing.T) {
	data := bottleneckData(t, GCN)
	cfg := Defaults("bottleneck")
	cfg.Epochs = 60
	tr, err := NewTrainer(data, cfg, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	var best EpochStats
	best.ValAcc = -1
	for range cfg.Epochs {
		if st := tr.Epoch(); st.ValAcc > best.ValAcc {
			best = st
		}
	}
	r := tr.Result()
	if r.BestEpoch != best.Epoch || r.ValAcc != best.ValAcc || r.TestAcc != best.TestAcc {
		t.Fatalf("result %+v, want epoch %d val %v test %v", r, best.Epoch, best.ValAcc, best.TestAcc)
	}
}

// TestWeightDecayScope: "first" decays the first layer's weight and bias
// only, "all" every parameter.
func TestWeightDecayScope(t *testing.T) {
	data := bottleneckData(t, DirGCN)
	for _, tc := range []struct {
		scope DecayScope
		want  []float64
	}{
		{DecayFirst, []float64{0.1, 0.1, 0, 0, 0, 0}},
		{DecayAll, []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1}},
	} {
		cfg := Defaults("bottleneck")
		cfg.Kind, cfg.Layers, cfg.WeightDecay, cfg.DecayScope = DirGCN, 3, 0.1, tc.scope
		tr, err := NewTrainer(data, cfg, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []float64
		for _, p := range tr.Model().Params() {
			got = append(got, p.WeightDecay)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v: decays %v, want %v", tc.scope, got, tc.want)
		}
	}
}

// TestConfigErrors: every invalid setting is refused with a message naming
// it, before anything is trained.
func TestConfigErrors(t *testing.T) {
	data := bottleneckData(t, GCN)
	base := Defaults("bottleneck")
	for _, tc := range []struct {
		name, msg string
		edit      func(*Config)
	}{
		{"layers 0", "layers 0", func(c *Config) { c.Layers = 0 }},
		{"hidden 0", "hidden 0", func(c *Config) { c.Hidden = 0 }},
		{"hidden negative", "hidden -3", func(c *Config) { c.Hidden = -3 }},
		{"dropout 1", "dropout 1", func(c *Config) { c.Dropout = 1 }},
		{"dropout negative", "dropout -0.1", func(c *Config) { c.Dropout = -0.1 }},
		{"dropout NaN", "dropout NaN", func(c *Config) { c.Dropout = math.NaN() }},
		{"lr 0", "learning rate 0", func(c *Config) { c.LR = 0 }},
		{"lr negative", "learning rate -0.01", func(c *Config) { c.LR = -0.01 }},
		{"weight decay negative", "weight decay -1", func(c *Config) { c.WeightDecay = -1 }},
		{"epochs 0", "epochs 0", func(c *Config) { c.Epochs = 0 }},
		{"pairnorm scale 0", "pairnorm scale 0", func(c *Config) { c.PairNorm, c.PairNormScale = true, 0 }},
		{"kind", "unknown model kind", func(c *Config) { c.Kind = 7 }},
		{"wrong kind for data", "prepared for gcn", func(c *Config) { c.Kind = DirGCN }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := base
			tc.edit(&cfg)
			_, err := TrainRuns(data, cfg, Runs(1, []int{0}), 1, func(Result) { t.Fatal("a run was trained") })
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want one containing %q", err, tc.msg)
			}
		})
	}
	if _, err := TrainRuns(data, base, Runs(1, []int{0, 1}), 1, func(Result) { t.Fatal("a run was trained") }); err == nil ||
		!strings.Contains(err.Error(), "split 1") {
		t.Fatalf("split out of range: %v", err)
	}
	for _, s := range []string{"GCN", "dirgcn"} {
		if _, err := ParseKind(s); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseKind("gat"); err == nil {
		t.Error("ParseKind(gat) succeeded")
	}
	if _, err := ParseDecayScope("some"); err == nil {
		t.Error("ParseDecayScope(some) succeeded")
	}
}

// TestNewDataErrors: a graph with another node count is refused.
func TestNewDataErrors(t *testing.T) {
	d := dataset.Bottleneck(dataset.SynthOptions{})
	g := dataset.SBM(dataset.SynthOptions{}).Graph
	if _, err := NewData(d, g, GCN, FeaturesRow); err == nil || !strings.Contains(err.Error(), "400 nodes but dataset bottleneck has 80") {
		t.Fatalf("got %v", err)
	}
}

// TestMeanStd: population standard deviation (numpy's default).
func TestMeanStd(t *testing.T) {
	for _, tc := range []struct {
		xs        []float64
		mean, std float64
	}{
		{nil, 0, 0},
		{[]float64{0.5}, 0.5, 0},
		{[]float64{0.2, 0.4}, 0.3, 0.1},
		{[]float64{2, 4, 4, 4, 5, 5, 7, 9}, 5, 2},
	} {
		m, s := MeanStd(tc.xs)
		if math.Abs(m-tc.mean) > 1e-15 || math.Abs(s-tc.std) > 1e-15 {
			t.Errorf("MeanStd(%v) = %v, %v; want %v, %v", tc.xs, m, s, tc.mean, tc.std)
		}
	}
}

// TestTrainBest: the model TrainBest returns has the weights of the best
// epoch: its evaluation gives exactly the result's validation and test
// accuracies.
func TestTrainBest(t *testing.T) {
	data := bottleneckData(t, GCN)
	cfg := Defaults("bottleneck")
	cfg.Epochs = 60
	m, res, err := TrainBest(data, cfg, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	logits := m.Forward(data.X, false)
	sp := data.Splits[0]
	if v, te := Accuracy(logits, data.Labels, sp.Val), Accuracy(logits, data.Labels, sp.Test); v != res.ValAcc || te != res.TestAcc {
		t.Fatalf("best model: val %v test %v, result says %v %v", v, te, res.ValAcc, res.TestAcc)
	}
	if res.BestEpoch == cfg.Epochs {
		t.Fatal("best epoch is the last: the test proves nothing, pick another seed")
	}
	if _, _, err := TrainBest(data, Config{}, 0, 2); err == nil {
		t.Error("invalid config accepted")
	}
}
