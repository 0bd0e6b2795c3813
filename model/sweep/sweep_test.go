package sweep

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
)

func TestSpecDefaultsAndParsing(t *testing.T) {
	s := Spec{Datasets: []string{"Cora"}}
	if err := s.Normalize(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Datasets, []string{"cora"}) || !slices.Equal(s.Methods, PaperMethods) ||
		!slices.Equal(s.Budgets, PaperBudgets) || len(s.Depths) != 12 || s.Seeds != 1 || s.Splits != "0" ||
		s.Epochs != 200 || s.AlphaValue() != 0.5 || !slices.Equal(s.PairNorm, []bool{false, true}) {
		t.Errorf("defaults: %+v", s)
	}
	if got := s.models(Directed); !slices.Equal(got, []string{"dirgcn"}) {
		t.Errorf("default directed models %v", got)
	}
	d, err := ParseDepths([]string{"1-3,7", "9"})
	if err != nil || !slices.Equal(d, []int{1, 2, 3, 7, 9}) {
		t.Errorf("ParseDepths: %v %v", d, err)
	}
	for _, bad := range []Spec{{}, {Datasets: []string{"x"}}, {Datasets: []string{"cora"}, Splits: "a"},
		{Datasets: []string{"cora"}, Depths: []int{2, 2}}, {Datasets: []string{"cora"}, Budgets: []float64{0}}} {
		if err := bad.Normalize(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// TestFieldErrors checks that Normalize's and the parsers' errors are
// *FieldError naming the field, and that no error names a command-line flag.
func TestFieldErrors(t *testing.T) {
	for _, c := range []struct {
		err   func() error
		field string
		text  string
	}{
		{func() error { s := Spec{}; return s.Normalize() }, "datasets", "datasets: none given"},
		{func() error { s := Spec{Datasets: []string{"cora"}, Budgets: []float64{2}}; return s.Normalize() },
			"budgets", "budgets: 2 outside (0, 1] (a fraction of E0, e.g. 0.05)"},
		{func() error {
			s := Spec{Datasets: []string{"cora"}, Methods: []string{"gtr"}, Forms: []string{"directed"}}
			return s.Normalize()
		}, "methods", "methods: gtr rewires undirected graphs only; set forms to undirected"},
		{func() error { _, err := ParseBudgets([]string{"x"}); return err }, "budgets", `budgets: "x" is not a number`},
		{func() error { _, err := ParseBools("pairnorm", []string{"maybe"}); return err }, "pairnorm", `pairnorm: "maybe": want no or yes`},
		{func() error { _, err := ParseDepths([]string{"0"}); return err }, "depths", `depths: "0": want depths ≥ 1 or ranges like 1-12`},
	} {
		err := c.err()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || err.Error() != c.text || strings.Contains(err.Error(), "--") {
			t.Errorf("error %#v (%v), want a FieldError of %s: %q", err, err, c.field, c.text)
		}
	}
}

func TestOpenResultsRepairs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	full := `{"dataset":"sbm","form":"undirected","method":"none","model":"gcn","budget":0.3,"layers":1,"epochs":5}` + "\n"
	os.WriteFile(path, []byte(full+`{"dataset":"sbm","meth`), 0o644)
	res, recs, cut, err := OpenResults(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || cut != len(`{"dataset":"sbm","meth`) {
		t.Errorf("%d records, %d bytes cut", len(recs), cut)
	}
	// The baseline's key ignores the budget.
	if k := recs[0].Key(); k.Budget != 0 {
		t.Errorf("key %+v", k)
	}
	if err := res.Append(Record{Dataset: "sbm", Form: "undirected", Method: "res", Model: "gcn", Layers: 1, Epochs: 5, Budget: 0.1}); err != nil {
		t.Fatal(err)
	}
	// A second sweep cannot open the locked file.
	if _, _, _, err := OpenResults(path); err == nil {
		t.Error("second open of a locked results file succeeded")
	}
	res.Close()
	got, err := ReadResults(path)
	if err != nil || len(got) != 2 || got[1].Method != "res" {
		t.Errorf("after append: %v %v", got, err)
	}
	os.WriteFile(path, []byte("not json\n"+full), 0o644)
	if _, err := ReadResults(path); err == nil {
		t.Error("a bad middle line is not an error")
	}
}

// TestLockPath: a second lock on the same file is refused at once, and
// released with the first.
func TestLockPath(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := LockPath(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockPath(p); err == nil || !strings.Contains(err.Error(), "locked by another ohm process") {
		t.Fatalf("second lock: %v", err)
	}
	unlock()
	u2, err := LockPath(p)
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	u2()
}

// TestCacheChecksum: a cached graph is used as stored; a valid but different
// .npz, or edited numbers, make load refuse it (the sweep rewires again).
func TestCacheChecksum(t *testing.T) {
	c := cache{dir: t.TempDir()}
	g, _ := linalg.FromEdges(4, false, []linalg.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}})
	k := GraphKey{Dataset: "x", Form: Undirected, Method: "err", Budget: 0.1, Version: "rewire-1"}
	r := &Rewired{Graph: g, Key: k, E0: 3, Iterations: 1, Added: 1, Removed: 1}
	if err := c.store(r); err != nil {
		t.Fatal(err)
	}
	got := c.load(k, 4)
	if got == nil || !got.Graph.Equal(g) || got.Added != 1 {
		t.Fatalf("stored graph not loaded back: %+v", got)
	}
	npz, meta := c.paths(k)
	other, _ := linalg.FromEdges(4, false, []linalg.Edge{{U: 0, V: 3}})
	if err := graphio.WriteNPZ(npz, 4, other.Arcs(), nil); err != nil {
		t.Fatal(err)
	}
	if c.load(k, 4) != nil {
		t.Fatal("a different valid .npz was used")
	}
	if err := c.store(r); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(meta)
	os.WriteFile(meta, bytes.Replace(b, []byte(`"added": 1`), []byte(`"added": 7`), 1), 0o644)
	if c.load(k, 4) != nil {
		t.Fatal("edited numbers were used")
	}
}
