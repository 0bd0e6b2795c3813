package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	release "github.com/ohmgnn/ohm"
	"github.com/ohmgnn/ohm/internal/atomicfile"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/rewire"
)

// rewireCmd is `ohm rewire`.
type rewireCmd struct {
	GraphFlags
	Method           string  `required:"" short:"m" placeholder:"METHOD" help:"Rewiring operator: err, err-hop (add & remove), res, res-hop (add only), curvature (the Ollivier–Ricci baseline), gtr, fosr (add-only baselines, undirected)."`
	Budget           float64 `short:"r" placeholder:"FRACTION" help:"Budget r in (0, 1]: the run makes B = floor(r·E0) iterations (per graph for a TU dataset). One of --budget and --edits is required."`
	Edits            int     `name:"edits" placeholder:"N" help:"Instead of --budget: N iterations (per graph for a TU dataset, as FoSR's and BORF's code count them)." default:"0"`
	WithinComponents bool    `name:"within-components" help:"Undirected: admissible pairs only inside one connected component (default: all pairs, as the paper)."`
	Engine           string  `help:"auto (incremental when its n² state fits in memory, else sketch), incremental (rank-one updates of L⁺; low-rank, residual-certified updates of X when directed), exact (recompute L⁺ or X every iteration; same decisions, slower) or sketch (undirected err and res on graphs beyond memory: resistance sketch, exact re-scoring of its candidates)." default:"auto"`
	MaxIterations    int     `name:"max-iterations" help:"Stop after N iterations even if the budget allows more (0: no limit)." default:"0"`
	Out              string  `short:"o" type:"path" placeholder:"FILE" help:"Write the rewired graph: .npz (edge_index, num_nodes, added, removed) or .txt (edge list)."`
	Log              string  `type:"path" placeholder:"FILE.jsonl" help:"Write the edit log: one JSON object {iteration, op, u, v, score} per line (while the run goes, the edits stream to FILE.partial, locked; it is removed once the outputs are in place, kept when they cannot be written, and a run refuses to start while one with edits is there)."`
	JSON             bool    `name:"json" help:"Print the summary as one JSON object (fields in docs/cli.md)."`
	Alpha            float64 `default:"0.5" help:"curvature: laziness α of the measures, in [0, 1] (0 is BORF's); ignored by the other methods."`
	Seed             uint64  `default:"0" help:"fosr: seed of the random start vector (uniform in [−1, 1)); ignored by the other methods."`
	FoSRX0           string  `name:"fosr-x0" type:"existingfile" placeholder:"FILE.npy" help:"fosr: start vector instead of a random one (.npy, float64, one entry per node), to compare with the reference code."`
	TUFlags
}

// TUFlags are the options of a TU graph-classification dataset
// (--dataset mutag, enzymes, proteins, …): PyG's use_node_attr and
// use_edge_attr, and the edge_attr of added arcs.
type TUFlags struct {
	NodeAttr bool       `name:"node-attr" help:"TU datasets: put the node attributes in x before the one-hot node labels (PyG's use_node_attr=True)."`
	EdgeAttr bool       `name:"edge-attr" help:"TU datasets: put the edge attributes in edge_attr before the one-hot edge labels (PyG's use_edge_attr=True)."`
	EdgeFill numberList `name:"edge-fill" placeholder:"V" help:"TU datasets: edge_attr of every added arc, one value for all columns or one per column (default: zeros)."`
}

