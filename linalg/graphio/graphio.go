package graphio

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ohmgnn/ohm/linalg"
)

// IsNPZ reports whether path names an .npz archive (by its extension, in any
// case); every other name is an edge list.
func IsNPZ(path string) bool { return strings.EqualFold(filepath.Ext(path), ".npz") }

// Load reads a graph from path: an .npz archive (ReadNPZ) when the name ends
// in ".npz", else an edge list (ReadEdgeList). numNodes > 0 states the
// expected node count: an edge list without a header takes it, and a file
// that states another count is a *FormatError; 0 takes the count from the
// file. The arcs become a directed graph, or, when directed is false, an
// undirected one in which (u,v) and (v,u) are one edge. Duplicates are
// coalesced and self-loops kept.
func Load(path string, numNodes int, directed bool) (*linalg.Graph, error) {
	return LoadBase(path, numNodes, directed, ZeroBased)
}

// LoadBase is Load with the node ids of an edge list from base
// (ReadEdgeListBase); an .npz archive's edge_index is always 0-based, so
// OneBased with one is an error. O(file size).
func LoadBase(path string, numNodes int, directed bool, base IDBase) (*linalg.Graph, error) {
	if base != ZeroBased && IsNPZ(path) {
		return nil, fmt.Errorf("graphio: %s: an .npz archive's edge_index is 0-based; 1-based ids are for edge lists", path)
	}
	if numNodes < 0 {
		return nil, fmt.Errorf("graphio: negative node count %d for %s", numNodes, path)
	}
	var (
		n    int
		arcs []linalg.Edge
		err  error
	)
	if IsNPZ(path) {
		n, arcs, err = ReadNPZ(path)
		if err == nil && numNodes > 0 && n != numNodes {
			return nil, &FormatError{Path: path, Member: KeyNumNodes + ".npy", Offset: -1,
				Msg: fmt.Sprintf("num_nodes is %d but %d nodes were expected", n, numNodes)}
		}
	} else {
		n, arcs, err = ReadEdgeListBase(path, numNodes, base)
	}
	if err != nil {
		return nil, err
	}
	return linalg.FromEdges(n, directed, arcs)
}

// Save writes g to path atomically: an .npz archive (WriteNPZ) when the name
// ends in ".npz", else an edge list (WriteEdgeList). Either holds g.Arcs():
// PyG's convention, both arcs of every undirected edge, self-loops once.
func Save(path string, g *linalg.Graph) error {
	if IsNPZ(path) {
		return WriteNPZ(path, g.N(), g.Arcs(), nil)
	}
	return WriteEdgeList(path, g.N(), g.Arcs())
}
