package curvature_test

import (
	"fmt"
	"log"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/rewire/curvature"
)

// On a 4-cycle with α = 0 every edge has κ = 0 (μ_x puts ½ on each
// neighbour of x; the mass moves one hop on average); the complete graph
// K4 is positively curved, κ = 2/3.
func ExampleCurvatures() {
	for _, name := range []string{"C4", "K4"} {
		g := linalg.NewGraph(4, false)
		for i := range 4 {
			g.AddEdge(i, (i+1)%4)
		}
		if name == "K4" {
			g.AddEdge(0, 2)
			g.AddEdge(1, 3)
		}
		ks, err := curvature.Curvatures(g, 0, 1)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d edges, κ(0,1) = %.4f\n", name, len(ks), ks[0].Kappa)
	}

	// Output:
	// C4: 4 edges, κ(0,1) = 0.0000
	// K4: 6 edges, κ(0,1) = 0.6667
}
