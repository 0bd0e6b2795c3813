package cli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	release "github.com/ohmgnn/ohm"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/gnn"
)

// trainCmd is `ohm train`: train GCN or DirGCN (definitions §4) on a dataset, on its
// own graph or on a rewired one, over seeds and splits.
type trainCmd struct {
	DatasetFlags
	Graph            string   `type:"existingfile" placeholder:"FILE" help:"Train on this graph instead of the dataset's own: .npz (edge_index, num_nodes; e.g. from 'ohm rewire --out') or an edge list. Its node count must equal the dataset's. With --task graph: a collated graph-classification archive of the dataset's graphs (x, edge_index, edge_type, y, ptr, edge_ptr), e.g. from 'ohm rewire --dataset mutag --out'; edge_type gives R-GCN and R-GIN their two relations."`
	OneBased         bool     `name:"one-based" help:"--graph is an edge list whose node ids count from 1 (1..n): read them as 0..n−1."`
	Task             string   `default:"node" enum:"node,graph" help:"node: node classification on one graph; graph: graph classification on a TU dataset (mutag, enzymes, proteins) with FoSR's protocol (definitions §4.5)."`
	Model            string   `required:"" short:"m" placeholder:"MODEL" help:"gcn (on the undirected form) or dirgcn (on the arcs; both directions when the graph is undirected); with --task graph: gcn, gin, rgcn or rgin."`
	Layers           *int     `help:"Depth L ≥ 1: input → hidden → … → classes (L = 1: input → classes); default 2. With --task graph: the hidden layers L ≥ 0 (L+1 convolutions), default 4."`
	Hidden           *int     `help:"Hidden width ≥ 1 (default: 16 for cora/citeseer, 64 for every other dataset)."`
	PairNorm         bool     `name:"pairnorm" help:"PairNorm after every layer but the last."`
	PairNormScale    float64  `name:"pairnorm-scale" default:"1" help:"PairNorm scale s > 0."`
	PairNormAt       string   `name:"pairnorm-at" placeholder:"pre|post" help:"Where PairNorm sits: pre (conv → PairNorm → ReLU) or post (conv → ReLU → PairNorm). Default: the one of definitions §4.2."`
	Features         string   `name:"features" placeholder:"row|raw" help:"Node features: row (row-normalised) or raw (as loaded). Default: the dataset family's (definitions §4.3)."`
	Epochs           *int     `help:"Epochs per run (≥ 1), default 200. With --task graph: the most epochs a trial may run before early stopping ends it (default 1000000)."`
	LR               *float64 `name:"lr" help:"Adam learning rate > 0 (default 0.01)."`
	WeightDecay      *float64 `name:"weight-decay" help:"L2 weight decay ≥ 0 added to the gradient (default: 5e-3 for cora/citeseer, 5e-4 otherwise)."`
	WeightDecayScope string   `name:"weight-decay-scope" default:"first" help:"Parameters decayed: first (the first layer's weight and bias, as PyG's GCN example) or all."`
	Dropout          *float64 `help:"Dropout probability in [0, 1) on the input features and after every hidden layer (default 0.5)."`
	Seeds            int      `default:"1" help:"Train with seeds 0..N-1 on every split chosen."`
	Split            string   `default:"0" help:"Split K (0-based), or all (WebKB has 10, the others 1)."`
	SplitRule        string   `name:"split-rule" placeholder:"RULE" help:"A dataset archive (--dataset FILE.npz): make the splits instead of reading its masks, as 'ohm sweep --split-rule': random:TRAIN,VAL,TEST (fractions) or per-class:TRAIN,VAL,TEST (counts). Split K is drawn from (--split-seed, K)."`
	SplitSeed        uint64   `name:"split-seed" default:"0" help:"--split-rule: seed of the splits."`
	JSON             bool     `name:"json" help:"Print one JSON object (fields in docs/cli.md)."`
	graphTaskFlags
}

// TrainRun is one run in the output of `ohm train --json`.
type TrainRun struct {
	Seed      uint64  `json:"seed"`
	Split     int     `json:"split"`
	BestEpoch int     `json:"best_epoch"` // 1-based epoch of the best validation accuracy (earliest on ties)
	ValAcc    float64 `json:"val_acc"`    // fraction in [0, 1]
	TestAcc   float64 `json:"test_acc"`   // fraction in [0, 1], at BestEpoch
}

