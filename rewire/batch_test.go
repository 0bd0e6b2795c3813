package rewire

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
	"github.com/ohmgnn/ohm/model/dataset/testgraph"
)

// batchGraphs is a batch with every case of definitions §3.8: random
// connected and disconnected graphs, isolated nodes, one node, no edge, a
// single edge (FoSR vanishes) and a complete graph (nothing to add).
func batchGraphs(t *testing.T) []*linalg.Graph {
	t.Helper()
	r := rand.New(rand.NewPCG(48, 1))
	var gs []*linalg.Graph
	for range 12 {
		n := 4 + r.IntN(14)
		var es [][2]int
		for u := range n {
			for v := u + 1; v < n; v++ {
				if r.Float64() < 0.25 {
					es = append(es, [2]int{u, v})
				}
			}
		}
		gs = append(gs, testgraph.MustGraph(t, n, false, es...))
	}
	return append(gs,
		testgraph.MustGraph(t, 1, false),
		testgraph.MustGraph(t, 3, false),
		testgraph.MustGraph(t, 2, false, [2]int{0, 1}),
		testgraph.MustGraph(t, 6, false, [2]int{0, 1}, [2]int{1, 2}, [2]int{3, 4}),
		testgraph.Complete(t, 5),
		testgraph.Path(t, 9),
	)
}

// TestRunManyEqualsRun: every graph's result in a batch equals its run
// alone, for every method, with a fraction and with a number of edits,
// whatever the thread count.
func TestRunManyEqualsRun(t *testing.T) {
	gs := batchGraphs(t)
	for _, m := range AllMethods {
		for _, cfg := range []Config{{Method: m, Budget: 0.3}, {Method: m, Edits: 3}} {
			var first []*Result
			for _, threads := range []int{1, 3} {
				got, err := RunMany(context.Background(), gs, cfg, ManyOptions{Threads: threads})
				if err != nil {
					t.Fatalf("%s %+v threads %d: %v", m, cfg, threads, err)
				}
				if threads == 1 {
					first = got
				}
				for i, g := range gs {
					c := cfg
					c.Workers = 1
					want, err := Run(g, c)
					if errors.Is(err, ErrFoSRVanished) {
						if got[i].Iterations != 0 || got[i].StoppedEarly == "" || !reflect.DeepEqual(got[i].Graph.Arcs(), g.Arcs()) {
							t.Errorf("%s graph %d: vanished FoSR gave %+v, want the graph unchanged with a reason", m, i, got[i])
						}
						continue
					}
					if err != nil {
						t.Fatalf("%s graph %d alone: %v", m, i, err)
					}
					sameRun(t, m, i, got[i], want)
					sameRun(t, m, i, got[i], first[i])
				}
			}
		}
	}
}

