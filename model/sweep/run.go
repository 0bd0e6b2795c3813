package sweep

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ohmgnn/ohm"
	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/gnn"
	"github.com/ohmgnn/ohm/rewire"
)

// Options say where a sweep writes and how it reports.
type Options struct {
	// Results is the results file (JSON lines); the cache is CacheDir(Results).
	Results string
	// Workers is the number of training runs in parallel (and the workers
	// of each rewiring); ≤ 0 means 1.
	Workers int
	// Load returns a dataset by canonical name (required for Spec.Datasets;
	// Spec.Graph is read by dataset.ReadArchive).
	Load func(name string, synth dataset.SynthOptions) (*dataset.Dataset, error)
	// OnPlan, if set, is called once before any work with the number of
	// runs in the grid and of those already in the results file.
	OnPlan func(total, done int)
	// OnRun, if set, is called after each run is recorded (one call at a
	// time).
	OnRun func(r Record)
	// OnNote, if set, receives progress messages (repairs, rewiring).
	OnNote func(msg string)
}

// Summary is what a sweep did.
type Summary struct {
	Total    int // runs in the grid
	Skipped  int // already in the results file
	Ran      int // run and recorded now
	Repaired int // bytes of a truncated last line cut from the results file
	Rewired  int // graphs rewired now (not from the cache)
	Cached   int // graphs taken from the cache
}

// run is one pending training run.
type run struct {
	model    string
	pairnorm bool
	layers   int
	seed     uint64
	split    int
}

// group is every pending run on the graphs of one (dataset, form, method),
// by budget (one budget, 0, for none). The graphs of all its budgets come
// from one rewiring run with the largest budget: a run never looks at its
// budget except to stop, so the run with budget B is the first B iterations
// of a longer one.
type group struct {
	in      *input
	d       *dataset.Dataset // in.d
	form    string
	method  string
	budgets []float64
	runs    map[float64][]run
}

// job is one training run ready to go.
type job struct {
	data *gnn.Data
	cfg  gnn.Config
	rec  Record // inputs and rewiring numbers filled in
}

// Run runs every run of the spec that the results file does not hold yet
// and appends each to it as soon as it finishes. Cancelling ctx stops the
// sweep within an epoch or an iteration: no new run starts, the runs in
// flight stop before their next epoch and are not recorded, a rewiring in
// progress is dropped (nothing cached), and Run returns ctx's error; every
// run finished before is recorded. Runs that fail stop the sweep with the
// error.
func Run(ctx context.Context, spec Spec, opt Options) (*Summary, error) {
	if err := spec.Normalize(); err != nil {
		return nil, err
	}
	if opt.Load == nil && spec.Graph == "" {
		return nil, errors.New("sweep: no dataset loader")
	}
	if err := CheckResults(opt.Results); err != nil {
		return nil, err
	}
	s := &sweeper{spec: &spec, opt: opt, workers: max(1, opt.Workers)}
	ds, err := loadInputs(&spec, opt.Load)
	if err != nil {
		return nil, err
	}
	res, recs, repaired, err := OpenResults(opt.Results)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	s.res, s.sum = res, &Summary{Repaired: repaired}
	if repaired > 0 {
		s.note("%s: cut a truncated last line (%d bytes); its run is made again", opt.Results, repaired)
	}
	if u := res.UnknownFields(); len(u) > 0 {
		s.note("warning: %s: fields this version of ohm does not know (written by a newer ohm?): %s; read past", opt.Results, strings.Join(u, ", "))
	}
	// Records of older code are redone, as documented; newer or other
	// code's are too, but that is worth saying.
	_, stale := CurrentRecords(recs)
	for _, st := range stale {
		if st.Relation != Older {
			s.note("%s: %d runs of %s rewiring code (%s) do not count as done: this code makes its own", opt.Results, st.Count, st.Relation, st)
		}
	}
	done := make(map[Key]bool, len(recs))
	for i := range recs {
		done[recs[i].Key()] = true
	}
	groups, err := plan(&spec, ds, done, s.sum)
	if err != nil {
		return nil, err
	}
	if opt.OnPlan != nil {
		opt.OnPlan(s.sum.Total, s.sum.Skipped)
	}
	if s.sum.Total == s.sum.Skipped {
		return s.sum, nil
	}
	return s.sum, s.runAll(ctx, groups)
}

// sweeper is one Run under way.
type sweeper struct {
	spec    *Spec // normalized
	opt     Options
	workers int
	res     *Results
	sum     *Summary
	mu      sync.Mutex // serializes appends, sum.Ran and opt.OnRun
	stopped bool       // Run returned on ctx's end: nothing more is recorded
}

