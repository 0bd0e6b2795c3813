package gnn

import (
	"context"
	"errors"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"
)

// TrainGraphRuns trains one run per seed, spread over workers goroutines
// (each run on one goroutine), and returns the results in the order of
// seeds; they do not depend on workers. When ctx is done the runs in flight
// finish and no other starts, and it returns the finished results, in the
// order of seeds, with ctx's error. done, when not nil, is called after each
// run (one call at a time, in completion order). An error of any run stops
// the others from starting and is returned with no results. With fewer
// runs than workers, each run runs on workers/len(seeds) goroutines
// (SetThreads).
func TrainGraphRuns(ctx context.Context, d *GraphData, cfg GraphConfig, seeds []uint64, workers int, done func(GraphResult)) ([]GraphResult, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(seeds) == 0 {
		return nil, errors.New("gnn: no runs")
	}
	var eg errgroup.Group
	eg.SetLimit(max(1, workers))
	res := make([]GraphResult, len(seeds))
	finished := make([]bool, len(seeds))
	var mu sync.Mutex
	failed := false
	for i, seed := range seeds {
		mu.Lock()
		stop := failed
		mu.Unlock()
		if ctx.Err() != nil || stop {
			break
		}
		eg.Go(func() error {
			if ctx.Err() != nil {
				return nil
			}
			r, err := trainGraph(d, cfg, seed, max(1, workers)/len(seeds))
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failed = true
				return err
			}
			res[i], finished[i] = r, true
			if done != nil {
				done(r)
			}
			return nil
		})
	}
	if err := eg.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil && slices.Contains(finished, false) {
		var out []GraphResult
		for i, ok := range finished {
			if ok {
				out = append(out, res[i])
			}
		}
		return out, err
	}
	return res, nil
}
