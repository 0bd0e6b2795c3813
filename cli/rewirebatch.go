package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	release "github.com/ohmgnn/ohm"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/rewire"
)

// BatchSummary is the summary of `ohm rewire` on a TU dataset (every graph
// rewired, definitions §3.8); its fields are stable.
type BatchSummary struct {
	Dataset string  `json:"dataset"`
	Form    string  `json:"form"`
	Method  string  `json:"method"`
	Budget  float64 `json:"budget"` // r as given; 0 with --edits
	Edits   int     `json:"edits"`  // --edits N; 0 with --budget
	rewire.ManyTotals
	// Version is the rewiring code version; Engine the engines that ran,
	// joined by "+" when graphs used different ones.
	Version string  `json:"version"`
	Engine  string  `json:"engine"`
	Seconds float64 `json:"seconds"` // the rewiring's wall time, all graphs (loading and writing aside)
	// CPUSeconds is the process's CPU time (user and system, every thread)
	// over the same span; 0 where the system cannot say.
	CPUSeconds float64 `json:"cpu_seconds"`
	OhmVersion string  `json:"ohm_version"` // the release and commit that ran it (release.Build)
}

// batchEdit is one line of a batch's edit log: the graph's index, then
// the edit (rewire.Edit's fields).
type batchEdit struct {
	Graph int `json:"graph"`
	rewire.Edit
}

// isTUInput reports whether --dataset names a TU dataset: one ohm knows by
// name, a collated archive (.npz with ptr) or a TU folder found by name in
// the data roots.
func isTUInput(g *Globals, name string) bool {
	if graphio.IsNPZ(name) {
		return dataset.IsTUArchive(name)
	}
	if dataset.IsTU(name) {
		return true
	}
	if slices.ContainsFunc(dataset.Names(), func(n string) bool { return strings.EqualFold(n, name) }) {
		return false
	}
	root, _ := g.locator().FindTU(name)
	return root != ""
}

// loadTU loads the TU dataset --dataset names: by name from the data roots
// (downloaded when missing), or a collated archive.
func loadTU(g *Globals, name string, f TUFlags) (*dataset.TUDataset, error) {
	if graphio.IsNPZ(name) {
		d, err := dataset.ReadTUArchive(name, strings.TrimSuffix(filepath.Base(name), filepath.Ext(name)))
		if err != nil {
			return nil, fmt.Errorf("--dataset: %w", err)
		}
		if f.NodeAttr || f.EdgeAttr {
			return nil, usagef("--node-attr and --edge-attr choose the columns of a dataset read from its TU files; %s holds its own", name)
		}
		return d, nil
	}
	return g.locator().LoadTU(name, dataset.TUOptions{NodeAttr: f.NodeAttr, EdgeAttr: f.EdgeAttr})
}

// runBatch rewires every graph of a TU dataset (rewire.RunMany over
// --threads) and writes --out (the collated archive) and --log (edits with
// their graph) whole or not at all, then the summary.
func (c *rewireCmd) runBatch(g *Globals, cfg rewire.Config) error {
	if c.Out != "" && !graphio.IsNPZ(c.Out) {
		return usagef("--out %s: a TU dataset is written as .npz (the collated dataset)", c.Out)
	}
	if c.FoSRX0 != "" {
		return usagef("--fosr-x0: a TU dataset's graphs each draw their start vector from --seed")
	}
	if err := c.checkOutputs(); err != nil {
		return err
	}
	d, err := loadTU(g, c.Dataset, c.TUFlags)
	if err != nil {
		return err
	}
	if err := d.CheckFill(c.EdgeFill); err != nil {
		return usagef("--edge-fill: %v", err)
	}
	cfg.FoSR = &rewire.FoSROptions{Seed: c.Seed}
	bar := newProgress(g, fmt.Sprintf("rewire %s %s", d.Name, cfg.Method), d.Len(), "graphs")
	ctx, release := interruptible(g, "stopping the graphs in flight; nothing will be written")
	defer release()
	graphs := d.Graphs(c.Directed)
	// Collect the loading's garbage (the files' text) now, so that the
	// collection is not charged to the first graphs' rewiring (Seconds):
	// the process spends the same, and the batch starts on a clean heap
	// (its peak is lower). testing.B does the same before a benchmark.
	runtime.GC()
	t0 := time.Now()
	c0, cpuOK := processCPU()
	results, err := rewire.RunMany(ctx, graphs, cfg, rewire.ManyOptions{
		Threads: g.Workers(), InPlace: true, OnGraph: func(int, *rewire.Result) { bar.add(1) }})
	seconds := time.Since(t0).Seconds() // the rewiring alone: not the summary
	c1, cpuOK1 := processCPU()
	bar.finish()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("rewire %s: %w%s", d.Name, errInterrupted, c.nothingWritten())
		}
		return fmt.Errorf("rewire %s: %w%s", d.Name, configUsage(err, rewireFlags), c.nothingWritten())
	}
	s := summarizeBatch(d.Name, cfg, c.Directed, results)
	s.Seconds = seconds
	if cpuOK && cpuOK1 {
		s.CPUSeconds = (c1 - c0).Seconds()
	}
	if s.ZeroBudget > 0 {
		fmt.Fprintf(g.Stderr, "ohm: warning: %s: %d of %d graphs have B = 0 iterations at budget %v (fewer than %.4g edges): left as they are\n",
			d.Name, s.ZeroBudget, s.Graphs, cfg.Budget, 1/cfg.Budget)
	}
	if err := c.writeBatch(g, d, results); err != nil {
		return err
	}
	if c.JSON {
		return writeJSON(g.Stdout, s)
	}
	return printBatchSummary(g.Stdout, s)
}

