package sweep

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset"
)

// tinyTU returns a TU dataset of n small graphs of two classes (paths and
// rings with a pendant), one-hot degree-like features of width 2.
func tinyTU(n int) *dataset.TUDataset {
	rng := rand.New(rand.NewPCG(4, 4))
	d := &dataset.TUDataset{Name: "MUTAG", NumFeatures: 2, NumClasses: 2, NodePtr: []int{0}, EdgePtr: []int{0}}
	for i := range n {
		k := 5 + rng.IntN(4)
		y := i % 2
		var es [][2]int
		for u := range k - 1 {
			es = append(es, [2]int{u, u + 1}, [2]int{u + 1, u})
		}
		if y == 1 {
			es = append(es, [2]int{0, k - 2}, [2]int{k - 2, 0})
		}
		// sorted by (src, dst), as the TU reader keeps them
		adj := make([][]bool, k)
		for u := range adj {
			adj[u] = make([]bool, k)
		}
		for _, e := range es {
			adj[e[0]][e[1]] = true
		}
		for u := range k {
			for v := range k {
				if adj[u][v] {
					d.Src, d.Dst = append(d.Src, u), append(d.Dst, v)
				}
			}
			d.X = append(d.X, float64(u%2), float64(1-u%2))
		}
		d.Y = append(d.Y, y)
		d.NodePtr = append(d.NodePtr, d.NodePtr[i]+k)
		d.EdgePtr = append(d.EdgePtr, len(d.Src))
	}
	return d
}

func tinyGraphSpec() GraphSpec {
	return GraphSpec{Datasets: []string{"mutag"}, Methods: []string{"none", "fosr", "err"}, Budgets: []string{"1", "0.2"},
		Models: []string{"gcn", "rgcn"}, Trials: 2, Layers: 1, Epochs: 3}
}

// TestRunGraph runs a small graph grid, then again (nothing to do, nothing
// rewired), and an interrupted copy resumed to the same records; the
// records do not depend on the number of workers.
func TestRunGraph(t *testing.T) {
	d := tinyTU(30)
	load := func(string) (*dataset.TUDataset, error) { return d, nil }
	dir := t.TempDir()
	results := filepath.Join(dir, "g.jsonl")
	sum, err := RunGraph(context.Background(), tinyGraphSpec(), GraphOptions{Results: results, Workers: 2, LoadTU: load})
	if err != nil {
		t.Fatal(err)
	}
	// none once, fosr and err at two budgets: 5 cells × 2 models × 2 trials.
	if sum.Total != 20 || sum.Ran != 20 || sum.Rewired != 4 {
		t.Fatalf("first run: %+v", sum)
	}
	recs, err := ReadResults(results)
	if err != nil || len(recs) != 20 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	for _, r := range recs {
		if r.Task != TaskGraph || r.Graphs != 30 || r.EpochsRun != 3 || r.Layers != 1 {
			t.Fatalf("record %+v", r)
		}
		if r.Method != None && (r.Added == 0 || r.BudgetUnit == "") {
			t.Errorf("%s %v%s: added %d", r.Method, r.Budget, r.BudgetUnit, r.Added)
		}
		if r.Method == "fosr" && r.BudgetUnit == UnitEdits && r.Added != 30 {
			t.Errorf("fosr, one edit per graph: %d added, want 30", r.Added)
		}
	}
	sum, err = RunGraph(context.Background(), tinyGraphSpec(), GraphOptions{Results: results, Workers: 2, LoadTU: load})
	if err != nil || sum.Ran != 0 || sum.Skipped != 20 || sum.Rewired != 0 {
		t.Fatalf("second run: %+v, %v", sum, err)
	}
	// Interrupted after 3 trials, one worker, then resumed: the same
	// records as the uninterrupted two-worker sweep.
	other := filepath.Join(t.TempDir(), "h.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err = RunGraph(ctx, tinyGraphSpec(), GraphOptions{Results: other, Workers: 1, LoadTU: load, OnRun: func(Record) {
		if n++; n == 3 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted: %v", err)
	}
	part, _ := ReadResults(other)
	if len(part) != 3 {
		t.Fatalf("%d records after the interrupt, want 3", len(part))
	}
	sum, err = RunGraph(context.Background(), tinyGraphSpec(), GraphOptions{Results: other, Workers: 1, LoadTU: load})
	if err != nil || sum.Ran != 17 {
		t.Fatalf("resumed: %+v, %v", sum, err)
	}
	again, _ := ReadResults(other)
	want := map[Key]Record{}
	for _, r := range recs {
		want[r.Key()] = withoutTiming(r)
	}
	for _, r := range again {
		if w, ok := want[r.Key()]; !ok || w != withoutTiming(r) {
			t.Errorf("%v: resumed one worker %+v, two workers %+v", r.Key(), withoutTiming(r), w)
		}
	}
}

