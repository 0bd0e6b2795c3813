package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ohmgnn/ohm/internal/atomicfile"
	"github.com/ohmgnn/ohm/model/diagnose"
	"github.com/ohmgnn/ohm/model/gnn"
	"github.com/ohmgnn/ohm/model/published"
	"github.com/ohmgnn/ohm/model/report"
	"github.com/ohmgnn/ohm/model/sweep"
)

// reportCmd is `ohm report`: Markdown tables and PNG/SVG figures from a
// sweep's results (and optionally `ohm diagnose`'s diagnostics.json).
type reportCmd struct {
	Results     string    `arg:"" type:"existingfile" help:"Results file of ohm sweep (JSON lines); or the output of 'ohm train --json' (one or more, concatenated), reported as a table of its runs."`
	Out         string    `required:"" short:"o" type:"path" placeholder:"DIR" help:"Output folder (created): report.md and figures/*.png, *.svg."`
	Diagnostics commaList `placeholder:"FILE" help:"diagnostics.json of ohm diagnose (several, comma-separated, are merged: e.g. one per dataset): adds the cosine, probe, CKA and overlap sections."`
	Methods     commaList `help:"Only these methods (comma-separated; default: all in the file), e.g. none,curvature,err,res,gtr,fosr for the baselines' comparison."`
	Forms       commaList `help:"Only these graph forms (undirected, directed; default: both)."`
	Features    string    `name:"features" placeholder:"row|raw" help:"Report the runs trained on these features: row or raw (default: each dataset family's, definitions §4.3). Runs of other choices are left out and counted."`
	PairNormAt  string    `name:"pairnorm-at" placeholder:"pre|post" help:"Report the PairNorm runs with PairNorm at this position: pre or post the ReLU (default: definitions §4.2). Runs of the other are left out and counted."`
}

// Run checks that --out can be written, reads the results (a truncated
// last line is ignored) and writes the report, whole or not at all. Ctrl-C
// (SIGINT or SIGTERM) stops it between two figures, writing nothing.
func (c *reportCmd) Run(g *Globals) error {
	if err := checkOutputIn("--out", c.Out, "report.md", true); err != nil {
		return err
	}
	if c.Features != "" {
		if _, err := gnn.ParseFeatures(c.Features); err != nil {
			return usagef("--features: %v", err)
		}
	}
	if c.PairNormAt != "" {
		if _, err := gnn.ParsePairNormAt(c.PairNormAt); err != nil {
			return usagef("--pairnorm-at: %v", err)
		}
	}
	if _, err := filterRecords(nil, c.Methods, c.Forms); err != nil {
		return err // every flag is checked before any file is read
	}
	// The diagnostics first: a missing or clashing file fails at once,
	// not after a large results file is read.
	var diag *diagnose.Diagnostics
	if len(c.Diagnostics) > 0 {
		var err error
		if diag, err = report.ReadDiagnostics(c.Diagnostics...); err != nil {
			return fmt.Errorf("--diagnostics: %w", err)
		}
	}
	if outs := readTrainOutputs(c.Results); outs != nil {
		return c.reportTraining(g, outs)
	}
	ctx, release := interruptible(g, "stopping after the figure in flight; nothing is written")
	defer release()
	all, unknown, err := sweep.ReadResultsFields(c.Results)
	if err != nil {
		return err
	}
	if len(unknown) > 0 {
		fmt.Fprintf(g.Stderr, "ohm: warning: %s: fields this version of ohm does not know (written by a newer ohm?): %s; read past\n", c.Results, strings.Join(unknown, ", "))
	}
	// Results of other rewiring code versions never mix into a report: they
	// are left out, and the message names their versions.
	recs, stale := sweep.CurrentRecords(all)
	if recs, err = filterRecords(recs, c.Methods, c.Forms); err != nil {
		return err
	}
	for _, st := range stale {
		fmt.Fprintf(g.Stderr, "ohm report: left out %d runs of %s rewiring code: %s (%s)\n", st.Count, st.Relation, st, staleRemedy[st.Relation])
	}
	if len(recs) == 0 && diag == nil {
		if len(all) > 0 {
			return fmt.Errorf("%s holds no results of the current rewiring code (%d runs of other code versions)", c.Results, len(all))
		}
		return fmt.Errorf("%s holds no results", c.Results)
	}
	paper, err := published.Paper()
	if err != nil {
		return err
	}
	out, err := report.Write(recs, report.Options{Out: c.Out, Source: c.Results, Diagnostics: diag, Context: ctx,
		Published: paper, Features: c.Features, PairNormAt: c.PairNormAt})
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return interruptedf("nothing written to %s", c.Out)
	}
	if err != nil {
		return fmt.Errorf("report: %w%s", err, nothingWrittenTo(err, c.Out))
	}
	for _, k := range slices.Sorted(maps.Keys(out.LeftOut)) {
		fmt.Fprintf(g.Stderr, "ohm report: left out %d runs of other training choices (%s); --features and --pairnorm-at select them\n", out.LeftOut[k], k)
	}
	left := 0
	for _, n := range out.LeftOut {
		left += n
	}
	_, err = fmt.Fprintf(g.Stdout, "wrote %s (%s, %s as PNG and SVG)\n", out.Markdown, plural(len(recs)-left, "run"), plural(len(out.Figures), "figure"))
	return err
}

