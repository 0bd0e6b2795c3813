package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ohmgnn/ohm/internal/atomicfile"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/diagnose"
	"github.com/ohmgnn/ohm/model/gnn"
	"github.com/ohmgnn/ohm/model/sweep"
	"github.com/ohmgnn/ohm/rewire"
	"github.com/ohmgnn/ohm/rewire/curvature"
)

// methodNone names the original graph in --methods of `ohm diagnose`.
const methodNone = diagnose.MethodNone

// diagnoseCmd is `ohm diagnose`: representation diagnostics (definitions §5) of
// models trained on the original and on rewired graphs.
type diagnoseCmd struct {
	Datasets   commaList `required:"" help:"Comma-separated datasets: cora, citeseer, cornell, texas, bottleneck, ring, sbm."`
	Methods    commaList `required:"" help:"Comma-separated graphs to train on: none (the original graph), res, res-hop, err, err-hop, curvature."`
	Budget     float64   `required:"" short:"r" placeholder:"FRACTION" help:"Rewiring budget r in (0, 1]: B = floor(r·E0) iterations."`
	Depths     commaList `required:"" help:"Comma-separated model depths L ≥ 1."`
	Directed   bool      `help:"Use the directed form and DirGCN (default: the undirected form and GCN)."`
	Seed       uint64    `default:"0" help:"First seed: models are trained with seeds SEED … SEED+N−1 (each also seeds its cosine pair sample)."`
	Seeds      int       `default:"5" help:"Number N ≥ 1 of seeds per model; every diagnostic is their mean ± population std."`
	Split      int       `default:"0" help:"Split K (0-based) to train on; its training nodes fit the probes, its test nodes score them."`
	Alpha      float64   `default:"0.5" help:"curvature: laziness α of the measures, in [0, 1]."`
	PairNorm   commaList `name:"pairnorm" default:"no" help:"Comma-separated PairNorm settings to train every model with: no, yes (the paper's figures have both: no,yes)."`
	PairNormAt string    `name:"pairnorm-at" placeholder:"pre|post" help:"Where PairNorm sits: pre or post the ReLU (default: definitions §4.2)."`
	Features   string    `name:"features" placeholder:"row|raw" help:"Node features: row (row-normalised) or raw (as loaded). Default: each dataset family's (definitions §4.3)."`
	Out        string    `default:"." short:"o" type:"path" placeholder:"DIR" help:"Folder to write diagnostics.json to (must exist)."`
	JSON       bool      `name:"json" help:"Print the diagnostics JSON instead of the text summary."`
}

// diagnoseSpec is what `ohm diagnose` computes; runDiagnostics checks it.
// Methods are "none" (the original graph) and rewire's methods; Depths are
// model depths L ≥ 1; Split indexes the dataset's splits; Alpha is the
// curvature baseline's laziness.
type diagnoseSpec struct {
	Datasets []string
	Methods  []string
	Budget   float64
	Depths   []int
	Directed bool
	Seed     uint64
	Seeds    int // number of seeds from Seed on (0 means 1)
	Split    int
	Alpha    float64
	// PairNorm lists the settings trained (nil: without only); PairNormAt
	// and Features are "" for the defaults (definitions §4.2–4.3).
	PairNorm   []bool
	PairNormAt string
	Features   string
}

// diagnosticsFile is the name of the file `ohm diagnose` writes in --out.
const diagnosticsFile = "diagnostics.json"

