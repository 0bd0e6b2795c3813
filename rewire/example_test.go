package rewire_test

import (
	"context"
	"fmt"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/rewire"
)

// barbell is two triangles {0,1,2} and {4,5,6} joined through node 3: the
// path 2–3–4 is the graph's bottleneck.
func barbell() *linalg.Graph {
	g := linalg.NewGraph(7, false)
	for _, e := range [][2]int{{0, 1}, {0, 2}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {4, 6}, {5, 6}} {
		g.AddEdge(e[0], e[1])
	}
	return g
}

// Rewiring a graph: err adds an edge between the most resistant pair and
// removes the least resistant edge that keeps the graph connected, B =
// floor(r·E0) times.
func ExampleRun() {
	res, err := rewire.Run(barbell(), rewire.Config{Method: rewire.ERR, Budget: 0.25})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range res.Log {
		fmt.Printf("iteration %d: %s {%d,%d} (R = %.4f)\n", e.Iteration, e.Op, e.U, e.V, e.Score)
	}
	fmt.Printf("%d edges added, %d removed; the bottleneck edge {2,3} is kept: %v\n", res.Added, res.Removed, res.Graph.HasEdge(2, 3))
	// Output:
	// iteration 1: add {0,5} (R = 3.3333)
	// iteration 1: remove {0,1} (R = 0.6667)
	// iteration 2: add {1,6} (R = 2.5000)
	// iteration 2: remove {4,5} (R = 0.5714)
	// 2 edges added, 2 removed; the bottleneck edge {2,3} is kept: true
}

// A plan checks the configuration once, fixes the budget and chooses the
// engine before anything runs; a configuration that cannot run is a
// *ConfigError naming its field.
func ExampleNewPlan() {
	g := barbell()
	p, err := rewire.NewPlan(g, rewire.Config{Method: rewire.ERRHop, Budget: 0.5, MaxIterations: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("E0 %d, B %d, iterations %d, engine %s, version %s\n", g.E0(), p.B, p.Iterations, p.Engine, p.Version())
	_, err = rewire.NewPlan(g, rewire.Config{Method: rewire.ERR, Budget: 2})
	fmt.Println(err)
	// Output:
	// E0 8, B 4, iterations 3, engine incremental, version rewire-2
	// budget 2: must lie in (0, 1] (a fraction of E0, e.g. 0.05)
}

// Every resistance engine comes from one constructor; Auto takes the dense
// incremental engine when its n² state fits in memory.
func ExampleNewEngine() {
	eng, err := rewire.NewEngine(barbell(), rewire.EngineSpec{Kind: rewire.Exact})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := eng.MaxPair()
	r, _ := eng.Resistance(2, 4)
	fmt.Printf("most resistant pair (%d,%d), R = %.4f; R(2,4) = %.4f\n", p.U, p.V, p.Score, r)
	// Output:
	// most resistant pair (0,5), R = 3.3333; R(2,4) = 2.0000
}

// Rewiring many graphs in one call: each graph gets its own plan and its
// own budget (here 2 iterations each, whatever its size), the graphs run
// on two threads, and the results come back in input order. On the path,
// res closes the cycle, then joins the first of its opposite pairs.
func ExampleRunMany() {
	path := linalg.NewGraph(6, false)
	for u := range 5 {
		path.AddEdge(u, u+1)
	}
	graphs := []*linalg.Graph{barbell(), path}
	res, err := rewire.RunMany(context.Background(), graphs, rewire.Config{Method: rewire.Res, Edits: 2}, rewire.ManyOptions{Threads: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, r := range res {
		fmt.Printf("graph %d: added %v\n", i, r.AddedEdges())
	}
	t := rewire.Totals(res)
	fmt.Printf("%d graphs, %d additions, %d per graph at most\n", t.Graphs, t.Added, t.AddedPerGraph.Max)
	// Output:
	// graph 0: added [{0 5} {1 6}]
	// graph 1: added [{0 5} {0 3}]
	// 2 graphs, 4 additions, 2 per graph at most
}