// TrainOut is the output of `ohm train --json`; its fields are stable.
// Accuracies are fractions in [0, 1]; standard deviations are population
// standard deviations (numpy's np.std) over the runs.
type TrainOut struct {
	Dataset     string     `json:"dataset"`
	Model       string     `json:"model"`
	Layers      int        `json:"layers"`
	PairNorm    bool       `json:"pairnorm"`
	PairNormAt  string     `json:"pairnorm_at,omitempty"` // with PairNorm: pre or post
	Features    string     `json:"features"`              // row or raw
	Graph       string     `json:"graph"`                 // "original", or the base name of the --graph file
	TestAccMean float64    `json:"test_acc_mean"`
	TestAccStd  float64    `json:"test_acc_std"`
	ValAccMean  float64    `json:"val_acc_mean"`
	Runs        []TrainRun `json:"runs"`
	Seconds     float64    `json:"seconds"`     // wall time of all runs (without loading)
	EpochMs     float64    `json:"epoch_ms"`    // mean wall time of one epoch of one run
	OhmVersion  string     `json:"ohm_version"` // the release and commit that ran it (release.Build)
}

// config checks every flag before anything is loaded and returns the
// training configuration for the named dataset; every problem is a usage
// error (exit status 2).
func (c *trainCmd) config(dataset string) (gnn.Config, error) {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	kind, err := gnn.ParseKind(c.Model)
	if err != nil {
		return gnn.Config{}, usagef("--model: %v", err)
	}
	scope, err := gnn.ParseDecayScope(c.WeightDecayScope)
	if err != nil {
		return gnn.Config{}, usagef("--weight-decay-scope: %v", err)
	}
	cfg := gnn.Defaults(dataset)
	cfg.Kind, cfg.DecayScope = kind, scope
	if c.Layers != nil {
		cfg.Layers = *c.Layers
	}
	if c.Epochs != nil {
		cfg.Epochs = *c.Epochs
	}
	cfg.PairNorm, cfg.PairNormScale = c.PairNorm, c.PairNormScale
	if c.PairNormAt != "" {
		if cfg.PairNormAt, err = gnn.ParsePairNormAt(c.PairNormAt); err != nil {
			return cfg, usagef("--pairnorm-at: %v", err)
		}
	}
	if _, err := c.features(dataset); err != nil {
		return cfg, err
	}
	switch {
	case cfg.Layers < 1:
		return cfg, usagef("--layers %d: must be ≥ 1", cfg.Layers)
	case c.Hidden != nil && *c.Hidden < 1:
		return cfg, usagef("--hidden %d: must be ≥ 1", *c.Hidden)
	case cfg.Epochs < 1:
		return cfg, usagef("--epochs %d: must be ≥ 1", cfg.Epochs)
	case c.LR != nil && !(*c.LR > 0 && finite(*c.LR)):
		return cfg, usagef("--lr %v: must be a finite number > 0", *c.LR)
	case c.WeightDecay != nil && !(*c.WeightDecay >= 0 && finite(*c.WeightDecay)):
		return cfg, usagef("--weight-decay %v: must be a finite number ≥ 0", *c.WeightDecay)
	case c.Dropout != nil && !(*c.Dropout >= 0 && *c.Dropout < 1):
		return cfg, usagef("--dropout %v: must lie in [0, 1)", *c.Dropout)
	case !(c.PairNormScale > 0 && finite(c.PairNormScale)):
		return cfg, usagef("--pairnorm-scale %v: must be a finite number > 0", c.PairNormScale)
	case c.Seeds < 1:
		return cfg, usagef("--seeds %d: must be ≥ 1", c.Seeds)
	}
	if c.Hidden != nil {
		cfg.Hidden = *c.Hidden
	}
	if c.LR != nil {
		cfg.LR = *c.LR
	}
	if c.WeightDecay != nil {
		cfg.WeightDecay = *c.WeightDecay
	}
	if c.Dropout != nil {
		cfg.Dropout = *c.Dropout
	}
	if err := cfg.Validate(); err != nil {
		return cfg, usagef("%v", err)
	}
	return cfg, nil
}

// features returns --features, or the named dataset's default.
func (c *trainCmd) features(dataset string) (gnn.Features, error) {
	if c.Features == "" {
		return gnn.DefaultFeatures(dataset), nil
	}
	f, err := gnn.ParseFeatures(c.Features)
	if err != nil {
		return f, usagef("--features: %v", err)
	}
	return f, nil
}

// splitFlag parses --split: -1 for "all", else K ≥ 0.
func splitFlag(s string) (int, error) {
	if strings.EqualFold(s, "all") {
		return -1, nil
	}
	k, err := strconv.Atoi(s)
	if err != nil || k < 0 {
		return 0, usagef("--split %q: want a split number ≥ 0 or all", s)
	}
	return k, nil
}

