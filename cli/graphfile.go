package cli

import (
	"fmt"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
)

// idBase is the base of an edge list's node ids that --one-based asks for.
func idBase(oneBased bool) graphio.IDBase {
	if oneBased {
		return graphio.OneBased
	}
	return graphio.ZeroBased
}

// checkOneBased refuses --one-based (a usage error) for an .npz archive,
// whose edge_index is 0-based, before anything is read. O(1).
func checkOneBased(oneBased bool, flag, path string) error {
	if oneBased && path != "" && graphio.IsNPZ(path) {
		return usagef("--one-based: %s %s is an .npz archive, whose edge_index counts from 0; --one-based is for edge lists", flag, path)
	}
	return nil
}

// loadGraphFile reads the graph file path given to flag: an .npz archive,
// or an edge list with ids from 0, or from 1 with oneBased; numNodes > 0
// states the node count (graphio.LoadBase). An edge list read from 0 whose
// node 0 has no edge while its ids start at 1 gets a warning on standard
// error naming --one-based: counted from 0 it gains an isolated node 0.
// O(file size).
func loadGraphFile(g *Globals, flag, path string, numNodes int, directed, oneBased bool) (*linalg.Graph, error) {
	if err := checkOneBased(oneBased, flag, path); err != nil {
		return nil, err
	}
	if graphio.IsNPZ(path) {
		return graphio.Load(path, numNodes, directed)
	}
	n, arcs, err := graphio.ReadEdgeListBase(path, numNodes, idBase(oneBased))
	if err != nil {
		return nil, err
	}
	if !oneBased && startsAtOne(arcs) {
		fmt.Fprintf(g.Stderr, "ohm: warning: %s %s: node 0 has no edge and the ids start at 1: read from 0, the graph has %d nodes, node 0 isolated; if the file counts from 1, give --one-based\n",
			flag, path, n)
	}
	return linalg.FromEdges(n, directed, arcs)
}

// startsAtOne reports whether arcs has arcs, no id 0 and an id 1. O(len(arcs)).
func startsAtOne(arcs []linalg.Edge) bool {
	one := false
	for _, e := range arcs {
		if e.U == 0 || e.V == 0 {
			return false
		}
		one = one || e.U == 1 || e.V == 1
	}
	return one
}
