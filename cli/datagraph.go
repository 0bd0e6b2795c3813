package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/model/dataset"
)

// graphOnlyArchive reports whether err, the failure to read path as a
// dataset archive, is that path is an .npz graph without node data: it
// holds edge_index and num_nodes but not x or y (what ohm rewire --out and
// ohm data synth write).
func graphOnlyArchive(path string, err error) bool {
	var fe *graphio.FormatError
	if !graphio.IsNPZ(path) || !errors.As(err, &fe) || !strings.HasPrefix(fe.Msg, "missing array ") ||
		(fe.Member != dataset.KeyX+".npy" && fe.Member != dataset.KeyY+".npy") {
		return false
	}
	z, zerr := graphio.OpenNPZ(path)
	if zerr != nil {
		return false
	}
	defer z.Close()
	return z.Has(graphio.KeyEdgeIndex) && z.Has(graphio.KeyNumNodes)
}

// describeGraphFile is `ohm data info` on a graph file without node data:
// the graph's counts as for a dataset (no features, classes or splits) and
// the arrays the file holds, with their shapes. O(n + m).
func (c *dataInfoCmd) describeGraphFile(g *Globals) error {
	z, err := graphio.OpenNPZ(c.Dataset)
	if err != nil {
		return fmt.Errorf("--dataset: %w", err)
	}
	var arrays []string
	for _, m := range z.Members() {
		key := strings.TrimSuffix(m, ".npy")
		a, err := z.Array(key)
		if err != nil {
			z.Close()
			return fmt.Errorf("--dataset: %w", err)
		}
		arrays = append(arrays, key+" "+a.ShapeString())
	}
	z.Close()
	n, arcs, err := graphio.ReadNPZ(c.Dataset)
	if err != nil {
		return fmt.Errorf("--dataset: %w", err)
	}
	gr, err := linalg.FromEdges(n, true, arcs)
	if err != nil {
		return fmt.Errorf("--dataset: %s: %w", c.Dataset, err)
	}
	if !c.Directed {
		gr = gr.Undirected()
	}
	name := strings.TrimSuffix(filepath.Base(c.Dataset), filepath.Ext(c.Dataset))
	comps, count := tarjan.SCC(gr) // the connected components when undirected
	sizes := make([]int, count)
	for _, c := range comps {
		sizes[c]++
	}
	info := DataInfo{Dataset: name, Form: c.form(), Nodes: gr.N(), Edges: gr.E0(), SelfLoops: gr.NumSelfLoops(),
		ClassCounts: []int{}, Components: count, LargestComponent: slices.Max(append(sizes, 0)), Arrays: arrays}
	if c.JSON {
		return writeJSON(g.Stdout, info)
	}
	comp := "components"
	if gr.Directed() {
		comp = "SCCs"
	}
	tw := tabwriter.NewWriter(g.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "graph\t%s (%s): a graph file without node data (no x, y)\n", info.Dataset, info.Form)
	fmt.Fprintf(tw, "arrays\t%s\n", strings.Join(arrays, ", "))
	fmt.Fprintf(tw, "nodes\t%d\n", info.Nodes)
	fmt.Fprintf(tw, "edges (E0)\t%d (self-loops %d)\n", info.Edges, info.SelfLoops)
	fmt.Fprintf(tw, "%s\t%d (largest %d)\n", comp, info.Components, info.LargestComponent)
	fmt.Fprintf(tw, "use\tas --graph FILE: ohm resistance, rewire, curvature; ohm train --dataset NAME --graph FILE (features and labels from NAME)\n")
	return tw.Flush()
}
