package exact_test

import (
	"fmt"
	"log"

	"github.com/ohmgnn/ohm/incremental/exact"
	"github.com/ohmgnn/ohm/linalg"
)

// The exact engine recomputes everything after each edit: on the path
// 0–1–2–3 the most resistant pair is its ends, R = 3; once they are
// joined, R_02 = 2·2/4 = 1.
func ExampleNew() {
	g := linalg.NewGraph(4, false)
	for i := 1; i < 4; i++ {
		g.AddEdge(i-1, i)
	}
	e, err := exact.New(g, exact.Options{})
	if err != nil {
		log.Fatal(err)
	}
	p, _ := e.MaxPair()
	fmt.Printf("max pair (%d, %d): R = %.4f\n", p.U, p.V, p.Score)
	e.Begin()
	if err := e.Add(p.U, p.V); err != nil {
		log.Fatal(err)
	}
	if err := e.Commit(); err != nil {
		log.Fatal(err)
	}
	r, _ := e.Resistance(0, 2)
	fmt.Printf("R_02 on the ring: %.4f\n", r)

	// Output:
	// max pair (0, 3): R = 3.0000
	// R_02 on the ring: 1.0000
}
