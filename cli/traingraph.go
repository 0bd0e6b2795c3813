package cli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	release "github.com/ohmgnn/ohm"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/gnn"
)

// graphTaskFlags are the flags of `ohm train --task graph` only.
type graphTaskFlags struct {
	Trials    int    `placeholder:"N" help:"--task graph: trials, seeds 0..N-1, each with its own random 80/10/10 split (default 10)."`
	Pool      string `placeholder:"mean|sum" help:"--task graph: pooling of the last layer's class scores per graph (default mean, FoSR's global_mean_pool)."`
	BatchSize int    `name:"batch-size" placeholder:"N" help:"--task graph: graphs per training batch (default 64)."`
	Patience  *int   `placeholder:"N" help:"--task graph: stop after more than this many epochs without a validation accuracy above 1.01× the best (default 100)."`
}

// GraphTrainRun is one trial in the output of `ohm train --task graph --json`.
type GraphTrainRun struct {
	Seed        uint64  `json:"seed"`
	Epochs      int     `json:"epochs"`     // epochs run until early stopping
	BestEpoch   int     `json:"best_epoch"` // the kept epoch (definitions §4.5)
	TrainAcc    float64 `json:"train_acc"`  // at BestEpoch
	ValAcc      float64 `json:"val_acc"`    // at BestEpoch
	TestAcc     float64 `json:"test_acc"`   // at BestEpoch
	LastTestAcc float64 `json:"last_test_acc"`
}

// GraphTrainOut is the output of `ohm train --task graph --json`; its
// fields are stable. Accuracies are fractions in [0, 1]; TestAccCI is
// 2σ/√trials with σ the population standard deviation (FoSR's interval).
type GraphTrainOut struct {
	Dataset     string          `json:"dataset"`
	Task        string          `json:"task"` // "graph"
	Model       string          `json:"model"`
	Layers      int             `json:"layers"` // hidden layers (layers+1 convolutions)
	Hidden      int             `json:"hidden"`
	Pool        string          `json:"pool"`
	Graph       string          `json:"graph"` // "original"
	Trials      int             `json:"trials"`
	TestAccMean float64         `json:"test_acc_mean"`
	TestAccCI   float64         `json:"test_acc_ci"`
	TestAccStd  float64         `json:"test_acc_std"`
	ValAccMean  float64         `json:"val_acc_mean"`
	Runs        []GraphTrainRun `json:"runs"`
	Seconds     float64         `json:"seconds"`     // wall time of all trials (without loading)
	EpochMs     float64         `json:"epoch_ms"`    // mean wall time of one epoch of one trial
	OhmVersion  string          `json:"ohm_version"` // the release and commit that ran it (release.Build)
}

// checkNodeTask refuses the graph-task flags and TU datasets in a node task.
func (c *trainCmd) checkNodeTask() error {
	switch {
	case dataset.IsTU(c.Dataset):
		return usagef("--dataset %s: a graph-classification dataset (many graphs): train it with --task graph", c.Dataset)
	case c.Trials != 0:
		return usagef("--trials: applies to --task graph; node tasks take --seeds")
	case c.Pool != "" || c.BatchSize != 0 || c.Patience != nil:
		return usagef("--pool, --batch-size and --patience apply to --task graph")
	}
	return nil
}

