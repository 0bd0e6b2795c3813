// Package testgraph builds the small graphs and loads the real datasets' graphs
// that the tests of several packages share (rewire, rewire/curvature). Only
// tests import it; it lives under model/dataset, whose loaders it calls, so
// that the packages tested (below model) never import model.
package testgraph

import (
	"path/filepath"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// MustGraph returns the graph on n nodes with the given edges (arcs when
// directed), each a pair of node numbers.
func MustGraph(t testing.TB, n int, directed bool, edges ...[2]int) *linalg.Graph {
	t.Helper()
	g := linalg.NewGraph(n, directed)
	for _, e := range edges {
		g.AddEdge(e[0], e[1])
	}
	return g
}

// Path returns the undirected path 0–1–…–(n−1).
func Path(t testing.TB, n int) *linalg.Graph {
	t.Helper()
	var es [][2]int
	for i := 0; i+1 < n; i++ {
		es = append(es, [2]int{i, i + 1})
	}
	return MustGraph(t, n, false, es...)
}

// Cycle returns the cycle 0–1–…–(n−1)–0 (directed: 0→1→…→(n−1)→0).
func Cycle(t testing.TB, n int, directed bool) *linalg.Graph {
	t.Helper()
	var es [][2]int
	for i := range n {
		es = append(es, [2]int{i, (i + 1) % n})
	}
	return MustGraph(t, n, directed, es...)
}

// Complete returns the undirected complete graph K_n.
func Complete(t testing.TB, n int) *linalg.Graph {
	t.Helper()
	var es [][2]int
	for i := range n {
		for j := i + 1; j < n; j++ {
			es = append(es, [2]int{i, j})
		}
	}
	return MustGraph(t, n, false, es...)
}

// rawFile is a raw file each real dataset needs under the data root.
var rawFile = map[string]string{
	"cora":     "Cora/raw/ind.cora.x",
	"citeseer": "CiteSeer/raw/ind.citeseer.x",
	"cornell":  "cornell/raw/out1_graph_edges.txt",
	"texas":    "texas/raw/out1_graph_edges.txt",
}

// Dataset returns a dataset's graph in the given form (directed: its arcs;
// else their undirected pairs), read from the data root of package
// datatest, or skips (fails under CI=true) without the data.
func Dataset(t testing.TB, name string, directed bool) *linalg.Graph {
	t.Helper()
	root := datatest.Root(t, filepath.FromSlash(rawFile[name]))
	d, err := (&dataset.Locator{DataDir: root}).Load(name, dataset.SynthOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if directed {
		return d.Graph
	}
	return d.Graph.Undirected()
}
