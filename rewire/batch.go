package rewire

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/hops"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/linalg"
)

// ManyOptions are RunMany's options beyond the Config every graph shares.
type ManyOptions struct {
	// Threads is how many graphs are rewired at once (each graph on one
	// worker); 0: one.
	Threads int
	// OnGraph, when set, is called once per graph as it finishes, with its
	// index and result (graphs finish in any order; calls never overlap).
	OnGraph func(i int, res *Result)
	// InPlace gives the graphs to RunMany: a method that would rewire a
	// copy of each graph rewires the graph itself (FoSR, whose copy is a
	// tenth of its run on a graph of tens of nodes, and the memory that
	// backs the copies: definitions §3.8 rule 9), and its result's Graph is
	// then that input, edited. The caller reads the graphs only through
	// the results afterwards; if the batch fails or is interrupted, they
	// may be left partly rewired.
	InPlace bool
}

// GraphError is the failure of one graph of a batch: its index in the
// input and the error of its run.
type GraphError struct {
	Graph int
	Err   error
}

func (e *GraphError) Error() string { return fmt.Sprintf("graph %d: %v", e.Graph, e.Err) }

func (e *GraphError) Unwrap() error { return e.Err }

// RunMany rewires every graph of graphs with cfg, as Run rewires each alone
// (definitions §3.8): one Plan per graph, run by the one loop of Plan.Run,
// with cfg.Workers set to 1 and the graphs spread over opt.Threads
// goroutines. The budget is per graph: B = floor(cfg.Budget·E0) of that
// graph, or cfg.Edits. Results are in input order and do not depend on
// opt.Threads: result i is what Run(graphs[i], cfg) gives with one worker,
// except the rule of §3.8 for a FoSR power iteration that vanishes (the
// graph is left as it is, its StoppedEarly saying so).
//
// cfg is checked once (Config.Check) before any graph runs; a
// cfg.FoSR.X0 is refused (one start vector cannot fit every graph) and
// cfg.OnIteration is not called (use opt.OnGraph). When ctx is done, the
// graphs in flight stop after their iteration and RunMany returns ctx's
// error with no results. A graph that fails stops the batch (graphs not
// started are not run, those in flight stop after their iteration): the
// error is a *GraphError of the first graph, in input order, that failed.
// Cost: the sum of the graphs' runs, divided among the threads.
func RunMany(ctx context.Context, graphs []*linalg.Graph, cfg Config, opt ManyOptions) ([]*Result, error) {
	if err := checkMany(graphs, cfg); err != nil {
		return nil, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cfg.Method, _ = ParseMethod(string(cfg.Method))
	cfg.Workers, cfg.OnIteration, cfg.Context, cfg.checked = 1, nil, ctx, true
	cfg = resolveMany(graphs, cfg, max(1, opt.Threads))
	results := make([]*Result, len(graphs))
	errs := make([]error, len(graphs))
	var mu sync.Mutex
	scratch := make([]batchScratch, max(1, opt.Threads))
	for t := range scratch {
		scratch[t].inPlace = opt.InPlace
	}
	reserveArenas(scratch, graphs, cfg, opt.InPlace)
	parallel.Each(max(1, opt.Threads), len(graphs), func(t, i int) {
		if ctx.Err() != nil {
			return
		}
		c := cfg
		c.scratch = &scratch[t]
		res, err := runOne(graphs[i], c)
		if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return // cut by the batch's end (another graph's failure, or ctx's): not this graph's failure
		}
		if err != nil {
			errs[i] = &GraphError{Graph: i, Err: err}
			cancel()
			return
		}
		results[i] = res
		if opt.OnGraph != nil {
			mu.Lock()
			opt.OnGraph(i, res)
			mu.Unlock()
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("rewire: batch interrupted: %w", err)
	}
	return results, nil
}

// checkMany checks what every graph of a batch shares: the Config for the
// graphs' form (they must all have one) and no start vector.
func checkMany(graphs []*linalg.Graph, cfg Config) error {
	directed := len(graphs) > 0 && graphs[0].Directed()
	for i, g := range graphs {
		if g == nil {
			return &GraphError{Graph: i, Err: errors.New("rewire: no graph")}
		}
		if g.Directed() != directed {
			return &GraphError{Graph: i, Err: errors.New("rewire: graphs of both forms in one batch")}
		}
	}
	if cfg.FoSR != nil && cfg.FoSR.X0 != nil {
		return &ConfigError{Field: FieldStartVector, Value: fmt.Sprintf("of %d entries", len(cfg.FoSR.X0)), Reason: "a batch draws each graph's start vector from the seed"}
	}
	return cfg.Check(directed)
}

// resolveMany probes the memory once for the batch (definitions §3.8 rule
// 8; methods that read a resistance engine, engine Auto or Incremental;
// the other methods' operators by operatorMemoryMany, the same rule):
// when the largest graph's
// dense state fits in memory every graph's does (it grows with n), so each
// plan would resolve Auto to Incremental (EngineSpec.Resolve) and each dense
// engine would pass its own probe. The batch then asks for Incremental with
// the memory checked, sparing each graph its probes (a few file reads, a
// sizeable share of a graph of tens of nodes). Otherwise cfg is returned as
// it is, resolved and probed graph by graph. O(graphs).
func resolveMany(graphs []*linalg.Graph, cfg Config, threads int) Config {
	if len(graphs) > 0 && !cfg.Method.Info().Resistance {
		return operatorMemoryMany(graphs, cfg, threads)
	}
	kind := cfg.Engine
	if kind != "" && kind != Auto && kind != Incremental || len(graphs) == 0 {
		return cfg
	}
	big := graphs[0]
	for _, g := range graphs {
		if g.N() > big.N() {
			big = g
		}
	}
	perHop := cfg.Method.Info().PerHop
	if perHop && hops.CheckNodes(big.N()) != nil {
		return cfg
	}
	// As incremental.CheckDense, but a tiny batch is not probed.
	if probeBatch("the batch's dense engine", incremental.DenseBytes(big.N(), big.Directed(), perHop)) != nil {
		return cfg
	}
	// threads engines may be alive at once: all of them must fit.
	if k := min(threads, len(graphs)); k > 1 &&
		probeBatch("the batch's dense engines", uint64(k)*incremental.DenseBytes(big.N(), big.Directed(), perHop)) != nil {
		return cfg
	}
	cfg.Engine, cfg.memoryChecked = Incremental, true
	return cfg
}

// operatorMemoryMany is resolveMany for the methods with an operator of
// their own (curvature, FoSR): one probe for the batch, of threads times
// the largest graph's operator state (operatorBytes), instead of one per
// graph (a few file reads, most of a FoSR run on a graph of tens of
// nodes). When it fails, cfg is returned as it is and each graph probes
// for itself (the error, if any, is then that graph's). O(graphs).
func operatorMemoryMany(graphs []*linalg.Graph, cfg Config, threads int) Config {
	var big uint64
	for _, g := range graphs {
		big = max(big, operatorBytes(cfg.Method, g, cfg.Workers))
	}
	k := uint64(min(threads, len(graphs)))
	if big == 0 || probeBatch("the batch's "+string(cfg.Method)+" rewirings", k*big) != nil {
		return cfg
	}
	cfg.memoryChecked = true
	return cfg
}

// probeBatch is sysmem.Check of a batch's states, need bytes in all,
// except that states under tinyBatch bytes are taken to fit when
// OHM_MEMORY is not set (definitions §3.8 rule 8): the probe, a few file
// reads, would cost more than rewiring such a batch (a tenth of
// MUTAG's), and the process holds more than that already.
func probeBatch(what string, need uint64) error {
	if _, set, _ := sysmem.Env(); need < tinyBatch && !set {
		return nil
	}
	return sysmem.Check(what, need, "")
}

// tinyBatch is the size below which probeBatch does not probe: 1 MiB.
const tinyBatch = 1 << 20

// batchScratch is one worker's memory in a batch (RunMany), reused by
// the graphs it rewires one after the other: each operator takes its
// state from here instead of allocating it, and leaves in it nothing the
// result holds.
type batchScratch struct {
	plan   Plan
	fosr   fosrOperator
	graphs linalg.CloneArena // the copies the results keep
	// inPlace says the batch's graphs are its own (ManyOptions.InPlace):
	// FoSR rewires them, not copies.
	inPlace bool
	// undirected is the last undirected dense engine, whose memory the
	// next takes (incremental.Options.Reuse); search the operators'
	// bridge searches.
	undirected *incremental.Undirected
	search     *tarjan.Searcher
}

// reserveArenas sizes the workers' arenas for the graph copies the results
// keep (FoSR's, and the undirected dense engines'), an even share of the
// batch's each: one allocation instead of blocks of a default size (most
// of a batch of MUTAG's size); FoSR in place copies nothing. O(Σ n).
func reserveArenas(scratch []batchScratch, graphs []*linalg.Graph, cfg Config, inPlace bool) {
	info := cfg.Method.Info()
	dense := info.Resistance && cfg.Engine == Incremental && len(graphs) > 0 && !graphs[0].Directed()
	fosr := cfg.Method == FoSR && !inPlace
	if !fosr && !dense {
		return
	}
	ints, lists := 0, 0
	for _, g := range graphs {
		a, b := linalg.CloneSize(g)
		ints, lists = ints+a, lists+b
	}
	k := min(len(scratch), max(1, len(graphs)))
	for t := range scratch {
		scratch[t].graphs.Reserve((ints+k-1)/k, (lists+k-1)/k, (len(graphs)+k-1)/k)
	}
}

// runOne is graph g's run in a batch: Run, with §3.8's rule for a FoSR
// power iteration that vanishes (the graph unchanged, the reason in
// StoppedEarly).
func runOne(g *linalg.Graph, cfg Config) (*Result, error) {
	p, err := NewPlan(g, cfg)
	if err != nil {
		return nil, err
	}
	res, err := p.Run()
	if errors.Is(err, ErrFoSRVanished) {
		h := g
		if s := cfg.scratch; s != nil && s.inPlace {
			s.fosr.undo() // g as it came in (a vanishing after additions)
		} else {
			h = g.Clone()
		}
		return &Result{Graph: h, E0: g.E0(), Budget: p.B, Engine: p.Engine,
			StoppedEarly: "graph left as it is: " + err.Error()}, nil
	}
	return res, err
}

// ManyTotals sums the results of a batch (RunMany) and describes how the
// edits spread over its graphs.
type ManyTotals struct {
	Graphs     int `json:"graphs"`
	E0         int `json:"e0"`                 // sum of the graphs' E0
	Planned    int `json:"planned_iterations"` // sum of the graphs' B
	Iterations int `json:"iterations"`         // iterations made, all graphs
	Added      int `json:"added"`              // additions made (operations)
	Removed    int `json:"removed"`            // removals made (operations)
	AddedNet   int `json:"added_net"`
	RemovedNet int `json:"removed_net"`
	PassedOver int `json:"passed_over"`
	// ZeroBudget counts the graphs whose B is 0 (left as they are, §3.8);
	// StoppedEarly those that stopped before their B, with a reason.
	ZeroBudget   int `json:"zero_budget_graphs"`
	StoppedEarly int `json:"stopped_early_graphs"`
	// EditsPerGraph and AddedPerGraph are the per-graph distributions of
	// the operations made (additions and removals) and of the additions.
	EditsPerGraph Spread `json:"edits_per_graph"`
	AddedPerGraph Spread `json:"added_per_graph"`
}

// Spread is a distribution of counts over graphs: least, mean, median
// (the lower middle value) and most.
type Spread struct {
	Min    int     `json:"min"`
	Mean   float64 `json:"mean"`
	Median int     `json:"median"`
	Max    int     `json:"max"`
}

// spreadOf is the Spread of v (zero for none). O(len(v) log len(v)).
func spreadOf(v []int) Spread {
	if len(v) == 0 {
		return Spread{}
	}
	s := slices.Sorted(slices.Values(v))
	sum := 0
	for _, x := range s {
		sum += x
	}
	return Spread{Min: s[0], Mean: float64(sum) / float64(len(s)), Median: s[(len(s)-1)/2], Max: s[len(s)-1]}
}

// Totals sums the results of a batch. O(graphs log graphs).
func Totals(results []*Result) ManyTotals {
	t := ManyTotals{Graphs: len(results)}
	edits, added := make([]int, len(results)), make([]int, len(results))
	for i, r := range results {
		t.E0 += r.E0
		t.Planned += r.Budget
		t.Iterations += r.Iterations
		t.Added += r.Added
		t.Removed += r.Removed
		t.AddedNet += r.AddedNet
		t.RemovedNet += r.RemovedNet
		t.PassedOver += r.PassedOver
		if r.Budget == 0 {
			t.ZeroBudget++
		}
		if r.StoppedEarly != "" {
			t.StoppedEarly++
		}
		edits[i], added[i] = r.Added+r.Removed, r.Added
	}
	t.EditsPerGraph, t.AddedPerGraph = spreadOf(edits), spreadOf(added)
	return t
}
