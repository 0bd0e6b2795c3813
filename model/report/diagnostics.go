package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ohmgnn/ohm/model/diagnose"
)

// intersection is one exclusive intersection of added-edge sets.
type intersection struct {
	methods []string
	count   int
}

// maxUpSetBars is the number of intersections an UpSet plot shows.
const maxUpSetBars = 20

// orderedMethods returns the methods found by seen, in report order.
func orderedMethods(seen map[string]bool) []string {
	var ms []string
	for _, m := range methodOrder {
		if seen[m] {
			ms = append(ms, m)
		}
	}
	var rest []string
	for m := range seen {
		if !slices.Contains(ms, m) {
			rest = append(rest, m)
		}
	}
	slices.Sort(rest)
	return append(ms, rest...)
}

// datasetsOf returns the datasets in first-seen order.
func datasetsOf[T any](xs []T, name func(T) string) []string {
	var ds []string
	for _, x := range xs {
		if d := name(x); !slices.Contains(ds, d) {
			ds = append(ds, d)
		}
	}
	return ds
}

// writeDiagnostics writes the sections of the diagnostics that hold data.
func writeDiagnostics(b *strings.Builder, d *diagnose.Diagnostics, figDir *figures, fig func(string) string) error {
	for _, section := range []func(*strings.Builder, *diagnose.Diagnostics, *figures, func(string) string) error{
		writeCosine, writeProbes, writeCKA, writeOverlap,
	} {
		if err := section(b, d, figDir, fig); err != nil {
			return err
		}
	}
	return nil
}

// plotFigure draws the series as a line plot, stages it as name in figDir and
// writes its heading and link.
func plotFigure(b *strings.Builder, figDir *figures, fig func(string) string, title, name, xlabel, ylabel string, ss []series) error {
	p, err := linePlot(title, xlabel, ylabel, ss, true)
	if err != nil {
		return err
	}
	if _, err := savePlot(figDir, name, p); err != nil {
		return err
	}
	fmt.Fprintf(b, "### %s\n\n%s", title, fig(name))
	return nil
}

// deepest returns the largest depth of dataset ds's entries and the
// methods that have entries at that depth; entry gives an entry's dataset,
// method and depth.
func deepest[T any](xs []T, ds string, entry func(T) (dataset, method string, depth int)) (int, map[string]bool) {
	depth := 0
	seen := map[string]bool{}
	for _, x := range xs {
		if d, _, l := entry(x); d == ds {
			depth = max(depth, l)
		}
	}
	for _, x := range xs {
		if d, m, l := entry(x); d == ds && l == depth {
			seen[m] = true
		}
	}
	return depth, seen
}

// sortedRows returns the entries of xs that keep holds, by ascending key
// (a layer, a depth).
func sortedRows[T any](xs []T, keep func(T) bool, key func(T) int) []T {
	var rows []T
	for _, x := range xs {
		if keep(x) {
			rows = append(rows, x)
		}
	}
	slices.SortFunc(rows, func(a, b T) int { return key(a) - key(b) })
	return rows
}

// settingsOf returns the PairNorm settings of dataset ds's entries, without
// first.
func settingsOf[T any](xs []T, ds string, entry func(T) (dataset string, tr diagnose.Training)) []diagnose.Training {
	var out []diagnose.Training
	for _, x := range xs {
		if d, tr := entry(x); d == ds && !slices.Contains(out, tr) {
			out = append(out, tr)
		}
	}
	slices.SortFunc(out, func(a, b diagnose.Training) int {
		if a.PairNorm == b.PairNorm {
			return strings.Compare(a.PairNormAt, b.PairNormAt)
		}
		if !a.PairNorm {
			return -1
		}
		return 1
	})
	return out
}

// ofSetting turns entry into deepest's entry function for the entries of
// setting tr only (the others name no dataset).
func ofSetting[T any](tr diagnose.Training, entry func(T) (diagnose.Training, string, string, int)) func(T) (string, string, int) {
	return func(x T) (string, string, int) {
		t, d, m, l := entry(x)
		if t != tr {
			return "", "", 0
		}
		return d, m, l
	}
}

// settingTitle and settingFile name a training setting in titles and file
// names: "" and "" without PairNorm, so that figures of files written
// before the settings keep their names.
func settingTitle(tr diagnose.Training) string {
	if !tr.PairNorm {
		return ""
	}
	if tr.PairNormAt != "" {
		return fmt.Sprintf(", PairNorm (%s)", tr.PairNormAt)
	}
	return ", PairNorm"
}

