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

// TrainRunsContext is TrainRuns until ctx is done: then it returns at once
// the results of the runs finished, in the order of runs, with ctx's
// error; no other run starts, and the runs in flight are abandoned (they
// stop before their next epoch, TrainContext, and are not counted, nor
// passed to done). Before any run it refuses, with a *sysmem.Error, models
// that would not fit in memory when min(workers, len(runs)) of them train
// at once (ModelBytes).
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
	if err := data.checkMemory(cfg, min(max(1, workers), len(runs))); err != nil {
		return nil, err
	}
	var eg errgroup.Group
	eg.SetLimit(max(1, workers))
	res := make([]Result, len(runs))
	finished := make([]bool, len(runs))
	var mu sync.Mutex
	abandoned := false // ctx ended: the runs in flight no longer count
	wait := make(chan error, 1)
	go func() {
		for i, r := range runs {
			if ctx.Err() != nil {
				break
			}
			eg.Go(parallel.Go(func() error { // waits for a free worker
				if ctx.Err() != nil {
					return nil
				}
				got, err := TrainContext(ctx, data, cfg, r.Split, r.Seed)
				if err != nil {
					if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
						return nil // stopped before an epoch: not finished
					}
					return err
				}
				mu.Lock()
				defer mu.Unlock()
				if !abandoned {
					res[i], finished[i] = got, true
					if done != nil {
						done(got)
					}
				}
				return nil
			}))
		}
		wait <- eg.Wait()
	}()
	select {
	case err := <-wait:
		if err != nil {
			return nil, err
		}
	case <-ctx.Done():
		// An epoch can take minutes (wide, deep models): the runs in
		// flight are abandoned at once, not waited for (definitions §7.3).
		mu.Lock()
		abandoned = true
		mu.Unlock()
	}
	mu.Lock()
	defer mu.Unlock()
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