// RewireSummary is the summary of one rewiring run, printed by `ohm rewire`
// and, as an array, by `ohm stats --json`; its fields are stable.
type RewireSummary struct {
	Dataset    string  `json:"dataset"` // dataset name, or the graph file's base name
	Form       string  `json:"form"`    // "undirected" or "directed"
	Method     string  `json:"method"`
	Budget     float64 `json:"budget"` // r as given
	E0         int     `json:"e0"`     // E0 of the input graph in its form
	Iterations int     `json:"iterations"`
	Added      int     `json:"added"`       // additions made (operations)
	Removed    int     `json:"removed"`     // removals made (operations)
	AddedPct   float64 `json:"added_pct"`   // 100·added/e0
	RemovedPct float64 `json:"removed_pct"` // 100·removed/e0
	// AddedNet and RemovedNet are the net change of the edge set, |E_T ∖ E_0|
	// and |E_0 ∖ E_T| (an edge added and later removed counts in neither).
	AddedNet      int     `json:"added_net"`
	RemovedNet    int     `json:"removed_net"`
	AddedNetPct   float64 `json:"added_net_pct"`   // 100·added_net/e0
	RemovedNetPct float64 `json:"removed_net_pct"` // 100·removed_net/e0
	// PassedOver counts the pairs passed over because they gave no edge.
	PassedOver int `json:"passed_over"`
	// Version is the rewiring code version of the method and form
	// (rewire.CodeVersion).
	Version string `json:"version"`
	// StoppedEarly is null when the run made its B iterations, else why not.
	StoppedEarly *string `json:"stopped_early"`
	// Engine is the engine that ran: incremental, exact or sketch (auto
	// resolved).
	Engine string `json:"engine"`
	// Rounds and Solves are the sketch engine's sketches and Laplacian
	// solves (0 otherwise).
	Rounds int `json:"rounds"`
	Solves int `json:"solves"`
	// Fallbacks counts the fast directed engine's exact fallbacks: the
	// solves of an SCC or a candidate arc made because the certificate could
	// not say that a decision rests on margins above the scores' error bound
	// (definitions §2.2; 0 for the other engines and forms).
	Fallbacks int `json:"fallbacks"`
	// HandOffAt is the iteration from which the sketch engine handed the
	// graph to the exact engine, every later decision exact (definitions
	// §3.7.1; 0: it did not), HandOffKept the nodes it kept then.
	HandOffAt   int     `json:"handed_off_at"`
	HandOffKept int     `json:"handed_off_kept"`
	Seconds     float64 `json:"seconds"`
	// OhmVersion is the release and commit that ran it (release.Build).
	OhmVersion string `json:"ohm_version"`
}

// Run validates every flag and checks that the outputs can be written,
// opens and locks --log's journal (journal), loads the graph, rewires it
// and only then writes the outputs and the summary: both outputs are
// written in full beside their targets first and renamed into place
// together, all or none, so a failure at any step leaves --out and --log
// as they were. Meanwhile the edits stream to the journal, which is
// removed only once the outputs are in place (definitions §7.2). The
// first Ctrl-C (SIGINT or SIGTERM) stops the run after the iteration in
// flight: the outputs and the summary then hold the iterations made, and
// the command fails with how many they were; a run stopped before its
// first iteration writes nothing.
func (c *rewireCmd) Run(g *Globals) error {
	cfg, err := rewireConfig(c.Method, c.Budget, c.Edits, c.WithinComponents, c.Directed, c.Engine, c.MaxIterations, c.Alpha)
	if err != nil {
		return err
	}
	if c.Graph == "" && isTUInput(g, c.Dataset) {
		return c.runBatch(g, cfg)
	}
	if len(c.EdgeFill) > 0 || c.NodeAttr || c.EdgeAttr {
		return usagef("--edge-fill, --node-attr and --edge-attr apply to TU datasets (mutag, enzymes, proteins, …)")
	}
	if err := c.checkOutputs(); err != nil {
		return err
	}
	ctx, release := interruptible(g, "finishing the iteration in flight (the sketch engine drops it), then writing the iterations made (nothing if none was made)")
	defer release()
	var jr *journal
	if c.Log != "" {
		if jr, err = openJournal(c.Log, g.Stderr); err != nil {
			return err
		}
		defer jr.close(false)
	}
	gr, name, err := c.LoadGraph(g)
	if err != nil {
		return err
	}
	cfg.Workers = g.Workers()
	cfg.FoSR = &rewire.FoSROptions{Seed: c.Seed}
	if c.FoSRX0 != "" {
		if cfg.FoSR.X0, err = graphio.ReadVector(c.FoSRX0, gr.N()); err != nil {
			return fmt.Errorf("--fosr-x0: %w", err)
		}
	}
	plan, err := rewire.NewPlan(gr, cfg)
	if err != nil {
		return configUsage(err, rewireFlags)
	}
	warnZeroBudget(g, name, plan)
	if plan.EngineReason != "" && !g.Quiet {
		fmt.Fprintln(g.Stderr, plan.EngineReason)
	}
	collectForSketch(plan.Engine)
	bar := newProgress(g, fmt.Sprintf("rewire %s %s", name, plan.Config.Method), plan.Iterations, "iterations")
	bar.stage(setupStage(plan)) // until the first iteration: the set-up can take seconds
	first := true
	run := startRun(plan, func(edits []rewire.Edit) {
		if first {
			bar.describe("")
			first = false
		}
		bar.add(1)
		if jr != nil {
			jr.record(edits)
		}
	}, ctx)
	res, err := run.wait(ctx)
	bar.finish()
	if errors.Is(err, errBeforeFirst) || err == nil && ctx.Err() != nil && res.Iterations == 0 && plan.Iterations > 0 {
		return fmt.Errorf("rewire %s: %w before the first of %d iterations%s", name, errInterrupted, plan.Iterations, c.nothingWritten())
	}
	if err != nil {
		var ce *rewire.ConfigError
		if errors.As(err, &ce) {
			// fosr's start vector, found wanting only once it runs (on
			// the data): a failure naming its flag, not a usage error.
			err = errors.Unwrap(configUsage(ce, rewireFlags))
		}
		return fmt.Errorf("rewire %s: %w%s%s", name, err, c.nothingWritten(), jr.keep(c.Log, -1))
	}
	if err := c.writeOutputs(g, res, jr); err != nil {
		return err
	}
	s := summarize(name, plan.Config, gr.Directed(), res)
	if c.JSON {
		err = writeJSON(g.Stdout, s)
	} else {
		err = printSummary(g.Stdout, s)
	}
	if err == nil && ctx.Err() != nil && res.Iterations < plan.Iterations {
		// The outputs hold the iterations made; the exit status says the
		// run is not the one asked for.
		return fmt.Errorf("rewire %s: %w after %d of %d iterations (--log and --out hold those)", name, errInterrupted, res.Iterations, plan.Iterations)
	}
	return err
}

