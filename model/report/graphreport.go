package report

import (
	"cmp"
	"context"
	"fmt"
	"image/color"
	"io"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ohmgnn/ohm/internal/atomicfile"

	"github.com/ohmgnn/ohm/model/gnn"
	"github.com/ohmgnn/ohm/model/sweep"
)

// GraphMarkdown is the file WriteGraph writes in its output folder.
const GraphMarkdown = "graph-classification.md"

// graphCellKey is one (dataset, model, method, budget) of a graph grid.
type graphCellKey struct {
	dataset, model, method string
	budget                 float64
	unit                   string
}

// graphCell is the trials of one cell, by seed.
type graphCell struct {
	test, val map[uint64]float64
	rewire    float64 // rewiring seconds (the cell's dataset, all graphs)
	added     int     // edges added over all graphs
}

// meanCI returns the mean and FoSR's interval 2σ/√n (σ the population
// standard deviation) of the cell's test accuracies, and n.
func (c *graphCell) meanCI() (mean, ci float64, n int) {
	xs := bySeed(c.test)
	m, s := gnn.MeanStd(xs)
	if len(xs) == 0 {
		return 0, 0, 0
	}
	return m, 2 * s / math.Sqrt(float64(len(xs))), len(xs)
}

// meanVal returns the mean validation accuracy of the cell.
func (c *graphCell) meanVal() float64 {
	m, _ := gnn.MeanStd(bySeed(c.val))
	return m
}

// bySeed returns the values of m in ascending seed order, so that sums do
// not depend on the map's order.
func bySeed(m map[uint64]float64) []float64 {
	seeds := slices.Sorted(maps.Keys(m))
	xs := make([]float64, len(seeds))
	for i, s := range seeds {
		xs[i] = m[s]
	}
	return xs
}

// graphTables are the cells of graph-classification records.
type graphTables struct {
	cells    map[graphCellKey]*graphCell
	datasets []string
	models   []string
	methods  []string
	runs     int
}

// aggregateGraph groups graph-classification records by cell.
func aggregateGraph(recs []sweep.Record) *graphTables {
	t := &graphTables{cells: map[graphCellKey]*graphCell{}}
	for _, r := range recs {
		if r.Task != sweep.TaskGraph {
			continue
		}
		t.runs++
		k := graphCellKey{r.Dataset, r.Model, r.Method, r.Budget, r.BudgetUnit}
		c := t.cells[k]
		if c == nil {
			c = &graphCell{test: map[uint64]float64{}, val: map[uint64]float64{}}
			t.cells[k] = c
		}
		c.test[r.Seed], c.val[r.Seed] = r.TestAcc, r.ValAcc
		c.rewire, c.added = max(c.rewire, r.RewireSecs), r.Added
		for _, s := range []struct {
			list *[]string
			v    string
		}{{&t.datasets, r.Dataset}, {&t.models, r.Model}, {&t.methods, r.Method}} {
			if !slices.Contains(*s.list, s.v) {
				*s.list = append(*s.list, s.v)
			}
		}
	}
	slices.Sort(t.datasets)
	order := func(list []string, known []string) {
		slices.SortFunc(list, func(a, b string) int {
			return cmp.Compare(indexOr(known, a), indexOr(known, b))
		})
	}
	order(t.models, []string{"gcn", "gin", "rgcn", "rgin"})
	order(t.methods, sweep.AllMethods)
	return t
}

// indexOr returns the index of s in list, or len(list).
func indexOr(list []string, s string) int {
	if i := slices.Index(list, s); i >= 0 {
		return i
	}
	return len(list)
}