// staleRemedy says what to do about runs of another rewiring code version.
var staleRemedy = map[sweep.Relation]string{
	sweep.Older: "rerun ohm sweep on the same results file to redo them",
	sweep.Newer: "a newer ohm made them: report them with it",
	sweep.Other: "versions that do not compare with this ohm's",
}

// filterRecords keeps the records of the given methods and forms (all when
// a list is empty); an unknown name is a usage error.
func filterRecords(recs []sweep.Record, methods, forms []string) ([]sweep.Record, error) {
	for _, m := range methods {
		if !slices.Contains(sweep.AllMethods, m) {
			return nil, usagef("--methods: unknown method %q (known: %s)", m, strings.Join(sweep.AllMethods, ", "))
		}
	}
	for _, f := range forms {
		if f != sweep.Undirected && f != sweep.Directed {
			return nil, usagef("--forms: unknown form %q (undirected or directed)", f)
		}
	}
	return slices.DeleteFunc(recs, func(r sweep.Record) bool {
		return (len(methods) > 0 && !slices.Contains(methods, r.Method)) || (len(forms) > 0 && !slices.Contains(forms, r.Form))
	}), nil
}

// readTrainOutputs returns the outputs of `ohm train --json` that path
// holds (one JSON object, or several one after another, as `>>` appends
// them), or nil when it holds anything else (sweep records among them).
func readTrainOutputs(path string) []TrainOut {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var outs []TrainOut
	for {
		var o TrainOut
		err := dec.Decode(&o)
		if err == io.EOF {
			return outs
		}
		if err != nil || o.Dataset == "" || o.Model == "" || len(o.Runs) == 0 {
			return nil
		}
		outs = append(outs, o)
	}
}

// reportTraining writes report.md for outputs of `ohm train --json`: one
// row per training (mean ± std over its runs), then one per run. Sweep
// reports (best layer, edits, figures) need sweep records.
func (c *reportCmd) reportTraining(g *Globals, outs []TrainOut) error {
	if len(c.Methods) > 0 || len(c.Forms) > 0 || len(c.Diagnostics) > 0 {
		return usagef("--methods, --forms and --diagnostics apply to sweep records; %s holds the output of 'ohm train --json'", c.Results)
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	var b strings.Builder
	runs := 0
	for _, o := range outs {
		runs += len(o.Runs)
	}
	pn := map[bool]string{false: "no", true: "yes"}
	fmt.Fprintf(&b, "# ohm report\n\n%s (%s) of `ohm train --json` from `%s`. Accuracies in %%: mean ± population std over each training's runs. "+
		"For the sweep's tables and figures (best layer, realized edits, accuracy versus depth), run `ohm sweep --results FILE …` (or `ohm sweep --graph G.npz …`) and report its results file.\n\n",
		plural(len(outs), "training"), plural(runs, "run"), c.Results)
	b.WriteString("## Trainings\n\n| dataset | graph | model | layers | PairNorm | runs | test acc | val acc |\n|---|---|---|---:|---|---:|---:|---:|\n")
	for _, o := range outs {
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %s | %d | %.1f ± %.1f | %.1f |\n", o.Dataset, o.Graph, o.Model, o.Layers, pn[o.PairNorm],
			len(o.Runs), 100*o.TestAccMean, 100*o.TestAccStd, 100*o.ValAccMean)
	}
	b.WriteString("\n## Runs\n\n| dataset | graph | model | layers | PairNorm | seed | split | best epoch | val acc | test acc |\n|---|---|---|---:|---|---:|---:|---:|---:|---:|\n")
	for _, o := range outs {
		for _, r := range o.Runs {
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %s | %d | %d | %d | %.1f | %.1f |\n", o.Dataset, o.Graph, o.Model, o.Layers, pn[o.PairNorm],
				r.Seed, r.Split, r.BestEpoch, 100*r.ValAcc, 100*r.TestAcc)
		}
	}
	md := filepath.Join(c.Out, "report.md")
	if err := atomicfile.WriteFile(md, func(w io.Writer) error {
		_, err := io.WriteString(w, b.String())
		return err
	}); err != nil {
		return err
	}
	_, err := fmt.Fprintf(g.Stdout, "wrote %s (%s of ohm train --json, %s; no figures: sweep records make those)\n", md, plural(len(outs), "training"), plural(runs, "run"))
	return err
}
