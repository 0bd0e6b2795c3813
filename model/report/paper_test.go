package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/diagnose"
	"github.com/ohmgnn/ohm/model/published"
)

func intp(x int) *int { return &x }

// TestPublishedColumn renders the synthetic grid beside a small fixture of
// published cells and checks the paper's value and depth, the difference in
// units of our std, the agreement line and summary, and the realized-edits
// column with its reasons.
func TestPublishedColumn(t *testing.T) {
	fixture := &published.Tables{
		Accuracy: []published.Accuracy{
			// Ours: 75.0 ± 3.42 at depth 2 (split 0: 70.0): Δ = +5.0, +1.5σ.
			{Form: "undirected", Model: "gcn", Dataset: "cornell", Method: "err", Budget: 0.1, Layer: 3, Acc: 70},
			// Ours: 52.5 ± 1.71 at depth 1 (split 0: 60.0 at depth 3): Δ = −2.0, −1.2σ.
			{Form: "undirected", Model: "gcn", Dataset: "cornell", Method: "res", Budget: 0.1, PairNorm: true, Layer: 5, Acc: 54.5},
		},
		Edits: []published.Edits{
			{Form: "undirected", Dataset: "cornell", Method: "err", Budget: 0.1, Added: intp(28), Removed: intp(10)},
			{Form: "undirected", Dataset: "cornell", Method: "curvature", Budget: 0.1, Added: intp(28), Removed: intp(40)},
			{Form: "undirected", Dataset: "texas", Method: "err-hop", Budget: 0.1, Added: intp(3), Removed: intp(10)},
		},
	}
	dir := t.TempDir()
	out, err := Write(synthetic(), Options{Out: dir, Published: fixture})
	if err != nil {
		t.Fatal(err)
	}
	s := reportHas(t, out,
		"| err | no | 2 | 75.0 ± 3.4* | 70.0 (2) | 70.0 (3) | +1.5 |",
		"| res | yes | 1 | 52.5 ± 1.7 | 60.0 (3) | 54.5 (5) | -1.2 |",
		// The table of budget 0.1 holds both cells: mean Δ (5 − 2)/2 = +1.5, |Δ| 3.5;
		// split 0 − paper: (0 + 5.5)/2 = +2.8, |·| 2.8 (rounded from 2.75).
		"Agreement with the paper over 2 cells: ours − paper +1.5 points on average (mean |ours − paper| 3.5); within 1σ of ours 0/2, within 2σ 2/2; the paper's own statistic (split 0 / seed 0, best depth) − paper +2.8 (mean |·| 2.8).",
		"## Agreement with the paper",
		"| undirected | GCN | cornell | 2 | +1.5 | 3.5 | 0 | 2 | +2.8 | 2.8 |",
		// Edits: equal; the paper's 40 removals exceed B = 28; texas err-hop 3 additions, ours 28 in 0 iterations.
		"| cornell | err | 0.1 | 28 | 0 | 28 (10.0 %) | 10 (3.6 %) | — | — | 28 / 10 | = |",
		"| cornell | curvature | 0.1 | 28 | 0 | 28 (10.0 %) | 10 (3.6 %) | — | — | 28 / 40 | paper over B |",
		"| texas | err-hop | 0.1 | 28 | 0 | 28 (10.0 %) | 10 (3.6 %) | — | — | 3 / 10 | unexplained |",
		"- **=** (1 cell):", "- **paper over B** (1 cell):", "- **unexplained** (1 cell):",
	)
	if t.Failed() {
		t.Log(s)
	}
}

// TestChoicesNeverMix: records of other training choices are left out of
// every cell and counted.
func TestChoicesNeverMix(t *testing.T) {
	recs := synthetic()
	n := len(recs)
	for _, r := range synthetic() {
		if r.Dataset == "cornell" {
			r.Features, r.TestAcc = "raw", 0.99 // as loaded: not the default
			recs = append(recs, r)
		}
		if r.PairNorm {
			r.PairNormAt, r.TestAcc = "post", 0.99
			recs = append(recs, r)
		}
	}
	dir := t.TempDir()
	out, err := Write(recs, Options{Out: dir})
	if err != nil {
		t.Fatal(err)
	}
	left := 0
	for _, c := range out.LeftOut {
		left += c
	}
	if left != len(recs)-n {
		t.Errorf("%d runs left out, want %d: %v", left, len(recs)-n, out.LeftOut)
	}
	md, _ := os.ReadFile(out.Markdown)
	if strings.Contains(string(md), "99.0") {
		t.Error("a run of another training choice entered a cell")
	}
	if !strings.Contains(string(md), "Left out, as other training choices: ") {
		t.Error("the report does not say what it left out")
	}
}