// TestRunManyInPlace: a batch given its graphs (ManyOptions.InPlace)
// decides as one that copies them, for every method and thread count, and
// FoSR's results are the inputs themselves, rewired (a vanished one as it
// came in).
func TestRunManyInPlace(t *testing.T) {
	for _, m := range AllMethods {
		cfg := Config{Method: m, Budget: 0.3}
		want, err := RunMany(context.Background(), batchGraphs(t), cfg, ManyOptions{Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, threads := range []int{1, 3} {
			gs := batchGraphs(t)
			got, err := RunMany(context.Background(), gs, cfg, ManyOptions{Threads: threads, InPlace: true})
			if err != nil {
				t.Fatalf("%s threads %d: %v", m, threads, err)
			}
			for i := range gs {
				sameRun(t, m, i, got[i], want[i])
				if m == FoSR && got[i].Graph != gs[i] {
					t.Errorf("%s graph %d: the result's graph is a copy, want the input rewired", m, i)
				}
			}
		}
	}
}

// TestFoSRUndoInPlace: a FoSR run in place that vanishes after additions
// (rule 5 of definitions §3.8) gives its graph back as it came in.
func TestFoSRUndoInPlace(t *testing.T) {
	g := testgraph.Path(t, 9)
	before := g.Arcs()
	sc := &batchScratch{inPlace: true}
	p, err := NewPlan(g, Config{Method: FoSR, Edits: 3, Workers: 1, scratch: sc})
	if err != nil {
		t.Fatal(err)
	}
	op, err := newFoSROperator(p)
	if err != nil {
		t.Fatal(err)
	}
	for it := 1; it <= 3; it++ {
		if _, err := op.iterate(it); err != nil {
			t.Fatal(err)
		}
	}
	if g.E0() != len(before)/2+3 || len(sc.fosr.added) != 3 {
		t.Fatalf("in place: %d edges and %d recorded additions after 3 iterations, want %d and 3", g.E0(), len(sc.fosr.added), len(before)/2+3)
	}
	sc.fosr.undo()
	if !reflect.DeepEqual(g.Arcs(), before) {
		t.Errorf("after undo: %v, want %v", g.Arcs(), before)
	}
}

// sameRun fails unless a and b made the same edits, counts and graph.
func sameRun(t *testing.T, m Method, i int, a, b *Result) {
	t.Helper()
	if !reflect.DeepEqual(a.Log, b.Log) || a.Iterations != b.Iterations || a.Budget != b.Budget ||
		a.Added != b.Added || a.Removed != b.Removed || a.StoppedEarly != b.StoppedEarly ||
		a.AddedNet != b.AddedNet || a.RemovedNet != b.RemovedNet ||
		!reflect.DeepEqual(a.Graph.Arcs(), b.Graph.Arcs()) {
		t.Errorf("%s graph %d: batch %+v\nalone %+v", m, i, a, b)
	}
}

// TestRunManyBudgets: B per graph is floor(r·E0_i), or Edits whatever E0.
func TestRunManyBudgets(t *testing.T) {
	gs := []*linalg.Graph{testgraph.Path(t, 21), testgraph.Path(t, 5), testgraph.MustGraph(t, 3, false)}
	res, err := RunMany(context.Background(), gs, Config{Method: Res, Budget: 0.1}, ManyOptions{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{2, 0, 0} {
		if res[i].Budget != want {
			t.Errorf("budget 0.1: graph %d B = %d, want %d", i, res[i].Budget, want)
		}
	}
	res, err = RunMany(context.Background(), gs, Config{Method: Res, Edits: 4}, ManyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{4, 4, 4} {
		if res[i].Budget != want {
			t.Errorf("edits 4: graph %d B = %d, want %d", i, res[i].Budget, want)
		}
	}
	if res[0].Added != 4 || res[1].Added != 4 {
		t.Errorf("edits 4 on paths: added %d and %d, want 4 each", res[0].Added, res[1].Added)
	}
}

// TestRunManyRefuses: bad configurations and inputs are refused before any
// run, naming the field or the graph.
func TestRunManyRefuses(t *testing.T) {
	p := testgraph.Path(t, 4)
	d := testgraph.Cycle(t, 4, true)
	for _, c := range []struct {
		name   string
		graphs []*linalg.Graph
		cfg    Config
		field  Field
		graph  int
	}{
		{"both budget and edits", []*linalg.Graph{p}, Config{Method: ERR, Budget: 0.1, Edits: 2}, FieldEdits, -1},
		{"negative edits", []*linalg.Graph{p}, Config{Method: ERR, Edits: -1}, FieldEdits, -1},
		{"no budget", []*linalg.Graph{p}, Config{Method: ERR}, FieldBudget, -1},
		{"start vector", []*linalg.Graph{p}, Config{Method: FoSR, Budget: 0.5, FoSR: &FoSROptions{X0: []float64{1, 2, 3, 4}}}, FieldStartVector, -1},
		{"mixed forms", []*linalg.Graph{p, d}, Config{Method: ERR, Budget: 0.5}, "", 1},
		{"nil graph", []*linalg.Graph{p, nil}, Config{Method: ERR, Budget: 0.5}, "", 1},
	} {
		_, err := RunMany(context.Background(), c.graphs, c.cfg, ManyOptions{})
		var ce *ConfigError
		var ge *GraphError
		switch {
		case c.field != "" && (!errors.As(err, &ce) || ce.Field != c.field):
			t.Errorf("%s: error %v, want a ConfigError of %q", c.name, err, c.field)
		case c.graph >= 0 && (!errors.As(err, &ge) || ge.Graph != c.graph):
			t.Errorf("%s: error %v, want a GraphError of graph %d", c.name, err, c.graph)
		}
	}
}

// TestRunManyInterrupted: a context done before the batch gives its error
// and no results.
func TestRunManyInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := RunMany(ctx, batchGraphs(t), Config{Method: ERR, Budget: 0.5}, ManyOptions{Threads: 2})
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("cancelled batch: %d results, error %v; want none and context.Canceled", len(res), err)
	}
}

// TestRunManyOnGraph: OnGraph sees every graph once with its result.
func TestRunManyOnGraph(t *testing.T) {
	gs := batchGraphs(t)
	seen := make([]*Result, len(gs))
	res, err := RunMany(context.Background(), gs, Config{Method: Res, Budget: 0.2}, ManyOptions{Threads: 3, OnGraph: func(i int, r *Result) {
		if seen[i] != nil {
			t.Errorf("graph %d reported twice", i)
		}
		seen[i] = r
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range gs {
		if seen[i] != res[i] {
			t.Errorf("graph %d: OnGraph saw %p, result %p", i, seen[i], res[i])
		}
	}
}

// TestRunManyMUTAG: on every graph of MUTAG, for every method, the batch on
// two threads equals rewiring each graph alone (budget 0.2 and 3 edits).
func TestRunManyMUTAG(t *testing.T) {
	root := datatest.Root(t, "MUTAG/raw/MUTAG_A.txt")
	d, err := dataset.LoadTU(filepath.Join(root, "MUTAG", "raw"), "MUTAG", dataset.TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gs := d.Graphs(false)
	for _, m := range AllMethods {
		for _, cfg := range []Config{{Method: m, Budget: 0.2}, {Method: m, Edits: 3}} {
			got, err := RunMany(context.Background(), gs, cfg, ManyOptions{Threads: 2})
			if err != nil {
				t.Fatalf("%s: %v", m, err)
			}
			if m == FoSR { // given up, MUTAG's graphs decide the same (§3.8 rule 9)
				own, err := RunMany(context.Background(), d.Graphs(false), cfg, ManyOptions{Threads: 2, InPlace: true})
				if err != nil {
					t.Fatalf("%s in place: %v", m, err)
				}
				for i := range gs {
					sameRun(t, m, i, own[i], got[i])
				}
			}
			edits := 0
			for i, g := range gs {
				c := cfg
				c.Workers = 1
				want, err := Run(g, c)
				if err != nil {
					t.Fatalf("%s graph %d alone: %v", m, i, err)
				}
				sameRun(t, m, i, got[i], want)
				edits += len(got[i].Log)
			}
			if edits < len(gs) {
				t.Errorf("%s %+v: %d edits over %d graphs", m, cfg, edits, len(gs))
			}
		}
	}
}

// TestTotals: sums and spreads of a batch's results, by hand.
func TestTotals(t *testing.T) {
	rs := []*Result{
		{E0: 10, Budget: 1, Iterations: 1, Added: 1, Removed: 1, AddedNet: 1, RemovedNet: 1},
		{E0: 5, Budget: 0},
		{E0: 30, Budget: 3, Iterations: 2, Added: 3, PassedOver: 2, StoppedEarly: "x", AddedNet: 3},
	}
	got := Totals(rs)
	want := ManyTotals{Graphs: 3, E0: 45, Planned: 4, Iterations: 3, Added: 4, Removed: 1, AddedNet: 4, RemovedNet: 1, PassedOver: 2,
		ZeroBudget: 1, StoppedEarly: 1, EditsPerGraph: Spread{0, 5.0 / 3, 2, 3}, AddedPerGraph: Spread{0, 4.0 / 3, 1, 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Totals = %+v\nwant %+v", got, want)
	}
}

// BenchmarkRunMany rewires 500 random connected graphs of 20–60 nodes
// (a path plus random chords, about PROTEINS's sizes) with err at 10 %,
// on one and on two threads.
func BenchmarkRunMany(b *testing.B) {
	r := rand.New(rand.NewPCG(48, 2))
	gs := make([]*linalg.Graph, 500)
	for i := range gs {
		n := 20 + r.IntN(41)
		g := linalg.NewGraph(n, false)
		for u := 1; u < n; u++ {
			g.AddEdge(u-1, u)
		}
		for range n {
			if u, v := r.IntN(n), r.IntN(n); u != v {
				g.AddEdge(u, v)
			}
		}
		gs[i] = g
	}
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			for b.Loop() {
				if _, err := RunMany(context.Background(), gs, Config{Method: ERR, Budget: 0.1}, ManyOptions{Threads: threads}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestResolveMany checks the batch's one memory probe: when the largest
// graph's dense state fits (once per thread), Auto and Incremental become Incremental with
// the memory checked; when it does not (OHM_MEMORY below it), or for an
// engine the probe does not concern, the Config is left as it is; FoSR's
// and curvature's operators are probed once in all (the largest graph's
// state, once per thread).
func TestResolveMany(t *testing.T) {
	small, big := linalg.NewGraph(10, false), linalg.NewGraph(2000, false)
	huge := linalg.NewGraph(200000, false)
	// DenseBytes(2000) = 112 MB, DenseBytes(10) = 2.8 KB.
	for _, c := range []struct {
		mem     string
		threads int
		graphs  []*linalg.Graph
		method  Method
		engine  EngineKind
		want    EngineKind
		checked bool
	}{
		{"1G", 1, []*linalg.Graph{small, big}, ERR, "", Incremental, true},
		{"1G", 2, []*linalg.Graph{small, big}, ERR, Incremental, Incremental, true},
		{"1G", 1, []*linalg.Graph{small}, GTR, Auto, Incremental, true},
		{"50M", 1, []*linalg.Graph{small, big}, ERR, Auto, Auto, false},
		{"50M", 1, []*linalg.Graph{big, small}, ERR, Incremental, Incremental, false},
		{"170M", 1, []*linalg.Graph{small, big}, ERR, Auto, Incremental, true},
		{"170M", 2, []*linalg.Graph{small, big}, ERR, Auto, Auto, false}, // two engines of 112 MB
		{"170M", 2, []*linalg.Graph{big}, ERR, Auto, Incremental, true},  // one graph: one engine
		{"1G", 1, []*linalg.Graph{small, big}, ERR, Sketch, Sketch, false},
		{"1G", 1, []*linalg.Graph{small, big}, ERR, Exact, Exact, false},
		{"1G", 2, []*linalg.Graph{small, big}, FoSR, "", "", true},
		{"1G", 2, []*linalg.Graph{small, big}, Curvature, "", "", true},
		// FoSRBytes(200000, 0) = 40.6 MB: one fits in 60 MB, two do not
		{"60M", 2, []*linalg.Graph{small, huge}, FoSR, "", "", false},
		{"60M", 1, []*linalg.Graph{small, huge}, FoSR, "", "", true},
	} {
		t.Setenv("OHM_MEMORY", c.mem)
		got := resolveMany(c.graphs, Config{Method: c.method, Engine: c.engine}, c.threads)
		if got.Engine != c.want || got.memoryChecked != c.checked {
			t.Errorf("%s, %d threads, %s, engine %q, %d graphs: engine %q checked %v, want %q %v",
				c.mem, c.threads, c.method, c.engine, len(c.graphs), got.Engine, got.memoryChecked, c.want, c.checked)
		}
	}
}
