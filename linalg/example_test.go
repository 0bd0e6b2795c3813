package linalg_test

import (
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
)

// A graph is built from a list of edges. In an undirected graph (u, v) and
// (v, u) are one edge, duplicates are coalesced and a self-loop is kept
// apart from the other edges.
func ExampleFromEdges() {
	g, err := linalg.FromEdges(4, false, []linalg.Edge{
		{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 1}, {U: 2, V: 3}, {U: 3, V: 3},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("nodes:", g.N())
	fmt.Println("edges:", g.NumEdges(), g.Edges())
	fmt.Println("self-loops:", g.SelfLoops())
	fmt.Println("E0:", g.E0())
	fmt.Println("neighbours of 2:", g.Neighbours(2))
	fmt.Println("has {2,1}:", g.HasEdge(2, 1))
	// Arcs is PyTorch Geometric's edge_index: both arcs of every edge.
	fmt.Println("arcs:", g.Arcs())

	// Output:
	// nodes: 4
	// edges: 3 [{0 1} {1 2} {2 3}]
	// self-loops: [3]
	// E0: 4
	// neighbours of 2: [1 3]
	// has {2,1}: true
	// arcs: [{0 1} {1 0} {1 2} {2 1} {2 3} {3 2} {3 3}]
}

// The Laplacian L = D − A of a path 0–1–2 as a sparse matrix; every row sums
// to zero.
func ExampleGraph_Laplacian() {
	g := linalg.NewGraph(3, false)
	g.AddEdge(0, 1)
	g.AddEdge(1, 2)

	fmt.Printf("%v\n", mat.Formatted(g.Laplacian()))

	// Output:
	// ⎡ 1  -1   0⎤
	// ⎢-1   2  -1⎥
	// ⎣ 0  -1   1⎦
}

// The effective resistance between the ends of a path of unit resistors is
// its length. Closing the path into a cycle puts a second path of one edge
// in parallel: R = 3·1/(3+1).
func ExampleComponentPinv() {
	g := linalg.NewGraph(4, false)
	g.AddEdge(0, 1)
	g.AddEdge(1, 2)
	g.AddEdge(2, 3)
	nodes := []int{0, 1, 2, 3}

	p, err := linalg.ComponentPinv(g, nodes)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("path:  R(0,3) = %.4f\n", linalg.Resistance(p, 0, 3))

	g.AddEdge(0, 3)
	p, err = linalg.ComponentPinv(g, nodes)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("cycle: R(0,3) = %.4f\n", linalg.Resistance(p, 0, 3))

	// Output:
	// path:  R(0,3) = 3.0000
	// cycle: R(0,3) = 0.7500
}

// Pinv takes the component of every node, as tarjan.Components labels
// them, and Resistance reads each effective resistance from L⁺. On a star every leaf is one unit from the centre and two
// from every other leaf.
func ExamplePinv() {
	g := linalg.NewGraph(4, false)
	for leaf := 1; leaf < 4; leaf++ {
		g.AddEdge(0, leaf)
	}
	comp, _ := tarjan.Components(g)
	p, err := linalg.Pinv(g, comp)
	if err != nil {
		log.Fatal(err)
	}
	for i := range 4 {
		for j := range 4 {
			fmt.Printf(" %.4f", linalg.Resistance(p, i, j))
		}
		fmt.Println()
	}

	// Output:
	//  0.0000 1.0000 1.0000 1.0000
	//  1.0000 0.0000 2.0000 2.0000
	//  1.0000 2.0000 0.0000 2.0000
	//  1.0000 2.0000 2.0000 0.0000
}

// SquareSym squares a symmetric matrix stored whole with a padded row
// stride (SquareStride), as GTR squares L⁺: only the upper triangle of the
// result is written.
func ExampleSquareSym() {
	const n = 3
	ld := linalg.SquareStride(n) // 8: the columns n..ld−1 stay zero
	p := make([]float64, n*ld)
	for i, row := range [][]float64{{2, -1, 0}, {-1, 2, -1}, {0, -1, 2}} {
		copy(p[i*ld:], row)
	}
	s := make([]float64, n*ld)
	linalg.SquareSym(n, p, s, ld)
	for i := range n {
		fmt.Println(s[i*ld+i : i*ld+n])
	}
	// Output:
	// [5 -4 1]
	// [6 -4]
	// [5]
}

// A batch that copies many small graphs sizes one arena for all the
// copies (CloneSize, Reserve) and makes them there: a copy is then two
// array copies, with no allocation of its own. Each copy is a graph like
// any other: editing it leaves the original and the other copies alone.
func ExampleCloneArena() {
	ring := func(n int) *linalg.Graph {
		g := linalg.NewGraph(n, false)
		for u := range n {
			g.AddEdge(u, (u+1)%n)
		}
		return g
	}
	graphs := []*linalg.Graph{ring(4), ring(5), ring(6)}
	ints, lists := 0, 0
	for _, g := range graphs {
		a, b := linalg.CloneSize(g)
		ints, lists = ints+a, lists+b
	}
	var arena linalg.CloneArena
	arena.Reserve(ints, lists, len(graphs))
	copies := make([]*linalg.Graph, len(graphs))
	for i, g := range graphs {
		copies[i] = arena.Clone(g)
	}
	copies[1].AddEdge(0, 2)
	for i := range graphs {
		fmt.Println(graphs[i].NumEdges(), copies[i].NumEdges(), copies[i].Equal(graphs[i]))
	}
	// Output:
	// 4 4 true
	// 5 6 false
	// 6 6 true
}

// ComponentPinvSquare gives L⁺ and S = (L⁺)² of a component at once, the
// set-up of gtr's scores: on a path of four nodes the resistance between
// its ends is 3, and their biharmonic distance S_00 + S_33 − 2·S_03 is
// ‖L⁺(e_0 − e_3)‖² = ‖(1.5, 0.5, −0.5, −1.5)‖² = 5 (the potentials of a
// unit current from one end to the other).
func ExampleComponentPinvSquare() {
	g := linalg.NewGraph(4, false)
	g.AddEdge(0, 1)
	g.AddEdge(1, 2)
	g.AddEdge(2, 3)
	var w linalg.PinvSquareWork
	lp, s, ld, err := linalg.ComponentPinvSquare(&w, g, []int{0, 1, 2, 3})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("R(0,3) = %.4f\n", lp[0]+lp[3*ld+3]-2*lp[3])
	fmt.Printf("B(0,3) = %.4f\n", s[0]+s[3*ld+3]-2*s[3])
	// Output:
	// R(0,3) = 3.0000
	// B(0,3) = 5.0000
}

// AddToSymUpper adds a low-rank symmetric correction to the upper triangle
// of a matrix; MirrorUpper makes the matrix whole again when a reader needs
// its rows.
func ExampleLowRankSym_AddToSymUpper() {
	x := []float64{
		1, 0, 0,
		0, 1, 0,
		0, 0, 1,
	}
	// Z D Zᵀ with Z = (1, 2, 3)ᵀ and D = (0.5): entries z_i z_j / 2.
	l := &linalg.LowRankSym{N: 3, R: 1, Z: []float64{1, 2, 3}, D: []float64{0.5}}
	l.AddToSymUpper(2, x, 3) // x += 2·Z D Zᵀ, upper triangle
	linalg.MirrorUpper(3, x, 3)
	for i := range 3 {
		fmt.Println(x[i*3 : i*3+3])
	}
	// Output:
	// [2 2 3]
	// [2 5 6]
	// [3 6 10]
}