// spec parses the flags into a diagnoseSpec (checked by runDiagnostics).
func (c *diagnoseCmd) spec() (diagnoseSpec, error) {
	s := diagnoseSpec{Budget: c.Budget, Directed: c.Directed, Seed: c.Seed, Seeds: c.Seeds, Split: c.Split, Alpha: c.Alpha,
		PairNormAt: c.PairNormAt, Features: c.Features}
	if c.Seeds < 1 {
		return s, usagef("--seeds %d: must be ≥ 1", c.Seeds)
	}
	var err error
	if s.PairNorm, err = sweep.ParseBools("pairnorm", c.PairNorm); err != nil {
		return s, flagError(err)
	}
	s.Datasets, s.Methods = c.Datasets, c.Methods // checked by commaList
	for _, d := range c.Depths {
		L, err := strconv.Atoi(d)
		if err != nil {
			return s, usagef("--depths: %q is not an integer", d)
		}
		s.Depths = append(s.Depths, L)
	}
	return s, nil
}

// Run checks the flags and --out, computes the diagnostics, writes
// DIR/diagnostics.json atomically and prints the summary (or the JSON).
// Ctrl-C (SIGINT or SIGTERM) lets the trainings in flight finish and writes
// nothing: every diagnostic averages all the seeds of its models, and a
// diagnostics.json of part of them would pass for the whole.
func (c *diagnoseCmd) Run(g *Globals) error {
	spec, err := c.spec()
	if err != nil {
		return err
	}
	if _, err := spec.check(); err != nil {
		return err
	}
	if err := checkOutputIn("--out", c.Out, diagnosticsFile, false); err != nil {
		return err
	}
	ctx, release := interruptible(g, "stopping now; nothing is written")
	defer release()
	// Nothing of an interrupted diagnosis is written, so nothing is
	// finished: the command stops at once (definitions §7.3).
	var diag *diagnose.Diagnostics
	err = untilInterrupted(ctx, func() error {
		var err error
		diag, err = runDiagnostics(ctx, g, spec)
		return err
	})
	if ctx.Err() != nil {
		return interruptedf("nothing written to %s", filepath.Join(c.Out, diagnosticsFile))
	}
	if err != nil {
		return err
	}
	path := filepath.Join(c.Out, diagnosticsFile)
	if err := atomicfile.WriteFile(path, func(w io.Writer) error { return writeJSON(w, diag) }); err != nil {
		return fmt.Errorf("--out %s: %w", path, err)
	}
	if !g.Quiet {
		fmt.Fprintf(g.Stderr, "wrote %s\n", path)
	}
	if c.JSON {
		return writeJSON(g.Stdout, diag)
	}
	return printDiagnostics(g.Stdout, spec, diag)
}

// check validates spec and returns it normalised (lower-case names); every
// problem is a usage error (exit status 2).
func (s diagnoseSpec) check() (diagnoseSpec, error) {
	out := s
	out.Datasets, out.Methods = nil, nil
	if len(s.Datasets) == 0 {
		return s, usagef("--datasets: empty list")
	}
	known := dataset.Names()
	for _, n := range s.Datasets {
		l := strings.ToLower(strings.TrimSpace(n))
		if !slices.Contains(known, l) {
			return s, usagef("--datasets: unknown dataset %q (known: %s)", n, strings.Join(known, ", "))
		}
		if slices.Contains(out.Datasets, l) {
			return s, usagef("--datasets: %s given twice", l)
		}
		out.Datasets = append(out.Datasets, l)
	}
	if len(s.Methods) == 0 {
		return s, usagef("--methods: empty list")
	}
	for _, m := range s.Methods {
		l := strings.ToLower(strings.TrimSpace(m))
		if l != methodNone {
			pm, err := rewire.ParseMethod(l)
			if err != nil {
				return s, usagef("--methods: %v (or %s for the original graph)", err, methodNone)
			}
			l = string(pm)
		}
		if slices.Contains(out.Methods, l) {
			return s, usagef("--methods: %s given twice", l)
		}
		out.Methods = append(out.Methods, l)
	}
	if !(s.Budget > 0 && s.Budget <= 1) {
		return s, usagef("--budget %v: must lie in (0, 1] (a fraction of E0, e.g. 0.05)", s.Budget)
	}
	if len(s.Depths) == 0 {
		return s, usagef("--depths: empty list")
	}
	for i, L := range s.Depths {
		if L < 1 {
			return s, usagef("--depths: depth %d must be ≥ 1", L)
		}
		if slices.Contains(s.Depths[:i], L) {
			return s, usagef("--depths: %d given twice", L)
		}
	}
	if s.Split < 0 {
		return s, usagef("--split %d: must be ≥ 0", s.Split)
	}
	if s.Seeds < 0 {
		return s, usagef("--seeds %d: must be ≥ 1", s.Seeds)
	}
	if err := curvature.ValidateAlpha(s.Alpha); err != nil {
		return s, usagef("--alpha %v: must lie in [0, 1]", s.Alpha)
	}
	for i, pn := range s.PairNorm {
		if slices.Contains(s.PairNorm[:i], pn) {
			return s, usagef("--pairnorm: %s given twice", map[bool]string{false: "no", true: "yes"}[pn])
		}
	}
	if s.PairNormAt != "" {
		if _, err := gnn.ParsePairNormAt(s.PairNormAt); err != nil {
			return s, usagef("--pairnorm-at: %v", err)
		}
	}
	if s.Features != "" {
		if _, err := gnn.ParseFeatures(s.Features); err != nil {
			return s, usagef("--features: %v", err)
		}
	}
	return out, nil
}

