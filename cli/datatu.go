package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ohmgnn/ohm/internal/atomicfile"

	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/model/dataset"
)

// TUInfo is the output of `ohm data info --json` for a TU dataset; its
// fields are stable.
type TUInfo struct {
	Dataset string `json:"dataset"`
	dataset.TUStats
}

// runTU describes a TU dataset: graphs, node and edge counts over them,
// features, classes, and the graphs rewiring has rules for.
func (c *dataInfoCmd) runTU(g *Globals) error {
	d, err := loadTU(g, c.Dataset, TUFlags{NodeAttr: c.NodeAttr, EdgeAttr: c.EdgeAttr})
	if err != nil {
		return err
	}
	info := TUInfo{Dataset: d.Name, TUStats: d.Stats()}
	if c.JSON {
		return writeJSON(g.Stdout, info)
	}
	spread := func(s dataset.SizeSpread) string {
		return fmt.Sprintf("min %d, mean %.2f, max %d", s.Min, s.Mean, s.Max)
	}
	tw := tabwriter.NewWriter(g.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "dataset\t%s (graph classification, TU)\n", info.Dataset)
	fmt.Fprintf(tw, "graphs\t%d\n", info.Graphs)
	fmt.Fprintf(tw, "nodes\t%d (per graph: %s)\n", info.TotalNodes, spread(info.Nodes))
	fmt.Fprintf(tw, "edges\t%d undirected, %d arcs (per graph: %s)\n", info.TotalArcs/2, info.TotalArcs, spread(info.Edges))
	fmt.Fprintf(tw, "features\t%d (edge features %d)\n", info.Features, info.EdgeFeatures)
	fmt.Fprintf(tw, "classes\t%d %v\n", info.Classes, info.ClassCounts)
	fmt.Fprintf(tw, "disconnected graphs\t%d\n", info.Disconnected)
	fmt.Fprintf(tw, "isolated nodes\t%d (in %d graphs)\n", info.IsolatedNodes, info.IsolatedGraphs)
	fmt.Fprintf(tw, "graphs without edges\t%d (of one node: %d)\n", info.NoEdgeGraphs, info.OneNodeGraphs)
	if info.AddedArcs > 0 {
		fmt.Fprintf(tw, "added arcs\t%d (edge_type 1)\n", info.AddedArcs)
	}
	return tw.Flush()
}

// tuListEntries are `ohm data list`'s lines of the TU datasets: those ohm
// has checksums of (MUTAG, ENZYMES, PROTEINS), found or not, and any other
// of dataset.TUNames found in the roots.
func tuListEntries(loc *dataset.Locator) []dataListEntry {
	var es []dataListEntry
	for _, name := range dataset.TUNames {
		root, missing := loc.FindTU(name)
		if root == "" && !dataset.TUChecked(name) {
			continue
		}
		e := dataListEntry{Dataset: strings.ToLower(name), Found: root != "", Root: root, Missing: []string{}, Searched: loc.Roots()}
		if missing != nil {
			e.Missing = missing
		}
		es = append(es, e)
	}
	return es
}

// exportTU writes a TU dataset as its collated archive (definitions §1.6,
// every arc edge_type 0), the layout `ohm rewire` writes; .npz only.
func exportTU(g *Globals, name, out string) error {
	if !graphio.IsNPZ(out) {
		return usagef("--out %s: a TU dataset is written as .npz (the collated dataset)", out)
	}
	d, err := loadTU(g, name, TUFlags{})
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(out, func(w io.Writer) error { return dataset.EncodeTUArchive(w, d) }); err != nil {
		return fmt.Errorf("export %s: %w", out, err)
	}
	if !g.Quiet {
		fmt.Fprintf(g.Stderr, "wrote %s: %d graphs, %d nodes, %d arcs, %d features, %d classes\n", out, d.Len(), d.TotalNodes(), len(d.Src), d.NumFeatures, d.NumClasses)
	}
	return nil
}
