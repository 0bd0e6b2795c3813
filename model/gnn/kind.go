package gnn

import (
	"fmt"
	"strings"
)

// Kind is the layer type of a model.
type Kind int

const (
	// GCN uses GCNLayer on the undirected form.
	GCN Kind = iota
	// DirGCN uses DirGCNLayer on the arcs (both directions when undirected).
	DirGCN
)

// String returns "gcn" or "dirgcn".
func (k Kind) String() string {
	switch k {
	case GCN:
		return "gcn"
	case DirGCN:
		return "dirgcn"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// ParseKind parses "gcn" or "dirgcn" (any case).
func ParseKind(s string) (Kind, error) {
	switch strings.ToLower(s) {
	case "gcn":
		return GCN, nil
	case "dirgcn":
		return DirGCN, nil
	}
	return 0, fmt.Errorf("gnn: unknown model %q (want gcn or dirgcn)", s)
}
