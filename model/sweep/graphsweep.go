package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/gnn"
	"github.com/ohmgnn/ohm/rewire"
)

// GraphOptions say where a graph-classification sweep writes and how it
// reports.
type GraphOptions struct {
	// Results is the results file (JSON lines, shared with node sweeps if
	// wanted: graph records carry task "graph"); the cache is
	// CacheDir(Results).
	Results string
	// Workers is the number of trials in parallel and of graphs rewired at
	// once; ≤ 0 means 1.
	Workers int
	// LoadTU returns a TU dataset by name (required).
	LoadTU func(name string) (*dataset.TUDataset, error)
	// OnPlan, OnRun and OnNote are as in Options.
	OnPlan func(total, done int)
	OnRun  func(r Record)
	OnNote func(msg string)
}

// graphCell is every pending trial of one (dataset, method, budget): the
// dataset is rewired once for all of them.
type graphCell struct {
	d      *dataset.TUDataset
	method string
	budget GraphBudget // zero for none
	trials map[gnn.GraphKind][]uint64
}

// RunGraph runs every trial of the graph-classification grid spec that the
// results file does not hold yet (definitions §6.4) and appends each to it
// as soon as it finishes. Each (dataset, method, budget) is rewired once,
// graph by graph (rewire.RunMany), and cached beside the results file as a
// collated archive, so a resumed sweep does not rewire again. Cancelling
// ctx stops starting trials; those in flight finish and are recorded, then
// RunGraph returns ctx's error. A failing trial stops the sweep with its
// error (nothing is recorded for it).
func RunGraph(ctx context.Context, spec GraphSpec, opt GraphOptions) (*Summary, error) {
	if err := spec.Normalize(); err != nil {
		return nil, err
	}
	if opt.LoadTU == nil {
		return nil, errors.New("sweep: no TU dataset loader")
	}
	if err := CheckResults(opt.Results); err != nil {
		return nil, err
	}
	var ds []*dataset.TUDataset
	for _, name := range spec.Datasets {
		d, err := opt.LoadTU(name)
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	res, recs, repaired, err := OpenResults(opt.Results)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	sum := &Summary{Repaired: repaired}
	done := make(map[Key]bool, len(recs))
	for i := range recs {
		done[recs[i].Key()] = true
	}
	var choice map[chooseKey]GraphBudget
	if spec.ChooseOn > 0 {
		if choice, err = chooseBudgets(&spec, ds, recs); err != nil {
			return nil, err
		}
	}
	cells := planGraph(&spec, ds, done, choice, sum)
	if opt.OnPlan != nil {
		opt.OnPlan(sum.Total, sum.Skipped)
	}
	g := &graphSweeper{spec: &spec, opt: opt, res: res, sum: sum, c: cache{CacheDir(opt.Results)}, workers: max(1, opt.Workers)}
	for _, cell := range cells {
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		if err := g.runCell(ctx, cell); err != nil {
			return sum, err
		}
	}
	return sum, ctx.Err()
}

// graphRecord returns the record of one trial's inputs (outputs zero).
func graphRecord(spec *GraphSpec, d *dataset.TUDataset, method string, b GraphBudget, k gnn.GraphKind, seed uint64) Record {
	cfg := spec.config(k)
	r := Record{Dataset: d.Name, Form: Undirected, Method: method, Model: k.String(), Layers: cfg.Layers,
		Hidden: cfg.Hidden, Epochs: cfg.MaxEpochs, Seed: seed, Version: CodeVersion(method, Undirected),
		Task: TaskGraph, Graphs: d.Len()}
	if method != None {
		r.Budget, r.BudgetUnit = b.Value, b.Unit
	}
	if method == string(rewire.Curvature) {
		r.Alpha = spec.alpha()
	}
	return r
}

// planGraph returns the cells with pending trials, dataset by dataset,
// method by method, budget by budget, and counts the grid in sum.
func planGraph(spec *GraphSpec, ds []*dataset.TUDataset, done map[Key]bool, choice map[chooseKey]GraphBudget, sum *Summary) []*graphCell {
	var cells []*graphCell
	for _, d := range ds {
		for _, m := range spec.Methods {
			budgets := spec.budgets
			if m == None {
				budgets = []GraphBudget{{}}
			}
			for _, b := range budgets {
				cell := &graphCell{d: d, method: m, budget: b, trials: map[gnn.GraphKind][]uint64{}}
				pending := 0
				for _, k := range spec.kinds {
					if c, ok := choice[chooseKey{d.Name, m, k}]; ok && c != b {
						continue
					}
					for s := range spec.Trials {
						sum.Total++
						r := graphRecord(spec, d, m, b, k, uint64(s))
						if done[r.Key()] {
							sum.Skipped++
							continue
						}
						cell.trials[k] = append(cell.trials[k], uint64(s))
						pending++
					}
				}
				if pending > 0 {
					cells = append(cells, cell)
				}
			}
		}
	}
	return cells
}

// chooseKey is one (dataset, method, model) whose budget a grid chooses.
type chooseKey struct {
	dataset, method string
	kind            gnn.GraphKind
}

// chooseBudgets returns, for every (dataset, method other than none,
// model) of spec, the budget of spec.budgets whose records of seeds
// 0..ChooseOn-1 have the highest mean validation accuracy, the smallest
// budget on ties (GraphBudget.less). Every budget needs all those records (a pre-sweep):
// otherwise a *FieldError of choose_on says which are missing.
func chooseBudgets(spec *GraphSpec, ds []*dataset.TUDataset, recs []Record) (map[chooseKey]GraphBudget, error) {
	val := map[Key]float64{}
	for i := range recs {
		val[recs[i].Key()] = recs[i].ValAcc
	}
	out := map[chooseKey]GraphBudget{}
	for _, d := range ds {
		for _, m := range spec.Methods {
			if m == None {
				continue
			}
			for _, k := range spec.kinds {
				best, bestVal := GraphBudget{}, math.Inf(-1)
				for _, b := range spec.budgets {
					var sum float64
					for s := range spec.ChooseOn {
						r := graphRecord(spec, d, m, b, k, uint64(s))
						v, ok := val[r.Key()]
						if !ok {
							return nil, fieldErrorf("choose_on", "%s %s %s at budget %s %s lacks the trial of seed %d: run the pre-sweep (the same budgets with %d trials) first",
								d.Name, m, k, b, b.Unit, s, spec.ChooseOn)
						}
						sum += v
					}
					if mean := sum / float64(spec.ChooseOn); mean > bestVal || mean == bestVal && b.less(best) {
						best, bestVal = b, mean
					}
				}
				out[chooseKey{d.Name, m, k}] = best
			}
		}
	}
	return out, nil
}

// graphSweeper is one RunGraph under way.
type graphSweeper struct {
	spec    *GraphSpec
	opt     GraphOptions
	res     *Results
	sum     *Summary
	c       cache
	workers int
	mu      sync.Mutex
}

func (g *graphSweeper) note(format string, a ...any) {
	if g.opt.OnNote != nil {
		g.opt.OnNote(fmt.Sprintf(format, a...))
	}
}

// runCell rewires the cell's dataset (or takes it from the cache) and runs
// its pending trials across the workers, model by model.
func (g *graphSweeper) runCell(ctx context.Context, cell *graphCell) error {
	rw, err := g.rewired(ctx, cell)
	if err != nil {
		return err
	}
	set := gnn.NewGraphSet(rw.Data)
	for _, k := range g.spec.kinds {
		seeds := cell.trials[k]
		if len(seeds) == 0 {
			continue
		}
		data, err := gnn.NewGraphData(set, k)
		if err != nil {
			return fmt.Errorf("sweep: %s: %w", cell.d.Name, err)
		}
		cfg := g.spec.config(k)
		var eg errgroup.Group
		eg.SetLimit(g.workers)
		for _, seed := range seeds {
			if ctx.Err() != nil {
				break
			}
			eg.Go(func() error {
				if ctx.Err() != nil {
					return nil
				}
				return g.trial(data, cfg, cell, rw, k, seed)
			})
		}
		if err := eg.Wait(); err != nil {
			return err
		}
	}
	return nil
}

// trial trains one seed and appends its record.
func (g *graphSweeper) trial(data *gnn.GraphData, cfg gnn.GraphConfig, cell *graphCell, rw *RewiredTU, k gnn.GraphKind, seed uint64) error {
	t0 := time.Now()
	r, err := gnn.TrainGraph(data, cfg, seed)
	if err != nil {
		return fmt.Errorf("sweep: %s %s %s %v: %w", cell.d.Name, cell.method, cell.budget, k, err)
	}
	rec := graphRecord(g.spec, cell.d, cell.method, cell.budget, k, seed)
	rec.TestAcc, rec.ValAcc, rec.TrainAcc, rec.BestEpoch = r.TestAcc, r.ValAcc, r.TrainAcc, r.BestEpoch
	rec.LastTestAcc, rec.EpochsRun = r.LastTestAcc, r.Epochs
	rec.E0, rec.Iterations, rec.Added, rec.Removed = rw.E0, rw.Iterations, rw.Added, rw.Removed
	rec.AddedNet, rec.RemovedNet, rec.RewireSecs = rw.AddedNet, rw.RemovedNet, rw.Seconds
	if rw.StoppedEarly > 0 {
		rec.StoppedEarly = fmt.Sprintf("%d of %d graphs stopped before their budget", rw.StoppedEarly, cell.d.Len())
	}
	rec.TrainSecs = time.Since(t0).Seconds()
	rec.Finished = time.Now().UTC().Format(time.RFC3339)
	if err := g.res.Append(rec); err != nil {
		return err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sum.Ran++
	if g.opt.OnRun != nil {
		g.opt.OnRun(rec)
	}
	return nil
}

// rewired returns the cell's dataset after its method and budget: the
// dataset itself for none, else from the cache or rewired now (and cached).
func (g *graphSweeper) rewired(ctx context.Context, cell *graphCell) (*RewiredTU, error) {
	d := cell.d
	if cell.method == None {
		r := &RewiredTU{Data: d}
		for i := range d.Len() {
			r.E0 += d.Graph(i).Undirected().E0()
		}
		return r, nil
	}
	key := TUKey{GraphKey: GraphKey{Dataset: d.Name, Form: Undirected, Method: cell.method, Budget: cell.budget.Value,
		Version: CodeVersion(cell.method, Undirected)}, Unit: cell.budget.Unit}
	if cell.method == string(rewire.Curvature) {
		key.Alpha = g.spec.alpha()
	}
	if r := g.c.loadTU(key); r != nil {
		g.sum.Cached++
		return r, nil
	}
	g.note("rewiring %s with %s, budget %s %s", d.Name, cell.method, cell.budget, cell.budget.Unit)
	cfg := rewire.Config{Method: rewire.Method(cell.method), Engine: rewire.Incremental,
		Curvature: &rewire.CurvatureOptions{Alpha: key.Alpha}, FoSR: &rewire.FoSROptions{}}
	if cell.budget.Unit == UnitEdits {
		cfg.Edits = int(cell.budget.Value)
	} else {
		cfg.Budget = cell.budget.Value
	}
	t0 := time.Now()
	results, err := rewire.RunMany(ctx, d.Graphs(false), cfg, rewire.ManyOptions{Threads: g.workers, InPlace: true})
	if err != nil {
		return nil, fmt.Errorf("sweep: rewire %s with %s, budget %s: %w", d.Name, cell.method, cell.budget, err)
	}
	r := &RewiredTU{Key: key, Seconds: time.Since(t0).Seconds()}
	gs := make([]*linalg.Graph, len(results))
	for i, x := range results {
		gs[i] = x.Graph
		r.E0 += x.E0
		r.Iterations += x.Iterations
		r.Added += x.Added
		r.Removed += x.Removed
		r.AddedNet += x.AddedNet
		r.RemovedNet += x.RemovedNet
		if x.StoppedEarly != "" {
			r.StoppedEarly++
		}
	}
	if r.Data, err = d.Rewired(gs, nil); err != nil {
		return nil, err
	}
	g.sum.Rewired++
	if err := g.c.storeTU(r); err != nil {
		return nil, err
	}
	return r, nil
}
