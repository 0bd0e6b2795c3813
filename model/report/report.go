// Package report turns sweep results (and optionally the diagnostics of
// `ohm diagnose`) into the paper's layouts (SPEC §6): a Markdown file with
// the "best layer / max accuracy" tables per budget and dataset pair (mean
// ± std at the best depth, marked where an exact Wilcoxon signed-rank test
// against none gives p < 0.05, beside the paper's own one-run statistic)
// and the realized-edits tables (operations and net), plus PNG and SVG
// figures made with gonum.org/v1/plot:
// accuracy versus depth (one line per method, ± std band), cosine similarity
// per layer, linear-probe curves, CKA per depth and an UpSet-style plot of
// the added-edge overlaps. A section is written only when its data exist.
package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/model/diagnose"
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
}

// Output lists what Write wrote.
type Output struct {
	Markdown string   // path of report.md
	Figures  []string // paths of the figures, without extension (.png and .svg each)
}

// ReadDiagnostics reads diagnostics.json as `ohm diagnose` writes it.
func ReadDiagnostics(path string) (*diagnose.Diagnostics, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var d diagnose.Diagnostics
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &d, nil
}

// accKey groups runs that differ only by seed and split.
type accKey struct {
	dataset, form, model string
	pairnorm             bool
	method               string
	budget               float64
	layers               int
}

// stat is the mean ± population std of the test accuracies of a group.
type stat struct {
	mean, std float64
	n         int
}

// runID names one run of a group: its seed and split.
type runID struct {
	seed  uint64
	split int
}

// editKey names one rewired graph.
type editKey struct {
	dataset, form, method string
	budget                float64
}

type edits struct {
	e0, added, removed   int
	addedNet, removedNet int // net counts |E_T ∖ E_0|, |E_0 ∖ E_T|
	hasNet               bool
	stopped              string
}

// tables holds the records, aggregated.
type tables struct {
	acc   map[accKey]stat
	runs1 map[accKey]map[runID]float64 // every run's test accuracy
	edits map[editKey]edits
	// What exists, in report order.
	forms    []formModel
	datasets []string
	methods  []string
	budgets  []float64 // without 0 (the baseline's)
	runs     int
}

type formModel struct{ form, model string }

// cellRuns says how many runs (seeds × splits) each table cell and figure
// point averages: "each cell averages 3 runs", or the range when settings
// differ.
func (t *tables) cellRuns() string {
	lo, hi := 0, 0
	for _, st := range t.acc {
		if lo == 0 || st.n < lo {
			lo = st.n
		}
		hi = max(hi, st.n)
	}
	switch {
	case hi == 0:
		return "no runs"
	case lo == hi && lo == 1:
		return "each cell is a single run (no std)"
	case lo == hi:
		return fmt.Sprintf("each cell averages %d runs", lo)
	}
	return fmt.Sprintf("each cell averages %d to %d runs", lo, hi)
}

func mean(xs []float64) (m, s float64) {
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	for _, x := range xs {
		s += (x - m) * (x - m)
	}
	return m, math.Sqrt(s / float64(len(xs)))
}

