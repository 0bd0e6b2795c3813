package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/rewire"
)

// resistanceCmd is `ohm resistance`.
type resistanceCmd struct {
	GraphFlags
	WithinComponents bool   `name:"within-components" help:"Undirected: admissible pairs only inside one connected component (default: all pairs, as the paper)."`
	Top              int    `help:"Also list the K most resistant admissible pairs." default:"0"`
	Pairs            string `type:"existingfile" placeholder:"FILE" help:"File of 'u v' lines: print R for each pair."`
	Engine           string `help:"auto (incremental when L⁺ fits in memory, else sketch), incremental, or sketch (undirected: the max pair and --top among the sketch's candidates, exact; the min edge among its kept edges; --pairs by one Laplacian solve each)." enum:"auto,incremental,sketch" default:"auto"`
	JSON             bool   `name:"json" help:"Print one JSON object (fields in docs/cli.md)."`
}

// PairR is one pair and its resistance; R is null (nil) for a directed pair
// in different strongly connected components.
type PairR struct {
	U int      `json:"u"`
	V int      `json:"v"`
	R *float64 `json:"r"`
}

// ResistanceOut is the output of `ohm resistance --json`; its fields are
// stable.
type ResistanceOut struct {
	Dataset    string  `json:"dataset"` // dataset name, or the graph file's base name
	Form       string  `json:"form"`    // "undirected" or "directed"
	Nodes      int     `json:"nodes"`
	Components int     `json:"components"`
	MaxPair    *PairR  `json:"max_pair"`
	MinEdge    *PairR  `json:"min_edge"`
	Top        []PairR `json:"top"`
	Pairs      []PairR `json:"pairs"`
	Seconds    float64 `json:"seconds"`
}

// Run computes the resistances. Ctrl-C (SIGINT or SIGTERM) stops it at
// once, printing nothing.
func (c *resistanceCmd) Run(g *Globals) error {
	if c.WithinComponents && c.Directed {
		return usagef("--within-components: applies to undirected graphs; directed pairs are always taken inside one strongly connected component")
	}
	if err := (rewire.EngineSpec{Kind: rewire.EngineKind(c.Engine)}).Check(c.Directed); err != nil {
		return configUsage(err, map[rewire.Field]string{rewire.FieldEngine: "--engine"})
	}
	if c.Top < 0 {
		return usagef("--top %d: must be ≥ 0", c.Top)
	}
	ctx, release := interruptible(g, "stopping at once; nothing is printed")
	defer release()
	gr, name, err := c.LoadGraph(g)
	if err != nil {
		return err
	}
	var out *ResistanceOut
	err = untilInterrupted(ctx, func() error {
		var err error
		out, err = c.compute(g, gr, name)
		return err
	})
	if ctx.Err() != nil {
		return interruptedf("nothing printed")
	}
	if err != nil {
		return err
	}
	if c.JSON {
		return writeJSON(g.Stdout, out)
	}
	return printResistance(g, name, gr, out)
}

// compute computes what Run prints; it writes nothing to standard output.
func (c *resistanceCmd) compute(g *Globals, gr *linalg.Graph, name string) (*ResistanceOut, error) {
	var err error
	var pairs []linalg.Edge
	if c.Pairs != "" {
		if _, pairs, err = graphio.ReadEdgeList(c.Pairs, gr.N()); err != nil {
			return nil, fmt.Errorf("--pairs: %w", err)
		}
	}
	t0 := time.Now()
	spec, why := rewire.EngineSpec{Kind: rewire.EngineKind(c.Engine), Removes: true, WithinComponents: c.WithinComponents, Workers: g.Workers()}.Resolve(gr)
	if why != "" && !g.Quiet {
		fmt.Fprintln(g.Stderr, why)
	}
	collectForSketch(spec.Kind)
	prog := newStages(g, "resistance "+name)
	if spec.Kind == rewire.Sketch {
		prog.stage(fmt.Sprintf("building the resistance sketch of %s nodes", groupDigits(gr.N())))
	} else {
		prog.stage(fmt.Sprintf("computing L⁺ of %s nodes", groupDigits(gr.N())))
	}
	eng, err := rewire.NewEngine(gr, spec)
	if err != nil {
		return nil, configUsage(err, map[rewire.Field]string{rewire.FieldEngine: "--engine"})
	}
	solver, _ := eng.(incremental.PairSolver)
	r := func(i, j int) (float64, bool) {
		if c.WithinComponents && !eng.SameBlock(i, j) {
			return 0, false
		}
		if solver != nil {
			v, err := solver.SolveResistance(i, j)
			return v, err == nil
		}
		return eng.Resistance(i, j)
	}
	_, count := tarjan.SCC(gr) // the connected components when undirected
	form := "undirected"
	if gr.Directed() {
		form = "directed"
	}
	out := ResistanceOut{Dataset: name, Form: form, Nodes: gr.N(), Components: count, Top: []PairR{}, Pairs: []PairR{}}
	prog.stage("ranking pairs")
	if p, ok := eng.MaxPair(); ok {
		out.MaxPair = pairR(p)
	}
	if p, ok := eng.MinEdge(nil); ok {
		out.MinEdge = pairR(p)
	}
	top := func() []incremental.Pair {
		if t, ok := eng.(incremental.TopRanker); ok {
			return t.Top(c.Top)
		}
		return incremental.Top(gr.N(), c.Top, gr.Directed(), r)
	}
	for _, p := range top() {
		out.Top = append(out.Top, *pairR(p))
	}
	if len(pairs) > 0 {
		prog.stage(fmt.Sprintf("%d pairs of --pairs", len(pairs)))
	}
	for _, p := range pairs {
		pr := PairR{U: p.U, V: p.V}
		if v, ok := r(p.U, p.V); ok || p.U == p.V {
			if p.U == p.V {
				v = 0
			}
			pr.R = &v
		}
		out.Pairs = append(out.Pairs, pr)
	}
	out.Seconds = time.Since(t0).Seconds()
	prog.finish()
	return &out, nil
}

func pairR(p incremental.Pair) *PairR {
	s := p.Score
	return &PairR{U: p.U, V: p.V, R: &s}
}

func printResistance(g *Globals, name string, gr *linalg.Graph, out *ResistanceOut) error {
	form, comp := "undirected", "component"
	if gr.Directed() {
		form, comp = "directed", "SCC"
	}
	tw := tabwriter.NewWriter(g.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "graph\t%s (%s), %s, %s\n", name, form, plural(out.Nodes, "node"), plural(out.Components, comp))
	show := func(label string, p *PairR) {
		if p == nil {
			fmt.Fprintf(tw, "%s\tnone\n", label)
			return
		}
		fmt.Fprintf(tw, "%s\t%d %d  R = %s\n", label, p.U, p.V, fmtR(p.R))
	}
	show("max pair", out.MaxPair)
	show("min edge", out.MinEdge)
	for k, p := range out.Top {
		show(fmt.Sprintf("top %d", k+1), &p)
	}
	for _, p := range out.Pairs {
		show("pair", &p)
	}
	fmt.Fprintf(tw, "seconds\t%.3f\n", out.Seconds)
	return tw.Flush()
}

func fmtR(r *float64) string {
	if r == nil {
		return "none (different SCCs)"
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.12f", *r), "0"), ".")
}
