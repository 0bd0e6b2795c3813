package diagnose

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/gnn"
)

// TestRunAveragesSeeds: Run over seeds {3, 4} gives, for every cosine, probe
// and CKA entry, the mean and population std of the entries of Run with
// seed 3 alone and with seed 4 alone (computed here independently); the
// overlap lists the rewired graphs only, and the worker count changes
// nothing.
func TestRunAveragesSeeds(t *testing.T) {
	d := dataset.Bottleneck(dataset.SynthOptions{})
	g0 := d.Graph.Undirected()
	g1 := g0.Clone()
	added := []linalg.Edge{}
	for _, e := range [][2]int{{0, 50}, {3, 77}, {10, 60}} {
		if !g1.HasEdge(e[0], e[1]) {
			g1.AddEdge(e[0], e[1])
			added = append(added, linalg.Edge{U: e[0], V: e[1]})
		}
	}
	graphs := []Graph{{Method: "none", Graph: g0}, {Method: "ref", Graph: g1, Added: added}}
	spec := Spec{Kind: gnn.GCN, Depths: []int{1, 3}, Split: 0, Budget: 0.1, Reference: "ref", Workers: 2}
	run := func(workers int, seeds ...uint64) *Diagnostics {
		s := spec
		s.Seeds, s.Workers = seeds, workers
		r, err := Run(d, graphs, s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	both, a, b := run(2, 3, 4), run(1, 3), run(1, 4)
	if len(both.Cosine) != 2*(2+4) || len(both.Probe) != 2*(0+2) || len(both.CKA) != 2 || len(both.Overlap) != 1 {
		t.Fatalf("entries %d %d %d %d", len(both.Cosine), len(both.Probe), len(both.CKA), len(both.Overlap))
	}
	check := func(what string, got, gotStd float64, seeds int, x, y float64) {
		t.Helper()
		m, s := (x+y)/2, math.Abs(x-y)/2
		if math.Abs(got-m) > 1e-12 || math.Abs(gotStd-s) > 1e-12 || seeds != 2 {
			t.Errorf("%s: %v ± %v over %d seeds, want %v ± %v over 2", what, got, gotStd, seeds, m, s)
		}
	}
	for i, c := range both.Cosine {
		check("cosine same", c.Same, c.SameStd, c.Seeds, a.Cosine[i].Same, b.Cosine[i].Same)
		check("cosine diff", c.Diff, c.DiffStd, c.Seeds, a.Cosine[i].Diff, b.Cosine[i].Diff)
	}
	for i, p := range both.Probe {
		check("probe", p.Acc, p.AccStd, p.Seeds, a.Probe[i].Acc, b.Probe[i].Acc)
	}
	for i, c := range both.CKA {
		if c.Method != "none" {
			t.Fatalf("cka of %s, want none against ref", c.Method)
		}
		check("cka", c.CKA, c.CKAStd, c.Seeds, a.CKA[i].CKA, b.CKA[i].CKA)
	}
	if a.Cosine[len(a.Cosine)-1].Same == b.Cosine[len(b.Cosine)-1].Same {
		t.Error("seeds 3 and 4 gave the same cosine: the average proves nothing")
	}
	if o := both.Overlap[0]; len(o.Methods) != 1 || o.Methods[0] != "ref" || o.Sizes[0] != len(added) {
		t.Fatalf("overlap %+v", o)
	}
	if _, err := Run(d, graphs, Spec{Kind: gnn.GCN, Depths: []int{2}}); err == nil {
		t.Error("no seeds accepted")
	}
}

// TestRunLayerZeroAndPairNorm: layer 0 is the cosine of the input features
// as prepared (the same for every graph and depth), every PairNorm setting
// gets its own entries, tagged with it, and PairNorm changes the layers
// after the input.
func TestRunLayerZeroAndPairNorm(t *testing.T) {
	d := dataset.Bottleneck(dataset.SynthOptions{})
	g0 := d.Graph.Undirected()
	graphs := []Graph{{Method: "none", Graph: g0}}
	spec := Spec{Kind: gnn.GCN, Depths: []int{2, 3}, Seeds: []uint64{1}, PairNorm: []bool{false, true},
		PairNormAt: gnn.PairNormPost, Features: gnn.FeaturesRaw}
	diag, err := Run(d, graphs, spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(diag.Cosine) != 2*(3+4) {
		t.Fatalf("%d cosine entries, want 14", len(diag.Cosine))
	}
	all := make([]int, d.N())
	for i := range all {
		all[i] = i
	}
	same, diff := MeanAbsCosine(mat.DenseCopyOf(d.Features), d.Labels, all, DefaultMaxPairs, 1)
	byKey := map[string]Cosine{}
	for _, c := range diag.Cosine {
		want := Training{PairNorm: c.PairNorm, Features: "raw"}
		if c.PairNorm {
			want.PairNormAt = "post"
		}
		if c.Training != want {
			t.Errorf("entry tagged %+v, want %+v", c.Training, want)
		}
		if c.Layer == 0 && (c.Same != same || c.Diff != diff) {
			t.Errorf("layer 0 of depth %d: %v/%v, want the raw features' %v/%v", c.Depth, c.Same, c.Diff, same, diff)
		}
		byKey[fmt.Sprint(c.PairNorm, c.Depth, c.Layer)] = c
	}
	if a, b := byKey["false 3 2"], byKey["true 3 2"]; a.Same == b.Same {
		t.Error("PairNorm gave the same cosine after layer 2 as no PairNorm: the setting did not reach training")
	}
}