// writeBatch writes --log and --out from the batch's results, all or
// nothing (atomicfile.CommitAll).
func (c *rewireCmd) writeBatch(g *Globals, d *dataset.TUDataset, results []*rewire.Result) error {
	gs := make([]*linalg.Graph, len(results))
	for i, r := range results {
		gs[i] = r.Graph
	}
	out, err := d.Rewired(gs, c.EdgeFill)
	if err != nil {
		return fmt.Errorf("rewire %s: %w%s", d.Name, err, c.nothingWritten())
	}
	if err := c.commitOutputs(func(w io.Writer) error { return encodeBatchLog(w, results) },
		func(w io.Writer) error { return dataset.EncodeTUArchive(w, out) }, nil); err != nil {
		return err
	}
	if !g.Quiet && c.Out != "" {
		fmt.Fprintf(g.Stderr, "wrote %s: %d graphs, %d nodes, %d arcs (%d added arcs)\n", c.Out, out.Len(), out.TotalNodes(), len(out.Src), out.Stats().AddedArcs)
	}
	if !g.Quiet && c.Log != "" {
		n := 0
		for _, r := range results {
			n += len(r.Log)
		}
		fmt.Fprintf(g.Stderr, "wrote %s: %d edits\n", c.Log, n)
	}
	return nil
}

// encodeBatchLog writes the batch's edit log as JSON lines, graph by graph
// in input order: {"graph", "iteration", "op", "u", "v", "score"}.
func encodeBatchLog(w io.Writer, results []*rewire.Result) error {
	buf := make([]byte, 0, 128)
	for i, r := range results {
		for _, e := range r.Log {
			b, err := json.Marshal(batchEdit{Graph: i, Edit: e})
			if err != nil {
				return fmt.Errorf("graph %d edit %+v: %w", i, e, err)
			}
			buf = append(append(buf[:0], b...), '\n')
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
	}
	return nil
}

// summarizeBatch is the summary of a batch of cfg on dataset name.
func summarizeBatch(name string, cfg rewire.Config, directed bool, results []*rewire.Result) BatchSummary {
	s := BatchSummary{OhmVersion: release.Build(), Dataset: name, Form: "undirected", Method: string(cfg.Method), Budget: cfg.Budget, Edits: cfg.Edits,
		ManyTotals: rewire.Totals(results)}
	if directed {
		s.Form = "directed"
	}
	var engines []string
	for _, r := range results {
		if e := string(r.Engine); !slices.Contains(engines, e) {
			engines = append(engines, e)
		}
	}
	slices.Sort(engines)
	s.Engine = strings.Join(engines, "+")
	if len(engines) > 0 {
		s.Version = rewire.RunVersion(cfg.Method, directed, rewire.EngineKind(engines[len(engines)-1]))
	}
	return s
}

func printBatchSummary(w io.Writer, s BatchSummary) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	spread := func(p rewire.Spread) string {
		return fmt.Sprintf("min %d, mean %.2f, median %d, max %d", p.Min, p.Mean, p.Median, p.Max)
	}
	fmt.Fprintf(tw, "dataset\t%s (%d graphs)\n", s.Dataset, s.Graphs)
	fmt.Fprintf(tw, "form\t%s\n", s.Form)
	fmt.Fprintf(tw, "method\t%s\n", s.Method)
	if s.Edits > 0 {
		fmt.Fprintf(tw, "edits\t%d per graph\n", s.Edits)
	} else {
		fmt.Fprintf(tw, "budget\t%s of each graph's E0\n", strconv.FormatFloat(s.Budget, 'g', -1, 64))
	}
	fmt.Fprintf(tw, "e0\t%d\n", s.E0)
	fmt.Fprintf(tw, "iterations\t%d (of %d)\n", s.Iterations, s.Planned)
	fmt.Fprintf(tw, "added\t%d (net %d)\n", s.Added, s.AddedNet)
	fmt.Fprintf(tw, "removed\t%d (net %d)\n", s.Removed, s.RemovedNet)
	fmt.Fprintf(tw, "edits per graph\t%s\n", spread(s.EditsPerGraph))
	fmt.Fprintf(tw, "added per graph\t%s\n", spread(s.AddedPerGraph))
	fmt.Fprintf(tw, "zero-budget graphs\t%d\n", s.ZeroBudget)
	fmt.Fprintf(tw, "stopped early\t%d graphs\n", s.StoppedEarly)
	fmt.Fprintf(tw, "passed_over\t%d\n", s.PassedOver)
	fmt.Fprintf(tw, "version\t%s\n", s.Version)
	fmt.Fprintf(tw, "engine\t%s\n", s.Engine)
	fmt.Fprintf(tw, "seconds\t%.3f (CPU %.3f)\n", s.Seconds, s.CPUSeconds)
	return tw.Flush()
}
