package cli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/ohmgnn/ohm/internal/atomicfile"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/rewire"
)

// statsCmd is `ohm stats`.
type statsCmd struct {
	Datasets         commaList `default:"cora,citeseer,cornell,texas" help:"Comma-separated datasets: cora, citeseer, cornell, texas, bottleneck, ring, sbm."`
	Budgets          commaList `default:"0.01,0.05,0.1,0.15" help:"Comma-separated budgets r in (0, 1]."`
	Methods          commaList `default:"res,res-hop,err,err-hop" help:"Comma-separated methods: res, res-hop, err, err-hop, curvature, gtr, fosr."`
	Alpha            float64   `default:"0.5" help:"curvature: laziness α of the measures, in [0, 1]."`
	Directed         bool      `help:"Use the directed form of every dataset."`
	WithinComponents bool      `name:"within-components" help:"Undirected: admissible pairs only inside one connected component."`
	Engine           string    `help:"auto, incremental, exact or sketch (as ohm rewire --engine)." default:"auto"`
	SynthSeed        uint64    `name:"synth-seed" help:"Seed of the built-in synthetic datasets." default:"0"`
	Heterophilic     bool      `help:"Built-in sbm: heterophilic instead of homophilic."`
	JSON             bool      `name:"json" help:"Print a JSON array of the run summaries (the fields of rewire --json)."`
	Markdown         string    `type:"path" placeholder:"FILE.md" help:"Also write the table to this file (atomically), e.g. with --json on standard output."`
}

// statsPlan is what the flags ask for, checked: canonical dataset names,
// methods and budgets in the order given, and for each method the
// configuration of its run with the largest budget.
type statsPlan struct {
	datasets []string
	methods  []rewire.Method
	budgets  []float64
	cfgs     map[rewire.Method]rewire.Config // largest budget
}

func (c *statsCmd) plan() (*statsPlan, error) {
	p := &statsPlan{cfgs: map[rewire.Method]rewire.Config{}}
	names := c.Datasets // checked by commaList
	known := dataset.Names()
	for _, n := range names {
		l := strings.ToLower(n)
		if !slices.Contains(known, l) {
			return nil, usagef("--datasets: unknown dataset %q (known: %s)", n, strings.Join(known, ", "))
		}
		if slices.Contains(p.datasets, l) {
			return nil, usagef("--datasets: %s given twice", l)
		}
		p.datasets = append(p.datasets, l)
	}
	bs := c.Budgets // checked by commaList
	for _, s := range bs {
		r, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, usagef("--budgets: %q is not a number", s)
		}
		if !(r > 0 && r <= 1) {
			return nil, usagef("--budgets: %s outside (0, 1] (a fraction of E0, e.g. 0.05)", s)
		}
		if slices.Contains(p.budgets, r) {
			return nil, usagef("--budgets: %s given twice", s)
		}
		p.budgets = append(p.budgets, r)
	}
	ms := c.Methods // checked by commaList
	for _, s := range ms {
		m, err := rewire.ParseMethod(s)
		if err != nil {
			return nil, usagef("--methods: %v", err)
		}
		if slices.Contains(p.methods, m) {
			return nil, usagef("--methods: %s given twice", m)
		}
		p.methods = append(p.methods, m)
		cfg, err := rewireConfig(string(m), slices.Max(p.budgets), 0, c.WithinComponents, c.Directed, c.Engine, 0, c.Alpha)
		if err != nil {
			return nil, err
		}
		p.cfgs[m] = cfg
	}
	return p, nil
}

// statsDataset is one loaded dataset and its summaries, indexed
// [method][budget].
type statsDataset struct {
	name  string
	graph *linalg.Graph
	sums  [][]RewireSummary
}

// Run rewires every dataset with every method and reports the realized edits
// per budget. Each (dataset, method) is rewired once, with the largest
// budget: a run never looks at its budget except to stop, so the run with
// budget B is exactly the first B iterations of a longer one, and its counts
// are read off the longer run's log. The first Ctrl-C (SIGINT or SIGTERM)
// stops the rewiring in flight after its iteration in flight and starts no
// other: the table (and --markdown) then holds the rewirings made, the one
// stopped with its iterations made, and the command fails saying so.
func (c *statsCmd) Run(g *Globals) error {
	p, err := c.plan()
	if err != nil {
		return err
	}
	if err := checkOutput("--markdown", c.Markdown); err != nil {
		return err
	}
	ctx, release := interruptible(g, "finishing the iteration in flight, then writing the table of what was made")
	defer release()
	// Load everything first: a missing file fails before hours of work.
	var ds []*statsDataset
	total := 0
	for _, name := range p.datasets {
		df := DatasetFlags{Dataset: name, Directed: c.Directed, SynthSeed: c.SynthSeed, Heterophilic: c.Heterophilic}
		d, gr, err := df.Load(g)
		if err != nil {
			return err
		}
		ds = append(ds, &statsDataset{name: d.Name, graph: gr})
		for _, m := range p.methods {
			total += rewire.Budget(p.cfgs[m].Budget, gr.E0())
		}
	}
	bar := newProgress(g, "stats", total, "iterations")
	defer bar.finish()
	nruns, k := len(ds)*len(p.methods), 0
	for _, d := range ds {
		d.sums = make([][]RewireSummary, len(p.methods))
		for mi, m := range p.methods {
			if ctx.Err() != nil {
				break // not started: its cells stay empty
			}
			k++
			cfg := p.cfgs[m]
			cfg.Context = ctx
			sums, err := statsRun(d.name, d.graph, cfg, p.budgets, g.Workers(), bar, fmt.Sprintf("%s %s (%d/%d)", d.name, m, k, nruns))
			if err != nil {
				return err
			}
			d.sums[mi] = sums
		}
	}
	bar.finish()
	if k == 0 && ctx.Err() != nil {
		return interruptedf("before the first rewiring; nothing written")
	}
	if err := c.writeTables(g, ds, p); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return interruptedf("stopped in rewiring %d of %d (after its iteration in flight); the table holds what was made, – where nothing was", k, nruns)
	}
	return nil
}

