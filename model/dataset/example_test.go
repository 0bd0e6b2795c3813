package dataset_test

import (
	"fmt"

	"github.com/ohmgnn/ohm/model/dataset"
)

// The bottleneck graph needs no download: a ring of 8 cliques of 10 nodes,
// neighbouring cliques joined by a single edge. Graph is the directed form
// (both arcs of every edge, as PyTorch Geometric holds it); Undirected gives
// the edges.
func ExampleBottleneck() {
	d := dataset.Bottleneck(dataset.SynthOptions{Seed: 0})
	u := d.Graph.Undirected()
	fmt.Println(d.Name, "builtin:", dataset.IsBuiltin(d.Name))
	fmt.Println("nodes:", d.N(), "edges:", u.NumEdges(), "arcs:", d.Graph.NumEdges())
	fmt.Println("classes:", d.NumClasses, d.ClassCounts())
	fmt.Println("features:", d.NumFeatures() > 0)
	// Clique c holds nodes 10c … 10c+9; node 9 ends clique 0, node 10
	// starts clique 1.
	fmt.Println("bridge {9,10}:", u.HasEdge(9, 10), "clique degree:", u.Degree(5))
	s := d.Splits[0]
	fmt.Println("split:", len(s.Train), len(s.Val), len(s.Test))

	// Output:
	// bottleneck builtin: true
	// nodes: 80 edges: 368 arcs: 736
	// classes: 4 [20 20 20 20]
	// features: true
	// bridge {9,10}: true clique degree: 9
	// split: 24 24 32
}

// The ring task: the same graph as Bottleneck, but every node is labelled
// with the class shown by the features of the clique opposite, four
// bottlenecks away.
func ExampleRing() {
	d := dataset.Ring(dataset.SynthOptions{Seed: 1})
	b := dataset.Bottleneck(dataset.SynthOptions{Seed: 1})
	fmt.Println(d.Name, "nodes:", d.N(), "same graph as bottleneck:", d.Graph.Equal(b.Graph))
	fmt.Println("classes:", d.NumClasses)
	s := d.Splits[0]
	fmt.Println("split:", len(s.Train), len(s.Val), len(s.Test))

	// Output:
	// ring nodes: 80 same graph as bottleneck: true
	// classes: 4
	// split: 24 24 32
}

// The stochastic block model: 400 nodes in 4 classes; homophilic by
// default, heterophilic on request. The seed fixes graph, features and
// split.
func ExampleSBM() {
	for _, het := range []bool{false, true} {
		d := dataset.SBM(dataset.SynthOptions{Seed: 7, Heterophilic: het})
		same, all := 0, 0
		for _, e := range d.Graph.Undirected().Edges() {
			all++
			if d.Labels[e.U] == d.Labels[e.V] {
				same++
			}
		}
		s := d.Splits[0]
		fmt.Printf("%s: %d nodes, classes %v, split %d/%d/%d, same-class edges > 1/2: %v\n",
			d.Name, d.N(), d.ClassCounts(), len(s.Train), len(s.Val), len(s.Test), 2*same > all)
	}

	// Output:
	// sbm: 400 nodes, classes [100 100 100 100], split 80/100/220, same-class edges > 1/2: true
	// sbm-heterophilic: 400 nodes, classes [100 100 100 100], split 80/100/220, same-class edges > 1/2: false
}
