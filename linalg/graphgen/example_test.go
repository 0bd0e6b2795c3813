package graphgen_test

import (
	"fmt"
	"log"

	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// A ring of 3 cliques of 4 nodes: 3·6 clique edges and 3 edges joining
// consecutive cliques, each node labelled with its clique.
func ExampleRingOfCliques() {
	gg, err := graphgen.RingOfCliques(3, 4)
	if err != nil {
		log.Fatal(err)
	}
	g, err := gg.Undirected()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.N(), g.NumEdges(), gg.Labels)

	// Output:
	// 12 21 [0 0 0 0 1 1 1 1 2 2 2 2]
}