// aggregate groups the records (the last record of a key wins, so a file
// holding a run twice counts it once).
func aggregate(recs []sweep.Record) *tables {
	last := map[sweep.Key]int{}
	for i := range recs {
		last[recs[i].Key()] = i
	}
	accs := map[accKey][]float64{}
	t := &tables{acc: map[accKey]stat{}, runs1: map[accKey]map[runID]float64{}, edits: map[editKey]edits{}}
	for i := range recs {
		r := &recs[i]
		if last[r.Key()] != i {
			continue
		}
		t.runs++
		b := r.Budget
		if r.Method == sweep.None {
			b = 0
		}
		k := accKey{r.Dataset, r.Form, r.Model, r.PairNorm, r.Method, b, r.Layers}
		accs[k] = append(accs[k], r.TestAcc)
		if t.runs1[k] == nil {
			t.runs1[k] = map[runID]float64{}
		}
		t.runs1[k][runID{r.Seed, r.Split}] = r.TestAcc
		// Net counts: records of code that did not write them hold 0 and 0
		// beside a non-zero operation count.
		hasNet := r.AddedNet != 0 || r.RemovedNet != 0 || (r.Added == 0 && r.Removed == 0)
		t.edits[editKey{r.Dataset, r.Form, r.Method, b}] = edits{e0: r.E0, added: r.Added, removed: r.Removed,
			addedNet: r.AddedNet, removedNet: r.RemovedNet, hasNet: hasNet, stopped: r.StoppedEarly}
		fm := formModel{r.Form, r.Model}
		if !slices.Contains(t.forms, fm) {
			t.forms = append(t.forms, fm)
		}
		if !slices.Contains(t.datasets, r.Dataset) {
			t.datasets = append(t.datasets, r.Dataset)
		}
		if !slices.Contains(t.methods, r.Method) {
			t.methods = append(t.methods, r.Method)
		}
		if b != 0 && !slices.Contains(t.budgets, b) {
			t.budgets = append(t.budgets, b)
		}
	}
	for k, xs := range accs {
		m, s := mean(xs)
		t.acc[k] = stat{m, s, len(xs)}
	}
	order := func(list []string) func(a, b string) int {
		return func(a, b string) int {
			ia, ib := slices.Index(list, a), slices.Index(list, b)
			if ia < 0 {
				ia = len(list)
			}
			if ib < 0 {
				ib = len(list)
			}
			return cmp.Or(cmp.Compare(ia, ib), strings.Compare(a, b))
		}
	}
	slices.SortFunc(t.methods, order(methodOrder))
	var dsOrder []string
	for _, p := range datasetPairs {
		dsOrder = append(dsOrder, p...)
	}
	slices.SortFunc(t.datasets, order(dsOrder))
	slices.Sort(t.budgets)
	fmOrder := []string{"undirected/gcn", "directed/gcn", "directed/dirgcn", "undirected/dirgcn"}
	slices.SortFunc(t.forms, func(a, b formModel) int {
		return order(fmOrder)(a.form+"/"+a.model, b.form+"/"+b.model)
	})
	return t
}

// best returns the depth with the best mean test accuracy (the smallest on
// ties) and its stat, or ok false when there are no runs.
func (t *tables) best(dataset, form, model string, pn bool, method string, budget float64) (layers int, s stat, ok bool) {
	if method == sweep.None {
		budget = 0
	}
	for k, v := range t.acc {
		if k.dataset != dataset || k.form != form || k.model != model || k.pairnorm != pn || k.method != method || k.budget != budget {
			continue
		}
		if !ok || v.mean > s.mean || (v.mean == s.mean && k.layers < layers) {
			layers, s, ok = k.layers, v, true
		}
	}
	return
}

// paperStat returns the paper's own statistic of a cell: the test accuracy
// of the single run with seed 0 and split 0, maximised over the depths, and
// that depth (the smallest on ties); ok false when no depth has that run.
func (t *tables) paperStat(dataset, form, model string, pn bool, method string, budget float64) (acc float64, layers int, ok bool) {
	if method == sweep.None {
		budget = 0
	}
	for k, runs := range t.runs1 {
		if k.dataset != dataset || k.form != form || k.model != model || k.pairnorm != pn || k.method != method || k.budget != budget {
			continue
		}
		a, has := runs[runID{0, 0}]
		if !has {
			continue
		}
		if !ok || a > acc || (a == acc && k.layers < layers) {
			acc, layers, ok = a, k.layers, true
		}
	}
	return
}

// significance is a method's comparison with none in one cell.
type significance struct {
	p float64 // two-sided p of the Wilcoxon signed-rank test
	n int     // non-zero paired differences
}

// mark returns "**" for p < 0.01, "*" for p < 0.05, else "".
func (s significance) mark() string {
	switch {
	case s.p < 0.01:
		return "**"
	case s.p < 0.05:
		return "*"
	}
	return ""
}

