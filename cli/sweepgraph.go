package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/sweep"
)

// graphSpec merges --config (a graph spec) and the flags of --task graph.
func (c *sweepCmd) graphSpec() (sweep.GraphSpec, error) {
	var s sweep.GraphSpec
	if c.Config != "" {
		var err error
		if s, err = sweep.ReadGraphSpec(c.Config); err != nil {
			return s, usagef("--config: %v", err)
		}
	}
	switch {
	case c.Graph != "" || c.Name != "" || c.SplitRule != "" || c.SplitSeed != nil || len(c.Forms) > 0 || len(c.PairNorm) > 0 ||
		c.PairNormAt != "" || c.Features != "" || len(c.Depths) > 0 || c.Seeds != nil || len(c.Splits) > 0 || c.SynthSeed != nil || c.Heterophilic:
		return s, usagef("--task graph takes --datasets, --methods, --budgets, --models, --trials, --layers, --epochs, --alpha and --choose-on; the other flags are the node grid's")
	}
	if len(c.Datasets) > 0 {
		s.Datasets = []string(c.Datasets)
	}
	if len(c.Methods) > 0 {
		s.Methods = []string(c.Methods)
	}
	if len(c.Budgets) > 0 {
		s.Budgets = []string(c.Budgets)
	}
	if len(c.Models) > 0 {
		s.Models = []string(c.Models)
	}
	if err := setPositive("--trials", c.Trials, &s.Trials); err != nil {
		return s, err
	}
	if err := setPositive("--layers", c.Layers, &s.Layers); err != nil {
		return s, err
	}
	if err := setPositive("--epochs", c.Epochs, &s.Epochs); err != nil {
		return s, err
	}
	if c.Alpha != nil {
		s.Alpha = c.Alpha
	}
	if c.ChooseOn != nil {
		s.ChooseOn = *c.ChooseOn
	}
	if len(s.Datasets) == 0 {
		return s, usagef("nothing to sweep: give --datasets, e.g. mutag,enzymes,proteins")
	}
	if err := s.Normalize(); err != nil {
		var fe *sweep.FieldError
		if errors.As(err, &fe) {
			return s, usagef("--%s: %s", flagName(fe.Field), fe.Msg)
		}
		return s, usagef("%v", err)
	}
	return s, nil
}

// runGraph is `ohm sweep --task graph`: the graph-classification grid into
// --results, resumable.
func (c *sweepCmd) runGraph(g *Globals) error {
	spec, err := c.graphSpec()
	if err != nil {
		return err
	}
	if err := sweep.CheckResults(c.Results); err != nil {
		return fmt.Errorf("--results %w", err)
	}
	ctx, stop := interruptible(g, runsInFlight)
	defer stop()
	var b *progress
	defer func() { b.finish() }()
	opt := sweep.GraphOptions{
		Results: c.Results,
		Workers: g.Workers(),
		LoadTU:  func(name string) (*dataset.TUDataset, error) { return g.locator().LoadTU(name, dataset.TUOptions{}) },
		OnPlan: func(total, done int) {
			if !g.Quiet && done > 0 {
				fmt.Fprintf(g.Stderr, "%s: %d of %d trials already done, resuming\n", c.Results, done, total)
			}
			b = newProgress(g, "sweep", total-done, "trials")
		},
		OnRun: func(r sweep.Record) {
			b.describe(fmt.Sprintf("%s %s %g %s", r.Dataset, r.Method, r.Budget, r.Model))
			b.add(1)
		},
		OnNote: func(msg string) {
			if b != nil {
				b.stage(msg)
			} else if !g.Quiet {
				fmt.Fprintln(g.Stderr, msg)
			}
		},
	}
	sum, err := sweep.RunGraph(ctx, spec, opt)
	var fe *sweep.FieldError
	if errors.As(err, &fe) && fe.Field == "choose_on" {
		err = usagef("--choose-on: %s", fe.Msg)
	}
	if sum != nil {
		fmt.Fprintf(g.Stdout, "%s: %d trials in the grid, %d already there, %d run now (datasets: %d rewired, %d from the cache)\n",
			c.Results, sum.Total, sum.Skipped, sum.Ran, sum.Rewired, sum.Cached)
	}
	if errors.Is(err, context.Canceled) {
		return interruptedf("%d trials recorded in %s; run the same command again to continue", sum.Skipped+sum.Ran, c.Results)
	}
	return err
}