// Run checks the flags, loads the dataset (and --graph), trains every
// (split, seed) run spread over --threads workers and prints the summary.
// Nothing is printed on standard output unless every run succeeded. The
// first Ctrl-C (SIGINT or SIGTERM) lets the runs in flight finish and
// starts no other: the summary then holds the runs finished, and the
// command fails saying how many they were.
func (c *trainCmd) Run(g *Globals) error {
	if c.Task == "graph" {
		return c.runGraph(g)
	}
	if err := c.checkNodeTask(); err != nil {
		return err
	}
	if _, err := c.config(c.Dataset); err != nil {
		return err // flag errors before any loading
	}
	split, err := splitFlag(c.Split)
	if err != nil {
		return err
	}
	if c.OneBased && c.Graph == "" {
		return usagef("--one-based: applies to --graph FILE (an edge list)")
	}
	if err := checkOneBased(c.OneBased, "--graph", c.Graph); err != nil {
		return err
	}
	ctx, release := interruptible(g, "stopping the runs in flight at their next epoch, then printing the summary of the runs finished")
	defer release()
	d, gr, err := c.Load(g)
	if err != nil {
		return err
	}
	cfg, err := c.config(d.Name) // the dataset's defaults, now that its name is canonical
	if err != nil {
		return err
	}
	if err := c.applySplitRule(d, split); err != nil {
		return err
	}
	var splits []int
	switch {
	case split < 0:
		for k := range d.Splits {
			splits = append(splits, k)
		}
	case split >= len(d.Splits):
		return usagef("--split %d: %s has %s, 0..%d", split, d.Name, plural(len(d.Splits), "split"), len(d.Splits)-1)
	default:
		splits = []int{split}
	}
	graphName := "original"
	if c.Graph != "" {
		gr, err = loadGraphFile(g, "--graph", c.Graph, d.N(), c.Directed, c.OneBased)
		if err != nil {
			return fmt.Errorf("--graph %s (dataset %s has %d nodes): %w", c.Graph, d.Name, d.N(), err)
		}
		graphName = filepath.Base(c.Graph)
		// A graph with far fewer edges than the dataset's trains, but
		// almost without message passing: say so.
		if e, e0 := gr.E0(), d.Graph.E0(); e == 0 || e < e0/10 {
			fmt.Fprintf(g.Stderr, "ohm: warning: --graph %s has %d edges, the dataset %s %d: the model sees almost no neighbours\n",
				c.Graph, e, d.Name, e0)
		}
	}
	feat, _ := c.features(d.Name) // checked by config
	data, err := gnn.NewData(d, gr, cfg.Kind, feat)
	if err != nil {
		return fmt.Errorf("train %s: %w", d.Name, err)
	}
	runs := gnn.Runs(c.Seeds, splits)
	b := newProgress(g, fmt.Sprintf("train %s %v L=%d", d.Name, cfg.Kind, cfg.Layers), len(runs), "runs")
	t0 := time.Now()
	res, err := gnn.TrainRunsContext(ctx, data, cfg, runs, g.Workers(), func(gnn.Result) { b.add(1) })
	seconds := time.Since(t0).Seconds()
	b.finish()
	interrupted := ctx.Err() != nil && err != nil && errors.Is(err, ctx.Err())
	if interrupted && len(res) == 0 {
		return fmt.Errorf("train %s: %w before any of the %d runs finished; nothing printed", d.Name, errInterrupted, len(runs))
	}
	if err != nil && !interrupted {
		return fmt.Errorf("train %s: %w", d.Name, withMemoryFlags(err, "--hidden, --layers, --threads"))
	}
	out := summarizeTraining(d.Name, cfg, feat, graphName, res, seconds)
	form := "undirected"
	if cfg.Kind == gnn.DirGCN && gr.Directed() {
		form = "directed"
	}
	if c.JSON {
		err = writeJSON(g.Stdout, out)
	} else {
		err = printTraining(g.Stdout, out, cfg, form)
	}
	if err == nil && interrupted {
		return fmt.Errorf("train %s: %w after %d of %d runs (the summary holds those)", d.Name, errInterrupted, len(res), len(runs))
	}
	return err
}

