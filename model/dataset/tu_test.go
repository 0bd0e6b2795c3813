package dataset

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/linalg"

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
		if st := d.Stats(); st.Disconnected != e.DisconnectedGraphs || st.IsolatedNodes != e.IsolatedNodes || st.Nodes.Max != e.MaxNodes || 2*int(st.Edges.Mean*float64(st.Graphs)+0.5) != e.Arcs {
			t.Errorf("%s: Stats %+v disagree with %+v", name, st, e)
		}
		if !slices.Equal(d.ClassCounts(), e.ClassCounts) {
			t.Errorf("%s: class counts %v, want %v", name, d.ClassCounts(), e.ClassCounts)
		}
		if e.Undirected != (asym == 0) {
			t.Errorf("%s: %d arcs without their reverse, want undirected %v", name, asym, e.Undirected)
		}
		for i, g := range d.Graphs(false) {
			if !slices.Equal(g.Arcs(), d.Graph(i).Undirected().Arcs()) {
				t.Fatalf("%s graph %d: Graphs(false) differs from Graph(i).Undirected()", name, i)
			}
		}
		if len(d.X) != d.TotalNodes()*d.NumFeatures || len(d.EdgeAttr) != len(d.Src)*d.NumEdgeFeatures {
			t.Errorf("%s: x has %d values, edge_attr %d", name, len(d.X), len(d.EdgeAttr))
		}
	}
}

