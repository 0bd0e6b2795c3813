package published

import "testing"

// TestPaper checks the embedded tables against their README: 480 accuracy
// cells over six form × model × PairNorm tables, 160 edit cells, every cell
// once, every value in range.
func TestPaper(t *testing.T) {
	p, err := Paper()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Accuracy) != 480 || len(p.Edits) != 160 {
		t.Fatalf("%d accuracy and %d edit cells, want 480 and 160", len(p.Accuracy), len(p.Edits))
	}
	type key struct {
		form, model string
		pn          bool
		dataset     string
		method      string
		budget      float64
	}
	seen := map[key]bool{}
	tables := map[string]int{}
	for _, a := range p.Accuracy {
		k := key{a.Form, a.Model, a.PairNorm, a.Dataset, a.Method, a.Budget}
		if seen[k] {
			t.Errorf("cell %+v twice", k)
		}
		seen[k] = true
		tables[a.Form+"/"+a.Model]++
		if a.Acc <= 0 || a.Acc > 100 || a.Layer < 1 || a.Layer > 12 {
			t.Errorf("cell %+v out of range", a)
		}
	}
	if len(tables) != 3 {
		t.Errorf("form/model tables %v, want undirected/gcn, directed/gcn, directed/dirgcn", tables)
	}
	for _, e := range p.Edits {
		if e.Added == nil {
			t.Errorf("edit cell %+v without additions", e)
		}
		if (e.Removed == nil) != (e.Method == "res" || e.Method == "res-hop") {
			t.Errorf("edit cell %+v: removed is null exactly for the add-only methods", e)
		}
	}
}
