package diagnose

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"
	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/gnn"
)

// Graph is one graph the models of Run train on: the original graph or a
// rewired one, named by Method, with the edges its rewiring added (nil for
// the original graph, which takes no part in the overlap).
type Graph struct {
	Method string
	Graph  *linalg.Graph
	Added  []linalg.Edge
}

// Spec says what Run trains and measures.
type Spec struct {
	Kind gnn.Kind // GCN (undirected graphs) or DirGCN
	// Features is how the node features enter training and the cosine of
	// layer 0; with DefaultFeatures, RunAll takes each dataset's
	// (gnn.DefaultFeatures) instead.
	Features        gnn.Features
	DefaultFeatures bool
	// PairNorm lists the settings to train every model with, without
	// and/or with PairNorm (nil: without only); PairNormAt is its position.
	PairNorm   []bool
	PairNormAt gnn.PairNormAt
	Depths     []int    // model depths L ≥ 1
	Seeds      []uint64 // one model per seed; the diagnostics are averaged over them
	Split      int      // the split trained on; its training nodes fit the probes, its test nodes score them
	Budget     float64  // the rewiring budget, recorded in the Overlap
	Workers    int      // trainings in parallel (≤ 0: 1); the result does not depend on it
	// Reference, when one of the graphs' methods, is the method whose last
	// layer every other method's is compared with by CKA (the paper's
	// curvature).
	Reference string
	// OnTrained, when set, is called after each training (one call at a
	// time).
	OnTrained func()
	// Context, when not nil, stops Run (and RunAll) once it is done: the
	// trainings in flight finish, no other starts, and the error is the
	// context's (no partial diagnostics: every entry averages all seeds).
	Context context.Context
}

// job is one training of Run and what it measured.
type job struct {
	graph, depth int
	pairnorm     bool
	seed         uint64
	same, diff   []float64 // per layer 0..L (0: the input features)
	probe        []float64 // per inner layer 1..L−1
	last         *mat.Dense
}

// Run computes the diagnostics of definitions §5 on d for every PairNorm
// setting, graph, depth and seed: a model of spec.Kind with gnn.Defaults of
// d, the depth and the setting, trained on
// spec.Split from the seed, with the weights of its best validation epoch
// (gnn.TrainBest). Of each model it measures, from its Embeddings (each
// layer's convolution output, eval mode):
//
//   - Cosine for the input features (layer 0) and every layer 1..L over all nodes (MeanAbsCosine, at most
//     DefaultMaxPairs pairs, sampled with the seed);
//   - Probe for every inner layer ℓ < L (LinearProbe fitted on the split's
//     training nodes with l2 = 1/#training nodes, scikit-learn's C = 1,
//     scored on its test nodes);
//   - CKA, when spec.Reference is among the graphs, between the reference
//     model's last layer and every other graph's model of the same depth and
//     seed, on all nodes.
//
// Each entry is the mean over the seeds with its population standard
// deviation. When some graphs were rewired (Added not nil) it adds one
// Overlap of their added-edge sets (EdgeOverlap). Entries come in the order
// graph, depth, layer. Cost: len(graphs)·len(Depths)·len(Seeds) trainings
// plus the measurements (O(P) cosine pairs, a probe per inner layer, O(n²)
// per CKA), spread over spec.Workers goroutines.
func Run(d *dataset.Dataset, graphs []Graph, spec Spec) (*Diagnostics, error) {
	switch {
	case len(graphs) == 0:
		return nil, errors.New("diagnose: no graphs")
	case len(spec.Depths) == 0:
		return nil, errors.New("diagnose: no depths")
	case len(spec.Seeds) == 0:
		return nil, errors.New("diagnose: no seeds")
	case spec.Split < 0 || spec.Split >= len(d.Splits):
		return nil, fmt.Errorf("diagnose: split %d: %s has %d split(s)", spec.Split, d.Name, len(d.Splits))
	}
	datas := make([]*gnn.Data, len(graphs))
	for i, g := range graphs {
		var err error
		if datas[i], err = gnn.NewData(d, g.Graph, spec.Kind, spec.Features); err != nil {
			return nil, fmt.Errorf("diagnose %s (%s): %w", d.Name, g.Method, err)
		}
	}
	settings := spec.PairNorm
	if len(settings) == 0 {
		settings = []bool{false}
	}
	var jobs []*job
	for _, pn := range settings {
		for gi := range graphs {
			for _, L := range spec.Depths {
				if L < 1 {
					return nil, fmt.Errorf("diagnose: depth %d: must be ≥ 1", L)
				}
				for _, s := range spec.Seeds {
					jobs = append(jobs, &job{graph: gi, depth: L, pairnorm: pn, seed: s})
				}
			}
		}
	}
	// Layer 0, the input features, is the same for every graph, depth and
	// setting: one cosine per seed (its pair sample).
	input := map[uint64][2]float64{}
	x := mat.DenseCopyOf(datas[0].X)
	for _, s := range spec.Seeds {
		same, diff := MeanAbsCosine(x, d.Labels, allNodes(d.N()), DefaultMaxPairs, s)
		input[s] = [2]float64{same, diff}
	}
	ctx := spec.Context
	if ctx == nil {
		ctx = context.Background()
	}
	var eg errgroup.Group
	eg.SetLimit(max(1, spec.Workers))
	var mu sync.Mutex
	for _, j := range jobs {
		eg.Go(parallel.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			j.same, j.diff = []float64{input[j.seed][0]}, []float64{input[j.seed][1]}
			if err := measure(d, datas[j.graph], spec, j); err != nil {
				return fmt.Errorf("diagnose %s (%s, depth %d, seed %d): %w", d.Name, graphs[j.graph].Method, j.depth, j.seed, err)
			}
			if spec.OnTrained != nil {
				mu.Lock()
				defer mu.Unlock() // also when OnTrained panics (parallel.Go recovers it)
				spec.OnTrained()
			}
			return nil
		}))
	}
	if err := eg.Wait(); err != nil {
		return nil, err
	}
	diag := &Diagnostics{Cosine: []Cosine{}, Probe: []Probe{}, CKA: []CKA{}, Overlap: []Overlap{}}
	per := len(jobs) / len(settings)
	for k, pn := range settings {
		tr := Training{PairNorm: pn, Features: spec.Features.String()}
		if pn {
			tr.PairNormAt = spec.PairNormAt.String()
		}
		dd := collect(d.Name, graphs, spec, jobs[k*per:(k+1)*per], tr)
		diag.Cosine = append(diag.Cosine, dd.Cosine...)
		diag.Probe = append(diag.Probe, dd.Probe...)
		diag.CKA = append(diag.CKA, dd.CKA...)
		if k == 0 {
			diag.Overlap = append(diag.Overlap, dd.Overlap...)
		}
	}
	return diag, nil
}