// writeTU writes a TU dataset's files (part → content) into a fresh raw
// folder and returns it.
func writeTU(t *testing.T, name string, parts map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name, "raw")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for part, s := range parts {
		if err := os.WriteFile(filepath.Join(dir, name+"_"+part+".txt"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// tiny is a TU dataset of three graphs (nodes 1-3, 4-5, 6) with a
// duplicate arc (2, 3), a self-loop (1, 1), node labels 2..4 (one-hot of
// width 3), two attribute columns, edge labels 5..6 and graph labels
// -1, 7, -1.
var tiny = map[string]string{
	"A":               "1, 2\n2, 1\n2, 3\n3, 2\n1, 1\n3, 2\n4, 5\n5, 4\n",
	"graph_indicator": "1\n1\n1\n2\n2\n3\n",
	"graph_labels":    "-1\n7\n-1\n",
	"node_labels":     "2\n4\n3\n2\n2\n4\n",
	"node_attributes": "0.5, 1\n1.5, 2\n2.5, 3\n3.5, 4\n4.5, 5\n0.1, 6",
	"edge_labels":     "5\n6\n5\n5\n6\n6\n5\n5\n",
	"edge_attributes": "1\n2\n3\n4\n5\n6\n7\n8\n",
}

// TestLoadTUTiny: every array of a hand-built dataset, values worked out by
// hand from PyG's read_tu_data: self-loop dropped, the duplicate arc (3, 2)
// merged with its edge_attr rows summed, arcs sorted, ids per graph, the
// attributes before the one-hot labels, graph labels ranked.
func TestLoadTUTiny(t *testing.T) {
	dir := writeTU(t, "TINY", tiny)
	d, err := LoadTU(dir, "TINY", TUOptions{NodeAttr: true, EdgeAttr: true})
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	check("NodePtr", d.NodePtr, []int{0, 3, 5, 6})
	check("EdgePtr", d.EdgePtr, []int{0, 4, 6, 6})
	check("Src", d.Src, []int{0, 1, 1, 2, 0, 1})
	check("Dst", d.Dst, []int{1, 0, 2, 1, 1, 0})
	check("Y", d.Y, []int{0, 1, 0})
	check("NumClasses", d.NumClasses, 2)
	check("NumFeatures", d.NumFeatures, 5)
	f32 := func(v float64) float64 { return float64(float32(v)) }
	check("X", d.X, []float64{
		0.5, 1, 1, 0, 0,
		1.5, 2, 0, 0, 1,
		2.5, 3, 0, 1, 0,
		3.5, 4, 1, 0, 0,
		4.5, 5, 1, 0, 0,
		f32(0.1), 6, 0, 0, 1,
	})
	// Arcs in order (1,2) (2,1) (2,3) (3,2)+(3,2) (4,5) (5,4); rows are
	// [attribute, label 5, label 6].
	check("EdgeAttr", d.EdgeAttr, []float64{
		1, 1, 0,
		2, 0, 1,
		3, 1, 0,
		4 + 6, 1, 1,
		7, 1, 0,
		8, 1, 0,
	})
	check("columns", []int{d.NumNodeAttributes, d.NumNodeLabels, d.NumEdgeAttributes, d.NumEdgeLabels}, []int{2, 3, 1, 2})

	d, err = LoadTU(dir, "TINY", TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("default NumFeatures", d.NumFeatures, 3)
	check("default NumEdgeFeatures", d.NumEdgeFeatures, 2)
	check("graph 2 arcs", d.Graph(2).Arcs(), []linalg.Edge{})
	check("Stats", d.Stats(), TUStats{Graphs: 3, Nodes: SizeSpread{1, 2, 3}, Edges: SizeSpread{0, 1, 2}, TotalNodes: 6, TotalArcs: 6,
		Features: 3, EdgeFeatures: 2, Classes: 2, ClassCounts: []int{2, 1}, IsolatedNodes: 1, IsolatedGraphs: 1, NoEdgeGraphs: 1, OneNodeGraphs: 1})

	// Without node labels (nor attributes used): the constant 1.
	parts := maps.Clone(tiny)
	delete(parts, "node_labels")
	d, err = LoadTU(writeTU(t, "TINY", parts), "TINY", TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("unlabelled X", d.X, []float64{1, 1, 1, 1, 1, 1})
}

// TestLoadTUBadInput: every malformed file is refused with its name and
// line.
func TestLoadTUBadInput(t *testing.T) {
	for _, c := range []struct {
		name, part, content, file string
		line                      int
		reason                    string
	}{
		{"node labels short", "node_labels", "2\n4\n3\n2\n2\n", "node_labels", 6, "ends after 5 lines"},
		{"node labels long", "node_labels", "2\n4\n3\n2\n2\n4\n1\n", "node_labels", 7, "more lines"},
		{"edge labels short", "edge_labels", "5\n6\n", "edge_labels", 3, "ends after 2 lines"},
		{"attributes short", "node_attributes", "1\n2\n", "node_attributes", 3, "ends after 2 lines"},
		{"id out of range", "A", "1, 2\n2, 7\n", "A", 2, "node 7 out of range [1, 6]"},
		{"id zero", "A", "0, 2\n", "A", 1, "node 0 out of range"},
		{"arc across graphs", "A", "1, 2\n3, 4\n", "A", 2, "joins graph 1 and graph 2"},
		{"not a number", "A", "1, 2\n2, x\n", "A", 2, `"x" is not an integer`},
		{"attribute not a number", "node_attributes", "1\n2\n3\nnan\n5\n6\n", "node_attributes", 4, "not a finite number"},
		{"one value in A", "A", "1, 2\n2\n", "A", 2, "1 values, line 1 has 2"},
		{"empty line", "graph_labels", "1\n\n2\n", "graph_labels", 2, "empty line"},
		{"indicator decreasing", "graph_indicator", "1\n1\n2\n1\n3\n3\n", "graph_indicator", 4, "non-decreasing"},
		{"graph with no node", "graph_indicator", "1\n1\n1\n3\n3\n3\n", "graph_indicator", 4, "graph 2 has no node"},
		{"last graph with no node", "graph_indicator", "1\n1\n1\n2\n2\n2\n", "graph_indicator", 7, "graph 3 has no node"},
		{"graph label missing", "graph_labels", "-1\n7\n", "graph_indicator", 6, "graph 3 out of range [1, 2]"},
	} {
		parts := maps.Clone(tiny)
		parts[c.part] = c.content
		dir := writeTU(t, "TINY", parts)
		_, err := LoadTU(dir, "TINY", TUOptions{})
		var fe *TUFormatError
		if !errors.As(err, &fe) || fe.File != filepath.Join(dir, "TINY_"+c.file+".txt") || fe.Line != c.line || !strings.Contains(fe.Reason, c.reason) {
			t.Errorf("%s: error %v, want TINY_%s.txt:%d: …%s…", c.name, err, c.file, c.line, c.reason)
		}
	}
	parts := maps.Clone(tiny)
	delete(parts, "graph_labels")
	if _, err := LoadTU(writeTU(t, "TINY", parts), "TINY", TUOptions{}); err == nil || !strings.Contains(err.Error(), "TINY_graph_labels.txt: missing") {
		t.Errorf("no graph labels: error %v", err)
	}
}
