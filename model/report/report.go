// Package report turns sweep results (and optionally the diagnostics of
// `ohm diagnose`) into the paper's layouts (definitions §6): a Markdown file with
// the "best layer / max accuracy" tables per budget and dataset pair (mean
// ± std at the best depth, marked where a Wilcoxon signed-rank test against
// none — exact up to 64 pairs, the normal approximation above — gives
// p < 0.05, beside the paper's own one-run statistic)
// and the realized-edits tables (operations and net), plus PNG and SVG
// figures made with gonum.org/v1/plot:
// accuracy versus depth (one line per method, ± std band), cosine similarity
// per layer, linear-probe curves, CKA per depth and an UpSet-style plot of
// the added-edge overlaps. A section is written only when its data exist.
package report

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ohmgnn/ohm/internal/atomicfile"
	"github.com/ohmgnn/ohm/model/diagnose"
	"github.com/ohmgnn/ohm/model/gnn"
	"github.com/ohmgnn/ohm/model/published"
	"github.com/ohmgnn/ohm/model/sweep"
)

// methodOrder is the order of methods in tables and legends.
var methodOrder = sweep.AllMethods

// datasetPairs are the paper's table layout: two datasets side by side (the
// built-in ones too; sbm alone).
var datasetPairs = [][]string{{"cornell", "texas"}, {"cora", "citeseer"}, {"ring", "bottleneck"}, {"sbm"}}

// FigureDir is the folder under the output folder that holds the figures.
const FigureDir = "figures"

// Options configure a report.
type Options struct {
	// Out is the output folder; report.md goes there, the figures in
	// Out/figures.
	Out string
	// Source names the results file in the report's header, where it is
	// written relative to Out.
	Source string
	// Diagnostics, when not nil, adds the cosine, probe, CKA and overlap
	// sections.
	Diagnostics *diagnose.Diagnostics
	// Context, when not nil, stops the report between two figures once it
	// is done: Write then returns its error and writes nothing.
	Context context.Context
	// Published, when not nil, sets the paper's published values beside
	// ours (published.Paper gives them).
	Published *published.Tables
	// Features and PairNormAt select the training choices reported:
	// "" selects each dataset's default (sweep.SelectChoices). Records of
	// other choices are left out and counted in Output.LeftOut.
	Features, PairNormAt string
}

// Output lists what Write wrote.
type Output struct {
	Markdown string         // path of report.md
	Figures  []string       // paths of the figures, without extension (.png and .svg each)
	LeftOut  map[string]int // records of other training choices, by choice ("features raw, PairNorm post")
}

// ReadDiagnostics reads diagnostics.json files as `ohm diagnose` writes
// them and merges them into one, so that the diagnostics of several
// datasets, run one `ohm diagnose` each, make one report. Two files that
// hold the same dataset under the same training setting (or the same
// overlap) are an error: the report would show one of them silently.
func ReadDiagnostics(paths ...string) (*diagnose.Diagnostics, error) {
	var all diagnose.Diagnostics
	owner := map[string]string{} // a part of the diagnostics → the file that holds it
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var d diagnose.Diagnostics
		if err := json.Unmarshal(b, &d); err != nil {
			return nil, fmt.Errorf("report: %s: %w", path, err)
		}
		if err := claimParts(owner, path, &d); err != nil {
			return nil, err
		}
		all.Cosine = append(all.Cosine, d.Cosine...)
		all.Probe = append(all.Probe, d.Probe...)
		all.CKA = append(all.CKA, d.CKA...)
		all.Overlap = append(all.Overlap, d.Overlap...)
	}
	return &all, nil
}

// claimParts records in owner the parts of d — a dataset under one training
// setting, an overlap of one dataset and budget — as path's, and fails on a
// part another file holds.
func claimParts(owner map[string]string, path string, d *diagnose.Diagnostics) error {
	parts := map[string]bool{}
	add := func(dataset string, t diagnose.Training) {
		parts[fmt.Sprintf("diagnostics of %s (%s)", dataset, trainingName(t))] = true
	}
	for _, c := range d.Cosine {
		add(c.Dataset, c.Training)
	}
	for _, p := range d.Probe {
		add(p.Dataset, p.Training)
	}
	for _, c := range d.CKA {
		add(c.Dataset, c.Training)
	}
	for _, o := range d.Overlap {
		parts[fmt.Sprintf("the edge overlap of %s at budget %s", o.Dataset, budgetName(o.Budget))] = true
	}
	for _, part := range slices.Sorted(maps.Keys(parts)) {
		if other, ok := owner[part]; ok {
			return fmt.Errorf("report: %s and %s both hold the %s", other, path, part)
		}
		owner[part] = path
	}
	return nil
}

