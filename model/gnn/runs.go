package gnn

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync"

	"github.com/ohmgnn/ohm/internal/parallel"
	"golang.org/x/sync/errgroup"
)

// Run names one training run.
type Run struct {
	Seed  uint64 // seed of the run's generator
	Split int    // index into Data.Splits
}

// Runs returns the runs for seeds 0..seeds-1 on each of splits, split by
// split.
func Runs(seeds int, splits []int) []Run {
	var rs []Run
	for _, k := range splits {
		for s := range seeds {
			rs = append(rs, Run{Seed: uint64(s), Split: k})
		}
	}
	return rs
}

// TrainRuns trains every run, spread over workers goroutines (each run on
// one goroutine), and returns the results in the order of runs; they do not
// depend on workers. Every run is checked before any starts, so an error
// means nothing was trained. done, when not nil, is called after each run
// finishes (one call at a time, in completion order).
func TrainRuns(data *Data, cfg Config, runs []Run, workers int, done func(Result)) ([]Result, error) {
	return TrainRunsContext(context.Background(), data, cfg, runs, workers, done)
}

// TrainRunsContext is TrainRuns until ctx is done: then the runs in flight
// finish and no other starts, and it returns the results of the runs
// finished, in the order of runs, with ctx's error.
func TrainRunsContext(ctx context.Context, data *Data, cfg Config, runs []Run, workers int, done func(Result)) ([]Result, error) {
	if err := data.check(cfg); err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, errors.New("gnn: no runs")
	}
	for _, r := range runs {
		if err := data.checkSplit(r.Split); err != nil {
			return nil, err
		}
	}
	var eg errgroup.Group
	eg.SetLimit(max(1, workers))
	res := make([]Result, len(runs))
	finished := make([]bool, len(runs))
	var mu sync.Mutex
	for i, r := range runs {
		if ctx.Err() != nil {
			break
		}
		eg.Go(parallel.Go(func() error { // waits for a free worker
			if ctx.Err() != nil {
				return nil
			}
			var err error
			if res[i], err = Train(data, cfg, r.Split, r.Seed); err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock() // also when done panics (parallel.Go recovers it)
			finished[i] = true
			if done != nil {
				done(res[i])
			}
			return nil
		}))
	}
	if err := eg.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil && slices.Contains(finished, false) {
		var out []Result
		for i, ok := range finished {
			if ok {
				out = append(out, res[i])
			}
		}
		return out, err
	}
	return res, nil
}

// MeanStd returns the mean and the population standard deviation
// √((1/N) Σ (x − mean)²) of xs, as numpy's np.std (ddof = 0) computes it;
// (0, 0) for no values. O(N).
func MeanStd(xs []float64) (mean, std float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)))
}
