package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/ohmgnn/ohm/model/published"
)

// paperKey names one published accuracy cell.
type paperKey struct {
	dataset, form, model string
	pairnorm             bool
	method               string
	budget               float64
}

// paperIndex is the published tables by cell.
type paperIndex struct {
	acc   map[paperKey]published.Accuracy
	edits map[editKey]published.Edits
}

// indexPaper indexes the published tables; nil gives an empty index.
func indexPaper(p *published.Tables) *paperIndex {
	ix := &paperIndex{acc: map[paperKey]published.Accuracy{}, edits: map[editKey]published.Edits{}}
	if p == nil {
		return ix
	}
	for _, a := range p.Accuracy {
		ix.acc[paperKey{a.Dataset, a.Form, a.Model, a.PairNorm, a.Method, a.Budget}] = a
	}
	for _, e := range p.Edits {
		ix.edits[editKey{e.Dataset, e.Form, e.Method, e.Budget}] = e
	}
	return ix
}

// cellComparison is one cell of ours beside the paper's: our mean ± std at
// our best depth, our one-run statistic (seed 0, split 0, best depth) and
// the published value, all in percent.
type cellComparison struct {
	mean, std, split0, paper float64
	hasSplit0                bool
}

// z is (ours − paper) in units of our std; ±Inf when our std is 0 and the
// values differ, 0 when they agree.
func (c cellComparison) z() float64 {
	d := c.mean - c.paper
	switch {
	case c.std > 0:
		return d / c.std
	case d == 0:
		return 0
	}
	return math.Inf(int(math.Copysign(1, d)))
}

// agreement sums the comparisons of a set of cells.
type agreement struct {
	n, within1, within2 int
	diff, absDiff       float64 // Σ (ours − paper), Σ |ours − paper| of the means
	n0                  int     // cells with our split-0 statistic
	diff0, absDiff0     float64 // the same for the split-0 statistic
}

func (a *agreement) add(c cellComparison) {
	a.n++
	d := c.mean - c.paper
	a.diff += d
	a.absDiff += math.Abs(d)
	if z := math.Abs(c.z()); z <= 1 {
		a.within1++
		a.within2++
	} else if z <= 2 {
		a.within2++
	}
	if c.hasSplit0 {
		a.n0++
		a.diff0 += c.split0 - c.paper
		a.absDiff0 += math.Abs(c.split0 - c.paper)
	}
}

// line renders the agreement as one sentence.
func (a *agreement) line() string {
	if a.n == 0 {
		return ""
	}
	s := fmt.Sprintf("Agreement with the paper over %s: ours − paper %+.1f points on average (mean |ours − paper| %.1f); within 1σ of ours %d/%d, within 2σ %d/%d",
		plural(a.n, "cell"), a.diff/float64(a.n), a.absDiff/float64(a.n), a.within1, a.n, a.within2, a.n)
	if a.n0 > 0 {
		s += fmt.Sprintf("; the paper's own statistic (split 0 / seed 0, best depth) − paper %+.1f (mean |·| %.1f)",
			a.diff0/float64(a.n0), a.absDiff0/float64(a.n0))
	}
	return s + ".\n\n"
}

// compare returns our cell beside the paper's, ok false when either is
// missing.
func (t *tables) compare(ix *paperIndex, dataset, form, model string, pn bool, method string, budget float64) (cellComparison, published.Accuracy, bool) {
	p, ok := ix.acc[paperKey{dataset, form, model, pn, method, budget}]
	if !ok {
		return cellComparison{}, p, false
	}
	_, s, ok := t.best(dataset, form, model, pn, method, budget)
	if !ok {
		return cellComparison{}, p, false
	}
	c := cellComparison{mean: 100 * s.mean, std: 100 * s.std, paper: p.Acc}
	if a, _, ok := t.paperStat(dataset, form, model, pn, method, budget); ok {
		c.split0, c.hasSplit0 = 100*a, true
	}
	return c, p, true
}

// writeAgreement writes the summary of the agreement with the paper: one
// row per form, model and dataset over its published cells (methods,
// budgets, PairNorm no and yes).
func writeAgreement(b *strings.Builder, t *tables, ix *paperIndex) {
	var rows []string
	for _, fm := range t.forms {
		for _, d := range t.datasets {
			var a agreement
			for _, m := range t.methods {
				for _, r := range t.budgets {
					for _, pn := range []bool{false, true} {
						if c, _, ok := t.compare(ix, d, fm.form, fm.model, pn, m, r); ok {
							a.add(c)
						}
					}
				}
			}
			if a.n == 0 {
				continue
			}
			n := float64(a.n)
			row := fmt.Sprintf("| %s | %s | %s | %d | %+.1f | %.1f | %d | %d |", fm.form, strings.ToUpper(fm.model), d, a.n,
				a.diff/n, a.absDiff/n, a.within1, a.within2)
			if a.n0 > 0 {
				row += fmt.Sprintf(" %+.1f | %.1f |", a.diff0/float64(a.n0), a.absDiff0/float64(a.n0))
			} else {
				row += " – | – |"
			}
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString("## Agreement with the paper\n\n")
	b.WriteString("Per form, model and dataset, over the cells the paper publishes (methods × budgets × PairNorm no/yes): our mean at our best depth against the paper's value, ")
	b.WriteString("as the mean difference (ours − paper, points), the mean absolute difference, and how many cells lie within one and two of our standard deviations of the paper's value; ")
	b.WriteString("then the same differences for our value of the paper's own statistic (the single run of seed 0 / split 0 at its best depth).\n\n")
	b.WriteString("| form | model | dataset | cells | ours − paper | \\|ours − paper\\| | within 1σ | within 2σ | split 0 − paper | \\|split 0 − paper\\| |\n")
	b.WriteString("|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	b.WriteString(strings.Join(rows, "\n") + "\n\n")
}
