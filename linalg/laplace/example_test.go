package laplace_test

import (
	"fmt"
	"log"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/laplace"
)

// path returns the path 0–1–…–(n−1).
func path(n int) *linalg.Graph {
	g := linalg.NewGraph(n, false)
	for i := 0; i+1 < n; i++ {
		g.AddEdge(i, i+1)
	}
	return g
}

// Solve returns x = L⁺b. For b = e_0 − e_3, a unit current in at node 0 and
// out at node 3, x holds the node potentials, and x_0 − x_3 is the effective
// resistance: 3 on a path of three unit resistors. b is centred, so L x = b
// exactly, and x is centred too.
func ExampleSolver_Solve() {
	s, err := laplace.New(path(4))
	if err != nil {
		log.Fatal(err)
	}
	b := []float64{1, 0, 0, -1}
	x, _, err := s.Solve(b, 1e-10, 100)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("x = [%.4f %.4f %.4f %.4f]\n", x[0], x[1], x[2], x[3])
	fmt.Printf("R(0,3) = %.4f\n", x[0]-x[3])

	// Output:
	// x = [1.5000 0.5000 -0.5000 -1.5000]
	// R(0,3) = 3.0000
}

// Update adds an edge to the system the solver solves without a new
// factorization: closing the path into a cycle puts one edge in parallel
// with three, and R(0,3) falls from 3 to 3/4.
func ExampleSolver_Update() {
	s, err := laplace.New(path(4))
	if err != nil {
		log.Fatal(err)
	}
	s.Update(0, 3, 1)
	x, _, err := s.Solve([]float64{1, 0, 0, -1}, 1e-10, 100)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("updates: %d, R(0,3) = %.4f\n", s.Updates(), x[0]-x[3])

	// Output:
	// updates: 1, R(0,3) = 0.7500
}

// SolveMany solves many systems side by side; use receives the solutions in
// order. Here the resistances from node 0 to every node of a 6-cycle,
// k(6−k)/6 for the node k steps away.
func ExampleSolver_SolveMany() {
	const n = 6
	g := path(n)
	g.AddEdge(n-1, 0)
	s, err := laplace.New(g)
	if err != nil {
		log.Fatal(err)
	}
	fill := func(q int, b []float64) { // b_q = e_0 − e_{q+1}
		b[0], b[q+1] = 1, -1
	}
	use := func(q int, x []float64) {
		fmt.Printf("R(0,%d) = %.4f\n", q+1, x[0]-x[q+1])
	}
	if _, err := s.SolveMany(n-1, fill, use, 1e-10, 100, 1); err != nil {
		log.Fatal(err)
	}

	// Output:
	// R(0,1) = 0.8333
	// R(0,2) = 1.3333
	// R(0,3) = 1.5000
	// R(0,4) = 1.3333
	// R(0,5) = 0.8333
}