// checkOutputs checks --out and --log before any work: a known extension,
// two different files, each in an existing folder where a file can be
// created (checkOutput).
func (c *rewireCmd) checkOutputs() error {
	if c.Out != "" {
		switch strings.ToLower(filepath.Ext(c.Out)) {
		case ".npz", ".txt":
		default:
			return usagef("--out %s: unknown extension %q (use .npz or .txt)", c.Out, filepath.Ext(c.Out))
		}
	}
	if c.Out != "" && c.Log != "" && filepath.Clean(c.Out) == filepath.Clean(c.Log) {
		return usagef("--out and --log name the same file %s", c.Out)
	}
	if err := checkOutput("--out", c.Out); err != nil {
		return err
	}
	if err := checkOutput("--log", c.Log); err != nil {
		return err
	}
	return checkJournal(c.Log)
}

// commitOutputs writes --log with writeLog and --out with writeOut (each
// only when its flag is given), all or none: each is written in full
// beside its target first, and only when both are complete are they
// renamed into place together (atomicfile.CommitAll, which puts back what
// it replaced when a rename fails). An error's message ends with
// nothingWritten and then keep() (what became of a journal; nil: nothing).
// Both the single graph's and the batch's outputs go through it.
func (c *rewireCmd) commitOutputs(writeLog, writeOut func(io.Writer) error, keep func() string) error {
	tail := func() string {
		if keep == nil {
			return ""
		}
		return keep()
	}
	var staged []*atomicfile.Pending
	for _, o := range []struct {
		flag, path string
		write      func(io.Writer) error
	}{{"--log", c.Log, writeLog}, {"--out", c.Out, writeOut}} {
		if o.path == "" {
			continue
		}
		p, err := atomicfile.Stage(o.path, o.write)
		if err != nil {
			atomicfile.DiscardAll(staged...)
			return fmt.Errorf("%s %s: %w%s%s", o.flag, o.path, err, c.nothingWritten(), tail())
		}
		staged = append(staged, p)
	}
	if err := atomicfile.CommitAll(staged...); err != nil {
		return fmt.Errorf("putting the outputs in place: %w%s", err, tail())
	}
	return nil
}

// writeOutputs writes --log and --out from the run's result, all or
// nothing: each is written in full beside its target first, and only when
// both are complete are they renamed into place (atomicfile.CommitAll,
// which puts back what it replaced when a rename fails). The journal jr is
// removed once they are in place, and kept, with a note saying how to
// finish from it, when they are not.
func (c *rewireCmd) writeOutputs(g *Globals, res *rewire.Result, jr *journal) error {
	keep := func() string { return jr.keep(c.Log, len(res.Log)) }
	if err := c.commitOutputs(func(w io.Writer) error { return encodeEditLog(w, res.Log) },
		func(w io.Writer) error { return encodeRewired(w, c.Out, res) }, keep); err != nil {
		return err
	}
	jr.close(true)
	if g.Quiet {
		return nil
	}
	if c.Log != "" {
		fmt.Fprintf(g.Stderr, "wrote %s: %s\n", c.Log, plural(len(res.Log), "edit"))
	}
	if c.Out != "" {
		fmt.Fprintf(g.Stderr, "wrote %s: %d nodes, %d arcs\n", c.Out, res.Graph.N(), len(res.Graph.Arcs()))
	}
	return nil
}

