// Package dataset loads the graphs ohm learns on: the Planetoid citation graphs
// (Cora, CiteSeer) from PyTorch Geometric's raw Python-2 pickles, the WebKB
// graphs (Cornell, Texas) from the Geom-GCN text files and split archives, and
// the built-in synthetic graphs that need no files. Each is assembled exactly as
// PyTorch Geometric assembles it (definitions §1), so that node ids, arcs, features,
// labels and splits agree with PyG's.
package dataset

import (
	"github.com/james-bowman/sparse"

	"github.com/ohmgnn/ohm/linalg"
)

// Dataset is a node-classification dataset in ohm's canonical form.
type Dataset struct {
	// Name is the canonical lower-case name ("cora", "citeseer", "cornell",
	// "texas", "bottleneck", "ring", "sbm").
	Name string
	// Graph is the directed form of definitions §1: the arcs exactly as PyG's
	// edge_index holds them, duplicates coalesced, self-loops kept. For
	// Planetoid graphs the arc set is symmetric. The undirected form is
	// Graph.Undirected().
	Graph *linalg.Graph
	// Features is the raw n×F feature matrix (not normalised).
	Features *sparse.CSR
	// Labels holds the class of every node, 0..NumClasses-1.
	Labels []int
	// NumClasses is the number of classes.
	NumClasses int
	// Splits are the train/validation/test splits: one for Planetoid (the
	// public split), ten for WebKB (Geom-GCN), one for synthetic data.
	Splits []Split
}

// Split is one train/validation/test partition; each list holds node ids in
// ascending order. Nodes may belong to none of the three (CiteSeer's 15 nodes
// missing from the test index).
type Split struct {
	Train, Val, Test []int
}

// N returns the number of nodes.
func (d *Dataset) N() int { return d.Graph.N() }

// NumFeatures returns the number of feature columns.
func (d *Dataset) NumFeatures() int {
	_, c := d.Features.Dims()
	return c
}

// ClassCounts returns how many nodes carry each label.
func (d *Dataset) ClassCounts() []int {
	c := make([]int, d.NumClasses)
	for _, y := range d.Labels {
		c[y]++
	}
	return c
}

// maskToIDs returns the indices where m is true, ascending.
func maskToIDs(m []bool) []int {
	var ids []int
	for i, b := range m {
		if b {
			ids = append(ids, i)
		}
	}
	return ids
}
