package dataset

import (
	"slices"
	"testing"
)

func TestBottleneckStructure(t *testing.T) {
	d := Bottleneck(SynthOptions{})
	u := d.Graph.Undirected()
	n := bottleneckCliques * bottleneckSize
	// 8 cliques of 10 (45 edges each) plus the 8 ring edges between them.
	if d.N() != n || u.NumEdges() != 8*45+8 || u.NumSelfLoops() != 0 {
		t.Fatalf("n %d edges %d loops %d", d.N(), u.NumEdges(), u.NumSelfLoops())
	}
	// The directed form is the symmetric arc set.
	if d.Graph.NumEdges() != 2*u.NumEdges() {
		t.Fatalf("arcs %d, want %d", d.Graph.NumEdges(), 2*u.NumEdges())
	}
	// Exactly two nodes of each clique touch another clique.
	for c := range bottleneckCliques {
		out := 0
		for i := range bottleneckSize {
			for _, v := range u.Out(c*bottleneckSize + i) {
				if v/bottleneckSize != c {
					out++
				}
			}
		}
		if out != 2 {
			t.Fatalf("clique %d has %d outside edges, want 2", c, out)
		}
	}
	if got := d.ClassCounts(); !slices.Equal(got, []int{20, 20, 20, 20}) {
		t.Fatalf("class counts %v", got)
	}
	checkSplit(t, d, 24, 24, 32)
}

func TestSBMHomophily(t *testing.T) {
	for _, tc := range []struct {
		het      bool
		name     string
		min, max float64 // bounds on the fraction of same-class edges
	}{
		{false, "sbm", 0.7, 1},
		{true, "sbm-heterophilic", 0, 0.3},
	} {
		d := SBM(SynthOptions{Seed: 3, Heterophilic: tc.het})
		if d.Name != tc.name {
			t.Errorf("name %q, want %q", d.Name, tc.name)
		}
		same, all := 0, 0
		for _, e := range d.Graph.Undirected().Edges() {
			all++
			if d.Labels[e.U] == d.Labels[e.V] {
				same++
			}
		}
		h := float64(same) / float64(all)
		// Expected degree about 8: 1200..2000 edges on 400 nodes.
		if h < tc.min || h > tc.max || all < 1200 || all > 2000 {
			t.Errorf("%s: homophily %.3f over %d edges, want in [%v, %v]", tc.name, h, all, tc.min, tc.max)
		}
		checkSplit(t, d, 80, 100, 220)
	}
}

func TestSynthDeterministic(t *testing.T) {
	for _, gen := range []func(SynthOptions) *Dataset{Bottleneck, SBM} {
		a, b, c := gen(SynthOptions{Seed: 5}), gen(SynthOptions{Seed: 5}), gen(SynthOptions{Seed: 6})
		if !a.Graph.Equal(b.Graph) || !slices.Equal(a.Features.RawMatrix().Ind, b.Features.RawMatrix().Ind) ||
			!slices.Equal(a.Splits[0].Train, b.Splits[0].Train) {
			t.Fatalf("%s: same seed, different data", a.Name)
		}
		if slices.Equal(a.Features.RawMatrix().Ind, c.Features.RawMatrix().Ind) {
			t.Fatalf("%s: different seeds, same features", a.Name)
		}
	}
}

func TestSynthFeaturesClassDependent(t *testing.T) {
	d := SBM(SynthOptions{Seed: 1})
	raw := d.Features.RawMatrix()
	own, total := 0, 0
	for i, y := range d.Labels {
		cols := raw.Ind[raw.Indptr[i]:raw.Indptr[i+1]]
		if len(cols) != synthActive || !slices.IsSorted(cols) {
			t.Fatalf("row %d: %v", i, cols)
		}
		for _, c := range cols {
			total++
			if c/(synthFeatures/sbmClasses) == y {
				own++
			}
		}
	}
	// 0.6 + 0.4·(1/4) = 0.7 of the features come from the node's own block.
	if f := float64(own) / float64(total); f < 0.65 || f > 0.75 {
		t.Fatalf("own-block fraction %.3f, want ≈ 0.7", f)
	}
}

// checkSplit asserts split sizes and that the three sets are disjoint.
func checkSplit(t *testing.T, d *Dataset, train, val, test int) {
	t.Helper()
	s := d.Splits[0]
	if len(s.Train) != train || len(s.Val) != val || len(s.Test) != test {
		t.Fatalf("%s split %d/%d/%d, want %d/%d/%d", d.Name, len(s.Train), len(s.Val), len(s.Test), train, val, test)
	}
	seen := make(map[int]bool)
	for _, ids := range [][]int{s.Train, s.Val, s.Test} {
		if !slices.IsSorted(ids) {
			t.Fatalf("%s: split not sorted", d.Name)
		}
		for _, id := range ids {
			if seen[id] {
				t.Fatalf("%s: node %d in two sets", d.Name, id)
			}
			seen[id] = true
		}
	}
}

// TestRing: the ring task's graph is Bottleneck's, every clique's label is
// the class the opposite clique shows, and a node's features (one-hot of its
// own clique's class) determine its label in no clique pair: every shown
// class has two different labels.
func TestRing(t *testing.T) {
	d := Ring(SynthOptions{})
	b := Bottleneck(SynthOptions{})
	if !d.Graph.Equal(b.Graph) || d.NumClasses != 4 || len(d.Splits[0].Train) != 24 || len(d.Splits[0].Test) != 32 {
		t.Fatalf("ring: %d nodes, %d classes, split %d/%d", d.Graph.N(), d.NumClasses, len(d.Splits[0].Train), len(d.Splits[0].Test))
	}
	labelsOf := map[int]map[int]bool{}
	for i := range d.Graph.N() {
		c := i / 10
		shown := d.Features.At(i, ringOwn[c])
		if shown != 1 || d.Labels[i] != ringOwn[(c+4)%8] {
			t.Fatalf("node %d: feature %v, label %d", i, shown, d.Labels[i])
		}
		if labelsOf[ringOwn[c]] == nil {
			labelsOf[ringOwn[c]] = map[int]bool{}
		}
		labelsOf[ringOwn[c]][d.Labels[i]] = true
	}
	for shown, ls := range labelsOf {
		if len(ls) != 2 {
			t.Errorf("shown class %d has labels %v: the features would give the label away", shown, ls)
		}
	}
}