// nothingWritten is what a failed run leaves of its outputs: "" without
// any, else a note naming them.
func (c *rewireCmd) nothingWritten() string {
	var outs []string
	if c.Out != "" {
		outs = append(outs, "--out "+c.Out)
	}
	if c.Log != "" {
		outs = append(outs, "--log "+c.Log)
	}
	if len(outs) == 0 {
		return ""
	}
	if len(outs) == 1 {
		return "; nothing written: " + outs[0] + " as it was"
	}
	return "; nothing written: " + strings.Join(outs, " and ") + " as they were"
}

// summarize is the summary of the run res of cfg (its method's canonical
// name) on the graph name of the given form.
func summarize(name string, cfg rewire.Config, directed bool, res *rewire.Result) RewireSummary {
	s := RewireSummary{
		Dataset: name, Form: "undirected", Method: string(cfg.Method), Budget: cfg.Budget, E0: res.E0,
		Iterations: res.Iterations, Added: res.Added, Removed: res.Removed,
		AddedNet: res.AddedNet, RemovedNet: res.RemovedNet, PassedOver: res.PassedOver,
		Version: rewire.RunVersion(cfg.Method, directed, res.Engine), Engine: string(res.Engine), Seconds: res.Seconds,
		Rounds: res.Rounds, Solves: res.Solves, Fallbacks: res.Fallbacks, OhmVersion: release.Build(),
		HandOffAt: res.HandOffAt, HandOffKept: res.HandOffKept,
	}
	if directed {
		s.Form = "directed"
	}
	if e := float64(res.E0); e > 0 {
		s.AddedPct, s.RemovedPct = 100*float64(res.Added)/e, 100*float64(res.Removed)/e
		s.AddedNetPct, s.RemovedNetPct = 100*float64(res.AddedNet)/e, 100*float64(res.RemovedNet)/e
	}
	if res.StoppedEarly != "" {
		stopped := res.StoppedEarly
		s.StoppedEarly = &stopped
	}
	return s
}

// printSummary prints the summary as "field value" lines, only the fields
// that apply: stopped_early when the run stopped before B, rounds and
// solves for the sketch engine (--json prints every field).
func printSummary(w io.Writer, s RewireSummary) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "dataset\t%s\n", s.Dataset)
	fmt.Fprintf(tw, "form\t%s\n", s.Form)
	fmt.Fprintf(tw, "method\t%s\n", s.Method)
	fmt.Fprintf(tw, "budget\t%s\n", strconv.FormatFloat(s.Budget, 'g', -1, 64))
	fmt.Fprintf(tw, "e0\t%d\n", s.E0)
	fmt.Fprintf(tw, "iterations\t%d\n", s.Iterations)
	fmt.Fprintf(tw, "added\t%d\n", s.Added)
	fmt.Fprintf(tw, "removed\t%d\n", s.Removed)
	fmt.Fprintf(tw, "added_pct\t%.2f\n", s.AddedPct)
	fmt.Fprintf(tw, "removed_pct\t%.2f\n", s.RemovedPct)
	fmt.Fprintf(tw, "added_net\t%d\n", s.AddedNet)
	fmt.Fprintf(tw, "removed_net\t%d\n", s.RemovedNet)
	fmt.Fprintf(tw, "added_net_pct\t%.2f\n", s.AddedNetPct)
	fmt.Fprintf(tw, "removed_net_pct\t%.2f\n", s.RemovedNetPct)
	fmt.Fprintf(tw, "passed_over\t%d\n", s.PassedOver)
	fmt.Fprintf(tw, "version\t%s\n", s.Version)
	if s.StoppedEarly != nil {
		fmt.Fprintf(tw, "stopped_early\t%s\n", *s.StoppedEarly)
	}
	fmt.Fprintf(tw, "engine\t%s\n", s.Engine)
	if s.Engine == string(rewire.Sketch) {
		fmt.Fprintf(tw, "rounds\t%d\n", s.Rounds)
		fmt.Fprintf(tw, "solves\t%d\n", s.Solves)
		if s.HandOffAt > 0 {
			fmt.Fprintf(tw, "handed_off_at\t%d (%d nodes kept; the exact engine decided from there on)\n", s.HandOffAt, s.HandOffKept)
		}
	}
	if s.Engine == string(rewire.Incremental) && s.Form == "directed" {
		fmt.Fprintf(tw, "fallbacks\t%d\n", s.Fallbacks)
	}
	fmt.Fprintf(tw, "seconds\t%.3f\n", s.Seconds)
	return tw.Flush()
}