// trainingName says how a diagnostics entry's models were trained.
func trainingName(t diagnose.Training) string {
	s := "PairNorm no"
	if t.PairNorm {
		s = "PairNorm " + cmp.Or(t.PairNormAt, "pre")
	}
	return s + ", features " + cmp.Or(t.Features, "row")
}

func pct(x float64) string { return strconv.FormatFloat(100*x, 'g', 4, 64) + " %" }

func budgetName(b float64) string { return strconv.FormatFloat(b, 'g', -1, 64) }

// fileSafe turns a budget into a file-name part: 0.1 → 0p1.
func fileSafe(s string) string { return strings.NewReplacer(".", "p", "-", "m", " ", "_").Replace(s) }

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// Write writes Out/report.md and the figures from the records. A run
// recorded twice counts once; two different results of one run are an
// error (sweep.Unique). The report is written whole or not at all: every
// figure and report.md are written in full beside their targets first and
// put in place together at the end (atomicfile.CommitAll), so a failure — a
// full disk, an unwritable folder, opt.Context done — leaves Out as it was
// (folders Write created removed again).
func Write(recs []sweep.Record, opt Options) (out *Output, err error) {
	recs, err = sweep.Unique(recs)
	if err != nil {
		return nil, err
	}
	figs, undo, err := newFigures(opt.Context, opt.Out)
	defer func() { undo(err) }()
	if err != nil {
		return nil, err
	}
	out = &Output{Markdown: filepath.Join(opt.Out, "report.md")}
	recs, out.LeftOut = sweep.SelectChoices(recs, opt.Features, opt.PairNormAt)
	recs, files := labelGraphFiles(recs)
	t := aggregate(recs)
	var b strings.Builder
	b.WriteString("# ohm report\n\n")
	src := "the results"
	if opt.Source != "" {
		src = "`" + relativeTo(opt.Out, opt.Source) + "`"
	}
	fmt.Fprintf(&b, "%s from %s. Accuracies are test accuracies in %%: mean ± population std over the seeds and splits of each setting; %s.\n\n", plural(t.runs, "run"), src, t.cellRuns())
	writeChoices(&b, recs, opt, out.LeftOut)
	writeGraphFiles(&b, files)
	fig := func(name string) string {
		out.Figures = append(out.Figures, filepath.Join(figs.dir, name))
		return fmt.Sprintf("![%s](%s/%s.png) ([svg](%s/%s.svg))\n\n", name, FigureDir, name, FigureDir, name)
	}
	if t.runs > 0 {
		ix := indexPaper(opt.Published)
		writeAgreement(&b, t, ix)
		writeBestTables(&b, t, ix)
		writeEditsTable(&b, t, ix)
		if err := writeAccuracyFigures(&b, t, figs, fig); err != nil {
			return nil, err
		}
	}
	if d := opt.Diagnostics; d != nil {
		if err := writeDiagnostics(&b, d, figs, fig); err != nil {
			return nil, err
		}
	}
	md, err := atomicfile.Stage(out.Markdown, func(w io.Writer) error {
		_, err := io.WriteString(w, b.String())
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := figs.ctx.Err(); err != nil {
		md.Discard()
		return nil, err
	}
	if err = atomicfile.CommitAll(append(figs.staged, md)...); err != nil {
		return nil, err
	}
	return out, nil
}

// writeChoices states the training choices of the runs reported and the
// runs of other choices left out.
func writeChoices(b *strings.Builder, recs []sweep.Record, opt Options, left map[string]int) {
	byChoice := map[string][]string{}
	var order []string
	for _, r := range recs {
		f, _ := r.Choices()
		if !slices.Contains(byChoice[f], r.Dataset) {
			if byChoice[f] == nil {
				order = append(order, f)
			}
			byChoice[f] = append(byChoice[f], r.Dataset)
		}
	}
	if len(order) == 0 {
		return
	}
	at := opt.PairNormAt
	if at == "" {
		at = gnn.DefaultPairNormAt.String()
	}
	var parts []string
	for _, f := range order {
		name := map[string]string{"row": "row-normalised", "raw": "raw (as loaded)"}[f]
		parts = append(parts, fmt.Sprintf("%s features on %s", name, strings.Join(byChoice[f], ", ")))
	}
	where := map[string]string{"pre": "before", "post": "after"}[at]
	fmt.Fprintf(b, "Training choices (definitions §4.2–4.3): %s; PairNorm %s the ReLU.", strings.Join(parts, "; "), where)
	if len(left) > 0 {
		var ks []string
		for k := range left {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		var ls []string
		for _, k := range ks {
			ls = append(ls, fmt.Sprintf("%d runs of %s", left[k], k))
		}
		fmt.Fprintf(b, " Left out, as other training choices: %s.", strings.Join(ls, ", "))
	}
	b.WriteString("\n\n")
}

// newFigures makes the figures folder of out (and the folders above it
// that are missing) and returns the figures to stage there, and undo, which
// the caller defers with its final error: on a failure undo discards the
// staged figures and removes the folders newFigures created (only when
// empty: nothing of anyone else's), so a failed report leaves out as it
// was. The figures stop when ctx is done (nil: never).
func newFigures(ctx context.Context, out string) (figs *figures, undo func(error), err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	figs = &figures{ctx: ctx, dir: filepath.Join(out, FigureDir)}
	created, err := mkdirAll(figs.dir)
	undo = func(err error) {
		if err == nil {
			return
		}
		atomicfile.DiscardAll(figs.staged...)
		for i := len(created) - 1; i >= 0; i-- {
			os.Remove(created[i])
		}
	}
	return figs, undo, err
}

// mkdirAll creates dir and the folders above it that are missing, and
// returns those it created, outermost first.
func mkdirAll(dir string) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		missing = append(missing, d)
	}
	slices.Reverse(missing)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return missing, err
	}
	return missing, nil
}

