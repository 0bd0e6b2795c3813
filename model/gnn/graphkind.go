package gnn

import (
	"fmt"
	"strings"
)

// GraphKind is the convolution of a graph-classification model
// (definitions §4.4).
type GraphKind int

const (
	// GraphGCN is PyG's GCNConv: Â·X·W + b.
	GraphGCN GraphKind = iota
	// GraphGIN is PyG's GINConv with eps 0 and the MLP Linear → BatchNorm1d
	// → ReLU → Linear.
	GraphGIN
	// GraphRGCN is PyG's RGCNConv with two relations and mean aggregation.
	GraphRGCN
	// GraphRGIN is FoSR's RGINConv: a Linear on the node itself plus one
	// GINConv per relation.
	GraphRGIN
)

// String returns "gcn", "gin", "rgcn" or "rgin".
func (k GraphKind) String() string {
	switch k {
	case GraphGCN:
		return "gcn"
	case GraphGIN:
		return "gin"
	case GraphRGCN:
		return "rgcn"
	case GraphRGIN:
		return "rgin"
	}
	return fmt.Sprintf("GraphKind(%d)", int(k))
}

// ParseGraphKind parses "gcn", "gin", "rgcn" or "rgin" (any case; "r-gcn"
// and "r-gin" too).
func ParseGraphKind(s string) (GraphKind, error) {
	switch strings.ReplaceAll(strings.ToLower(s), "-", "") {
	case "gcn":
		return GraphGCN, nil
	case "gin":
		return GraphGIN, nil
	case "rgcn":
		return GraphRGCN, nil
	case "rgin":
		return GraphRGIN, nil
	}
	return 0, fmt.Errorf("unknown graph model %q (want gcn, gin, rgcn or rgin)", s) // reason: the CLI names the flag or the run before it
}
