package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ohmgnn/ohm/model/gnn"
	"github.com/ohmgnn/ohm/model/sweep"
)

// accKey groups runs that differ only by seed and split.
type accKey struct {
	dataset, form, model string
	pairnorm             bool
	method               string
	budget               float64
	layers               int
}

// curveKey is the key of one curve of a cell, all depths (layers 0): the
// baseline none has budget 0 whatever the budget asked.
func curveKey(dataset, form, model string, pn bool, method string, budget float64) accKey {
	if method == sweep.None {
		budget = 0
	}
	return accKey{dataset, form, model, pn, method, budget, 0}
}

// on reports whether k is a depth of the curve c (a curveKey).
func (k accKey) on(c accKey) bool {
	k.layers = 0
	return k == c
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
	e0, iterations       int
	added, removed       int
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
	groups   [][]string // datasets shown side by side in a table
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

// aggregate groups the records, each run once (sweep.Unique).
func aggregate(recs []sweep.Record) *tables {
	accs := map[accKey][]float64{}
	t := &tables{acc: map[accKey]stat{}, runs1: map[accKey]map[runID]float64{}, edits: map[editKey]edits{}}
	for i := range recs {
		r := &recs[i]
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
		t.edits[editKey{r.Dataset, r.Form, r.Method, b}] = edits{e0: r.E0, iterations: r.Iterations, added: r.Added, removed: r.Removed,
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
		m, s := gnn.MeanStd(xs)
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
	// Datasets of the paper's layout side by side, every other one (graph
	// files) in a table of its own.
	t.groups = nil
	for _, p := range datasetPairs {
		t.groups = append(t.groups, p)
	}
	for _, d := range t.datasets {
		if !slices.Contains(dsOrder, d) {
			t.groups = append(t.groups, []string{d})
		}
	}
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
	c := curveKey(dataset, form, model, pn, method, budget)
	for k, v := range t.acc {
		if !k.on(c) {
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
	c := curveKey(dataset, form, model, pn, method, budget)
	for k, runs := range t.runs1 {
		if !k.on(c) {
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
	p float64        // two-sided p of the Wilcoxon signed-rank test
	n int            // non-zero paired differences
	m WilcoxonMethod // how p was computed
}

// mark returns "**" for p < 0.01, "*" for p < 0.05, else "", followed by
// "†" when p is the normal approximation's (more than 64 pairs).
func (s significance) mark() string {
	if s.m == WilcoxonNormalMethod && s.p < 0.05 {
		return significance{p: s.p, n: s.n}.mark() + "†"
	}
	switch {
	case s.p < 0.01:
		return "**"
	case s.p < 0.05:
		return "*"
	}
	return ""
}

// versusNone compares method at its best depth with none at its own, paired
// over the (seed, split) runs both have, by the Wilcoxon signed-rank
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
	if len(ids) == 0 {
		return significance{}, false
	}
	slices.SortFunc(ids, func(a, b runID) int { return cmp.Or(cmp.Compare(a.split, b.split), cmp.Compare(a.seed, b.seed)) })
	x, y := make([]float64, len(ids)), make([]float64, len(ids))
	for i, id := range ids {
		x[i], y[i] = rm[id], r0[id]
	}
	p, n, m := Wilcoxon(x, y)
	return significance{p, n, m}, true
}

// curve returns the depths and stats of one method, by depth.
func (t *tables) curve(dataset, form, model string, pn bool, method string, budget float64) (ls []int, ss []stat) {
	c := curveKey(dataset, form, model, pn, method, budget)
	for k := range t.acc {
		if k.on(c) {
			ls = append(ls, k.layers)
		}
	}
	slices.Sort(ls)
	for _, l := range ls {
		c.layers = l
		ss = append(ss, t.acc[c])
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