// TestDiagnosticsPerSetting: diagnostics of models with and without
// PairNorm get a figure each, named and titled by the setting, and the
// cosine curve starts at layer 0.
func TestDiagnosticsPerSetting(t *testing.T) {
	d := syntheticDiagnostics()
	var more []diagnose.Cosine
	for _, c := range d.Cosine {
		c0 := c
		c0.Layer = 0
		more = append(more, c0)
		pn := c
		pn.Training = diagnose.Training{PairNorm: true, PairNormAt: "post", Features: "raw"}
		more = append(more, pn)
	}
	d.Cosine = append(d.Cosine, more...)
	out, err := Write(nil, Options{Out: t.TempDir(), Diagnostics: d})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range out.Figures {
		names = append(names, f[strings.LastIndex(f, "/")+1:])
	}
	md, _ := os.ReadFile(out.Markdown)
	for _, want := range []string{"cosine_cornell_L4", "cosine_cornell_L4_pnpost"} {
		if !slices.Contains(names, want) {
			t.Errorf("no figure %s in %v", want, names)
		}
	}
	if !strings.Contains(string(md), "### cornell, depth 4, PairNorm (post): cosine similarity per layer") ||
		!strings.Contains(string(md), "layer 0 is the input features") {
		t.Errorf("report:\n%s", md)
	}
}

// TestReadDiagnosticsMerges: the diagnostics of two datasets, written by two
// runs of ohm diagnose, read as one (every entry of each, once); a third file
// holding one of the same datasets under the same setting is refused, naming
// both files, and one under another setting is taken.
func TestReadDiagnosticsMerges(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, d *diagnose.Diagnostics) string {
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cornell := syntheticDiagnostics()
	texas := syntheticDiagnostics()
	relabel(texas, "texas", diagnose.Training{})
	a, b := write("a.json", cornell), write("b.json", texas)
	got, err := ReadDiagnostics(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if n, want := len(got.Cosine), 2*len(cornell.Cosine); n != want {
		t.Errorf("%d cosine entries, want %d", n, want)
	}
	if n, want := len(got.Probe)+len(got.CKA)+len(got.Overlap), 2*(len(cornell.Probe)+len(cornell.CKA)+len(cornell.Overlap)); n != want {
		t.Errorf("%d probe, CKA and overlap entries, want %d", n, want)
	}
	if got.Cosine[0].Dataset != "cornell" || got.Cosine[len(got.Cosine)-1].Dataset != "texas" {
		t.Errorf("merged out of order: %s … %s", got.Cosine[0].Dataset, got.Cosine[len(got.Cosine)-1].Dataset)
	}
	again := syntheticDiagnostics()
	again.Overlap = nil
	c := write("c.json", again)
	if _, err := ReadDiagnostics(a, b, c); err == nil || !strings.Contains(err.Error(), "a.json and "+c+" both hold the diagnostics of cornell (PairNorm no, features row)") {
		t.Errorf("the same dataset and setting in two files: %v", err)
	}
	pn := syntheticDiagnostics()
	pn.Overlap = nil
	relabel(pn, "cornell", diagnose.Training{PairNorm: true, PairNormAt: "post"})
	if got, err := ReadDiagnostics(a, write("d.json", pn)); err != nil || len(got.Cosine) != 2*len(cornell.Cosine) {
		t.Errorf("another setting of the same dataset: %v", err)
	}
}

// relabel sets the dataset and training setting of every entry of d.
func relabel(d *diagnose.Diagnostics, dataset string, tr diagnose.Training) {
	for i := range d.Cosine {
		d.Cosine[i].Dataset, d.Cosine[i].Training = dataset, tr
	}
	for i := range d.Probe {
		d.Probe[i].Dataset, d.Probe[i].Training = dataset, tr
	}
	for i := range d.CKA {
		d.CKA[i].Dataset, d.CKA[i].Training = dataset, tr
	}
	for i := range d.Overlap {
		d.Overlap[i].Dataset = dataset
	}
}

// TestZStringZeroStd: a cell whose runs all agree (std 0) but differ from
// the paper has no finite Δ/σ and prints "–", never "±∞"; finite ratios
// print with their sign.
func TestZStringZeroStd(t *testing.T) {
	for _, tc := range []struct {
		c    cellComparison
		want string
	}{
		{cellComparison{mean: 54.1, std: 0, paper: 51.4}, "–"},
		{cellComparison{mean: 54.1, std: 0, paper: 56.8}, "–"},
		{cellComparison{mean: 54.1, std: 0, paper: 54.1}, "+0.0"},
		{cellComparison{mean: 60, std: 4, paper: 55}, "+1.2"},
		{cellComparison{mean: 50, std: 2, paper: 51}, "-0.5"},
	} {
		if got := zString(tc.c.z()); got != tc.want {
			t.Errorf("mean %v std %v paper %v: Δ/σ %q, want %q", tc.c.mean, tc.c.std, tc.c.paper, got, tc.want)
		}
	}
}