// runDiagnostics computes the diagnostics of definitions §5 for spec: for each
// dataset (loaded by g's locator, built-in ones with their default options)
// it takes the undirected form with GCN (directed: the arcs with DirGCN),
// rewires it with each method (none: the original graph; rewire.Run with
// spec.Budget, spec.Alpha for curvature and g.Workers() workers) and hands
// the graphs to diagnose.RunAll, which trains one model per (method, depth,
// seed) — seeds spec.Seed … spec.Seed+spec.Seeds−1 (at least one), split
// spec.Split — and averages cosines, probes and the CKA against curvature
// over the seeds. The added edges of a rewiring are the pairs its edit log
// adds (undirected as U < V, directed as arcs; an edge added and later
// removed counts as added).
//
// Entries come in the order dataset, method, depth, layer as given; the
// result does not depend on g.Workers(). A progress bar counts the
// trainings (see progress). Errors in spec are usage errors (exit
// status 2 from the CLI), as is a split the dataset does not have.
func runDiagnostics(ctx context.Context, g *Globals, spec diagnoseSpec) (*diagnose.Diagnostics, error) {
	spec, err := spec.check()
	if err != nil {
		return nil, err
	}
	kind := gnn.GCN
	if spec.Directed {
		kind = gnn.DirGCN
	}
	// Load every dataset first: a missing file fails before any work.
	ds := make([]*dataset.Dataset, len(spec.Datasets))
	for i, name := range spec.Datasets {
		if ds[i], err = g.locator().Load(name, dataset.SynthOptions{}); err != nil {
			return nil, err
		}
		if spec.Split >= len(ds[i].Splits) {
			return nil, usagef("--split %d: %s has %s, 0..%d", spec.Split, ds[i].Name, plural(len(ds[i].Splits), "split"), len(ds[i].Splits)-1)
		}
	}
	seeds := make([]uint64, max(1, spec.Seeds))
	for i := range seeds {
		seeds[i] = spec.Seed + uint64(i)
	}
	b := newProgress(g, "diagnose", len(ds)*len(spec.Methods)*len(spec.Depths)*len(seeds)*max(1, len(spec.PairNorm)), "trainings")
	defer b.finish()
	plan := diagnose.Plan{
		Methods: spec.Methods,
		Rewire: func(d *dataset.Dataset, gr *linalg.Graph, m string) (*linalg.Graph, []linalg.Edge, error) {
			b.stage(fmt.Sprintf("%s: rewiring %s", d.Name, m))
			res, err := rewire.Run(gr, rewire.Config{Method: rewire.Method(m), Budget: spec.Budget, Engine: rewire.Incremental, Workers: g.Workers(),
				Curvature: &rewire.CurvatureOptions{Alpha: spec.Alpha}, Context: ctx})
			if err != nil {
				return nil, nil, err
			}
			return res.Graph, res.AddedEdges(), nil
		},
		OnTraining: func(d *dataset.Dataset) { b.stage(fmt.Sprintf("%s: training", d.Name)) },
	}
	dspec := diagnose.Spec{Kind: kind, Depths: spec.Depths, Seeds: seeds, PairNorm: spec.PairNorm,
		Split: spec.Split, Budget: spec.Budget, Workers: g.Workers(), Reference: string(rewire.Curvature),
		OnTrained: func() { b.add(1) }, Context: ctx, DefaultFeatures: spec.Features == ""}
	dspec.Features, _ = gnn.ParseFeatures(spec.Features)
	dspec.PairNormAt = gnn.DefaultPairNormAt
	if spec.PairNormAt != "" {
		dspec.PairNormAt, _ = gnn.ParsePairNormAt(spec.PairNormAt)
	}
	return diagnose.RunAll(ds, plan, dspec)
}

