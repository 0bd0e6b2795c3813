package gnn

import (
	"errors"
	"testing"

	"github.com/ohmgnn/ohm/internal/parallel"
)

// TestTrainRunsWorkerPanic: a panic in a worker goroutine (here in the
// done callback, which runs there) comes back as a *parallel.PanicError
// instead of killing the process.
func TestTrainRunsWorkerPanic(t *testing.T) {
	data := bottleneckData(t, GCN)
	cfg := Defaults("bottleneck")
	cfg.Epochs = 1
	_, err := TrainRuns(data, cfg, Runs(3, []int{0}), 2, func(r Result) {
		if r.Seed == 1 {
			panic("done callback")
		}
	})
	var p *parallel.PanicError
	if !errors.As(err, &p) || p.Value != "done callback" {
		t.Fatalf("err %v, want a *parallel.PanicError of the callback's panic", err)
	}
}
