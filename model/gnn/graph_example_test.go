package gnn_test

import (
	"fmt"

	"github.com/ohmgnn/ohm/model/gnn"
)

// ExampleTrainGraph trains GIN on a toy graph-classification set — paths
// (class 0) and cycles (class 1) — with FoSR's protocol, capped at 20
// epochs.
func ExampleTrainGraph() {
	set := &gnn.GraphSet{Name: "toy", Features: 1, Classes: 2}
	for i := range 40 {
		n := 5 + i%4
		g := gnn.GraphItem{N: n, Label: i % 2}
		for u := range n {
			g.X = append(g.X, 1)
			if v := (u + 1) % n; v != 0 || g.Label == 1 { // a cycle closes the path
				g.Src, g.Dst = append(g.Src, u, v), append(g.Dst, v, u)
			}
		}
		set.Graphs = append(set.Graphs, g)
	}
	data, err := gnn.NewGraphData(set, gnn.GraphGIN)
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg := gnn.GraphDefaults(gnn.GraphGIN)
	cfg.Layers, cfg.Hidden, cfg.BatchSize, cfg.MaxEpochs = 2, 16, 8, 20
	r, err := gnn.TrainGraph(data, cfg, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("epochs:", r.Epochs)
	fmt.Println("kept epoch within them:", r.BestEpoch >= 1 && r.BestEpoch <= r.Epochs)
	// Output:
	// epochs: 20
	// kept epoch within them: true
}