// printDiagnostics writes the text summary: per dataset, one line per
// (method, depth) with the last layer's cosines, the probe accuracies by
// layer and the CKA with curvature; then the edge overlap.
func printDiagnostics(w io.Writer, spec diagnoseSpec, diag *diagnose.Diagnostics) error {
	spec, _ = spec.check()
	form, model := "undirected", "gcn"
	if spec.Directed {
		form, model = "directed", "dirgcn"
	}
	for di, name := range spec.Datasets {
		if di > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s (%s, %s), budget %g, seeds %d–%d (mean ± std), split %d\n", name, form, model, spec.Budget,
			spec.Seed, spec.Seed+uint64(max(1, spec.Seeds))-1, spec.Split)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "method\tL\tcos same\tcos diff\tprobe acc, layers 1..L-1\tcka vs curvature")
		for _, m := range spec.Methods {
			for _, L := range spec.Depths {
				same, diff := "-", "-"
				for _, c := range diag.Cosine {
					if c.Dataset == name && c.Method == m && c.Depth == L && c.Layer == L {
						same, diff = pm(c.Same, c.SameStd), pm(c.Diff, c.DiffStd)
					}
				}
				var probes []string
				for _, p := range diag.Probe {
					if p.Dataset == name && p.Method == m && p.Depth == L {
						probes = append(probes, pm(p.Acc, p.AccStd))
					}
				}
				pr := "-"
				if len(probes) > 0 {
					pr = strings.Join(probes, " ")
				}
				cka := "-"
				for _, c := range diag.CKA {
					if c.Dataset == name && c.Method == m && c.Depth == L {
						cka = pm(c.CKA, c.CKAStd)
					}
				}
				fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", m, L, same, diff, pr, cka)
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, o := range diag.Overlap {
			if o.Dataset != name {
				continue
			}
			fmt.Fprintln(w, "\nadded edges: size and Jaccard index")
			tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "method\tadded\t%s\n", strings.Join(o.Methods, "\t"))
			for i, m := range o.Methods {
				js := make([]string, len(o.Methods))
				for k, v := range o.Jaccard[i] {
					js[k] = fmt.Sprintf("%.3f", v)
				}
				fmt.Fprintf(tw, "%s\t%d\t%s\n", m, o.Sizes[i], strings.Join(js, "\t"))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			var ex []string
			for _, in := range o.Exclusive {
				if in.Count > 0 {
					ex = append(ex, fmt.Sprintf("%s %d", strings.Join(in.Methods, "+"), in.Count))
				}
			}
			if len(ex) > 0 {
				fmt.Fprintf(w, "only by: %s\n", strings.Join(ex, ", "))
			}
		}
	}
	return nil
}

// pm formats a mean and its std to three decimals: "0.812±0.013".
func pm(m, s float64) string { return fmt.Sprintf("%.3f±%.3f", m, s) }
