package gnn

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// TestBatchMatchesTrain: training runs together gives every run exactly
// (bit for bit) the epochs, results and final weights of training it alone,
// for both kinds, depths 1–3, with and without PairNorm and dropout, at a
// hidden width that takes the narrow register kernels (16) and one that
// takes the wide ones (40), on runs that mix seeds and splits.
func TestBatchMatchesTrain(t *testing.T) {
	for _, k := range []Kind{GCN, DirGCN} {
		data := bottleneckData(t, k)
		splits := []int{0}
		if len(data.Splits) > 1 {
			splits = append(splits, 1)
		}
		runs := append(Runs(3, splits), Run{Seed: 7, Split: splits[len(splits)-1]})
		for _, layers := range []int{1, 2, 3} {
			for _, pn := range []bool{false, true} {
				for _, hidden := range []int{16, 40} {
					for _, drop := range []float64{0, 0.5} {
						name := fmt.Sprintf("%v/L%d/pairnorm=%v/h%d/dropout=%g", k, layers, pn, hidden, drop)
						t.Run(name, func(t *testing.T) {
							cfg := Defaults("bottleneck")
							cfg.Kind, cfg.Layers, cfg.PairNorm, cfg.Hidden, cfg.Dropout, cfg.Epochs = k, layers, pn, hidden, drop, 12
							checkBatch(t, data, cfg, runs)
						})
					}
				}
			}
		}
	}
}

func checkBatch(t *testing.T, data *Data, cfg Config, runs []Run) {
	t.Helper()
	b, err := NewBatch(data, cfg, runs)
	if err != nil {
		t.Fatal(err)
	}
	got := make([][]EpochStats, len(runs))
	for range cfg.Epochs {
		for s, st := range b.Epoch() {
			got[s] = append(got[s], st)
		}
	}
	for s, r := range runs {
		tr, err := NewTrainer(data, cfg, r.Split, r.Seed)
		if err != nil {
			t.Fatal(err)
		}
		var want []EpochStats
		for range cfg.Epochs {
			want = append(want, tr.Epoch())
		}
		if !slices.Equal(got[s], want) {
			t.Fatalf("run %+v: batched epochs differ from Train's:\n%v\n%v", r, got[s], want)
		}
		gr, wr := b.Results()[s], tr.Result()
		gr.Seconds, wr.Seconds = 0, 0
		if gr != wr {
			t.Fatalf("run %+v: result %+v, Train gives %+v", r, gr, wr)
		}
		for i, p := range b.Models()[s].Params() {
			q := tr.Model().Params()[i]
			for j, v := range rawDense(p.Value) {
				if w := rawDense(q.Value)[j]; math.Float64bits(v) != math.Float64bits(w) {
					t.Fatalf("run %+v: %s[%d] = %v, Train gives %v", r, p.Name, j, v, w)
				}
			}
		}
	}
}
