package diagnose

import (
	"errors"
	"fmt"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/gnn"
)

// MethodNone names the original graph among Plan.Methods.
const MethodNone = "none"

// Plan says which graphs RunAll trains on for each dataset: one per method,
// the original graph for MethodNone and a rewiring for every other.
type Plan struct {
	// Methods in the order of the entries; MethodNone is the original
	// graph.
	Methods []string
	// Rewire returns g, the graph of d that RunAll trains on (read-only),
	// rewired with method, and the edges the rewiring added (undirected as
	// U < V, directed as arcs; an edge added and later removed counts as
	// added). It is called for every method but MethodNone, in order. The
	// package rewire does it (rewire.Run and Result.AddedEdges), which this
	// package may not import.
	Rewire func(d *dataset.Dataset, g *linalg.Graph, method string) (*linalg.Graph, []linalg.Edge, error)
	// OnTraining, when set, is called after d's rewirings, before its
	// trainings.
	OnTraining func(d *dataset.Dataset)
}

// RunAll computes the diagnostics of definitions §5 on every dataset of ds: it takes
// the graph of d in the form spec.Kind reads (the undirected form for GCN,
// the arcs for DirGCN), makes one graph per method of plan (the original
// graph for MethodNone, plan.Rewire's for the others) and hands them to Run
// with spec. The result is the concatenation of Run's, in the order dataset,
// method, depth, layer as given. Errors are plan.Rewire's (with the dataset
// and method) and Run's. Cost per dataset: one plan.Rewire per method other
// than MethodNone, then Run's trainings.
func RunAll(ds []*dataset.Dataset, plan Plan, spec Spec) (*Diagnostics, error) {
	if len(plan.Methods) == 0 {
		return nil, errors.New("diagnose: no methods")
	}
	diag := &Diagnostics{Cosine: []Cosine{}, Probe: []Probe{}, CKA: []CKA{}, Overlap: []Overlap{}}
	for _, d := range ds {
		gr := d.Graph
		if spec.Kind != gnn.DirGCN {
			gr = gr.Undirected()
		}
		graphs := make([]Graph, len(plan.Methods))
		for i, m := range plan.Methods {
			graphs[i] = Graph{Method: m, Graph: gr}
			if m == MethodNone {
				continue
			}
			if spec.Context != nil && spec.Context.Err() != nil {
				return nil, spec.Context.Err()
			}
			if plan.Rewire == nil {
				return nil, fmt.Errorf("diagnose: %s: rewire %s: no Rewire in the plan", d.Name, m)
			}
			g, added, err := plan.Rewire(d, gr, m)
			if err != nil {
				return nil, fmt.Errorf("diagnose %s: rewire %s: %w", d.Name, m, err)
			}
			if added == nil {
				added = []linalg.Edge{} // rewired: part of the overlap even when it added nothing
			}
			graphs[i].Graph, graphs[i].Added = g, added
		}
		if plan.OnTraining != nil {
			plan.OnTraining(d)
		}
		ds := spec
		if spec.DefaultFeatures {
			ds.Features = gnn.DefaultFeatures(d.Name)
		}
		dd, err := Run(d, graphs, ds)
		if err != nil {
			return nil, err
		}
		diag.Cosine = append(diag.Cosine, dd.Cosine...)
		diag.Probe = append(diag.Probe, dd.Probe...)
		diag.CKA = append(diag.CKA, dd.CKA...)
		diag.Overlap = append(diag.Overlap, dd.Overlap...)
	}
	return diag, nil
}
