package dataset

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// tuNames are the TU datasets of the shared data root, by their folder.
var tuNames = []string{"MUTAG", "ENZYMES", "PROTEINS"}

// TestLoadTUCounts: every shared TU dataset read to the counts PyG 2.4.0
// gives (expected.json): graphs, nodes, arcs, features, classes, class
// counts, the largest graph, disconnected graphs, isolated nodes and
// self-loops, counted here by an independent search.
func TestLoadTUCounts(t *testing.T) {
	root := datatest.Root(t, "MUTAG/raw/MUTAG_A.txt", "ENZYMES/raw/ENZYMES_A.txt", "PROTEINS/raw/PROTEINS_A.txt")
	exp := datatest.LoadExpected(t, root)
	for _, name := range tuNames {
		d, err := LoadTU(filepath.Join(root, name, "raw"), name, TUOptions{})
		if err != nil {
			t.Fatal(err)
		}
		e := exp[strings.ToLower(name)]
		maxNodes, disconnected, isolated, loops, asym := 0, 0, 0, 0, 0
		for i := range d.Len() {
			g := d.Graph(i)
			maxNodes = max(maxNodes, g.N())
			count, _, iso := datatest.Components(g)
			if count > 1 {
				disconnected++
			}
			isolated += iso
			loops += g.NumSelfLoops()
			for _, a := range g.Arcs() {
				if !g.HasEdge(a.V, a.U) {
					asym++
				}
			}
		}
		got := []int{d.Len(), d.TotalNodes(), len(d.Src), d.NumFeatures, d.NumClasses, maxNodes, disconnected, isolated, loops}
		want := []int{e.Graphs, e.Nodes, e.Arcs, e.Features, e.Classes, e.MaxNodes, e.DisconnectedGraphs, e.IsolatedNodes, e.GraphsWithSelfLoops}
		if !slices.Equal(got, want) {
			t.Errorf("%s: graphs, nodes, arcs, features, classes, max nodes, disconnected, isolated, self-loops = %v, want %v", name, got, want)
		}
		if !slices.Equal(d.ClassCounts(), e.ClassCounts) {
			t.Errorf("%s: class counts %v, want %v", name, d.ClassCounts(), e.ClassCounts)
		}
		if e.Undirected != (asym == 0) {
			t.Errorf("%s: %d arcs without their reverse, want undirected %v", name, asym, e.Undirected)
		}
		if len(d.X) != d.TotalNodes()*d.NumFeatures || len(d.EdgeAttr) != len(d.Src)*d.NumEdgeFeatures {
			t.Errorf("%s: x has %d values, edge_attr %d", name, len(d.X), len(d.EdgeAttr))
		}
	}
}
