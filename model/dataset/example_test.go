package dataset_test

import (
	"fmt"
	"os"
	"path/filepath"

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

// A TU dataset: two graphs in the TU text files (node ids 1-based over the
// whole dataset, both arcs of every edge), read as PyG's TUDataset builds
// them: ids from 0 in each graph, one-hot node labels as x, labels ranked.
func ExampleLoadTU() {
	raw, _ := os.MkdirTemp("", "tu")
	defer os.RemoveAll(raw)
	for part, s := range map[string]string{
		"A":               "1, 2\n2, 1\n2, 3\n3, 2\n4, 5\n5, 4\n",
		"graph_indicator": "1\n1\n1\n2\n2\n",
		"graph_labels":    "-1\n1\n",
		"node_labels":     "0\n1\n0\n2\n2\n",
	} {
		os.WriteFile(filepath.Join(raw, "TOY_"+part+".txt"), []byte(s), 0o644)
	}
	d, err := dataset.LoadTU(raw, "TOY", dataset.TUOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range d.Len() {
		fmt.Printf("graph %d: %d nodes, edges %v, class %d\n", i, d.NumNodes(i), d.Graph(i).Undirected().Edges(), d.Y[i])
	}
	fmt.Println("x of graph 1:", d.X[d.NodePtr[1]*d.NumFeatures:])
	// Output:
	// graph 0: 3 nodes, edges [{0 1} {1 2}], class 0
	// graph 1: 2 nodes, edges [{0 1}], class 1
	// x of graph 1: [0 0 1 0 0 1]
}
