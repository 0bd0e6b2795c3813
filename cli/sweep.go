package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/sweep"
)

// sweepCmd is `ohm sweep`: an experiment grid (definitions §6), resumable.
type sweepCmd struct {
	Results      string    `required:"" type:"path" placeholder:"FILE.jsonl" help:"Results file (JSON lines, one per finished run), appended to; runs already in it are skipped. Rewired graphs are cached in <results>.cache/."`
	Config       string    `type:"existingfile" placeholder:"FILE.json" help:"JSON file with the grid (fields as the flags: datasets or graph, name, split_rule, split_seed, forms, methods, budgets, models, pairnorm, pairnorm_at, features, depths, seeds, splits, epochs, alpha, synth_seed, heterophilic; see docs/cli.md). Flags given too override its fields."`
	Datasets     commaList `xor:"input" help:"Comma-separated datasets: cora, citeseer, cornell, texas, bottleneck, ring, sbm. Exclusive with --graph."`
	Graph        string    `xor:"input" type:"existingfile" placeholder:"FILE.npz" help:"Sweep your own graph instead of --datasets: an .npz with edge_index (int, 2×E), num_nodes, x (float32/float64, n×d, raw features), y (int, n) and the masks train_mask, val_mask, test_mask (bool, n or n×k for k splits, PyG's layout), as 'ohm data export' writes; without masks give --split-rule. The same forms (undirected; --forms directed: the file's arcs), seeds and --splits as a built-in dataset; records carry the SHA-256 of the file's arrays (graph_sha256), so another file of the same name never reuses them."`
	Name         string    `placeholder:"NAME" help:"--graph: the dataset name in records and reports (default: the file's base name without .npz). Training takes the hyperparameters of a dataset of that name (cora, citeseer: theirs; any other: Cornell's)."`
	SplitRule    string    `name:"split-rule" placeholder:"RULE" help:"--graph: make the splits (the file's masks are then not used): random:TRAIN,VAL,TEST (fractions of the nodes, e.g. random:0.6,0.2,0.2) or per-class:TRAIN,VAL,TEST (TRAIN nodes of each class, then VAL and TEST nodes, e.g. Planetoid's per-class:20,500,1000). Split k is drawn from (--split-seed, k); --splits then lists split numbers (e.g. 0,1,2), not all."`
	SplitSeed    *uint64   `name:"split-seed" help:"--graph --split-rule: seed of the splits (default 0)."`
	Forms        commaList `help:"Comma-separated graph forms: undirected, directed (default undirected)."`
	Methods      commaList `help:"Comma-separated methods: none, curvature, res, res-hop, err, err-hop (default all)."`
	Budgets      commaList `help:"Comma-separated budgets r in (0, 1] (default 0.01,0.05,0.1,0.15). The baseline none runs once, whatever the budgets."`
	Models       commaList `help:"Comma-separated models: gcn (any form; directed graphs are symmetrized), dirgcn (directed form only). Default: gcn on undirected, dirgcn on directed."`
	PairNorm     commaList `name:"pairnorm" help:"Comma-separated PairNorm settings: no, yes (default no,yes)."`
	PairNormAt   string    `name:"pairnorm-at" placeholder:"pre|post" help:"Where PairNorm sits: pre (before the ReLU) or post (after it). Default: the one of definitions §4.2. Recorded in every run with PairNorm (pairnorm_at) and part of its key."`
	Features     string    `name:"features" placeholder:"row|raw" help:"Node features: row (row-normalised) or raw (as loaded). Default: each dataset family's (definitions §4.3). Recorded in every run (features) and part of its key."`
	Depths       commaList `help:"Comma-separated depths and ranges, e.g. 1-12 or 1,2,4 (default 1-12)."`
	Seeds        *int      `help:"Train every setting with seeds 0..N-1 (default 1)."`
	Splits       commaList `placeholder:"all|LIST" help:"Splits: all, or comma-separated split numbers (default 0). WebKB has 10, the others 1."`
	Epochs       *int      `help:"Epochs per training run (default 200)."`
	Alpha        *float64  `help:"curvature: laziness α of the measures, in [0, 1] (default 0.5)."`
	SynthSeed    *uint64   `name:"synth-seed" help:"Seed of the built-in synthetic datasets (default 0)."`
	Heterophilic bool      `help:"Built-in sbm: heterophilic instead of homophilic."`
	Task         string    `default:"node" enum:"node,graph" help:"node: the node-classification grid; graph: graph classification on TU datasets (--datasets mutag,enzymes,proteins) with FoSR's protocol, --models gcn,gin,rgcn,rgin, --budgets as edits per graph (10) or fractions (0.1), --trials, --layers (definitions §6.4)."`
	Trials       *int      `placeholder:"N" help:"--task graph: trials per cell, seeds 0..N-1 (default 10)."`
	Layers       *int      `help:"--task graph: hidden layers (default 4)."`
	ChooseOn     *int      `name:"choose-on" placeholder:"N" help:"--task graph: run each (dataset, method, model) at one budget only: the one of --budgets whose trials of seeds 0..N-1, already in --results (a pre-sweep), have the best mean validation accuracy."`
}

