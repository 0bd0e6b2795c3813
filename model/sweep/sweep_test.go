package sweep

import (
	"bytes"
	"encoding/json"
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
		{func() error { s := Spec{}; return s.Normalize() }, "datasets", "datasets: none given (name datasets or a graph file)"},
		{func() error { s := Spec{Datasets: []string{"cora"}, Graph: "g.npz"}; return s.Normalize() },
			"graph", "graph: a graph file is swept instead of datasets, not with them (cora given too)"},
		{func() error { s := Spec{Graph: "my graph.npz"}; return s.Normalize() },
			"name", `name: "my graph": a graph file's dataset name holds letters, digits, '.', '_' and '-' only, and starts with a letter or digit`},
		{func() error { s := Spec{Datasets: []string{"cora"}, Name: "g"}; return s.Normalize() },
			"name", `name: "g" names a graph file's dataset, and no graph file is given`},
		{func() error {
			s := Spec{Datasets: []string{"cora"}, SplitRule: "random:0.6,0.2,0.2"}
			return s.Normalize()
		},
			"split_rule", "split_rule: splits a graph file's nodes, and no graph file is given (the datasets have their own splits)"},
		{func() error { s := Spec{Graph: "g.npz", SplitRule: "thirds"}; return s.Normalize() },
			"split_rule", `split_rule: "thirds": want random:TRAIN,VAL,TEST (fractions, e.g. random:0.6,0.2,0.2) or per-class:TRAIN,VAL,TEST (counts, e.g. per-class:20,500,1000)`},
		{func() error { s := Spec{Graph: "g.npz", SplitSeed: 3}; return s.Normalize() },
			"split_seed", "split_seed: seeds a split rule, and none is given"},
		{func() error {
			s := Spec{Graph: "g.npz", SplitRule: "random:0.6,0.2,0.2", Splits: "all"}
			return s.Normalize()
		},
			"splits", "splits: all: a split rule makes the splits asked by number (e.g. 0,1,2), as many as asked"},
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

// TestGraphSpec: a graph file is named by its base name, its split rule
// canonical.
func TestGraphSpec(t *testing.T) {
	s := Spec{Graph: filepath.Join("data", "My-Graph.v2.npz"), SplitRule: " Random:0.60,0.2,0.2", Splits: "0,1"}
	if err := s.Normalize(); err != nil {
		t.Fatal(err)
	}
	if s.Name != "My-Graph.v2" || s.SplitRule != "random:0.6,0.2,0.2" || len(s.Datasets) != 0 {
		t.Errorf("%+v", s)
	}
}

// TestRecordsOfBuiltinsUnchanged: a record of a built-in dataset written
// before graph files existed reads, keeps its key (so it still counts as
// done) and is written back byte for byte; the cache names of the built-in
// datasets' graphs are unchanged; a graph file's hash, split rule or seed
// changes both keys.
func TestRecordsOfBuiltinsUnchanged(t *testing.T) {
	line := `{"dataset":"cornell","form":"undirected","method":"none","budget":0,"alpha":0,"model":"gcn","pairnorm":false,"layers":1,"hidden":64,"epochs":20,"seed":0,"split":0,"synth_seed":0,"heterophilic":false,"test_acc":0.5405405405405406,"val_acc":0.5423728813559322,"best_epoch":1,"e0":280,"iterations":0,"added":0,"removed":0,"added_net":0,"removed_net":0,"rewire_seconds":0,"train_seconds":0.014372758000000001,"version":"rewire-1","finished":"2026-11-26T03:44:22Z"}`
	recs, _, _, err := parseResults("r.jsonl", []byte(line+"\n"))
	if err != nil || len(recs) != 1 {
		t.Fatal(recs, err)
	}
	b, _ := json.Marshal(recs[0])
	if string(b) != line {
		t.Errorf("written back as\n%s\nwant\n%s", b, line)
	}
	want := Key{Dataset: "cornell", Form: Undirected, Method: None, Model: "gcn", Layers: 1, Epochs: 20, Version: "rewire-1",
		Features: "row"}
	if recs[0].Key() != want {
		t.Errorf("key %+v, want %+v", recs[0].Key(), want)
	}
	// Written before the training choices existed: row-normalised features,
	// PairNorm before the ReLU; the same run recorded now says so.
	now := recs[0]
	now.Features = "row"
	if now.Key() != want {
		t.Errorf("the record with features row has key %v, the record of before %v", now.Key(), want)
	}
	now.Features = "raw"
	if now.Key() == want {
		t.Error("raw features share the key of row-normalised ones")
	}
	old, post := recs[0], recs[0]
	old.PairNorm, post.PairNorm, post.PairNormAt = true, true, "post"
	if f, at := old.Choices(); f != "row" || at != "pre" {
		t.Errorf("a record of before with PairNorm reads as %s/%s, want row/pre", f, at)
	}
	if old.Key() == post.Key() {
		t.Error("PairNorm before and after the ReLU share a key")
	}
	for _, r := range []Record{{GraphSHA256: "ab"}, {SplitRule: "random:0.6,0.2,0.2"}, {SplitSeed: 1}} {
		r2 := recs[0]
		r2.GraphSHA256, r2.SplitRule, r2.SplitSeed = r.GraphSHA256, r.SplitRule, r.SplitSeed
		if r2.Key() == want {
			t.Errorf("%+v: same key as the built-in record", r)
		}
	}
	// The name of the cached graph of cornell/undirected/err/0.05 made
	// before graph files existed.
	k := GraphKey{Dataset: "cornell", Form: Undirected, Method: "err", Budget: 0.05, Version: "rewire-1"}
	if h := k.Hash(); h != "7397d086ccb8fde274b9" {
		t.Errorf("cache name %s changed", h)
	}
	k.GraphSHA256 = "ab"
	if k.Hash() == "7397d086ccb8fde274b9" {
		t.Error("a graph file's cached graph has the built-in dataset's name")
	}
}

// TestRecordsChecked: a record out of range is refused with its line and
// field; fields of a newer ohm are read past and listed.
func TestRecordsChecked(t *testing.T) {
	good := `{"dataset":"cornell","form":"undirected","method":"none","budget":0,"alpha":0,"model":"gcn","pairnorm":false,"layers":1,"hidden":64,"epochs":20,"seed":0,"split":0,"synth_seed":0,"heterophilic":false,"test_acc":0.5,"val_acc":0.5,"best_epoch":1,"e0":280,"iterations":0,"added":0,"removed":0,"added_net":0,"removed_net":0,"rewire_seconds":0,"train_seconds":0.01,"version":"rewire-1","finished":"2026-11-26T03:44:22Z"}`
	for _, tc := range []struct{ from, to, want string }{
		{`"test_acc":0.5`, `"test_acc":7.5`, "r.jsonl line 2: not a sensible result: test_acc 7.5 outside [0, 1]"},
		{`"val_acc":0.5`, `"val_acc":-0.1`, "line 2: not a sensible result: val_acc -0.1 outside [0, 1]"},
		{`"budget":0,`, `"budget":1.5,`, "budget 1.5 outside [0, 1]"},
		{`"added":0`, `"added":-3`, "added -3 below 0"},
		{`"e0":280`, `"e0":-1`, "e0 -1 below 0"},
		{`"best_epoch":1`, `"best_epoch":21`, "best_epoch 21 beyond epochs 20"},
		{`"train_seconds":0.01`, `"train_seconds":-2`, "train_seconds -2: not a time"},
		{`"budget":0,`, `"budget":2.5,"budget_unit":"edits",`, "budget 2.5: not a number of edits"},
		{`"budget":0,`, `"budget":-5,"budget_unit":"edits",`, "budget -5: not a number of edits"},
		{`"budget":0,`, `"budget":5,"budget_unit":"edges",`, `budget_unit "edges": neither`},
		{`"budget":0,`, `"budget":1.5,"budget_unit":"fraction",`, "budget 1.5 outside [0, 1]"},
		{`"finished"`, `"train_acc":1.2,"finished"`, "train_acc 1.2 outside [0, 1]"},
		{`"finished"`, `"last_test_acc":-0.5,"finished"`, "last_test_acc -0.5 outside [0, 1]"},
	} {
		bad := strings.Replace(good, tc.from, tc.to, 1)
		_, _, _, err := parseResults("r.jsonl", []byte(strings.Replace(good, `"seed":0`, `"seed":1`, 1)+"\n"+bad+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.to, err, tc.want)
		}
	}
	edits := strings.Replace(good, `"budget":0,`, `"budget":20,"budget_unit":"edits",`, 1)
	if recs, _, _, err := parseResults("r.jsonl", []byte(edits+"\n")); err != nil || len(recs) != 1 || recs[0].Budget != 20 {
		t.Errorf("a budget of 20 edits per graph: %v, %v", recs, err)
	}
	newer := strings.Replace(good, `"finished"`, `"graph_task":"node","zeta":[1],"finished"`, 1)
	recs, _, unknown, err := parseResults("r.jsonl", []byte(newer+"\n"))
	if err != nil || len(recs) != 1 || !slices.Equal(unknown, []string{"graph_task", "zeta"}) {
		t.Fatalf("newer fields: %v, %v, %v", recs, unknown, err)
	}
}