// note sends a progress message to opt.OnNote.
func (s *sweeper) note(format string, a ...any) {
	if s.opt.OnNote != nil {
		s.opt.OnNote(fmt.Sprintf(format, a...))
	}
}

// input is one dataset of a sweep and what identifies it in records and
// keys beside its name.
type input struct {
	d         *dataset.Dataset
	builtin   bool   // a built-in synthetic dataset: SynthSeed and Heterophilic apply
	graph     string // a graph file's Archive.SHA256, else ""
	splitRule string // a graph file's split rule (canonical), else ""
	splitSeed uint64
}

// loadInputs loads every dataset of spec first (or the graph file, its
// splits made by the split rule when one is given): a missing or malformed
// file fails before hours of work.
func loadInputs(spec *Spec, load func(string, dataset.SynthOptions) (*dataset.Dataset, error)) ([]*input, error) {
	if spec.Graph != "" {
		in, err := loadGraph(spec)
		if err != nil {
			return nil, err
		}
		return []*input{in}, nil
	}
	synth := dataset.SynthOptions{Seed: spec.SynthSeed, Heterophilic: spec.Heterophilic}
	var ins []*input
	for _, name := range spec.Datasets {
		d, err := load(name, synth)
		if err != nil {
			return nil, err
		}
		ins = append(ins, &input{d: d, builtin: dataset.IsBuiltin(d.Name)})
	}
	return ins, nil
}

// loadGraph reads spec.Graph as the dataset spec.Name; with a split rule,
// makes splits 0..max asked.
func loadGraph(spec *Spec) (*input, error) {
	a, err := dataset.ReadArchive(spec.Graph, spec.Name)
	if err != nil {
		return nil, err
	}
	in := &input{d: a.Dataset, graph: a.SHA256}
	if spec.SplitRule == "" {
		if !a.HasSplits {
			return nil, fieldErrorf("split_rule", "%s holds no split masks (train_mask, val_mask, test_mask): state a split rule, e.g. random:0.6,0.2,0.2 or per-class:20,500,1000", spec.Graph)
		}
		return in, nil
	}
	rule, err := dataset.ParseSplitRule(spec.SplitRule)
	if err != nil {
		return nil, fieldErrorf("split_rule", "%v", err)
	}
	ks, _ := parseSplits(spec.Splits) // a list: Normalize refuses all with a rule
	if err := rule.Apply(in.d, spec.SplitSeed, slices.Max(ks)+1); err != nil {
		return nil, fieldErrorf("split_rule", "%v", err)
	}
	in.splitRule, in.splitSeed = rule.String(), spec.SplitSeed
	return in, nil
}

// runAll trains the pending runs of groups on s.workers goroutines and
// returns the first failure of a run, else of the feeding, else parent's
// error.
func (s *sweeper) runAll(parent context.Context, groups []*group) error {
	// The group's context is cancelled by the first failure; parent's by the
	// caller (Ctrl-C). A run started after either skips its work.
	eg, ctx := errgroup.WithContext(parent)
	eg.SetLimit(s.workers)
	type outcome struct{ run, feed error }
	wait := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil { // a bug: an error, not a crash of the process
				wait <- outcome{feed: fmt.Errorf("internal error (please report it): %v\n%s", p, debug.Stack())}
			}
		}()
		feedErr := s.feed(ctx, eg, groups) // a failure while feeding (rewiring, building data)
		wait <- outcome{eg.Wait(), feedErr}
	}()
	var o outcome
	select {
	case o = <-wait:
	case <-parent.Done():
		// The trainings in flight are abandoned, not waited for (an epoch
		// can take minutes): they record nothing more (train).
		s.mu.Lock()
		s.stopped = true
		s.mu.Unlock()
		return parent.Err()
	}
	if o.run != nil {
		return o.run
	}
	if o.feed != nil {
		return o.feed
	}
	return parent.Err()
}

// feed hands every pending run of groups to eg, group after group, once
// the group's graphs are rewired (or read from the cache). It stops at the
// first failure, which it returns, or when ctx is cancelled.
func (s *sweeper) feed(ctx context.Context, eg *errgroup.Group, groups []*group) error {
	c := cache{dir: CacheDir(s.opt.Results)}
	alpha := s.spec.AlphaValue()
	for _, gr := range groups {
		graphs, err := graphsOf(ctx, gr, s.spec, alpha, c, s.workers, s.sum, s.note)
		if err != nil {
			return err
		}
		for _, b := range gr.budgets {
			rw := graphs[b]
			datas := map[string]*gnn.Data{}
			for _, r := range gr.runs[b] {
				data := datas[r.model]
				if data == nil {
					kind, _ := gnn.ParseKind(r.model)
					if data, err = gnn.NewData(gr.d, rw.Graph, kind, s.spec.FeaturesOf(gr.d.Name)); err != nil {
						return fmt.Errorf("%s %s: %w", gr.d.Name, r.model, err)
					}
					datas[r.model] = data
				}
				j := s.newJob(gr, b, r, rw, data, alpha)
				if ctx.Err() != nil {
					return nil
				}
				eg.Go(parallel.Go(func() error { return s.train(ctx, j) })) // waits for a free worker
			}
		}
	}
	return nil
}

