package sketch_test

import (
	"fmt"
	"log"

	"github.com/ohmgnn/ohm/incremental/sketch"
	"github.com/ohmgnn/ohm/linalg"
)

// The sketch engine decides among candidates it re-scores exactly: on the
// path 0–1–…–99 the most resistant pair is its ends, R = 99 (one ohm per
// edge in series); once they are joined, the ring's farthest pairs are
// opposite nodes, R = 50·50/100 = 25, and the path's ends are now
// neighbours on the ring, R = 1·99/100.
func ExampleNew() {
	const n = 100
	g := linalg.NewGraph(n, false)
	for i := 1; i < n; i++ {
		g.AddEdge(i-1, i)
	}
	e, err := sketch.New(g, sketch.Options{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	p, ok := e.MaxPair()
	if !ok {
		log.Fatal(e.Err())
	}
	fmt.Printf("max pair (%d, %d): R = %.4f\n", p.U, p.V, p.Score)
	e.Begin()
	if err := e.Add(p.U, p.V); err != nil {
		log.Fatal(err)
	}
	if err := e.Commit(); err != nil {
		log.Fatal(err)
	}
	q, ok := e.MaxPair()
	if !ok {
		log.Fatal(e.Err())
	}
	r, _ := e.Resistance(p.U, p.V)
	fmt.Printf("on the ring: max R = %.4f (%d hops apart); R(%d, %d) = %.4f\n", q.Score, q.V-q.U, p.U, p.V, r)

	// Output:
	// max pair (0, 99): R = 99.0000
	// on the ring: max R = 25.0000 (50 hops apart); R(0, 99) = 0.9900
}
