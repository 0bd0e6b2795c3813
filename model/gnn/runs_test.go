package gnn

import (
	"context"
	"errors"
	"testing"
)

// TestTrainRunsContext: once the context is done the runs in flight finish
// and no other starts; the results of the finished runs come back in the
// order of the runs, with the context's error, and equal those of an
// uninterrupted call.
func TestTrainRunsContext(t *testing.T) {
	data := bottleneckData(t, GCN)
	cfg := Defaults("bottleneck")
	cfg.Epochs = 5
	runs := Runs(8, []int{0})
	all, err := TrainRuns(data, cfg, runs, 1, nil)
	if err != nil || len(all) != 8 {
		t.Fatalf("%d results, %v", len(all), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := TrainRunsContext(ctx, data, cfg, runs, 2, nil); !errors.Is(err, context.Canceled) || len(got) != 0 {
		t.Fatalf("cancelled before: %d results, %v", len(got), err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	got, err := TrainRunsContext(ctx, data, cfg, runs, 1, func(r Result) {
		if r.Seed == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || len(got) != 3 {
		t.Fatalf("cancelled after the third run: %d results, %v", len(got), err)
	}
	for i, r := range got {
		if r.Seed != all[i].Seed || r.TestAcc != all[i].TestAcc {
			t.Errorf("run %d: %+v, want %+v", i, r, all[i])
		}
	}
}