// relativeTo returns path relative to the folder dir when both resolve, so
// that a report names its results file in a way that survives moving the
// folder with it (results.jsonl beside report.md: "results.jsonl"); else
// path unchanged.
func relativeTo(dir, path string) string {
	d, err1 := filepath.Abs(dir)
	p, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return path
	}
	if rel, err := filepath.Rel(d, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return path
}

// writeBestTables writes, for each form and model, each budget and each
// dataset pair, per method and PairNorm setting: the best depth L* and its
// accuracy (mean ± std, marked when it differs from none beyond noise), the
// paper's statistic of ours (seed 0, split 0, maximum over depths, with its
// depth), and where the paper publishes the cell its value and depth and
// the difference in units of our std; then a line of agreement per table.
func writeBestTables(b *strings.Builder, t *tables, ix *paperIndex) {
	b.WriteString("## Best layer / max accuracy\n\n")
	b.WriteString("For each method and PairNorm setting (PN), the depth L* with the best mean test accuracy (the smallest on ties) and that accuracy ± std over the seeds and splits (**ours**). ")
	b.WriteString("`*` (`**`): the method at its L* differs from `none` at its own L* with p < 0.05 (p < 0.01) in a two-sided Wilcoxon signed-rank test, paired over the seeds and splits both have (zero differences dropped, tied ranks averaged): exact up to 64 non-zero differences (with 10 pairs the smallest possible p is 0.002), above that by the normal approximation with tie and continuity corrections, as scipy.stats.wilcoxon computes it, and then marked `†` (`*†`, `**†`). ")
	b.WriteString("**split 0** is our value of the statistic of the paper's tables: the single run with seed 0 and split 0, its best test accuracy over the depths, and that depth in parentheses. ")
	b.WriteString("**paper** is the published value and its depth (transcribed from the paper's appendix: model/published in the repository), and **Δ/σ** is (ours − paper) in units of our std (– where our std is 0). ")
	b.WriteString("The baseline `none` has no budget: its row is the same in every budget's table (the paper has no `none` row). ")
	b.WriteString("PairNorm acts after every layer but the last, so a 1-layer model has none: L* = 1 with PairNorm means no deeper model with PairNorm did better, and repeats the 1-layer number.\n\n")
	budgets := t.budgets
	if len(budgets) == 0 {
		budgets = []float64{0}
	}
	for _, fm := range t.forms {
		for _, r := range budgets {
			for _, pair := range t.groups {
				var ds []string
				for _, d := range pair {
					if t.has(d, fm.form, fm.model) {
						ds = append(ds, d)
					}
				}
				if len(ds) == 0 {
					continue
				}
				title := fmt.Sprintf("%s, %s form, %s", strings.Join(ds, " / "), fm.form, strings.ToUpper(fm.model))
				if r != 0 {
					title += fmt.Sprintf(", budget %s (%g %% of E0)", budgetName(r), 100*r)
				}
				fmt.Fprintf(b, "### %s\n\n| method | PN |", title)
				for _, d := range ds {
					fmt.Fprintf(b, " %s L* | %s ours | %s split 0 | %s paper | %s Δ/σ |", d, d, d, d, d)
				}
				b.WriteString("\n|---|---|")
				for range ds {
					b.WriteString("---:|---:|---:|---:|---:|")
				}
				b.WriteString("\n")
				var agree agreement
				for _, pn := range []bool{false, true} {
					for _, m := range t.methods {
						if row, ok := bestRow(t, ix, ds, fm, pn, m, r, &agree); ok {
							b.WriteString(row + "\n")
						}
					}
				}
				b.WriteString("\n" + agree.line())
			}
		}
	}
}

