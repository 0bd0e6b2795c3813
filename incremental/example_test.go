package incremental_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/linalg"
)

// path returns the undirected path 0–1–…–(n−1).
func path(n int) *linalg.Graph {
	g := linalg.NewGraph(n, false)
	for i := 0; i+1 < n; i++ {
		g.AddEdge(i, i+1)
	}
	return g
}

// The engine holds L⁺ of the graph: on a path of unit resistors the
// effective resistance of two nodes is their distance, and the most
// resistant pair is the two ends.
func ExampleNewUndirected() {
	e, err := incremental.NewUndirected(path(4), incremental.Options{Workers: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("R(0,1) = %.4f\n", e.R(0, 1))
	fmt.Printf("R(0,3) = %.4f\n", e.R(0, 3))
	p, _ := e.MaxPair()
	fmt.Printf("most resistant: (%d,%d) R = %.4f\n", p.U, p.V, p.Score)

	// Output:
	// R(0,1) = 1.0000
	// R(0,3) = 3.0000
	// most resistant: (0,3) R = 3.0000
}

// RAfterAdd predicts what an edge would do without adding it; Add then
// updates L⁺ by Sherman–Morrison. Closing the path 0–1–2–3 into a cycle
// lowers R(0,3) from 3 to 3·1/(3+1), and the most resistant pairs become
// the opposite corners, R = 2·2/(2+2) = 1, of which (0,2) comes first.
func ExampleUndirected_Add() {
	e, err := incremental.NewUndirected(path(4), incremental.Options{Workers: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("predicted R(0,3) = %.4f\n", e.RAfterAdd(0, 3, 0, 3))
	if err := e.Add(0, 3); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("R(0,3) = %.4f\n", e.R(0, 3))
	p, _ := e.MaxPair()
	fmt.Printf("most resistant: (%d,%d) R = %.4f\n", p.U, p.V, p.Score)

	// Output:
	// predicted R(0,3) = 0.7500
	// R(0,3) = 0.7500
	// most resistant: (0,2) R = 1.0000
}

// MinEdge is the least resistant edge. Removing an edge is refused when it
// is a bridge, decided on the graph, not from R = 1; the refusal wraps
// ErrBridge and changes nothing.
func ExampleUndirected_Remove() {
	// A triangle 0–1–2 with a pendant node 3 hanging from 2.
	g, err := linalg.FromEdges(4, false, []linalg.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 0, V: 2}, {U: 2, V: 3}})
	if err != nil {
		log.Fatal(err)
	}
	e, err := incremental.NewUndirected(g, incremental.Options{Workers: 1})
	if err != nil {
		log.Fatal(err)
	}

	err = e.Remove(2, 3)
	fmt.Println("remove {2,3}:", errors.Is(err, incremental.ErrBridge))

	m, _ := e.MinEdge(nil)
	fmt.Printf("least resistant edge: (%d,%d) R = %.4f\n", m.U, m.V, m.Score)
	if err := e.Remove(m.U, m.V); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("after removing it: R(%d,%d) = %.4f\n", m.U, m.V, e.R(m.U, m.V))

	// Output:
	// remove {2,3}: true
	// least resistant edge: (0,1) R = 0.6667
	// after removing it: R(0,1) = 2.0000
}

// Begin and Commit bracket one rewiring iteration: the graph changes at
// each edit, L⁺ once, in one fused pass, at Commit. Here the ends of the
// path 0–…–5 are joined and the edge {2,3} removed, which leaves the path
// 3–4–5–0–1–2.
func ExampleUndirected_Commit() {
	e, err := incremental.NewUndirected(path(6), incremental.Options{Workers: 1})
	if err != nil {
		log.Fatal(err)
	}
	e.Begin()
	p, _ := e.MaxPair()
	if err := e.Add(p.U, p.V); err != nil {
		log.Fatal(err)
	}
	if err := e.Remove(2, 3); err != nil {
		log.Fatal(err)
	}
	if err := e.Commit(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("added (%d,%d), removed (2,3)\n", p.U, p.V)
	fmt.Printf("R(0,5) = %.4f, R(2,3) = %.4f\n", e.R(0, 5), e.R(2, 3))
	q, _ := e.MaxPair()
	fmt.Printf("most resistant: (%d,%d) R = %.4f\n", q.U, q.V, q.Score)

	// Output:
	// added (0,5), removed (2,3)
	// R(0,5) = 1.0000, R(2,3) = 5.0000
	// most resistant: (2,3) R = 5.0000
}

// The directed engine gives resistances inside a strongly connected
// component (SCC) only. For a symmetric digraph they are the undirected
// ones; on the directed cycle 0→1→2→0 every pair has R = 4/3, twice its
// resistance in the undirected triangle. Node 3, reached by the arc 2→3 but with no
// way back, is an SCC of its own and has no resistance to the others.
func ExampleNewDirected() {
	g, err := linalg.FromEdges(4, true, []linalg.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 0}, {U: 2, V: 3}})
	if err != nil {
		log.Fatal(err)
	}
	e, err := incremental.NewDirected(g, incremental.Options{Workers: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("SCCs:", e.NumSCC())
	r, ok := e.R(0, 1)
	fmt.Printf("R(0,1) = %.4f %v\n", r, ok)
	_, ok = e.R(0, 3)
	fmt.Println("R(0,3) defined:", ok)
	p, _ := e.MaxPair()
	fmt.Printf("most resistant: (%d,%d) R = %.4f\n", p.U, p.V, p.Score)

	// Output:
	// SCCs: 2
	// R(0,1) = 1.3333 true
	// R(0,3) defined: false
	// most resistant: (0,1) R = 1.3333
}
