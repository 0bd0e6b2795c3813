package hops_test

import (
	"fmt"

	"github.com/ohmgnn/ohm/incremental/hops"
	"github.com/ohmgnn/ohm/linalg"
)

// The hop distances of a path stay exact as an edge closes it into a ring
// and another is removed.
func ExampleNew() {
	g := linalg.NewGraph(5, false)
	for i := 1; i < 5; i++ {
		g.AddEdge(i-1, i)
	}
	d := hops.New(g)
	fmt.Println(d.Row(0))
	d.AddEdge(g, 0, 4)
	fmt.Println(d.Row(0))
	d.RemoveEdge(g, 1, 2)
	fmt.Println(d.Row(0))

	// Output:
	// [0 1 2 3 4]
	// [0 1 2 2 1]
	// [0 1 3 2 1]
}