// bestRow renders one method's row of a best-depth table and adds its
// published cells to agree; ok false when no dataset has the method.
func bestRow(t *tables, ix *paperIndex, ds []string, fm formModel, pn bool, m string, r float64, agree *agreement) (string, bool) {
	row := fmt.Sprintf("| %s | %s |", m, yesNo(pn))
	any := false
	for _, d := range ds {
		l, s, ok := t.best(d, fm.form, fm.model, pn, m, r)
		if !ok {
			row += " – | – | – | – | – |"
			continue
		}
		any = true
		mark := ""
		if sig, ok := t.versusNone(d, fm.form, fm.model, pn, m, r); ok {
			mark = sig.mark()
		}
		row += fmt.Sprintf(" %d | %.1f ± %.1f%s |", l, 100*s.mean, 100*s.std, mark)
		if a, pl, ok := t.paperStat(d, fm.form, fm.model, pn, m, r); ok {
			row += fmt.Sprintf(" %.1f (%d) |", 100*a, pl)
		} else {
			row += " – |"
		}
		if c, p, ok := t.compare(ix, d, fm.form, fm.model, pn, m, r); ok {
			agree.add(c)
			row += fmt.Sprintf(" %.1f (%d) | %s |", p.Acc, p.Layer, zString(c.z()))
		} else {
			row += " – | – |"
		}
	}
	return row, any
}

// zString renders a difference in units of std: "+1.3", "-0.4"; "–" when
// it has no finite value (our std is 0 and the values differ: a ratio to
// zero says nothing).
func zString(z float64) string {
	if math.IsInf(z, 0) || math.IsNaN(z) {
		return "–"
	}
	return fmt.Sprintf("%+.1f", z)
}

