package tarjan_test

import (
	"fmt"

	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
)

// Components labels the connected components; a Searcher answers whether
// removing one edge would split its component. Two triangles joined by
// the edge {2, 3}, and a lone node 6: {2, 3} is the only bridge.
func ExampleComponents() {
	g := linalg.NewGraph(7, false)
	for _, e := range [][2]int{{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {2, 3}} {
		g.AddEdge(e[0], e[1])
	}
	comp, count := tarjan.Components(g)
	fmt.Println(comp, count)
	s := tarjan.NewSearcher(g.N())
	fmt.Println(s.IsBridge(g, 2, 3), s.IsBridge(g, 0, 1))

	// Output:
	// [0 0 0 0 0 0 1] 2
	// true false
}
