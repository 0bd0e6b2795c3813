package curvature

import (
	"path/filepath"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// Test helpers, copies of package rewire's (its tests build the same small
// graphs and load the same datasets).

func mustGraph(t *testing.T, n int, directed bool, edges ...[2]int) *linalg.Graph {
	t.Helper()
	g := linalg.NewGraph(n, directed)
	for _, e := range edges {
		g.AddEdge(e[0], e[1])
	}
	return g
}

func complete(t *testing.T, n int) *linalg.Graph {
	var es [][2]int
	for i := range n {
		for j := i + 1; j < n; j++ {
			es = append(es, [2]int{i, j})
		}
	}
	return mustGraph(t, n, false, es...)
}

// load returns Cornell's undirected graph, or skips (fails under CI=true)
// without data.
func load(t *testing.T, name string, directed bool) *linalg.Graph {
	t.Helper()
	dirs := map[string]string{"cornell": "cornell/raw/out1_graph_edges.txt"}
	root := datatest.Root(t, filepath.FromSlash(dirs[name]))
	d, err := (&dataset.Locator{DataDir: root}).Load(name, dataset.SynthOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if directed {
		return d.Graph
	}
	return d.Graph.Undirected()
}

// allPairsBFS returns d[i][j], the number of edges on a shortest path i–j,
// or -1 (a copy of package rewire's exact engine's).
func allPairsBFS(g *linalg.Graph) [][]int {
	n := g.N()
	d := make([][]int, n)
	q := make([]int, 0, n)
	for s := range n {
		row := make([]int, n)
		for j := range row {
			row[j] = -1
		}
		row[s] = 0
		q = append(q[:0], s)
		for h := 0; h < len(q); h++ {
			u := q[h]
			for _, v := range g.Out(u) {
				if row[v] < 0 {
					row[v] = row[u] + 1
					q = append(q, v)
				}
			}
		}
		d[s] = row
	}
	return d
}
