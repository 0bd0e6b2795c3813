package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ohmgnn/ohm/model/diagnose"
	"github.com/ohmgnn/ohm/model/report"
	"github.com/ohmgnn/ohm/model/sweep"
)

// reportCmd is `ohm report`: Markdown tables and PNG/SVG figures from a
// sweep's results (and optionally `ohm diagnose`'s diagnostics.json).
type reportCmd struct {
	Results     string   `arg:"" type:"existingfile" help:"Results file of ohm sweep (JSON lines)."`
	Out         string   `required:"" short:"o" type:"path" help:"Output folder (created): report.md and figures/*.png, *.svg."`
	Diagnostics string   `type:"existingfile" help:"diagnostics.json of ohm diagnose: adds the cosine, probe, CKA and overlap sections."`
	Methods     []string `help:"Only these methods (comma-separated; default: all in the file), e.g. none,curvature,err,res,gtr,fosr for the baselines' comparison."`
	Forms       []string `help:"Only these graph forms (undirected, directed; default: both)."`
}

// Run checks that --out can be written, reads the results (a truncated
// last line is ignored) and writes the report, whole or not at all. Ctrl-C
// (SIGINT or SIGTERM) stops it between two figures, writing nothing.
func (c *reportCmd) Run(g *Globals) error {
	if err := checkOutputIn("--out", c.Out, "report.md", true); err != nil {
		return err
	}
	ctx, release := interruptible(g, "stopping after the figure in flight; nothing is written")
	defer release()
	all, err := sweep.ReadResults(c.Results)
	if err != nil {
		return err
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
	var diag *diagnose.Diagnostics
	if c.Diagnostics != "" {
		if diag, err = report.ReadDiagnostics(c.Diagnostics); err != nil {
			return fmt.Errorf("--diagnostics: %w", err)
		}
	}
	if len(recs) == 0 && diag == nil {
		if len(all) > 0 {
			return fmt.Errorf("%s holds no results of the current rewiring code (%d runs of other code versions)", c.Results, len(all))
		}
		return fmt.Errorf("%s holds no results", c.Results)
	}
	out, err := report.Write(recs, report.Options{Out: c.Out, Source: c.Results, Diagnostics: diag, Context: ctx})
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return interruptedf("nothing written to %s", c.Out)
	}
	if err != nil {
		return fmt.Errorf("report: %w%s", err, nothingWrittenTo(err, c.Out))
	}
	_, err = fmt.Fprintf(g.Stdout, "wrote %s (%d runs, %d figures as PNG and SVG)\n", out.Markdown, len(recs), len(out.Figures))
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