// newJob is run r of group gr at budget b, trained on data (built from the
// graph rw): its training configuration and its record's inputs and
// rewiring numbers.
func (s *sweeper) newJob(gr *group, b float64, r run, rw *Rewired, data *gnn.Data, alpha float64) job {
	cfg := gnn.Defaults(gr.d.Name)
	cfg.Kind = data.Ops.Kind
	cfg.Layers, cfg.PairNorm, cfg.Epochs = r.layers, r.pairnorm, s.spec.Epochs
	cfg.PairNormAt = s.spec.PairNormPosition()
	rec := Record{Dataset: gr.d.Name, Form: gr.form, Method: gr.method, Budget: b,
		Model: r.model, PairNorm: r.pairnorm, Layers: r.layers, Hidden: cfg.Hidden, Epochs: s.spec.Epochs,
		Features: data.Features.String(),
		Seed:     r.seed, Split: r.split, SynthSeed: s.spec.SynthSeed, Heterophilic: s.spec.Heterophilic,
		GraphSHA256: gr.in.graph, SplitRule: gr.in.splitRule, SplitSeed: gr.in.splitSeed,
		E0: rw.E0, Iterations: rw.Iterations, Added: rw.Added, Removed: rw.Removed, AddedNet: rw.AddedNet, RemovedNet: rw.RemovedNet,
		StoppedEarly: rw.StoppedEarly, RewireSecs: rw.Seconds, Version: CodeVersion(gr.method, gr.form),
		OhmVersion: ohm.Build()}
	if gr.method == string(rewire.Curvature) {
		rec.Alpha = alpha
	}
	if r.pairnorm {
		rec.PairNormAt = cfg.PairNormAt.String()
	}
	if !gr.in.builtin {
		rec.SynthSeed, rec.Heterophilic = 0, false
	}
	return job{data: data, cfg: cfg, rec: rec}
}

// train trains j (unless ctx is cancelled) and appends its record to the
// results file.
func (s *sweeper) train(ctx context.Context, j job) error {
	if ctx.Err() != nil {
		return nil
	}
	r, err := gnn.TrainContext(ctx, j.data, j.cfg, j.rec.Split, j.rec.Seed)
	if ctx.Err() != nil {
		return nil // stopped before an epoch: not recorded
	}
	if err != nil {
		return fmt.Errorf("train %s: %w", j.rec.Key(), err)
	}
	rec := j.rec
	rec.TestAcc, rec.ValAcc, rec.BestEpoch, rec.TrainSecs = r.TestAcc, r.ValAcc, r.BestEpoch, r.Seconds
	rec.Finished = time.Now().UTC().Format(time.RFC3339)
	s.mu.Lock()
	defer s.mu.Unlock() // also when OnRun panics (parallel.Go recovers it)
	if s.stopped {
		return nil // Run has returned: nothing more is recorded
	}
	if err := s.res.Append(rec); err != nil {
		return err
	}
	s.sum.Ran++
	if s.opt.OnRun != nil {
		s.opt.OnRun(rec)
	}
	return nil
}

