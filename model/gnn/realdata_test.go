package gnn

import (
	"fmt"
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// loadReal loads a real dataset from $OHM_DATA, or skips (fails under
// CI=true) when it is missing; it skips with -short, as every caller trains
// 10 runs of 200 epochs (2–5 s on 2 cores).
func loadReal(t *testing.T, name, need string) *dataset.Dataset {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: real-data training takes seconds")
	}
	root := datatest.Root(t, need)
	d, err := (&dataset.Locator{DataDir: root}).Load(name, dataset.SynthOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

var needFile = map[string]string{
	"cora":     "Cora/raw/ind.cora.x",
	"citeseer": "CiteSeer/raw/ind.citeseer.x",
	"cornell":  "cornell/raw/out1_graph_edges.txt",
	"texas":    "texas/raw/out1_graph_edges.txt",
}

// trainReal trains cfg on the named dataset over the given seeds and splits
// and returns the mean and population std of the test accuracy.
func trainReal(t *testing.T, name string, directed bool, cfg Config, seeds int, splits []int) (mean, std, epochMs float64) {
	t.Helper()
	d := loadReal(t, name, needFile[name])
	g := d.Graph
	if !directed {
		g = g.Undirected()
	}
	data, err := NewData(d, g, cfg.Kind, FeaturesRow)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	res, err := TrainRuns(data, cfg, Runs(seeds, splits), runtime.GOMAXPROCS(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	acc := make([]float64, len(res))
	for i, r := range res {
		acc[i] = r.TestAcc
		epochMs += r.EpochMs() / float64(len(res))
	}
	mean, std = MeanStd(acc)
	t.Logf("%s %v layers %d hidden %d wd %g (%v): test %.1f ± %.1f %% over %d runs; %.2f ms/epoch, %v wall",
		name, cfg.Kind, cfg.Layers, cfg.Hidden, cfg.WeightDecay, cfg.DecayScope, 100*mean, 100*std, len(res), epochMs,
		time.Since(t0).Round(time.Millisecond))
	return mean, std, epochMs
}

// TestPlanetoidAccuracy: 2-layer GCN, 10 seeds, public split. With weight
// decay 5e-4 on the first layer (PyG's example) Cora must reach 80.5 % and
// CiteSeer 69.5 % mean test accuracy; with the paper's 5e-3 Cora must be
// within 1.5 points of the 79.1 % PyG measures.
func TestPlanetoidAccuracy(t *testing.T) {
	for _, tc := range []struct {
		name     string
		decay    float64
		min, max float64
	}{
		{"cora", 5e-4, 0.805, 1},
		{"citeseer", 5e-4, 0.695, 1},
		{"cora", 5e-3, 0.791 - 0.015, 0.791 + 0.015},
	} {
		t.Run(fmt.Sprintf("%s/wd=%g", tc.name, tc.decay), func(t *testing.T) {
			cfg := Defaults(tc.name)
			cfg.WeightDecay = tc.decay
			mean, _, _ := trainReal(t, tc.name, false, cfg, 10, []int{0})
			if mean < tc.min || mean > tc.max {
				t.Fatalf("mean test accuracy %.2f %%, want within [%.1f, %.1f] %%", 100*mean, 100*tc.min, 100*tc.max)
			}
		})
	}
}

// TestWebKBAccuracy: GCN (undirected form) and DirGCN (directed form), 2
// layers, the paper's WebKB hyperparameters, seed 0 on all 10 Geom-GCN
// splits. PyG reports GCN 58.4 ± 3.2 (Cornell) / 60.0 ± 6.6 (Texas) and
// DirGNNConv 74.1 ± 6.4 / 79.2 ± 5.7; the test logs ours and only checks
// that each model learns clearly better than the majority class would.
func TestWebKBAccuracy(t *testing.T) {
	splits := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	for _, tc := range []struct {
		name     string
		kind     Kind
		directed bool
		min      float64
	}{
		{"cornell", GCN, false, 0.45},
		{"texas", GCN, false, 0.5},
		{"cornell", DirGCN, true, 0.6},
		{"texas", DirGCN, true, 0.65},
	} {
		t.Run(fmt.Sprintf("%s/%v", tc.name, tc.kind), func(t *testing.T) {
			cfg := Defaults(tc.name)
			cfg.Kind = tc.kind
			mean, _, _ := trainReal(t, tc.name, tc.directed, cfg, 1, splits)
			if mean < tc.min || math.IsNaN(mean) {
				t.Fatalf("mean test accuracy %.2f %% < %.0f %%", 100*mean, 100*tc.min)
			}
		})
	}
}
