package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/sweep"
)

// TestWriteGraph: the budget is chosen on validation accuracy, the cell is
// mean ± 2σ/√n, the best of a column is bold, and a method better than none
// on all ten paired trials is marked ‡ (exact p = 2/1024).
func TestWriteGraph(t *testing.T) {
	var recs []sweep.Record
	add := func(method string, budget float64, seed uint64, val, test float64) {
		r := sweep.Record{Dataset: "MUTAG", Form: "undirected", Method: method, Model: "gin", Layers: 4, Epochs: 100, Seed: seed,
			Task: sweep.TaskGraph, ValAcc: val, TestAcc: test, Version: sweep.CodeVersion(method, "undirected"), RewireSecs: 1.5, Added: 188}
		if method != sweep.None {
			r.Budget, r.BudgetUnit = budget, sweep.UnitEdits
		}
		recs = append(recs, r)
	}
	for s := range uint64(10) {
		add(sweep.None, 0, s, 0.5, 0.60+0.01*float64(s%2))
		add("err", 10, s, 0.9, 0.70+0.01*float64(s%2)) // chosen: higher validation
		add("err", 20, s, 0.8, 0.95)                   // better test, lower validation: not chosen
	}
	// none: 0.60 and 0.61 alternating: mean 0.605, σ 0.005, 2σ/√10 = 0.0032.
	dir := t.TempDir()
	path, err := WriteGraph(recs, GraphOptions{Out: dir, Source: filepath.Join(dir, "r.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, f := range []string{"graph-mutag-gin-edits.png", "graph-mutag-gin-edits.svg"} {
		if st, err := os.Stat(filepath.Join(dir, FigureDir, f)); err != nil || st.Size() == 0 {
			t.Errorf("figure %s: %v", f, err)
		}
	}
	for _, want := range []string{
		"| none | 60.5 ± 0.3, n=10 |",
		"| err | **70.5 ± 0.3** ‡ (b=10), n=10 |",
		"| MUTAG | gin | err | 20 edits | 10 | 80.0 | 95.0 ± 0.0 |",
		"| MUTAG | err | 10 edits | 188 | 1.50 |",
		"![graph-mutag-gin-edits](figures/graph-mutag-gin-edits.png)",
		"MUTAG: best err 70.5 ± 0.3 against none 60.5 ± 0.3; its interval lies above none's.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
}
