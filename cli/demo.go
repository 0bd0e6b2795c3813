package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ohmgnn/ohm/internal/atomicfile"
	"github.com/ohmgnn/ohm/model/diagnose"
	"github.com/ohmgnn/ohm/model/report"
	"github.com/ohmgnn/ohm/model/sweep"
	"github.com/ohmgnn/ohm/rewire/curvature"
)

// demoCmd is `ohm demo` (what `make run` runs): the whole pipeline on one
// small dataset — a sweep of every method at a 10 % budget with GCN of depths
// 1–6 with and without PairNorm over 3 seeds, the diagnostics of the same
// methods and depths, and the report.
type demoCmd struct {
	Dataset string `default:"ring" placeholder:"NAME" help:"Dataset: the built-in ring (a long-range task across the bottlenecks of a ring of cliques, where the methods differ), or any dataset name (e.g. cornell, bottleneck)."`
	Out     string `default:"out/demo" short:"o" type:"path" placeholder:"DIR" help:"Output folder: results.jsonl (+ .cache), diagnostics.json, report.md, figures/."`
	Epochs  int    `default:"200" help:"Epochs per training run."`
	Seeds   int    `default:"3" help:"Seeds per setting."`
	Resume  bool   `help:"Keep what a previous demo left in --out and only run what is missing (default: start afresh)."`
}

// Demo's grid.
const (
	demoBudget   = 0.1
	demoMaxDepth = 6
)

// demoDataset returns the dataset of the demo and why it was chosen.
func (c *demoCmd) demoDataset(*Globals) (name, why string) {
	if strings.EqualFold(c.Dataset, "ring") {
		return "ring", "built in: labels are the class shown by the clique across the ring, four bottlenecks away"
	}
	return strings.ToLower(c.Dataset), "chosen with --dataset"
}

// Run runs the demo and prints where the report is.
func (c *demoCmd) Run(g *Globals) error {
	t0 := time.Now()
	if c.Epochs < 1 {
		return usagef("--epochs %d: must be ≥ 1", c.Epochs)
	}
	if c.Seeds < 1 {
		return usagef("--seeds %d: must be ≥ 1", c.Seeds)
	}
	name, why := c.demoDataset(g)
	spec, err := c.grid(name)
	if err != nil {
		return err
	}
	unlock, err := c.prepareOut()
	if err != nil {
		return err
	}
	defer unlock()
	results := c.resultsPath()
	say := func(format string, a ...any) {
		if !g.Quiet {
			fmt.Fprintf(g.Stderr, format+"\n", a...)
		}
	}
	say("demo on %s (%s): %d methods at budget %g, GCN depths 1–%d without and with PairNorm, %d seeds, %d epochs",
		name, why, len(spec.Methods), demoBudget, demoMaxDepth, c.Seeds, c.Epochs)
	ctx, stop := interruptible(g, runsInFlight)
	defer stop()
	sum, err := runSweep(ctx, g, spec, results)
	if errors.Is(err, context.Canceled) {
		return interruptedf("rerun with --resume to continue")
	}
	if err != nil {
		return err
	}
	say("sweep: %d runs (%d new) in %s, %.1f s", sum.Total, sum.Ran, results, time.Since(t0).Seconds())
	diag, err := c.diagnostics(ctx, g, name, spec, say)
	if errors.Is(err, context.Canceled) {
		return interruptedf("the sweep is recorded, the diagnostics not made; rerun with --resume to continue")
	}
	if err != nil {
		return err
	}
	recs, err := sweep.ReadResults(results)
	if err != nil {
		return err
	}
	out, err := report.Write(recs, report.Options{Out: c.Out, Source: results, Diagnostics: diag, Context: ctx})
	if errors.Is(err, context.Canceled) {
		return interruptedf("the sweep and the diagnostics are written, the report not; rerun with --resume to make it")
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(g.Stdout, "demo done in %.1f s: report %s (%s in %s, PNG and SVG)\n",
		time.Since(t0).Seconds(), out.Markdown, plural(len(out.Figures), "figure"), filepath.Join(c.Out, report.FigureDir))
	return err
}

// resultsPath and diagPath are the demo's results and diagnostics files in
// --out.
func (c *demoCmd) resultsPath() string { return filepath.Join(c.Out, "results.jsonl") }
func (c *demoCmd) diagPath() string    { return filepath.Join(c.Out, diagnosticsFile) }

// grid is the demo's sweep on dataset name: every paper method at
// demoBudget, GCN of depths 1–demoMaxDepth without and with PairNorm.
func (c *demoCmd) grid(name string) (sweep.Spec, error) {
	depths := make([]int, demoMaxDepth)
	for i := range depths {
		depths[i] = i + 1
	}
	spec := sweep.Spec{Datasets: []string{name}, Forms: []string{sweep.Undirected}, Methods: sweep.PaperMethods,
		Budgets: []float64{demoBudget}, Models: []string{"gcn"}, PairNorm: []bool{false, true}, Depths: depths,
		Seeds: c.Seeds, Epochs: c.Epochs}
	if err := spec.Normalize(); err != nil {
		return spec, specError(err)
	}
	return spec, nil
}

// prepareOut creates --out and locks it; unless --resume, it removes what
// an earlier demo wrote there. The returned function releases the lock.
func (c *demoCmd) prepareOut() (unlock func(), err error) {
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return nil, fmt.Errorf("--out: %w", err)
	}
	// One demo per folder: a second one would delete this one's files.
	unlock, err = sweep.LockPath(filepath.Join(c.Out, ".ohm-demo.lock"))
	if err != nil {
		return nil, fmt.Errorf("--out %s: %w (is another ohm demo writing there?)", c.Out, err)
	}
	if !c.Resume {
		// Only what the demo itself writes.
		results := c.resultsPath()
		for _, p := range []string{results, sweep.CacheDir(results), c.diagPath(), filepath.Join(c.Out, report.FigureDir)} {
			if err := os.RemoveAll(p); err != nil {
				unlock()
				return nil, err
			}
		}
	}
	return unlock, nil
}

// diagnostics returns the diagnostics of the demo's methods and depths:
// with --resume those a previous demo wrote, else computed and written to
// --out.
func (c *demoCmd) diagnostics(ctx context.Context, g *Globals, name string, spec sweep.Spec, say func(string, ...any)) (*diagnose.Diagnostics, error) {
	t1 := time.Now()
	diagPath := c.diagPath()
	if c.Resume {
		if d, err := report.ReadDiagnostics(diagPath); err == nil {
			return d, nil
		}
	}
	methods := slices.Clone(spec.Methods) // the sweep's: the paper's methods
	diag, err := runDiagnostics(ctx, g, diagnoseSpec{Datasets: []string{name}, Methods: methods, Budget: demoBudget,
		Depths: spec.Depths, Seeds: c.Seeds, Alpha: curvature.DefaultAlpha})
	if err != nil {
		return nil, fmt.Errorf("diagnostics: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err // a rewiring stopped short: its diagnostics are not the demo's
	}
	if err := atomicfile.WriteFile(diagPath, func(w io.Writer) error { return writeJSON(w, diag) }); err != nil {
		return nil, err
	}
	say("diagnostics: %s, %.1f s", diagPath, time.Since(t1).Seconds())
	return diag, nil
}
