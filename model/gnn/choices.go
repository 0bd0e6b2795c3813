package gnn

import (
	"fmt"
	"strings"
)

// Features says how a dataset's node features enter training
// (definitions §4.3). The paper does not state it; the choice moves the
// heterophilic tables by more than any rewiring does.
type Features int

const (
	// FeaturesRow divides every feature row by its sum (RowNormalize), as
	// PyG's NormalizeFeatures and Kipf & Welling's Planetoid setup do.
	FeaturesRow Features = iota
	// FeaturesRaw trains on the features as loaded (WebKB: binary bag of
	// words), what PyG's WebKB gives without a transform.
	FeaturesRaw
)

// String returns "row" or "raw".
func (f Features) String() string {
	switch f {
	case FeaturesRow:
		return "row"
	case FeaturesRaw:
		return "raw"
	}
	return fmt.Sprintf("Features(%d)", int(f))
}

// ParseFeatures parses "row" or "raw" (any case).
func ParseFeatures(s string) (Features, error) {
	switch strings.ToLower(s) {
	case "row":
		return FeaturesRow, nil
	case "raw":
		return FeaturesRaw, nil
	}
	return 0, fmt.Errorf("gnn: unknown feature preparation %q (want row or raw)", s)
}

// DefaultFeatures returns the feature preparation of the named dataset's
// family (definitions §4.3): row-normalised for every dataset, the setup of
// Kipf & Welling (Planetoid) and of Pei et al.'s Geom-GCN (WebKB), and
// what every run of the first grid used. It is a function of the dataset so
// that a family can differ once the measurements of docs/paper/README.md
// decide it.
func DefaultFeatures(dataset string) Features {
	return FeaturesRow
}

// PairNormAt says where PairNorm sits relative to the activation
// (definitions §4.2).
type PairNormAt int

const (
	// PairNormPre normalises before the ReLU: conv → PairNorm → ReLU →
	// dropout, as PairNorm's own code does.
	PairNormPre PairNormAt = iota
	// PairNormPost normalises after the ReLU: conv → ReLU → PairNorm →
	// dropout.
	PairNormPost
)

// String returns "post" or "pre".
func (a PairNormAt) String() string {
	switch a {
	case PairNormPre:
		return "pre"
	case PairNormPost:
		return "post"
	}
	return fmt.Sprintf("PairNormAt(%d)", int(a))
}

// ParsePairNormAt parses "pre" or "post" (any case).
func ParsePairNormAt(s string) (PairNormAt, error) {
	switch strings.ToLower(s) {
	case "pre":
		return PairNormPre, nil
	case "post":
		return PairNormPost, nil
	}
	return 0, fmt.Errorf("gnn: unknown PairNorm position %q (want pre or post)", s)
}

// DefaultPairNormAt is where PairNorm sits unless asked otherwise
// (definitions §4.2): before the ReLU, as PairNorm's own code places it
// and every run of the first grid did.
const DefaultPairNormAt = PairNormPre