// spec merges --config and the flags and checks the result.
func (c *sweepCmd) spec() (sweep.Spec, error) {
	var s sweep.Spec
	if c.Config != "" {
		var err error
		if s, err = sweep.ReadSpec(c.Config); err != nil {
			return s, configError(err)
		}
	}
	var err error
	// --datasets and --graph each replace the input of --config.
	if len(c.Datasets) > 0 {
		s.Datasets = c.Datasets
		s.Graph, s.Name, s.SplitRule, s.SplitSeed = "", "", "", 0
	}
	if c.Graph != "" {
		s.Graph, s.Datasets = c.Graph, nil
	}
	if c.Name != "" {
		s.Name = c.Name
	}
	if c.SplitRule != "" {
		s.SplitRule = c.SplitRule
	}
	if c.SplitSeed != nil {
		s.SplitSeed = *c.SplitSeed
	}
	if len(c.Forms) > 0 {
		s.Forms = c.Forms
	}
	if len(c.Methods) > 0 {
		s.Methods = c.Methods
	}
	if len(c.Models) > 0 {
		s.Models = c.Models
	}
	if len(c.Budgets) > 0 {
		if s.Budgets, err = sweep.ParseBudgets(c.Budgets); err != nil {
			return s, flagError(err)
		}
	}
	if len(c.PairNorm) > 0 {
		if s.PairNorm, err = sweep.ParseBools("pairnorm", c.PairNorm); err != nil {
			return s, flagError(err)
		}
	}
	if len(c.Depths) > 0 {
		if s.Depths, err = sweep.ParseDepths(c.Depths); err != nil {
			return s, flagError(err)
		}
	}
	if c.Seeds != nil {
		if *c.Seeds < 1 {
			return s, usagef("--seeds %d: must be ≥ 1", *c.Seeds)
		}
		s.Seeds = *c.Seeds
	}
	if len(c.Splits) > 0 {
		s.Splits = strings.Join(c.Splits, ",")
	}
	if c.PairNormAt != "" {
		s.PairNormAt = c.PairNormAt
	}
	if c.Features != "" {
		s.Features = c.Features
	}
	if err := setPositive("--epochs", c.Epochs, &s.Epochs); err != nil {
		return s, err
	}
	if c.Alpha != nil {
		s.Alpha = c.Alpha
	}
	if c.SynthSeed != nil {
		s.SynthSeed = *c.SynthSeed
	}
	if c.Heterophilic {
		s.Heterophilic = true
	}
	if s.Graph == "" && len(s.Datasets) == 0 {
		return s, usagef("nothing to sweep: give --datasets NAMES or --graph FILE.npz")
	}
	if err := s.Normalize(); err != nil {
		return s, graphSpecError(err)
	}
	return s, nil
}

// configError is the error of a --config file sweep.ReadSpec refuses: a
// file that cannot be read or is not JSON is a failure (exit status 1), a
// field it holds that is unknown or out of range is a usage error, as the
// flag would be.
func configError(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.As(err, new(*fs.PathError)) {
		return fmt.Errorf("--config: %w", err)
	}
	return usagef("--config: %v", err)
}