// versusNone compares method at its best depth with none at its own, paired
// over the (seed, split) runs both have, by the exact Wilcoxon signed-rank
// test; ok false for none itself or without common runs.
func (t *tables) versusNone(dataset, form, model string, pn bool, method string, budget float64) (significance, bool) {
	if method == sweep.None {
		return significance{}, false
	}
	lm, _, ok1 := t.best(dataset, form, model, pn, method, budget)
	l0, _, ok2 := t.best(dataset, form, model, pn, sweep.None, 0)
	if !ok1 || !ok2 {
		return significance{}, false
	}
	rm := t.runs1[accKey{dataset, form, model, pn, method, budget, lm}]
	r0 := t.runs1[accKey{dataset, form, model, pn, sweep.None, 0, l0}]
	ids := make([]runID, 0, len(rm))
	for id := range rm {
		if _, ok := r0[id]; ok {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 || len(ids) > maxExactN {
		return significance{}, false
	}
	slices.SortFunc(ids, func(a, b runID) int { return cmp.Or(cmp.Compare(a.split, b.split), cmp.Compare(a.seed, b.seed)) })
	x, y := make([]float64, len(ids)), make([]float64, len(ids))
	for i, id := range ids {
		x[i], y[i] = rm[id], r0[id]
	}
	p, n := WilcoxonExact(x, y)
	return significance{p, n}, true
}

// curve returns the depths and stats of one method, by depth.
func (t *tables) curve(dataset, form, model string, pn bool, method string, budget float64) (ls []int, ss []stat) {
	if method == sweep.None {
		budget = 0
	}
	for k := range t.acc {
		if k.dataset == dataset && k.form == form && k.model == model && k.pairnorm == pn && k.method == method && k.budget == budget {
			ls = append(ls, k.layers)
		}
	}
	slices.Sort(ls)
	for _, l := range ls {
		ss = append(ss, t.acc[accKey{dataset, form, model, pn, method, budget, l}])
	}
	return
}

func (t *tables) has(dataset, form, model string) bool {
	for k := range t.acc {
		if k.dataset == dataset && k.form == form && k.model == model {
			return true
		}
	}
	return false
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

// Write writes Out/report.md and the figures from the records.
func Write(recs []sweep.Record, opt Options) (*Output, error) {
	figDir := filepath.Join(opt.Out, FigureDir)
	if err := os.MkdirAll(figDir, 0o755); err != nil {
		return nil, err
	}
	out := &Output{Markdown: filepath.Join(opt.Out, "report.md")}
	t := aggregate(recs)
	var b strings.Builder
	b.WriteString("# ohm report\n\n")
	src := "the results"
	if opt.Source != "" {
		src = "`" + relativeTo(opt.Out, opt.Source) + "`"
	}
	fmt.Fprintf(&b, "%d runs from %s. Accuracies are test accuracies in %%: mean ± population std over the seeds and splits of each setting; %s.\n\n", t.runs, src, t.cellRuns())
	fig := func(name string) string {
		out.Figures = append(out.Figures, filepath.Join(figDir, name))
		return fmt.Sprintf("![%s](%s/%s.png) ([svg](%s/%s.svg))\n\n", name, FigureDir, name, FigureDir, name)
	}
	if t.runs > 0 {
		writeBestTables(&b, t)
		writeEditsTable(&b, t)
		if err := writeAccuracyFigures(&b, t, figDir, fig); err != nil {
			return nil, err
		}
	}
	if d := opt.Diagnostics; d != nil {
		if err := writeDiagnostics(&b, d, figDir, fig); err != nil {
			return nil, err
		}
	}
	err := graphio.WriteFileAtomic(out.Markdown, func(w io.Writer) error {
		_, err := io.WriteString(w, b.String())
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
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
// accuracy (mean ± std, marked when it differs from none beyond noise), and
// the paper's statistic (seed 0, split 0, maximum over depths, with its
// depth).
func writeBestTables(b *strings.Builder, t *tables) {
	b.WriteString("## Best layer / max accuracy\n\n")
	b.WriteString("For each method, the depth L* with the best mean test accuracy (the smallest on ties) and that accuracy ± std over the seeds and splits. ")
	b.WriteString("`*` (`**`): the method at its L* differs from `none` at its own L* with p < 0.05 (p < 0.01) in a two-sided exact Wilcoxon signed-rank test, paired over the seeds and splits both have (zero differences dropped, tied ranks averaged; with 10 pairs the smallest possible p is 0.002). ")
	b.WriteString("**paper** is the statistic of the paper's tables: the single run with seed 0 and split 0, its best test accuracy over the depths, and that depth in parentheses. ")
	b.WriteString("The baseline `none` has no budget: its row is the same in every budget's table. ")
	b.WriteString("PairNorm acts after every layer but the last, so a 1-layer model has none: L* = 1 in a PairNorm column means no deeper model with PairNorm did better, and repeats the 1-layer number.\n\n")
	budgets := t.budgets
	if len(budgets) == 0 {
		budgets = []float64{0}
	}
	for _, fm := range t.forms {
		for _, r := range budgets {
			for _, pair := range datasetPairs {
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
				fmt.Fprintf(b, "### %s\n\n| method |", title)
				for _, d := range ds {
					fmt.Fprintf(b, " %s L* | %s acc | %s paper | %s +PN L* | %s +PN acc | %s +PN paper |", d, d, d, d, d, d)
				}
				b.WriteString("\n|---|")
				for range ds {
					b.WriteString("---:|---:|---:|---:|---:|---:|")
				}
				b.WriteString("\n")
				for _, m := range t.methods {
					row := fmt.Sprintf("| %s |", m)
					any := false
					for _, d := range ds {
						for _, pn := range []bool{false, true} {
							l, s, ok := t.best(d, fm.form, fm.model, pn, m, r)
							if !ok {
								row += " – | – | – |"
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
						}
					}
					if any {
						b.WriteString(row + "\n")
					}
				}
				b.WriteString("\n")
			}
		}
	}
}

// writeEditsTable writes the realized edits per form: for each method and
// budget, the edges added and removed per dataset and their % of E0.
func writeEditsTable(b *strings.Builder, t *tables) {
	forms := []string{}
	for _, fm := range t.forms {
		if !slices.Contains(forms, fm.form) {
			forms = append(forms, fm.form)
		}
	}
	header := false
	for _, form := range forms {
		var ds []string
		var e0 []string
		for _, d := range t.datasets {
			for k, e := range t.edits {
				if k.dataset == d && k.form == form && k.method != sweep.None {
					ds = append(ds, d)
					e0 = append(e0, fmt.Sprintf("%s %d", d, e.e0))
					break
				}
			}
		}
		if len(ds) == 0 {
			continue
		}
		if !header {
			b.WriteString("## Realized edits\n\n")
			b.WriteString("Edges added and removed by each rewiring, as operations (its B = floor(r·E0) iterations add 0–2 and remove 0–1 edges each) and net (|E_T ∖ E_0| and |E_0 ∖ E_T|: an edge added and later removed, or removed and added back, counts in the operations only), each with its % of E0. — : the results were written without net counts.\n\n")
			header = true
		}
		fmt.Fprintf(b, "### %s form\n\nE0: %s\n\n| method | budget |", form, strings.Join(e0, ", "))
		for _, d := range ds {
			fmt.Fprintf(b, " %s added | %s removed | %s net added | %s net removed |", d, d, d, d)
		}
		b.WriteString("\n|---|---:|")
		for range ds {
			b.WriteString("---:|---:|---:|---:|")
		}
		b.WriteString("\n")
		var notes []string
		for _, m := range t.methods {
			if m == sweep.None {
				continue
			}
			for _, r := range t.budgets {
				row := fmt.Sprintf("| %s | %s |", m, budgetName(r))
				any := false
				for _, d := range ds {
					e, ok := t.edits[editKey{d, form, m, r}]
					if !ok || e.e0 == 0 {
						row += " – | – | – | – |"
						continue
					}
					any = true
					if e.stopped != "" {
						notes = append(notes, fmt.Sprintf("- %s %s %s: %s\n", d, m, budgetName(r), e.stopped))
					}
					frac := func(x int) string { return fmt.Sprintf("%d (%.1f %%)", x, 100*float64(x)/float64(e.e0)) }
					row += fmt.Sprintf(" %s | %s |", frac(e.added), frac(e.removed))
					if e.hasNet {
						row += fmt.Sprintf(" %s | %s |", frac(e.addedNet), frac(e.removedNet))
					} else {
						row += " — | — |"
					}
				}
				if any {
					b.WriteString(row + "\n")
				}
			}
		}
		b.WriteString("\n")
		if len(notes) > 0 {
			b.WriteString("Stopped before B iterations:\n\n" + strings.Join(notes, "") + "\n")
		}
	}
}

// writeAccuracyFigures draws test accuracy versus depth for each form and
// model, budget, dataset and PairNorm setting: one line per method with its
// ± std band.
func writeAccuracyFigures(b *strings.Builder, t *tables, figDir string, fig func(string) string) error {
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