func settingFile(tr diagnose.Training) string {
	if !tr.PairNorm {
		return ""
	}
	return "_pn" + tr.PairNormAt
}

// writeCosine writes the cosine similarity section: for each dataset and
// training setting, the deepest model, per layer from the input on.
func writeCosine(b *strings.Builder, d *diagnose.Diagnostics, figDir *figures, fig func(string) string) error {
	if len(d.Cosine) == 0 {
		return nil
	}
	b.WriteString("## Cosine similarity per layer\n\nMean |cos(h_i, h_j)| at each layer of the deepest model trained, over same-class (solid) and different-class (dashed) node pairs: layer 0 is the input features as trained on, layer ℓ ≥ 1 the output of convolution ℓ before the PairNorm and ReLU that follow it (definitions §5). Close to 1 for both: the representations have collapsed (over-smoothing). ")
	b.WriteString(seedsNote(d))
	entry := func(c diagnose.Cosine) (string, diagnose.Training) { return c.Dataset, c.Training }
	for _, ds := range datasetsOf(d.Cosine, func(c diagnose.Cosine) string { return c.Dataset }) {
		for _, tr := range settingsOf(d.Cosine, ds, entry) {
			depth, seen := deepest(d.Cosine, ds, ofSetting(tr, func(c diagnose.Cosine) (diagnose.Training, string, string, int) {
				return c.Training, c.Dataset, c.Method, c.Depth
			}))
			var ss []series
			for _, m := range orderedMethods(seen) {
				same := series{name: m + " same", color: methodStyle(m)}
				diff := series{name: m + " diff", color: methodStyle(m), dashed: true}
				rows := sortedRows(d.Cosine, func(c diagnose.Cosine) bool {
					return c.Dataset == ds && c.Training == tr && c.Depth == depth && c.Method == m
				}, func(c diagnose.Cosine) int { return c.Layer })
				for _, c := range rows {
					same.x, same.y = append(same.x, float64(c.Layer)), append(same.y, c.Same)
					diff.x, diff.y = append(diff.x, float64(c.Layer)), append(diff.y, c.Diff)
					same.band, diff.band = append(same.band, c.SameStd), append(diff.band, c.DiffStd)
				}
				ss = append(ss, same, diff)
			}
			title := fmt.Sprintf("%s, depth %d%s: cosine similarity per layer", ds, depth, settingTitle(tr))
			if err := plotFigure(b, figDir, fig, title, fmt.Sprintf("cosine_%s_L%d%s", ds, depth, settingFile(tr)), "layer", "mean |cos|", ss); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeProbes writes the linear probe section: for each dataset and
// training setting, the deepest model, per inner layer.
func writeProbes(b *strings.Builder, d *diagnose.Diagnostics, figDir *figures, fig func(string) string) error {
	if len(d.Probe) == 0 {
		return nil
	}
	b.WriteString("## Linear probes\n\nTest accuracy of a logistic regression trained on the training nodes' representations after each inner layer of the deepest model (the convolution's output, before PairNorm and ReLU): how much class information survives the layers.\n\n")
	entry := func(c diagnose.Probe) (string, diagnose.Training) { return c.Dataset, c.Training }
	for _, ds := range datasetsOf(d.Probe, func(c diagnose.Probe) string { return c.Dataset }) {
		for _, tr := range settingsOf(d.Probe, ds, entry) {
			depth, seen := deepest(d.Probe, ds, ofSetting(tr, func(c diagnose.Probe) (diagnose.Training, string, string, int) {
				return c.Training, c.Dataset, c.Method, c.Depth
			}))
			var ss []series
			for _, m := range orderedMethods(seen) {
				s := series{name: m, color: methodStyle(m), dashed: m == "none"}
				rows := sortedRows(d.Probe, func(c diagnose.Probe) bool {
					return c.Dataset == ds && c.Training == tr && c.Depth == depth && c.Method == m
				}, func(c diagnose.Probe) int { return c.Layer })
				for _, c := range rows {
					s.x, s.y, s.band = append(s.x, float64(c.Layer)), append(s.y, 100*c.Acc), append(s.band, 100*c.AccStd)
				}
				ss = append(ss, s)
			}
			title := fmt.Sprintf("%s, depth %d%s: linear probe per layer", ds, depth, settingTitle(tr))
			if err := plotFigure(b, figDir, fig, title, fmt.Sprintf("probe_%s_L%d%s", ds, depth, settingFile(tr)), "layer", "probe test accuracy (%)", ss); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeCKA writes the CKA section: per dataset and training setting, one
// line per method over the depths.
func writeCKA(b *strings.Builder, d *diagnose.Diagnostics, figDir *figures, fig func(string) string) error {
	if len(d.CKA) == 0 {
		return nil
	}
	b.WriteString("## CKA to the curvature model\n\nLinear CKA between the last-layer representations (the logits) of the model trained on the curvature-rewired graph and the model of each other method, per depth.\n\n")
	entry := func(c diagnose.CKA) (string, diagnose.Training) { return c.Dataset, c.Training }
	for _, ds := range datasetsOf(d.CKA, func(c diagnose.CKA) string { return c.Dataset }) {
		for _, tr := range settingsOf(d.CKA, ds, entry) {
			seen := map[string]bool{}
			for _, c := range d.CKA {
				if c.Dataset == ds && c.Training == tr {
					seen[c.Method] = true
				}
			}
			var ss []series
			for _, m := range orderedMethods(seen) {
				s := series{name: m, color: methodStyle(m), dashed: m == "none"}
				rows := sortedRows(d.CKA, func(c diagnose.CKA) bool { return c.Dataset == ds && c.Training == tr && c.Method == m },
					func(c diagnose.CKA) int { return c.Depth })
				for _, c := range rows {
					s.x, s.y, s.band = append(s.x, float64(c.Depth)), append(s.y, c.CKA), append(s.band, c.CKAStd)
				}
				ss = append(ss, s)
			}
			title := fmt.Sprintf("%s%s: CKA with the curvature model", ds, settingTitle(tr))
			if err := plotFigure(b, figDir, fig, title, "cka_"+ds+settingFile(tr), "depth L", "linear CKA", ss); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeOverlap writes the edge-set overlap section: per dataset and
// budget, the UpSet plot of the added edges and the Jaccard table.
func writeOverlap(b *strings.Builder, d *diagnose.Diagnostics, figDir *figures, fig func(string) string) error {
	if len(d.Overlap) == 0 {
		return nil
	}
	b.WriteString("## Overlap of the added edges\n\nThe bars count the edges added by exactly the methods marked below them (exclusive intersections, largest first); the table gives the Jaccard index of every pair of methods.\n\n")
	for _, o := range d.Overlap {
		var inters []intersection
		for _, x := range o.Exclusive {
			inters = append(inters, intersection{methods: x.Methods, count: x.Count})
		}
		title := fmt.Sprintf("%s, budget %s: added-edge overlap", o.Dataset, budgetName(o.Budget))
		name := fmt.Sprintf("overlap_%s_b%s", o.Dataset, fileSafe(budgetName(o.Budget)))
		if _, err := saveDrawing(figDir, name, upset(title, o.Methods, inters, maxUpSetBars)); err != nil {
			return err
		}
		fmt.Fprintf(b, "### %s\n\n%s", title, fig(name))
		if len(o.Sizes) == len(o.Methods) {
			writeJaccard(b, o)
		}
	}
	return nil
}

// writeJaccard writes the table of the added edges' sizes and Jaccard
// indices of o's methods.
func writeJaccard(b *strings.Builder, o diagnose.Overlap) {
	b.WriteString("| | added |")
	for _, m := range o.Methods {
		fmt.Fprintf(b, " J(·, %s) |", m)
	}
	b.WriteString("\n|---|---:|")
	for range o.Methods {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for i, m := range o.Methods {
		fmt.Fprintf(b, "| %s | %d |", m, o.Sizes[i])
		for j := range o.Methods {
			if i < len(o.Jaccard) && j < len(o.Jaccard[i]) {
				fmt.Fprintf(b, " %.2f |", o.Jaccard[i][j])
			} else {
				b.WriteString(" – |")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

// seedsNote says over how many models the diagnostics are averaged (the
// largest Seeds of any entry; files of older code have none).
func seedsNote(d *diagnose.Diagnostics) string {
	n := 0
	for _, c := range d.Cosine {
		n = max(n, c.Seeds)
	}
	if n <= 1 {
		return "The diagnostics below come from one trained model per setting (no band).\n\n"
	}
	return fmt.Sprintf("Every diagnostic below is the mean over %d models (seeds) per setting; the band is ± one population std over them.\n\n", n)
}