// graphSpecError is a usage error for a spec that Normalize refuses. The
// errors of the graph file's fields (graph, name, split_rule, split_seed,
// and splits with a split rule) name their flags ("--split-rule: …"); the
// others are as specError makes them.
func graphSpecError(err error) error {
	var fe *sweep.FieldError
	if errors.As(err, &fe) && fe.Remedy == nil && (graphFields[fe.Field] || fe.Field == "splits" && strings.Contains(fe.Msg, "split rule")) {
		return usagef("--%s: %s", flagName(fe.Field), fe.Msg)
	}
	return specError(err)
}

// graphFields are the fields of sweep.Spec that describe a graph file.
var graphFields = map[string]bool{"graph": true, "name": true, "split_rule": true, "split_seed": true}

// Run runs the sweep until every run of the grid is in the results file.
// Ctrl-C (or SIGTERM) stops within an epoch or an iteration, dropping the
// work in progress (sweep.Run); a second Ctrl-C quits at once (nothing
// recorded is lost either way).
func (c *sweepCmd) Run(g *Globals) error {
	if c.Task == sweep.TaskGraph {
		return c.runGraph(g)
	}
	if c.Trials != nil || c.Layers != nil || c.ChooseOn != nil {
		return usagef("--trials, --layers and --choose-on apply to --task graph; node grids take --seeds and --depths")
	}
	spec, err := c.spec()
	if err != nil {
		return err
	}
	if err := sweep.CheckResults(c.Results); err != nil {
		return withFlag("--results", "sweep", err) // the error names the file
	}
	ctx, stop := interruptible(g, runsInFlight)
	defer stop()
	sum, err := runSweep(ctx, g, spec, c.Results)
	var fe *sweep.FieldError
	if errors.As(err, &fe) && fe.Remedy == nil && fe.Field == "split_rule" {
		err = usagef("--%s: %s", flagName(fe.Field), fe.Msg) // found on loading: no masks, or the rule does not fit the graph
	}
	if sum != nil {
		fmt.Fprintf(g.Stdout, "%s: %s in the grid, %d already there, %d run now (graphs: %d rewired, %d from the cache)\n",
			c.Results, plural(sum.Total, "run"), sum.Skipped, sum.Ran, sum.Rewired, sum.Cached)
	}
	if errors.Is(err, context.Canceled) {
		return interruptedf("%d runs recorded in %s; run the same command again to continue", sum.Skipped+sum.Ran, c.Results)
	}
	return err
}

// runsInFlight is what a sweep does when interrupted.
const runsInFlight = "stopping now: a rewiring or a training in progress is dropped, every run finished is recorded already"

// runSweep runs spec into results with progress (runs done / to do, time
// per run, ETA) and messages on standard error.
func runSweep(ctx context.Context, g *Globals, spec sweep.Spec, results string) (*sweep.Summary, error) {
	var b *progress // made at OnPlan
	defer func() { b.finish() }()
	opt := sweep.Options{
		Results: results,
		Workers: g.Workers(),
		Load: func(name string, synth dataset.SynthOptions) (*dataset.Dataset, error) {
			return g.locator().Load(name, synth)
		},
		OnPlan: func(total, done int) {
			if !g.Quiet && done > 0 {
				fmt.Fprintf(g.Stderr, "%s: %d of %d runs already done, resuming\n", results, done, total)
			}
			b = newProgress(g, "sweep", total-done, "runs")
		},
		OnRun: func(r sweep.Record) {
			b.describe(fmt.Sprintf("%s %s %s L=%d", r.Dataset, r.Method, r.Model, r.Layers))
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
	return sweep.Run(ctx, spec, opt)
}

// setPositive stores *v in dst when the flag was given (v not nil),
// refusing a value below 1 as a usage error naming the flag.
func setPositive(flag string, v *int, dst *int) error {
	if v == nil {
		return nil
	}
	if *v < 1 {
		return usagef("%s %d: must be ≥ 1", flag, *v)
	}
	*dst = *v
	return nil
}