// TestGraphSpecErrors: the fields' errors name them.
func TestGraphSpecErrors(t *testing.T) {
	for _, tc := range []struct {
		spec  GraphSpec
		field string
	}{
		{GraphSpec{Datasets: []string{"cora"}}, "datasets"},
		{GraphSpec{Datasets: []string{"mutag"}, Budgets: []string{"0"}}, "budgets"},
		{GraphSpec{Datasets: []string{"mutag"}, Budgets: []string{"1.5"}}, "budgets"},
		{GraphSpec{Datasets: []string{"mutag"}, Models: []string{"dirgcn"}}, "models"},
		{GraphSpec{Datasets: []string{"mutag"}, Methods: []string{"sdrf"}}, "methods"},
		{GraphSpec{Datasets: []string{"mutag"}, Trials: -1}, "trials"},
	} {
		var fe *FieldError
		if err := tc.spec.Normalize(); !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%+v: %v, want an error of %s", tc.spec, err, tc.field)
		}
	}
	s := GraphSpec{Datasets: []string{"Proteins"}, Budgets: []string{"10", "0.1"}}
	if err := s.Normalize(); err != nil || s.Datasets[0] != "PROTEINS" || s.budgets[0] != (GraphBudget{10, UnitEdits}) ||
		s.budgets[1] != (GraphBudget{0.1, UnitFraction}) || len(s.Methods) != 8 || s.Trials != 10 || s.Layers != 4 {
		t.Errorf("%+v, %v", s, err)
	}
}

// TestRunGraphChooseOn: with choose_on the grid runs each (method, model)
// at the budget of the best mean validation accuracy of the pre-sweep's
// seeds only; without the pre-sweep it says what is missing.
func TestRunGraphChooseOn(t *testing.T) {
	d := tinyTU(30)
	load := func(string) (*dataset.TUDataset, error) { return d, nil }
	results := filepath.Join(t.TempDir(), "g.jsonl")
	spec := tinyGraphSpec()
	spec.ChooseOn, spec.Trials = 2, 3
	var fe *FieldError
	if _, err := RunGraph(context.Background(), spec, GraphOptions{Results: results, LoadTU: load}); !errors.As(err, &fe) || fe.Field != "choose_on" {
		t.Fatalf("no pre-sweep: %v", err)
	}
	if _, err := RunGraph(context.Background(), tinyGraphSpec(), GraphOptions{Results: results, Workers: 2, LoadTU: load}); err != nil {
		t.Fatal(err)
	}
	pre, _ := ReadResults(results)
	sum, err := RunGraph(context.Background(), spec, GraphOptions{Results: results, Workers: 2, LoadTU: load})
	if err != nil {
		t.Fatal(err)
	}
	// none: seed 2 for two models; fosr and err: seed 2 at one budget, two models.
	if sum.Ran != 6 {
		t.Fatalf("%+v", sum)
	}
	all, _ := ReadResults(results)
	for _, r := range all[len(pre):] {
		if r.Seed != 2 {
			t.Fatalf("ran seed %d", r.Seed)
		}
		if r.Method == None {
			continue
		}
		mean := map[GraphBudget]float64{}
		for _, p := range pre {
			if p.Method == r.Method && p.Model == r.Model {
				mean[GraphBudget{p.Budget, p.BudgetUnit}] += p.ValAcc / 2
			}
		}
		got := GraphBudget{r.Budget, r.BudgetUnit}
		for b, v := range mean {
			if v > mean[got] || v == mean[got] && b.less(got) {
				t.Errorf("%s %s ran at %v (val %v), %v has %v", r.Method, r.Model, got, mean[got], b, v)
			}
		}
	}
}