// plan enumerates the grid in a fixed order (dataset, form, method, budget,
// model, PairNorm, depth, split, seed), counts it in sum and returns the
// pending runs grouped by rewired graph.
func plan(spec *Spec, ins []*input, done map[Key]bool, sum *Summary) ([]*group, error) {
	want, _ := parseSplits(spec.Splits)
	alpha := spec.AlphaValue()
	var groups []*group
	for _, in := range ins {
		d := in.d
		splits := want
		if splits == nil {
			for k := range d.Splits {
				splits = append(splits, k)
			}
		}
		for _, k := range splits {
			if k >= len(d.Splits) {
				return nil, fieldErrorf("splits", "%s has %d split(s), 0..%d; split %d asked", d.Name, len(d.Splits), len(d.Splits)-1, k)
			}
		}
		synthSeed, hetero := spec.SynthSeed, spec.Heterophilic
		if !in.builtin {
			synthSeed, hetero = 0, false
		}
		for _, form := range spec.Forms {
			models := spec.models(form)
			for _, m := range spec.Methods {
				budgets := spec.Budgets
				if m == None {
					budgets = []float64{0}
				}
				g := &group{in: in, d: d, form: form, method: m, runs: map[float64][]run{}}
				for _, b := range budgets {
					for _, model := range models {
						for _, pn := range spec.PairNorm {
							for _, l := range spec.Depths {
								for _, k := range splits {
									for s := range spec.Seeds {
										key := Key{Dataset: d.Name, Form: form, Method: m, Budget: b, Model: model,
											PairNorm: pn, Layers: l, Epochs: spec.Epochs, Seed: uint64(s), Split: k,
											Features: spec.FeaturesOf(d.Name).String(), PairNormAt: pairNormAt(spec, pn),
											SynthSeed: synthSeed, Heterophilic: hetero, Version: CodeVersion(m, form),
											GraphSHA256: in.graph, SplitRule: in.splitRule, SplitSeed: in.splitSeed}
										if m == string(rewire.Curvature) {
											key.Alpha = alpha
										}
										sum.Total++
										if done[key] {
											sum.Skipped++
											continue
										}
										done[key] = true // a grid never holds a run twice
										if len(g.runs[b]) == 0 {
											g.budgets = append(g.budgets, b)
										}
										g.runs[b] = append(g.runs[b], run{model, pn, l, uint64(s), k})
									}
								}
							}
						}
					}
				}
				if len(g.budgets) > 0 {
					groups = append(groups, g)
				}
			}
		}
	}
	return groups, nil
}

// pairNormAt is the PairNorm position of a run's key: the spec's with
// PairNorm, "" without.
func pairNormAt(spec *Spec, pairnorm bool) string {
	if !pairnorm {
		return ""
	}
	return spec.PairNormPosition().String()
}

// graphsOf returns the graph of every budget of the group: from the cache,
// or made by one rewiring run with the largest missing budget (and then
// cached). When ctx ends first it returns ctx's error at once, caching
// nothing: the run stops before its next iteration, or, still setting up
// its engine, is abandoned (definitions §7.3).
func graphsOf(ctx context.Context, gr *group, spec *Spec, alpha float64, c cache, workers int, sum *Summary, note func(string, ...any)) (map[float64]*Rewired, error) {
	g0 := gr.d.Graph
	if gr.form == Undirected {
		g0 = g0.Undirected()
	}
	out := map[float64]*Rewired{}
	if gr.method == None {
		out[0] = &Rewired{Graph: g0, E0: g0.E0()}
		return out, nil
	}
	key := func(b float64) GraphKey {
		k := GraphKey{Dataset: gr.d.Name, Form: gr.form, Method: gr.method, Budget: b, Version: CodeVersion(gr.method, gr.form),
			GraphSHA256: gr.in.graph}
		if gr.in.builtin {
			k.SynthSeed, k.Heterophilic = spec.SynthSeed, spec.Heterophilic
		}
		if gr.method == string(rewire.Curvature) {
			k.Alpha = alpha
		}
		return k
	}
	var missing []float64
	for _, b := range gr.budgets {
		if r := c.load(key(b), g0.N()); r != nil {
			out[b] = r
			sum.Cached++
		} else {
			missing = append(missing, b)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	bmax := slices.Max(missing)
	note("rewiring %s (%s) with %s, budget %g", gr.d.Name, gr.form, gr.method, bmax)
	cfg := rewire.Config{Method: rewire.Method(gr.method), Engine: rewire.Incremental, Workers: workers, Curvature: &rewire.CurvatureOptions{Alpha: alpha}}
	cfg.Context = ctx
	var cuts []*rewire.Result
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil { // a bug: an error, not a crash of the process
				cuts, err = nil, fmt.Errorf("internal error (please report it): %v\n%s", p, debug.Stack())
			}
		}()
		cuts, err = rewire.RunBudgets(g0, cfg, missing)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if ctx.Err() != nil {
		return nil, ctx.Err() // a rewiring cut short is not the graph of its budget
	}
	if err != nil {
		return nil, fmt.Errorf("rewire %s (%s) with %s: %w", gr.d.Name, gr.form, gr.method, err)
	}
	sum.Rewired++
	for i, b := range missing {
		p := cuts[i]
		r := &Rewired{Graph: p.Graph, Key: key(b), E0: p.E0, Iterations: p.Iterations, Added: p.Added, Removed: p.Removed,
			AddedNet: p.AddedNet, RemovedNet: p.RemovedNet, StoppedEarly: p.StoppedEarly, Seconds: p.Seconds}
		if err := c.store(r); err != nil {
			return nil, fmt.Errorf("cache: %w", err)
		}
		out[b] = r
	}
	return out, nil
}