// writeEditsTable writes the realized edits per form: for each dataset,
// method and budget, the edges added and removed as operations and net,
// each with its % of E0, and where the paper publishes the cell its counts
// and the reason they differ from ours (editReason).
func writeEditsTable(b *strings.Builder, t *tables, ix *paperIndex) {
	forms := []string{}
	for _, fm := range t.forms {
		if !slices.Contains(forms, fm.form) {
			forms = append(forms, fm.form)
		}
	}
	header := false
	for _, form := range forms {
		var rows, notes []string
		reasons := map[editReason]int{}
		for _, d := range t.datasets {
			for _, m := range t.methods {
				if m == sweep.None {
					continue
				}
				for _, r := range t.budgets {
					e, ok := t.edits[editKey{d, form, m, r}]
					if !ok || e.e0 == 0 {
						continue
					}
					if e.stopped != "" {
						notes = append(notes, fmt.Sprintf("- %s %s %s: %s\n", d, m, budgetName(r), e.stopped))
					}
					rows = append(rows, editRow(d, m, r, e, ix.edits[editKey{d, form, m, r}], reasons))
				}
			}
		}
		if len(rows) == 0 {
			continue
		}
		if !header {
			b.WriteString("## Realized edits\n\n")
			b.WriteString("Edges added and removed by each rewiring, as operations (its B = floor(r·E0) iterations add 0–2 and remove 0–1 edges each) and net (|E_T ∖ E_0| and |E_0 ∖ E_T|: an edge added and later removed, or removed and added back, counts in the operations only), each with its % of E0. — : the results were written without net counts. ")
			b.WriteString("**paper** is the published count of operations (added / removed; – where the paper prints none) and **why** the reason ours differs, explained below each table.\n\n")
			header = true
		}
		fmt.Fprintf(b, "### %s form\n\n| dataset | method | budget | B | iterations | added | removed | net added | net removed | paper | why |\n", form)
		b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
		b.WriteString(strings.Join(rows, "\n") + "\n\n")
		writeEditReasons(b, reasons)
		if len(notes) > 0 {
			b.WriteString("Stopped before B iterations:\n\n" + strings.Join(notes, "") + "\n")
		}
	}
}

// editRow renders one rewiring's row of the realized-edits table and counts
// its reason.
func editRow(d, m string, r float64, e edits, p published.Edits, reasons map[editReason]int) string {
	frac := func(x int) string { return fmt.Sprintf("%d (%.1f %%)", x, 100*float64(x)/float64(e.e0)) }
	B := int(math.Floor(r * float64(e.e0)))
	row := fmt.Sprintf("| %s | %s | %s | %d | %d | %s | %s |", d, m, budgetName(r), B, e.iterations, frac(e.added), frac(e.removed))
	if e.hasNet {
		row += fmt.Sprintf(" %s | %s |", frac(e.addedNet), frac(e.removedNet))
	} else {
		row += " — | — |"
	}
	if p.Added == nil {
		return row + " – | |"
	}
	removed := "–"
	if p.Removed != nil {
		removed = fmt.Sprint(*p.Removed)
	}
	why := classifyEdits(B, e, p)
	reasons[why]++
	return row + fmt.Sprintf(" %d / %s | %s |", *p.Added, removed, why)
}

// writeAccuracyFigures draws test accuracy versus depth for each form and
// model, budget, dataset and PairNorm setting: one line per method with its
// ± std band.
func writeAccuracyFigures(b *strings.Builder, t *tables, figDir *figures, fig func(string) string) error {
	budgets := t.budgets
	if len(budgets) == 0 {
		budgets = []float64{0}
	}
	header := false
	for _, fm := range t.forms {
		for _, r := range budgets {
			for _, d := range t.datasets {
				for _, pn := range []bool{false, true} {
					var ss []series
					maxDepths := 0
					for _, m := range t.methods {
						ls, st := t.curve(d, fm.form, fm.model, pn, m, r)
						if len(ls) == 0 {
							continue
						}
						s := series{name: m, color: methodStyle(m), dashed: m == sweep.None}
						for i, l := range ls {
							s.x = append(s.x, float64(l))
							s.y = append(s.y, 100*st[i].mean)
							s.band = append(s.band, 100*st[i].std)
						}
						maxDepths = max(maxDepths, len(ls))
						ss = append(ss, s)
					}
					if len(ss) == 0 || maxDepths < 2 {
						continue
					}
					if !header {
						b.WriteString("## Accuracy versus depth\n\nMean test accuracy per depth, one line per method, the band is ± one std.\n\n")
						header = true
					}
					title := fmt.Sprintf("%s, %s, %s, PairNorm %s", d, fm.form, strings.ToUpper(fm.model), yesNo(pn))
					if r != 0 {
						title += fmt.Sprintf(", budget %s", budgetName(r))
					}
					p, err := linePlot(title, "depth L", "test accuracy (%)", ss, true)
					if err != nil {
						return err
					}
					name := fmt.Sprintf("acc_%s_%s_%s_b%s_pn%s", d, fm.form, fm.model, fileSafe(budgetName(r)), yesNo(pn))
					if _, err := savePlot(figDir, name, p); err != nil {
						return err
					}
					fmt.Fprintf(b, "### %s\n\n%s", title, fig(name))
				}
			}
		}
	}
	return nil
}