// chosen returns the cell of (dataset, model, method) whose budget has the
// highest mean validation accuracy over the seeds every budget of it has
// (a pre-sweep's, when the chosen budget ran more trials), the smallest
// budget on ties (edits before fractions), and its key; nil when there is
// none.
func (t *graphTables) chosen(d, model, method string) (*graphCell, graphCellKey) {
	var keys []graphCellKey
	for k := range t.cells {
		if k.dataset == d && k.model == model && k.method == method {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, graphCellKey{}
	}
	slices.SortFunc(keys, func(a, b graphCellKey) int {
		return cmp.Or(cmp.Compare(a.unit, b.unit), cmp.Compare(a.budget, b.budget))
	})
	common := t.commonSeeds(keys)
	best, bestVal := -1, math.Inf(-1)
	for i, k := range keys {
		c := t.cells[k]
		sub := map[uint64]float64{}
		for s := range common {
			sub[s] = c.val[s]
		}
		if v, _ := gnn.MeanStd(bySeed(sub)); v > bestVal {
			best, bestVal = i, v
		}
	}
	if best < 0 {
		best = 0
	}
	return t.cells[keys[best]], keys[best]
}

// commonSeeds returns the seeds that every cell of keys holds.
func (t *graphTables) commonSeeds(keys []graphCellKey) map[uint64]bool {
	common := map[uint64]bool{}
	for s := range t.cells[keys[0]].val {
		common[s] = true
	}
	for _, k := range keys[1:] {
		for s := range common {
			if _, ok := t.cells[k].val[s]; !ok {
				delete(common, s)
			}
		}
	}
	return common
}

// GraphOptions configure WriteGraph.
type GraphOptions struct {
	Out     string          // output folder
	Source  string          // the results file, named in the header
	Context context.Context // stops the report before it is written
}

// WriteGraph writes the graph-classification report of the records with
// task "graph" (definitions §6.4) as Out/graph-classification.md: per
// model, a table with a row per method and a column per dataset, each cell
// the test accuracy mean ± 2σ/√trials (%) at the budget of highest mean
// validation accuracy, the best mean of a column in bold, and a mark where
// a paired Wilcoxon signed-rank test against none (trials paired by seed,
// hence by split) gives p < 0.05; then accuracy against budget (a figure
// per dataset and model, PNG and SVG in Out/figures, and every budget's
// numbers) and the rewiring time per dataset. The files are written whole
// or not at all. It returns the Markdown file's path. O(records).
func WriteGraph(recs []sweep.Record, opt GraphOptions) (path string, err error) {
	recs, err = sweep.Unique(recs)
	if err != nil {
		return "", err
	}
	t := aggregateGraph(recs)
	if t.runs == 0 {
		return "", fmt.Errorf("report: no graph-classification records")
	}
	figs, undo, err := newFigures(opt.Context, opt.Out)
	defer func() { undo(err) }()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("# Graph classification\n\n")
	src := "the results"
	if opt.Source != "" {
		src = "`" + relativeTo(opt.Out, opt.Source) + "`"
	}
	fmt.Fprintf(&b, "%d trials from %s (FoSR's protocol, definitions §4.5). Each cell: test accuracy in %%, "+
		"mean ± 2σ/√n over n trials (σ the population standard deviation, FoSR's interval), at the budget whose mean "+
		"validation accuracy is highest (shown as b=, edits per graph or a fraction); **bold**: the best mean of the column; "+
		"† (‡): a paired Wilcoxon signed-rank test against none over the trials of the same seeds gives p < 0.05 (p < 0.01). "+
		"Where intervals overlap the table does not separate the methods.\n\n", t.runs, src)
	for _, model := range t.models {
		writeGraphTable(&b, t, model)
	}
	if err := writeGraphFigures(&b, t, figs); err != nil {
		return "", err
	}
	writeGraphBudgets(&b, t)
	writeGraphRewiring(&b, t)
	path = filepath.Join(opt.Out, GraphMarkdown)
	md, err := atomicfile.Stage(path, func(w io.Writer) error {
		_, err := io.WriteString(w, b.String())
		return err
	})
	if err != nil {
		return "", err
	}
	if err := figs.ctx.Err(); err != nil {
		md.Discard()
		return "", err
	}
	if err := atomicfile.CommitAll(append(figs.staged, md)...); err != nil {
		return "", err
	}
	return path, nil
}

// writeGraphFigures draws, per dataset and model, the test accuracy
// against the budget (edits per graph; fractions in a figure of their own)
// of every method with more than one budget, over the seeds all its
// budgets have, ± the interval as a band, and none as a dashed line.
func writeGraphFigures(b *strings.Builder, t *graphTables, figs *figures) error {
	wrote := false
	for _, d := range t.datasets {
		for _, model := range t.models {
			for _, unit := range []string{sweep.UnitEdits, sweep.UnitFraction} {
				ss, xs, seeds := graphSeries(t, d, model, unit)
				if len(ss) == 0 {
					continue
				}
				if base, _ := t.chosen(d, model, sweep.None); base != nil {
					sub := &graphCell{test: map[uint64]float64{}}
					for seed, v := range base.test {
						if seeds[seed] {
							sub.test[seed] = v
						}
					}
					mean, _, _ := sub.meanCI()
					lo, hi := slices.Min(xs), slices.Max(xs)
					ss = append(ss, series{name: sweep.None, color: color.Black, dashed: true, // fosr wraps onto none's colour
						x: []float64{lo, hi}, y: []float64{100 * mean, 100 * mean}})
				}
				xlabel := "edits per graph"
				if unit == sweep.UnitFraction {
					xlabel = "budget (fraction of each graph's edges)"
				}
				p, err := linePlot(fmt.Sprintf("%s, %s", d, graphModelNames[model]), xlabel, "test accuracy (%)", ss, unit == sweep.UnitEdits)
				if err != nil {
					return err
				}
				name := fmt.Sprintf("graph-%s-%s-%s", strings.ToLower(d), model, unit)
				if _, err := savePlot(figs, name, p); err != nil {
					return err
				}
				if !wrote {
					b.WriteString("## Accuracy against budget\n\nTest accuracy (%) at every budget over the trials every budget of the method has " +
						"(the pre-sweep's seeds, so that the points compare), mean ± 2σ/√n as a band; none dashed, over the same seeds.\n\n")
					wrote = true
				}
				fmt.Fprintf(b, "![%s](%s/%s.png) ([svg](%s/%s.svg))\n\n", name, FigureDir, name, FigureDir, name)
			}
		}
	}
	return nil
}

// graphSeries returns one series per method (none left out) with at least
// two budgets of unit on (dataset, model), budgets ascending, each over
// the seeds all its budgets have; every x; and the seeds every series
// used.
func graphSeries(t *graphTables, d, model, unit string) ([]series, []float64, map[uint64]bool) {
	var ss []series
	var all []float64
	var used map[uint64]bool
	for _, m := range t.methods {
		if m == sweep.None {
			continue
		}
		var keys []graphCellKey
		for k := range t.cells {
			if k.dataset == d && k.model == model && k.method == m && k.unit == unit {
				keys = append(keys, k)
			}
		}
		if len(keys) < 2 {
			continue
		}
		slices.SortFunc(keys, func(a, b graphCellKey) int { return cmp.Compare(a.budget, b.budget) })
		s := series{name: m, color: methodStyle(m)}
		common := t.commonSeeds(keys)
		if used == nil {
			used = maps.Clone(common)
		}
		for seed := range used {
			if !common[seed] {
				delete(used, seed)
			}
		}
		for _, k := range keys {
			c := &graphCell{test: map[uint64]float64{}}
			for seed := range common {
				c.test[seed] = t.cells[k].test[seed]
			}
			mean, ci, _ := c.meanCI()
			s.x, s.y, s.band = append(s.x, k.budget), append(s.y, 100*mean), append(s.band, 100*ci)
			all = append(all, k.budget)
		}
		ss = append(ss, s)
	}
	return ss, all, used
}

// graphModelNames are the models' names in headings.
var graphModelNames = map[string]string{"gcn": "GCN", "gin": "GIN", "rgcn": "R-GCN", "rgin": "R-GIN"}

// writeGraphTable writes one model's table.
func writeGraphTable(b *strings.Builder, t *graphTables, model string) {
	fmt.Fprintf(b, "## %s\n\n| method |", graphModelNames[model])
	for _, d := range t.datasets {
		fmt.Fprintf(b, " %s |", d)
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---|", len(t.datasets)))
	b.WriteString("\n")
	best := map[string]float64{}
	for _, d := range t.datasets {
		best[d] = math.Inf(-1)
		for _, m := range t.methods {
			if c, _ := t.chosen(d, model, m); c != nil {
				mean, _, _ := c.meanCI()
				best[d] = max(best[d], mean)
			}
		}
	}
	for _, m := range t.methods {
		fmt.Fprintf(b, "| %s |", m)
		for _, d := range t.datasets {
			c, k := t.chosen(d, model, m)
			if c == nil {
				b.WriteString(" — |")
				continue
			}
			mean, ci, n := c.meanCI()
			cell := fmt.Sprintf("%.1f ± %.1f", 100*mean, 100*ci)
			if mean == best[d] {
				cell = "**" + cell + "**"
			}
			cell += graphMark(t, d, model, c, m)
			if m != sweep.None {
				cell += fmt.Sprintf(" (b=%s)", budgetName(k.budget))
			}
			fmt.Fprintf(b, " %s, n=%d |", cell, n)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	writeGraphSeparation(b, t, model, best)
}

// writeGraphSeparation says, per dataset, whether the best method's
// interval is clear of none's: where they overlap, the table does not
// separate the two.
func writeGraphSeparation(b *strings.Builder, t *graphTables, model string, best map[string]float64) {
	base := map[string]*graphCell{}
	for _, d := range t.datasets {
		if c, _ := t.chosen(d, model, sweep.None); c != nil {
			base[d] = c
		}
	}
	var lines []string
	for _, d := range t.datasets {
		if c := base[d]; c != nil {
			if bm, bci, _ := c.meanCI(); bm == best[d] {
				lines = append(lines, fmt.Sprintf("%s: none has the best mean (%.1f ± %.1f): no method improves on it.", d, 100*bm, 100*bci))
				continue
			}
		}
		for _, m := range t.methods {
			c, _ := t.chosen(d, model, m)
			if c == nil || m == sweep.None || base[d] == nil {
				continue
			}
			mean, ci, _ := c.meanCI()
			if mean != best[d] {
				continue
			}
			bm, bci, _ := base[d].meanCI()
			verdict := "its interval overlaps none's: the trials do not separate them"
			if mean-ci > bm+bci {
				verdict = "its interval lies above none's"
			}
			lines = append(lines, fmt.Sprintf("%s: best %s %.1f ± %.1f against none %.1f ± %.1f; %s.", d, m, 100*mean, 100*ci, 100*bm, 100*bci, verdict))
			break
		}
	}
	if len(lines) > 0 {
		b.WriteString(strings.Join(lines, "\n") + "\n\n")
	}
}

// graphMark returns "‡" or "†" when the paired Wilcoxon test of c
// against none's trials of the same seeds gives p < 0.01 or p < 0.05, else
// "".
func graphMark(t *graphTables, d, model string, c *graphCell, method string) string {
	if method == sweep.None {
		return ""
	}
	base, _ := t.chosen(d, model, sweep.None)
	if base == nil {
		return ""
	}
	var x, y []float64
	for _, s := range slices.Sorted(maps.Keys(c.test)) {
		if w, ok := base.test[s]; ok {
			x, y = append(x, c.test[s]), append(y, w)
		}
	}
	if len(x) < 2 || len(x) > maxExactN {
		return ""
	}
	switch p, _ := WilcoxonExact(x, y); {
	case p < 0.01:
		return " ‡"
	case p < 0.05:
		return " †"
	}
	return ""
}

// writeGraphBudgets writes every cell: accuracy against budget.
func writeGraphBudgets(b *strings.Builder, t *graphTables) {
	b.WriteString("## Every budget\n\nValidation and test accuracy (%) of every cell, mean ± 2σ/√n over its n trials " +
		"(the tables above chose each budget on the validation accuracy of the seeds every budget has, not on these means).\n\n")
	b.WriteString("| dataset | model | method | budget | n | validation | test |\n|---|---|---|---|---|---|---|\n")
	keys := make([]graphCellKey, 0, len(t.cells))
	for k := range t.cells {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b graphCellKey) int {
		return cmp.Or(cmp.Compare(a.dataset, b.dataset), cmp.Compare(indexOr(t.models, a.model), indexOr(t.models, b.model)),
			cmp.Compare(indexOr(t.methods, a.method), indexOr(t.methods, b.method)), cmp.Compare(a.unit, b.unit), cmp.Compare(a.budget, b.budget))
	})
	for _, k := range keys {
		c := t.cells[k]
		mean, ci, n := c.meanCI()
		budget := "—"
		if k.method != sweep.None {
			budget = budgetName(k.budget) + " " + k.unit
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %d | %.1f | %.1f ± %.1f |\n", k.dataset, k.model, k.method, budget, n, 100*c.meanVal(), 100*mean, 100*ci)
	}
	b.WriteString("\n")
}

// writeGraphRewiring writes the rewiring time and edges added per dataset,
// method and budget.
func writeGraphRewiring(b *strings.Builder, t *graphTables) {
	type rk struct {
		dataset, method string
		budget          float64
		unit            string
	}
	seen := map[rk]*graphCell{}
	var keys []rk
	for k, c := range t.cells {
		if k.method == sweep.None {
			continue
		}
		r := rk{k.dataset, k.method, k.budget, k.unit}
		if seen[r] == nil {
			keys = append(keys, r)
			seen[r] = c
		}
	}
	if len(keys) == 0 {
		return
	}
	slices.SortFunc(keys, func(a, b rk) int {
		return cmp.Or(cmp.Compare(a.dataset, b.dataset), cmp.Compare(indexOr(t.methods, a.method), indexOr(t.methods, b.method)),
			cmp.Compare(a.unit, b.unit), cmp.Compare(a.budget, b.budget))
	})
	b.WriteString("## Rewiring\n\nEdges added over all graphs of the dataset and the wall time of rewiring them all (rewire.RunMany, as recorded).\n\n")
	b.WriteString("| dataset | method | budget | added | seconds |\n|---|---|---|---|---|\n")
	for _, k := range keys {
		c := seen[k]
		fmt.Fprintf(b, "| %s | %s | %s %s | %d | %.2f |\n", k.dataset, k.method, budgetName(k.budget), k.unit, c.added, c.rewire)
	}
	b.WriteString("\n")
}
