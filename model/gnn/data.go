package gnn

import (
	"fmt"

	"github.com/james-bowman/sparse"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
)

// Data is a dataset prepared for training one model kind on one graph:
// features (row-normalised or as loaded), labels, splits and the
// propagation operators.
// It is read-only and shared by concurrent runs.
type Data struct {
	Name     string          // dataset name
	X        *sparse.CSR     // n×F features, prepared as Features says
	Features Features        // how X was prepared from the dataset's features
	Labels   []int           // class of every node, 0..Classes-1
	Classes  int             // number of classes C
	Splits   []dataset.Split // the dataset's train/validation/test splits
	Ops      *Operators      // propagation operators of the graph
}

// NewData prepares d for models of kind k on the graph g (nil: d.Graph, the
// directed form), with the features prepared as f says (FeaturesRow:
// RowNormalize; FeaturesRaw: d's features as they are, shared). GCN
// symmetrizes g; DirGCN uses g's arcs, both directions of every edge when g
// is undirected. g must have d's node count. O(nnz(X) + n + m).
func NewData(d *dataset.Dataset, g *linalg.Graph, k Kind, f Features) (*Data, error) {
	if g == nil {
		g = d.Graph
	}
	n := d.N()
	switch {
	case g.N() != n:
		return nil, fmt.Errorf("gnn: graph has %d nodes but dataset %s has %d", g.N(), d.Name, n)
	case n < 1:
		return nil, fmt.Errorf("gnn: dataset %s has no nodes", d.Name)
	case d.NumFeatures() < 1:
		return nil, fmt.Errorf("gnn: dataset %s has no feature columns", d.Name)
	case len(d.Labels) != n:
		return nil, fmt.Errorf("gnn: dataset %s: %d labels for %d nodes", d.Name, len(d.Labels), n)
	}
	if r, _ := d.Features.Dims(); r != n {
		return nil, fmt.Errorf("gnn: dataset %s: %d feature rows for %d nodes", d.Name, r, n)
	}
	for i, y := range d.Labels {
		if y < 0 || y >= d.NumClasses {
			return nil, fmt.Errorf("gnn: dataset %s: node %d has label %d outside [0, %d)", d.Name, i, y, d.NumClasses)
		}
	}
	x := d.Features
	switch f {
	case FeaturesRow:
		x = RowNormalize(x)
	case FeaturesRaw:
	default:
		return nil, fmt.Errorf("gnn: unknown feature preparation %d", int(f))
	}
	return &Data{Name: d.Name, X: x, Features: f, Labels: d.Labels, Classes: d.NumClasses,
		Splits: d.Splits, Ops: NewOperators(g, k)}, nil
}

// check reports why cfg cannot train on d, or nil.
func (d *Data) check(cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if d.Ops.Kind != cfg.Kind {
		return fmt.Errorf("gnn: data prepared for %s, config asks for %s", d.Ops.Kind, cfg.Kind)
	}
	return nil
}

// checkSplit reports why split k cannot be trained on, or nil.
func (d *Data) checkSplit(k int) error {
	if k < 0 || k >= len(d.Splits) {
		return fmt.Errorf("gnn: split %d: %s has %d split(s), 0..%d", k, d.Name, len(d.Splits), len(d.Splits)-1)
	}
	sp := d.Splits[k]
	for _, part := range []struct {
		name string
		ids  []int
	}{{"training", sp.Train}, {"validation", sp.Val}, {"test", sp.Test}} {
		if len(part.ids) == 0 {
			return fmt.Errorf("gnn: split %d of %s has no %s nodes", k, d.Name, part.name)
		}
		for _, i := range part.ids {
			if i < 0 || i >= d.Ops.N {
				return fmt.Errorf("gnn: split %d of %s: %s node %d outside [0, %d)", k, d.Name, part.name, i, d.Ops.N)
			}
		}
	}
	return nil
}
