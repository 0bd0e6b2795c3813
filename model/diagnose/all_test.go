package diagnose

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/gnn"
)

// fakeRewire "rewires" by adding the pairs {i, i+40+k} for i < 3, k the
// length of the method's name: deterministic, different per method, and no
// rewire package needed.
func fakeRewire(d *dataset.Dataset, g *linalg.Graph, method string) (*linalg.Graph, []linalg.Edge, error) {
	out := g.Clone()
	var added []linalg.Edge
	for i := range 3 {
		v := i + 40 + len(method)
		if !out.HasEdge(i, v) {
			out.AddEdge(i, v)
			added = append(added, linalg.Edge{U: i, V: v})
		}
	}
	return out, added, nil
}

// TestRunAll: RunAll is Run on each dataset's graphs — the original
// undirected form for none, the plan's rewiring for the others — with the
// entries concatenated in dataset order; Rewire is called in method order
// on the undirected form (not for none), OnTraining after a dataset's
// rewirings; a rewiring that added nothing still takes part in the overlap.
func TestRunAll(t *testing.T) {
	ds := []*dataset.Dataset{dataset.Bottleneck(dataset.SynthOptions{}), dataset.Ring(dataset.SynthOptions{})}
	methods := []string{MethodNone, "ref", "other", "empty"}
	spec := Spec{Kind: gnn.GCN, Depths: []int{2}, Seeds: []uint64{1}, Budget: 0.1, Reference: "ref", Workers: 2}
	var calls []string
	plan := Plan{
		Methods: methods,
		Rewire: func(d *dataset.Dataset, g *linalg.Graph, m string) (*linalg.Graph, []linalg.Edge, error) {
			calls = append(calls, d.Name+" "+m)
			if g.Directed() || !g.Equal(d.Graph.Undirected()) {
				t.Errorf("%s %s: Rewire got %v graph, not the undirected form", d.Name, m, g.Directed())
			}
			if m == "empty" {
				return g, nil, nil
			}
			return fakeRewire(d, g, m)
		},
		OnTraining: func(d *dataset.Dataset) { calls = append(calls, d.Name+" training") },
	}
	got, err := RunAll(ds, plan, spec)
	if err != nil {
		t.Fatal(err)
	}
	wantCalls := []string{"bottleneck ref", "bottleneck other", "bottleneck empty", "bottleneck training",
		"ring ref", "ring other", "ring empty", "ring training"}
	if !reflect.DeepEqual(calls, wantCalls) {
		t.Errorf("calls %q, want %q", calls, wantCalls)
	}
	want := &Diagnostics{Cosine: []Cosine{}, Probe: []Probe{}, CKA: []CKA{}, Overlap: []Overlap{}}
	for _, d := range ds {
		g0 := d.Graph.Undirected()
		graphs := []Graph{{Method: MethodNone, Graph: g0}}
		for _, m := range methods[1:] {
			g, added, _ := fakeRewire(d, g0, m)
			if m == "empty" {
				g, added = g0, []linalg.Edge{}
			}
			graphs = append(graphs, Graph{Method: m, Graph: g, Added: added})
		}
		dd, err := Run(d, graphs, spec)
		if err != nil {
			t.Fatal(err)
		}
		want.Cosine = append(want.Cosine, dd.Cosine...)
		want.Probe = append(want.Probe, dd.Probe...)
		want.CKA = append(want.CKA, dd.CKA...)
		want.Overlap = append(want.Overlap, dd.Overlap...)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("RunAll differs from Run per dataset:\n%+v\nvs\n%+v", got, want)
	}
	if len(got.Cosine) != 2*4*3 || len(got.CKA) != 2*3 || len(got.Overlap) != 2 ||
		got.Cosine[0].Dataset != "bottleneck" || got.Cosine[len(got.Cosine)-1].Dataset != "ring" {
		t.Fatalf("entries %d cosine, %d cka, %d overlap", len(got.Cosine), len(got.CKA), len(got.Overlap))
	}
	if o := got.Overlap[0]; !reflect.DeepEqual(o.Methods, []string{"ref", "other", "empty"}) || o.Sizes[2] != 0 {
		t.Errorf("overlap %+v", o)
	}
}

// TestRunAllErrors: a failed rewiring stops RunAll before any training
// and names the dataset and method; DirGCN rewires the arcs.
func TestRunAllErrors(t *testing.T) {
	ds := []*dataset.Dataset{dataset.Bottleneck(dataset.SynthOptions{})}
	trained := 0
	spec := Spec{Kind: gnn.DirGCN, Depths: []int{1}, Seeds: []uint64{0}, OnTrained: func() { trained++ }}
	boom := errors.New("boom")
	plan := Plan{Methods: []string{MethodNone, "bad"},
		Rewire: func(d *dataset.Dataset, g *linalg.Graph, m string) (*linalg.Graph, []linalg.Edge, error) {
			if !g.Directed() || !g.Equal(d.Graph) {
				t.Errorf("DirGCN: Rewire got a graph other than the arcs")
			}
			return nil, nil, boom
		}}
	_, err := RunAll(ds, plan, spec)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "diagnose: bottleneck: rewire bad: boom") || trained != 0 {
		t.Errorf("err %v after %d trainings", err, trained)
	}
	if _, err := RunAll(ds, Plan{Methods: []string{"bad"}}, spec); err == nil || !strings.Contains(err.Error(), "no Rewire") {
		t.Errorf("no Rewire: %v", err)
	}
	if _, err := RunAll(ds, Plan{}, spec); err == nil {
		t.Error("no methods accepted")
	}
}