// allNodes returns 0..n−1.
func allNodes(n int) []int {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return all
}

// measure trains j's model and fills its measurements.
func measure(d *dataset.Dataset, data *gnn.Data, spec Spec, j *job) error {
	cfg := gnn.Defaults(d.Name)
	cfg.Kind, cfg.Layers = spec.Kind, j.depth
	cfg.PairNorm, cfg.PairNormAt = j.pairnorm, spec.PairNormAt
	model, _, err := gnn.TrainBest(data, cfg, spec.Split, j.seed)
	if err != nil {
		return err
	}
	emb := model.Embeddings(data.X)
	all := allNodes(d.N())
	sp := data.Splits[spec.Split]
	ytr, yte := pick(data.Labels, sp.Train), pick(data.Labels, sp.Test)
	for l, h := range emb {
		same, diff := MeanAbsCosine(h, data.Labels, all, DefaultMaxPairs, j.seed)
		j.same, j.diff = append(j.same, same), append(j.diff, diff)
		if l == len(emb)-1 {
			break
		}
		acc, err := LinearProbe(rows(h, sp.Train), rows(h, sp.Test), ytr, yte, data.Classes, 1/float64(len(sp.Train)))
		if err != nil {
			return fmt.Errorf("layer %d: %w", l+1, err)
		}
		j.probe = append(j.probe, acc)
	}
	j.last = emb[len(emb)-1]
	return nil
}

// collect averages the jobs' measurements (of one training setting tr)
// over the seeds.
func collect(name string, graphs []Graph, spec Spec, jobs []*job, tr Training) *Diagnostics {
	diag := &Diagnostics{Cosine: []Cosine{}, Probe: []Probe{}, CKA: []CKA{}, Overlap: []Overlap{}}
	S := len(spec.Seeds)
	at := func(gi, di, si int) *job { return jobs[(gi*len(spec.Depths)+di)*S+si] }
	ref := -1
	for gi, g := range graphs {
		if g.Method == spec.Reference && spec.Reference != "" {
			ref = gi
		}
	}
	for gi, g := range graphs {
		for di, L := range spec.Depths {
			col := func(f func(j *job) float64) (m, s float64) {
				xs := make([]float64, S)
				for si := range S {
					xs[si] = f(at(gi, di, si))
				}
				return gnn.MeanStd(xs)
			}
			for l := range L + 1 {
				same, sameStd := col(func(j *job) float64 { return j.same[l] })
				diff, diffStd := col(func(j *job) float64 { return j.diff[l] })
				diag.Cosine = append(diag.Cosine, Cosine{Dataset: name, Training: tr, Method: g.Method, Depth: L, Layer: l,
					Same: same, Diff: diff, SameStd: sameStd, DiffStd: diffStd, Seeds: S})
			}
			for l := range L - 1 {
				acc, accStd := col(func(j *job) float64 { return j.probe[l] })
				diag.Probe = append(diag.Probe, Probe{Dataset: name, Training: tr, Method: g.Method, Depth: L, Layer: l + 1,
					Acc: acc, AccStd: accStd, Seeds: S})
			}
		}
	}
	if ref >= 0 {
		for gi, g := range graphs {
			if gi == ref {
				continue
			}
			for di, L := range spec.Depths {
				xs := make([]float64, S)
				for si := range S {
					xs[si] = LinearCKA(at(ref, di, si).last, at(gi, di, si).last)
				}
				m, s := gnn.MeanStd(xs)
				diag.CKA = append(diag.CKA, CKA{Dataset: name, Training: tr, Method: g.Method, Depth: L, CKA: m, CKAStd: s, Seeds: S})
			}
		}
	}
	var rewired []string
	added := map[string][]linalg.Edge{}
	for _, g := range graphs {
		if g.Added != nil {
			rewired = append(rewired, g.Method)
			added[g.Method] = g.Added
		}
	}
	if len(rewired) > 0 {
		diag.Overlap = append(diag.Overlap, EdgeOverlap(name, spec.Budget, rewired, added))
	}
	return diag
}

// rows returns the rows ids of h as a new matrix.
func rows(h *mat.Dense, ids []int) *mat.Dense {
	_, c := h.Dims()
	out := mat.NewDense(len(ids), c, nil)
	for r, i := range ids {
		out.SetRow(r, h.RawRowView(i))
	}
	return out
}

// pick returns the labels of ids.
func pick(labels, ids []int) []int {
	out := make([]int, len(ids))
	for r, i := range ids {
		out[r] = labels[i]
	}
	return out
}
