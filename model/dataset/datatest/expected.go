package datatest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

// Expected is one dataset's entry of expected.json in the data root: the
// verified counts every loader must reproduce (see the data README for the
// definitions). Fields absent for a dataset are zero.
type Expected struct {
	Nodes                        int     `json:"nodes"`
	Features                     int     `json:"features"`
	Classes                      int     `json:"classes"`
	Arcs                         int     `json:"arcs"`
	UndirectedEdges              int     `json:"undirected_edges"`
	UndirectedEdgesInclSelfLoops int     `json:"undirected_edges_incl_self_loops"`
	SelfLoops                    int     `json:"self_loops"`
	RawSelfLoops                 int     `json:"raw_self_loops"`
	Components                   int     `json:"components"`
	LargestComponent             int     `json:"largest_component"`
	Train                        int     `json:"train"`
	Val                          int     `json:"val"`
	Test                         int     `json:"test"`
	ClassCounts                  []int   `json:"class_counts"`
	FeatureNNZ                   int     `json:"feature_nnz"`
	IsolatedNodes                int     `json:"isolated_nodes"`
	MissingTestNodes             []int   `json:"missing_test_nodes"`
	RawGraphEntries              int     `json:"raw_graph_entries"`
	RawDuplicateEntries          int     `json:"raw_duplicate_entries"`
	ZeroFeatureRows              int     `json:"zero_feature_rows"`
	LargestSCC                   int     `json:"largest_scc"`
	SCCCount                     int     `json:"scc_count"`
	ReciprocatedPairs            int     `json:"reciprocated_pairs"`
	Splits                       [][]int `json:"splits"`
	// The TU graph-classification datasets' counts (MUTAG, ENZYMES,
	// PROTEINS): graphs, the largest graph's nodes, graphs with more than
	// one component, graphs with a self-loop.
	Graphs              int  `json:"graphs"`
	MaxNodes            int  `json:"max_nodes"`
	DisconnectedGraphs  int  `json:"disconnected_graphs"`
	GraphsWithSelfLoops int  `json:"graphs_with_self_loops"`
	Undirected          bool `json:"undirected"`
}

// LoadExpected reads root/expected.json, keyed by lower-case dataset name.
func LoadExpected(t testing.TB, root string) map[string]Expected {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var e map[string]Expected
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatalf("expected.json: %v", err)
	}
	return e
}

// Components counts the connected components of the underlying undirected
// graph of g, the size of the largest and the isolated nodes (no neighbour
// other than itself), by a plain depth-first search — an oracle independent
// of the Tarjan module.
func Components(g *linalg.Graph) (count, largest, isolated int) {
	seen := make([]bool, g.N())
	for s := range g.N() {
		if seen[s] {
			continue
		}
		if len(g.Neighbours(s)) == 0 {
			isolated++
		}
		count++
		size, stack := 0, []int{s}
		seen[s] = true
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size++
			for _, v := range g.Neighbours(u) {
				if !seen[v] {
					seen[v] = true
					stack = append(stack, v)
				}
			}
		}
		largest = max(largest, size)
	}
	return count, largest, isolated
}