// applySplitRule makes the splits of a dataset archive by --split-rule
// (0..split, or split 0 for all), or says that an archive without masks
// needs one.
func (c *trainCmd) applySplitRule(d *dataset.Dataset, split int) error {
	isArchive := graphio.IsNPZ(c.Dataset)
	switch {
	case c.SplitRule == "" && isArchive && len(d.Splits) == 0:
		return usagef("--dataset %s holds no split masks (train_mask, val_mask, test_mask): give --split-rule, e.g. random:0.6,0.2,0.2 or per-class:20,500,1000", c.Dataset)
	case c.SplitRule == "":
		return nil
	case !isArchive:
		return usagef("--split-rule: splits a dataset archive (--dataset FILE.npz); %s has its own splits", d.Name)
	case split < 0:
		return usagef("--split all: a split rule makes the splits asked by number; give --split K")
	}
	rule, err := dataset.ParseSplitRule(c.SplitRule)
	if err != nil {
		return usagef("--split-rule: %v", err)
	}
	if err := rule.Apply(d, c.SplitSeed, split+1); err != nil {
		return usagef("--split-rule: %v", err)
	}
	return nil
}

// summarizeTraining assembles the output from the results.
func summarizeTraining(name string, cfg gnn.Config, feat gnn.Features, graph string, res []gnn.Result, seconds float64) TrainOut {
	out := TrainOut{OhmVersion: release.Build(), Dataset: name, Model: cfg.Kind.String(), Layers: cfg.Layers, PairNorm: cfg.PairNorm,
		Features: feat.String(), Graph: graph, Runs: make([]TrainRun, len(res)), Seconds: seconds}
	if cfg.PairNorm {
		out.PairNormAt = cfg.PairNormAt.String()
	}
	test, val := make([]float64, len(res)), make([]float64, len(res))
	for i, r := range res {
		out.Runs[i] = TrainRun{Seed: r.Seed, Split: r.Split, BestEpoch: r.BestEpoch, ValAcc: r.ValAcc, TestAcc: r.TestAcc}
		test[i], val[i] = r.TestAcc, r.ValAcc
		out.EpochMs += r.EpochMs() / float64(len(res))
	}
	out.TestAccMean, out.TestAccStd = gnn.MeanStd(test)
	out.ValAccMean, _ = gnn.MeanStd(val)
	return out
}

// printTraining writes the summary as aligned text, then one line per run.
func printTraining(w io.Writer, o TrainOut, cfg gnn.Config, form string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	pn := "off"
	if cfg.PairNorm {
		pn = fmt.Sprintf("on (s = %g, %s the ReLU)", cfg.PairNormScale, map[gnn.PairNormAt]string{gnn.PairNormPre: "before", gnn.PairNormPost: "after"}[cfg.PairNormAt])
	}
	fmt.Fprintf(tw, "dataset\t%s (%s form, graph %s)\n", o.Dataset, form, o.Graph)
	fmt.Fprintf(tw, "model\t%s, %d layers, hidden %d, pairnorm %s\n", o.Model, o.Layers, cfg.Hidden, pn)
	fmt.Fprintf(tw, "features\t%s\n", map[string]string{"row": "row-normalised", "raw": "as loaded"}[o.Features])
	fmt.Fprintf(tw, "training\t%d epochs, lr %g, weight decay %g (%v), dropout %g\n",
		cfg.Epochs, cfg.LR, cfg.WeightDecay, cfg.DecayScope, cfg.Dropout)
	fmt.Fprintf(tw, "runs\t%d\n", len(o.Runs))
	fmt.Fprintf(tw, "test accuracy\t%.2f ± %.2f %% (population std)\n", 100*o.TestAccMean, 100*o.TestAccStd)
	rows := make([]string, len(o.Runs))
	for i, r := range o.Runs {
		rows[i] = fmt.Sprintf("%d\t%d\t%d\t%.2f\t%.2f\t", r.Seed, r.Split, r.BestEpoch, 100*r.ValAcc, 100*r.TestAcc)
	}
	return printRunTable(w, tw, o.ValAccMean, o.Seconds, o.EpochMs, "seed\tsplit\tbest_epoch\tval_acc %\ttest_acc %\t", rows)
}

// printRunTable ends the summary of a train command, node or graph task:
// the validation accuracy and time lines on tw, flushed, a blank line, then
// header and one row per run (tab-separated cells, each ending in a tab),
// right-aligned.
func printRunTable(w io.Writer, tw *tabwriter.Writer, valAcc, seconds, epochMs float64, header string, rows []string) error {
	fmt.Fprintf(tw, "val accuracy\t%.2f %%\n", 100*valAcc)
	fmt.Fprintf(tw, "time\t%.2f s, %.2f ms/epoch\n", seconds, epochMs)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		fmt.Fprintln(tw, r)
	}
	return tw.Flush()
}