// graphConfig checks the flags of --task graph and returns the protocol's
// configuration with them applied; every problem is a usage error.
func (c *trainCmd) graphConfig() (gnn.GraphConfig, int, error) {
	kind, err := gnn.ParseGraphKind(c.Model)
	if err != nil {
		return gnn.GraphConfig{}, 0, usagef("--model: %v", err)
	}
	cfg := gnn.GraphDefaults(kind)
	switch {
	case c.PairNorm || c.Features != "" || c.SplitRule != "" || c.Directed:
		return cfg, 0, usagef("--pairnorm, --features, --split-rule and --directed apply to node tasks, not --task graph")
	case c.Graph != "" && !dataset.IsTUArchive(c.Graph):
		return cfg, 0, usagef("--graph %s: --task graph takes a collated graph-classification archive (.npz with x, edge_index, edge_type, y, ptr, edge_ptr, as 'ohm rewire --dataset mutag --out' writes)", c.Graph)
	case c.Split != "0" || c.Seeds != 1:
		return cfg, 0, usagef("--split and --seeds apply to node tasks: --task graph draws a split per trial (--trials)")
	case c.WeightDecayScope != "first":
		return cfg, 0, usagef("--weight-decay-scope: --task graph decays every parameter (with --weight-decay)")
	}
	if c.Pool != "" {
		if cfg.Pool, err = gnn.ParsePool(c.Pool); err != nil {
			return cfg, 0, usagef("--pool: %v", err)
		}
	}
	setInt := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	setInt(&cfg.Layers, c.Layers)
	setInt(&cfg.Hidden, c.Hidden)
	setInt(&cfg.MaxEpochs, c.Epochs)
	setInt(&cfg.Patience, c.Patience)
	if c.BatchSize != 0 {
		cfg.BatchSize = c.BatchSize
	}
	for _, f := range []struct {
		dst *float64
		v   *float64
	}{{&cfg.LR, c.LR}, {&cfg.WeightDecay, c.WeightDecay}, {&cfg.Dropout, c.Dropout}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
	trials := 10
	if c.Trials != 0 {
		trials = c.Trials
	}
	switch {
	case trials < 1:
		return cfg, 0, usagef("--trials %d: must be ≥ 1", trials)
	case c.BatchSize < 0:
		return cfg, 0, usagef("--batch-size %d: must be ≥ 1", c.BatchSize)
	}
	if err := cfg.Validate(); err != nil {
		return cfg, 0, usagef("%v", err)
	}
	return cfg, trials, nil
}

// loadGraphSet loads the TU dataset of --dataset for --task graph, refusing
// single-graph datasets.
func loadGraphSet(g *Globals, name string) (*gnn.GraphSet, error) {
	if !dataset.IsTU(name) {
		if slices.ContainsFunc(dataset.Names(), func(n string) bool { return strings.EqualFold(n, name) }) || strings.HasSuffix(strings.ToLower(name), ".npz") {
			return nil, usagef("--task graph: --dataset %s is a single graph (node classification); graph classification needs a TU dataset: %s", name, strings.Join(dataset.TUNames[:3], ", "))
		}
		return nil, usagef("--dataset: unknown graph-classification dataset %q (known: %s)", name, strings.Join(dataset.TUNames, ", "))
	}
	d, err := g.locator().LoadTU(name, dataset.TUOptions{})
	if err != nil {
		return nil, err
	}
	set := gnn.NewGraphSet(d)
	if err := set.Validate(); err != nil {
		return nil, fmt.Errorf("--dataset %s: %w", name, err)
	}
	return set, nil
}

// rewiredGraphSet reads the collated archive path (--graph) and checks it
// holds the graphs of set: the same count, node counts, features and
// classes; only the arcs (and their relations) may differ.
func rewiredGraphSet(set *gnn.GraphSet, path string) (*gnn.GraphSet, error) {
	a, err := dataset.ReadTUArchive(path, set.Name)
	if err != nil {
		return nil, fmt.Errorf("--graph: %w", err)
	}
	r := gnn.NewGraphSet(a)
	mismatch := func(format string, v ...any) error {
		return fmt.Errorf("--graph %s is not a rewiring of %s: %s", path, set.Name, fmt.Sprintf(format, v...))
	}
	switch {
	case len(r.Graphs) != len(set.Graphs):
		return nil, mismatch("%d graphs, the dataset %d", len(r.Graphs), len(set.Graphs))
	case r.Features != set.Features:
		return nil, mismatch("%d node features, the dataset %d", r.Features, set.Features)
	}
	r.Classes = set.Classes
	for i := range r.Graphs {
		a, b := &r.Graphs[i], &set.Graphs[i]
		if a.N != b.N || a.Label != b.Label || !slices.Equal(a.X, b.X) {
			return nil, mismatch("graph %d differs in its nodes, features or class", i)
		}
	}
	return r, nil
}

// runGraph is `ohm train --task graph`: FoSR's protocol (definitions §4.5)
// over --trials seeds spread over --threads. Nothing is printed on standard
// output unless every trial succeeded; an interrupt prints the trials
// finished and fails.
func (c *trainCmd) runGraph(g *Globals) error {
	cfg, trials, err := c.graphConfig()
	if err != nil {
		return err
	}
	ctx, release := interruptible(g, "finishing the trials in flight, then printing the summary of the trials finished")
	defer release()
	set, err := loadGraphSet(g, c.Dataset)
	if err != nil {
		return err
	}
	graphName := "original"
	if c.Graph != "" {
		if set, err = rewiredGraphSet(set, c.Graph); err != nil {
			return err
		}
		graphName = filepath.Base(c.Graph)
	}
	data, err := gnn.NewGraphData(set, cfg.Kind)
	if err != nil {
		return fmt.Errorf("--dataset %s: %w", set.Name, err)
	}
	seeds := make([]uint64, trials)
	for i := range seeds {
		seeds[i] = uint64(i)
	}
	b := newProgress(g, fmt.Sprintf("train %s %v L=%d", set.Name, cfg.Kind, cfg.Layers), trials, "trials")
	t0 := time.Now()
	res, err := gnn.TrainGraphRuns(ctx, data, cfg, seeds, g.Workers(), func(gnn.GraphResult) { b.add(1) })
	seconds := time.Since(t0).Seconds()
	b.finish()
	interrupted := ctx.Err() != nil && err != nil && errors.Is(err, ctx.Err())
	switch {
	case interrupted && len(res) == 0:
		return fmt.Errorf("train %s: %w before any of the %d trials finished; nothing printed", set.Name, errInterrupted, trials)
	case errors.Is(err, gnn.ErrNaNLoss):
		return fmt.Errorf("train %s: %w; nothing recorded (try a smaller --lr)", set.Name, err)
	case errors.Is(err, gnn.ErrSplitMissesClass):
		return usagef("--trials: %v", err)
	case err != nil && !interrupted:
		return fmt.Errorf("train %s: %w", set.Name, err)
	}
	out := summarizeGraphTraining(set.Name, cfg, res, seconds)
	out.Graph = graphName
	if c.JSON {
		err = writeJSON(g.Stdout, out)
	} else {
		err = printGraphTraining(g.Stdout, out, cfg)
	}
	if err == nil && interrupted {
		return fmt.Errorf("train %s: %w after %d of %d trials (the summary holds those)", set.Name, errInterrupted, len(res), trials)
	}
	return err
}

// summarizeGraphTraining assembles the output from the results.
func summarizeGraphTraining(name string, cfg gnn.GraphConfig, res []gnn.GraphResult, seconds float64) GraphTrainOut {
	out := GraphTrainOut{OhmVersion: release.Build(), Dataset: name, Task: "graph", Model: cfg.Kind.String(), Layers: cfg.Layers, Hidden: cfg.Hidden,
		Pool: cfg.Pool.String(), Graph: "original", Trials: len(res), Runs: make([]GraphTrainRun, len(res)), Seconds: seconds}
	test, val := make([]float64, len(res)), make([]float64, len(res))
	epochs, secs := 0, 0.0
	for i, r := range res {
		out.Runs[i] = GraphTrainRun{Seed: r.Seed, Epochs: r.Epochs, BestEpoch: r.BestEpoch, TrainAcc: r.TrainAcc,
			ValAcc: r.ValAcc, TestAcc: r.TestAcc, LastTestAcc: r.LastTestAcc}
		test[i], val[i] = r.TestAcc, r.ValAcc
		epochs += r.Epochs
		secs += r.Seconds
	}
	out.TestAccMean, out.TestAccStd = gnn.MeanStd(test)
	out.TestAccCI = 2 * out.TestAccStd / math.Sqrt(float64(max(1, len(res))))
	out.ValAccMean, _ = gnn.MeanStd(val)
	if epochs > 0 {
		out.EpochMs = 1000 * secs / float64(epochs)
	}
	return out
}

// printGraphTraining writes the summary as aligned text, then one line per
// trial.
func printGraphTraining(w io.Writer, o GraphTrainOut, cfg gnn.GraphConfig) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "dataset\t%s (graph classification, graph %s)\n", o.Dataset, o.Graph)
	fmt.Fprintf(tw, "model\t%s, %d hidden layers of %d, %s pooling\n", o.Model, o.Layers, o.Hidden, o.Pool)
	fmt.Fprintf(tw, "training\tbatches of %d, lr %g (ReduceLROnPlateau), weight decay %g, dropout %g, patience %d\n",
		cfg.BatchSize, cfg.LR, cfg.WeightDecay, cfg.Dropout, cfg.Patience)
	fmt.Fprintf(tw, "trials\t%d (a random 80/10/10 split each)\n", o.Trials)
	fmt.Fprintf(tw, "test accuracy\t%.2f ± %.2f %% (2σ/√trials)\n", 100*o.TestAccMean, 100*o.TestAccCI)
	rows := make([]string, len(o.Runs))
	for i, r := range o.Runs {
		rows[i] = fmt.Sprintf("%d\t%d\t%d\t%.2f\t%.2f\t%.2f\t", r.Seed, r.Epochs, r.BestEpoch, 100*r.TrainAcc, 100*r.ValAcc, 100*r.TestAcc)
	}
	return printRunTable(w, tw, o.ValAccMean, o.Seconds, o.EpochMs, "seed\tepochs\tbest_epoch\ttrain_acc %\tval_acc %\ttest_acc %\t", rows)
}
