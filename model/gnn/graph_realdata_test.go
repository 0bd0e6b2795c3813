package gnn

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// loadMUTAG returns MUTAG as a GraphSet and the TU dataset, or skips.
func loadMUTAG(t *testing.T) (*GraphSet, *dataset.TUDataset) {
	t.Helper()
	root := datatest.Root(t, "MUTAG/raw/MUTAG_A.txt")
	d, err := dataset.LoadTU(filepath.Join(root, "MUTAG", "raw"), "MUTAG", dataset.TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return NewGraphSet(d), d
}

// TestGraphOperatorMUTAG: on every MUTAG graph, GCN's operator built from
// the arcs equals GCNOperator of the graph (an independent construction),
// and GIN's is the adjacency plus the identity.
func TestGraphOperatorMUTAG(t *testing.T) {
	set, d := loadMUTAG(t)
	if len(set.Graphs) != 188 || set.Features != 7 || set.Classes != 2 {
		t.Fatalf("MUTAG: %d graphs, %d features, %d classes", len(set.Graphs), set.Features, set.Classes)
	}
	for i := range set.Graphs {
		g := d.Graph(i)
		got := graphOperator(&set.Graphs[i], opNorm)
		want := GCNOperator(g)
		n := g.N()
		sum := graphOperator(&set.Graphs[i], opSumI)
		for u := range n {
			for v := range n {
				if a, b := got.At(u, v), want.At(u, v); math.Abs(a-b) > 1e-15 {
					t.Fatalf("graph %d: Â[%d,%d] = %v, GCNOperator %v", i, u, v, a, b)
				}
				w := 0.0
				if u == v || g.HasEdge(v, u) {
					w = 1
				}
				if sum.At(u, v) != w {
					t.Fatalf("graph %d: (A+I)[%d,%d] = %v, want %v", i, u, v, sum.At(u, v), w)
				}
			}
		}
	}
}

// TestTrainGraphMUTAG trains each model kind for a few epochs on MUTAG with
// the protocol's widths: losses finite, accuracies in range.
func TestTrainGraphMUTAG(t *testing.T) {
	set, _ := loadMUTAG(t)
	for _, k := range []GraphKind{GraphGCN, GraphGIN, GraphRGCN, GraphRGIN} {
		d, err := NewGraphData(set, k)
		if err != nil {
			t.Fatal(err)
		}
		cfg := GraphDefaults(k)
		cfg.MaxEpochs = 3
		r, err := TrainGraph(d, cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		if r.Epochs != 3 || r.BestEpoch < 1 || !(r.TestAcc > 0 && r.TestAcc <= 1) {
			t.Errorf("%v: %+v", k, r)
		}
	}
}
