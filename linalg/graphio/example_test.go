package graphio_test

import (
	"bytes"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
)

// A graph goes through an .npz archive (edge_index and num_nodes, as
// PyTorch Geometric and numpy read them) and comes back with the same arcs.
func ExampleWriteNPZ() {
	dir, err := os.MkdirTemp("", "ohm-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "graph.npz")

	arcs := []linalg.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 0}, {U: 3, V: 3}}
	if err := graphio.WriteNPZ(path, 5, arcs, nil); err != nil {
		log.Fatal(err)
	}

	n, back, err := graphio.ReadNPZ(path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("num_nodes:", n)
	fmt.Println("edge_index:", back)

	// Output:
	// num_nodes: 5
	// edge_index: [{0 1} {1 2} {2 0} {3 3}]
}

// Save and Load pick the format from the file name: .npz is an archive,
// anything else an edge list. An undirected graph is written as both arcs
// of every edge and read back as the same graph.
func ExampleSave() {
	dir, err := os.MkdirTemp("", "ohm-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	g, err := linalg.FromEdges(4, false, []linalg.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}})
	if err != nil {
		log.Fatal(err)
	}
	for _, name := range []string{"path.npz", "path.txt"} {
		path := filepath.Join(dir, name)
		if err := graphio.Save(path, g); err != nil {
			log.Fatal(err)
		}
		h, err := graphio.Load(path, 0, false)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(name, h.N(), h.Edges(), h.Equal(g))
	}

	// Output:
	// path.npz 4 [{0 1} {1 2} {2 3}] true
	// path.txt 4 [{0 1} {1 2} {2 3}] true
}

// The edge-list format: a "# num_nodes N" header, then one "u v" arc a line.
func ExampleEncodeEdgeList() {
	var buf bytes.Buffer
	arcs := []linalg.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 4, V: 4}}
	if err := graphio.EncodeEdgeList(&buf, 5, arcs); err != nil {
		log.Fatal(err)
	}
	fmt.Print(buf.String())

	// Output:
	// # num_nodes 5
	// 0 1
	// 1 2
	// 4 4
}

// Comments, blank lines and tabs are accepted; without a header the node
// count is the largest id + 1. Malformed input is a *FormatError that names
// the line.
func ExampleDecodeEdgeList() {
	in := "# a triangle\n0 1\n1\t2\n\n2 0\n"
	n, arcs, err := graphio.DecodeEdgeList("triangle.txt", strings.NewReader(in), 0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, arcs)

	_, _, err = graphio.DecodeEdgeList("bad.txt", strings.NewReader("0 1\n1 x\n"), 0)
	var fe *graphio.FormatError
	if errors.As(err, &fe) {
		fmt.Println("line", fe.Line, "of", fe.Path)
	}

	// Output:
	// 3 [{0 1} {1 2} {2 0}]
	// line 2 of bad.txt
}