// encodeEditLog writes the edit log as JSON lines, one
// {"iteration","op","u","v","score"} object per edit, in log order.
func encodeEditLog(w io.Writer, log []rewire.Edit) error {
	buf := make([]byte, 0, 128)
	for _, e := range log {
		b, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("edit %+v: %w", e, err)
		}
		buf = append(append(buf[:0], b...), '\n')
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// encodeRewired writes the rewired graph to w in the format path names:
// an .npz archive holding edge_index (the final graph's Arcs(), PyG
// convention), num_nodes, and the log's added and removed pairs as int64
// arrays of shape (2, k) in log order; or, for any other extension, an
// edge list of the arcs.
func encodeRewired(w io.Writer, path string, res *rewire.Result) error {
	if res == nil || res.Graph == nil {
		return errors.New("no rewired graph")
	}
	if !graphio.IsNPZ(path) {
		return graphio.EncodeEdgeList(w, res.Graph.N(), res.Graph.Arcs())
	}
	added, removed := []linalg.Edge{}, []linalg.Edge{}
	for _, e := range res.Log {
		if e.Op == "add" {
			added = append(added, linalg.Edge{U: e.U, V: e.V})
		} else {
			removed = append(removed, linalg.Edge{U: e.U, V: e.V})
		}
	}
	return graphio.EncodeNPZ(w, res.Graph.N(), res.Graph.Arcs(), map[string][]linalg.Edge{"added": added, "removed": removed})
}

// warnZeroBudget says on standard error (even with --quiet: it is about the
// result, not progress) when a budget gives B = floor(r·E0) = 0 iterations:
// the run succeeds but changes nothing.
func warnZeroBudget(g *Globals, name string, plan *rewire.Plan) {
	if plan.B == 0 {
		r := plan.Config.Budget
		fmt.Fprintf(g.Stderr, "ohm: warning: %s: budget %v gives B = floor(%v·%d) = 0 iterations; the graph is not changed\n", name, r, r, plan.Graph.E0())
	}
}

// errBeforeFirst is a run abandoned by Ctrl-C before its first iteration.
var errBeforeFirst = errors.New("stopped before the first iteration")

// planRun is a rewiring run going on in its own goroutine, so that a
// Ctrl-C during its set-up (an engine's O(n³) start) stops the command
// at once (definitions §7.3): before the first iteration there is nothing
// to finish, and the run is abandoned — its iterations, if it makes any
// before the process exits, are no longer recorded.
type planRun struct {
	mu        sync.Mutex
	made      int  // iterations recorded
	abandoned bool // no more recording
	done      chan struct{}
	res       *rewire.Result
	err       error
}

// startRun starts plan with ctx as its context, calling record with each
// iteration's edits until the run is abandoned.
func startRun(plan *rewire.Plan, record func([]rewire.Edit), ctx context.Context) *planRun {
	r := &planRun{done: make(chan struct{})}
	plan.Config.Context = ctx
	plan.Config.OnIteration = func(_ int, _ *linalg.Graph, edits []rewire.Edit) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if !r.abandoned {
			r.made++
			record(edits)
		}
	}
	go func() {
		defer close(r.done)
		defer func() {
			if p := recover(); p != nil { // a bug: an error, as runRecovered makes it on the main goroutine
				r.res, r.err = nil, fmt.Errorf("internal error (please report it): %v\n%s", p, debug.Stack())
			}
		}()
		r.res, r.err = plan.Run()
	}()
	return r
}

// wait returns the run's result; when ctx ends before the first iteration
// is recorded it returns errBeforeFirst at once, else it waits for the
// iteration in flight (the run stops before the next).
func (r *planRun) wait(ctx context.Context) (*rewire.Result, error) {
	select {
	case <-r.done:
		return r.res, r.err
	case <-ctx.Done():
	}
	r.mu.Lock()
	if r.made == 0 {
		r.abandoned = true
		r.mu.Unlock()
		return nil, errBeforeFirst
	}
	r.mu.Unlock()
	<-r.done
	return r.res, r.err
}