// writeTables writes --markdown and the table (or the JSON) on standard
// output.
func (c *statsCmd) writeTables(g *Globals, ds []*statsDataset, p *statsPlan) error {
	if c.Markdown != "" {
		if err := atomicfile.WriteFile(c.Markdown, func(w io.Writer) error { return writeStatsTable(w, ds, p, c.Directed) }); err != nil {
			return fmt.Errorf("--markdown: %w", err)
		}
	}
	if c.JSON {
		all := []RewireSummary{}
		for _, d := range ds {
			for _, s := range d.sums {
				all = append(all, s...) // none for a rewiring not made
			}
		}
		return writeJSON(g.Stdout, all)
	}
	return writeStatsTable(g.Stdout, ds, p, c.Directed)
}

// statsRun rewires gr with cfg once, at the largest budget
// (rewire.RunBudgets), and returns the summary of the run with
// each budget, as `ohm rewire` would report it; seconds is the time until
// that run's last iteration.
func statsRun(name string, gr *linalg.Graph, cfg rewire.Config, budgets []float64, workers int, b *progress, label string) ([]RewireSummary, error) {
	cfg.Workers = workers
	// The set-up (L⁺) is the stage until the first iteration.
	whole := cfg
	whole.Budget = slices.Max(budgets)
	if p, err := rewire.NewPlan(gr, whole); err == nil {
		b.stage(label + ": " + setupStage(p))
	} else {
		b.stage(label)
	}
	done := 0
	cfg.OnIteration = func(int, *linalg.Graph, []rewire.Edit) {
		if done == 0 {
			b.describe(label)
		}
		done++
		b.add(1)
	}
	cuts, err := rewire.RunBudgets(gr, cfg, budgets)
	if err != nil {
		return nil, fmt.Errorf("rewire %s with %s: %w", name, cfg.Method, err)
	}
	b.add(rewire.Budget(slices.Max(budgets), gr.E0()) - done) // stopped early: the bar skips what is left
	out := make([]RewireSummary, len(budgets))
	for i, r := range budgets {
		c := cfg
		c.Budget = r
		out[i] = summarize(name, c, gr.Directed(), cuts[i])
	}
	return out, nil
}

// writeStatsTable prints the realized-edits table of the paper's appendix:
// a line with every dataset's E0, then one Markdown row per (method, budget)
// with, per dataset, the edges added and removed and their percentages of
// E0; runs that stopped early are listed below.
func writeStatsTable(w io.Writer, ds []*statsDataset, p *statsPlan, directed bool) error {
	form := "undirected"
	if directed {
		form = "directed"
	}
	var e0 []string
	for _, d := range ds {
		e0 = append(e0, fmt.Sprintf("%s %d", d.name, d.graph.E0()))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "E0 (%s): %s\n\n", form, strings.Join(e0, ", "))
	b.WriteString("| method | budget |")
	for _, d := range ds {
		fmt.Fprintf(&b, " %s added | %s removed |", d.name, d.name)
	}
	b.WriteString("\n|---|---:|")
	for range ds {
		b.WriteString("---:|---:|")
	}
	b.WriteString("\n")
	var notes []string
	for mi, m := range p.methods {
		for bi, r := range p.budgets {
			fmt.Fprintf(&b, "| %s | %s |", m, strconv.FormatFloat(r, 'g', -1, 64))
			for _, d := range ds {
				if d.sums[mi] == nil {
					b.WriteString(" – | – |") // not made: interrupted before
					continue
				}
				s := d.sums[mi][bi]
				fmt.Fprintf(&b, " %s | %s |", editCell(s.Added, s.AddedPct, s.AddedNet, s.AddedNetPct),
					editCell(s.Removed, s.RemovedPct, s.RemovedNet, s.RemovedNetPct))
				if s.StoppedEarly != nil {
					notes = append(notes, fmt.Sprintf("%s %s %s: %s", d.name, m, strconv.FormatFloat(r, 'g', -1, 64), *s.StoppedEarly))
				}
			}
			b.WriteString("\n")
		}
	}
	if len(notes) > 0 {
		b.WriteString("\nStopped early:\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// editCell renders a realized-edits cell: the operations made and, after a
// slash, the net change of the edge set, each with its percentage of E0.
func editCell(ops int, opsPct float64, net int, netPct float64) string {
	return fmt.Sprintf("%d (%.1f%%) / %d (%.1f%%)", ops, opsPct, net, netPct)
}
