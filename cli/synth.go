package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/ohmgnn/ohm/internal/atomicfile"
	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/linalg/graphgen"
	"github.com/ohmgnn/ohm/linalg/graphio"
)

// dataSynthCmd is `ohm data synth`: a generated graph of any size as .npz.
type dataSynthCmd struct {
	Model        string  `required:"" enum:"sbm,rgg,ba,ring" placeholder:"sbm|rgg|ba|ring" help:"Generator: sbm (stochastic block model), rgg (random geometric graph), ba (Barabási–Albert), ring (ring of cliques)."`
	Nodes        int     `help:"Nodes (sbm, rgg, ba)." default:"10000"`
	AvgDegree    float64 `name:"avg-degree" help:"sbm, rgg: the expected mean degree (sets p_out, or the radius)." default:"10"`
	Blocks       int     `help:"sbm: blocks (the labels)." default:"4"`
	Homophily    float64 `help:"sbm: share of a node's expected edges inside its block." default:"0.8"`
	EdgesPerNode int     `name:"edges-per-node" help:"ba: edges of every new node." default:"5"`
	Cliques      int     `help:"ring: cliques." default:"8"`
	CliqueSize   int     `name:"clique-size" help:"ring: nodes per clique." default:"10"`
	Seed         uint64  `help:"Seed of the generator." default:"0"`
	Out          string  `required:"" short:"o" type:"path" placeholder:"FILE.npz" help:"Output .npz: edge_index (int64 2×E, both arcs of every edge), num_nodes, and y (int64 labels) for sbm and ring."`
}

// Run generates the graph and writes it. Time and memory O(n + m). Ctrl-C
// (SIGINT or SIGTERM) while it generates stops it at once, writing nothing.
func (c *dataSynthCmd) Run(g *Globals) error {
	if !strings.EqualFold(filepath.Ext(c.Out), ".npz") {
		return usagef("--out %s: synth writes .npz", c.Out)
	}
	if c.Nodes < 1 || c.AvgDegree <= 0 {
		return usagef("--nodes %d, --avg-degree %v: must be positive", c.Nodes, c.AvgDegree)
	}
	if c.Model == "sbm" && (!(c.Homophily >= 0 && c.Homophily <= 1) || c.Blocks < 1 || c.Blocks > c.Nodes) {
		return usagef("--homophily %v, --blocks %d: need [0, 1] and 1..nodes", c.Homophily, c.Blocks)
	}
	if err := checkOutput("--out", c.Out); err != nil {
		return err
	}
	ctx, release := interruptible(g, "stopping at once; nothing is written")
	defer release()
	prog := newStages(g, "data synth "+c.Model)
	if c.Model == "ring" {
		prog.stage(fmt.Sprintf("generating %d cliques of %d nodes", c.Cliques, c.CliqueSize))
	} else {
		prog.stage(fmt.Sprintf("generating %d nodes", c.Nodes))
	}
	var gr *graphgen.Graph
	var genErr error
	if err := untilInterrupted(ctx, func() error { gr, genErr = c.generate(); return nil }); err != nil {
		return interruptedf("nothing written to %s", c.Out)
	}
	if genErr != nil {
		var me *sysmem.Error
		if errors.As(genErr, &me) {
			return withMemoryFlags(genErr, c.sizeFlags())
		}
		return usagef("%v", genErr)
	}
	prog.stage(fmt.Sprintf("writing %s (%d edges)", c.Out, len(gr.Edges)))
	arrays := []*graphio.Array{}
	if gr.Labels != nil {
		y := make([]int64, len(gr.Labels))
		for i, l := range gr.Labels {
			y[i] = int64(l)
		}
		arrays = append(arrays, graphio.NewInt64Array("y", []int{len(y)}, y))
	}
	// Written in full beside --out first: an interrupt while it is written
	// still leaves --out as it was.
	out, err := atomicfile.StageContext(ctx, c.Out, func(w io.Writer) error {
		return graphio.EncodeGraphNPZ(ctxWriter{ctx, w}, gr.N, gr.Arcs(), arrays...)
	})
	if ctx.Err() != nil {
		if out != nil {
			out.Discard()
		}
		return interruptedf("nothing written to %s", c.Out)
	}
	if err != nil {
		return fmt.Errorf("--out %s: %w", c.Out, err)
	}
	if ctx.Err() != nil {
		out.Discard()
		return interruptedf("nothing written to %s", c.Out)
	}
	if err := out.Commit(); err != nil {
		return fmt.Errorf("--out %s: %w", c.Out, err)
	}
	prog.finish()
	if !g.Quiet {
		fmt.Fprintf(g.Stderr, "wrote %s: %s, %d nodes, %d edges\n", c.Out, c.Model, gr.N, len(gr.Edges))
	}
	return nil
}

// sizeFlags are the flags that size c.Model's graph.
func (c *dataSynthCmd) sizeFlags() string {
	switch c.Model {
	case "ring":
		return "--cliques, --clique-size"
	case "ba":
		return "--nodes, --edges-per-node"
	}
	return "--nodes, --avg-degree"
}

// generate makes the graph of c.Model.
func (c *dataSynthCmd) generate() (*graphgen.Graph, error) {
	switch c.Model {
	case "sbm":
		return graphgen.SBMByDegree(c.Nodes, c.Blocks, c.AvgDegree, c.Homophily, c.Seed)
	case "rgg":
		return graphgen.RGGByDegree(c.Nodes, c.AvgDegree, c.Seed)
	case "ba":
		return graphgen.BA(c.Nodes, c.EdgesPerNode, c.Seed)
	case "ring":
		return graphgen.RingOfCliques(c.Cliques, c.CliqueSize)
	}
	return nil, fmt.Errorf("unknown model %q", c.Model)
}
