package cli

import (
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

// dataCmd groups the dataset commands.
type dataCmd struct {
	List   dataListCmd   `cmd:"" help:"List every dataset and where its files were found, or what is missing (and files whose size differs from the known one)."`
	Verify dataVerifyCmd `cmd:"" help:"Re-hash every file of the datasets found against the SHA-256 ohm knows; fails naming each file that differs."`
	Info   dataInfoCmd   `cmd:"" help:"Describe a dataset: nodes, edges (E0), components, features, classes, split sizes."`
	Export dataExportCmd `cmd:"" help:"Write a dataset as .npz (edge_index, num_nodes, x, y, train_mask, val_mask, test_mask: all that training needs, readable by numpy/PyG and by 'ohm sweep --graph'), or its graph only as an edge list (.txt)."`
	Synth  dataSynthCmd  `cmd:"" help:"Generate a graph of any size (sbm, rgg, ba, ring of cliques) as .npz, in time and memory linear in its size."`
}

// dataListCmd is `ohm data list`.
type dataListCmd struct {
	JSON bool `name:"json" help:"Print a JSON array of {dataset, builtin, found, root, missing, size_differs, searched}."`
}

type dataListEntry struct {
	Dataset string   `json:"dataset"`
	Builtin bool     `json:"builtin"`
	Found   bool     `json:"found"`
	Root    string   `json:"root"`
	Missing []string `json:"missing"`
	// SizeDiffers lists the files found whose size is not the known one,
	// "PATH: N bytes, not M".
	SizeDiffers []string `json:"size_differs"`
	Searched    []string `json:"searched"`
}

// Run lists the datasets.
func (c *dataListCmd) Run(g *Globals) error {
	loc := g.locator()
	var entries []dataListEntry
	for _, name := range dataset.Names() {
		e := dataListEntry{Dataset: name, Builtin: dataset.IsBuiltin(name), Missing: []string{}, SizeDiffers: []string{}, Searched: loc.Roots()}
		if e.Builtin {
			e.Found = true
		} else {
			root, missing, err := loc.Find(name)
			if err != nil {
				return err
			}
			e.Found, e.Root = root != "", root
			if missing != nil {
				e.Missing = missing
			}
			if e.Found {
				files, err := dataset.CheckFiles(name, root, false)
				if err != nil {
					return err
				}
				for _, f := range files {
					if f.SizeDiffers() {
						e.SizeDiffers = append(e.SizeDiffers, f.Path+": "+f.Problem())
					}
				}
			}
		}
		entries = append(entries, e)
	}
	entries = append(entries, tuListEntries(loc)...)
	if c.JSON {
		return writeJSON(g.Stdout, entries)
	}
	tw := tabwriter.NewWriter(g.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DATASET\tSTATUS")
	for _, e := range entries {
		switch {
		case e.Builtin:
			fmt.Fprintf(tw, "%s\tbuilt in (synthetic, no files)\n", e.Dataset)
		case e.Found && len(e.SizeDiffers) > 0:
			fmt.Fprintf(tw, "%s\tfound in %s, but %s (and %d more): changed or damaged? ohm data verify re-hashes every file\n",
				e.Dataset, e.Root, e.SizeDiffers[0], len(e.SizeDiffers)-1)
		case e.Found:
			fmt.Fprintf(tw, "%s\tfound in %s\n", e.Dataset, e.Root)
		default:
			fmt.Fprintf(tw, "%s\tmissing %d files, e.g. %s; downloaded on first use when the network answers\n",
				e.Dataset, len(e.Missing), e.Missing[0])
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	searched := loc.Roots()
	if len(searched) == 0 {
		searched = []string{"(none: set --data-dir or $OHM_DATA)"}
	}
	_, err := fmt.Fprintf(g.Stdout, "searched: %s\n", strings.Join(searched, ", "))
	return err
}

// dataInfoCmd is `ohm data info`.
type dataInfoCmd struct {
	DatasetFlags
	Split    int  `help:"Which split to count (WebKB has 10: 0..9)." default:"0"`
	JSON     bool `name:"json" help:"Print one JSON object (fields in docs/cli.md)."`
	NodeAttr bool `name:"node-attr" help:"TU datasets (mutag, enzymes, proteins, …): count the node attributes in x (PyG's use_node_attr=True)."`
	EdgeAttr bool `name:"edge-attr" help:"TU datasets: count the edge attributes in edge_attr (PyG's use_edge_attr=True)."`
}

// DataInfo is the output of `ohm data info --json`; its fields are stable.
type DataInfo struct {
	Dataset          string `json:"dataset"`
	Form             string `json:"form"`
	Nodes            int    `json:"nodes"`
	Edges            int    `json:"edges"`
	SelfLoops        int    `json:"self_loops"`
	Features         int    `json:"features"`
	FeatureNNZ       int    `json:"feature_nnz"`
	Classes          int    `json:"classes"`
	ClassCounts      []int  `json:"class_counts"`
	Components       int    `json:"components"`
	LargestComponent int    `json:"largest_component"`
	Train            int    `json:"train"`
	Val              int    `json:"val"`
	Test             int    `json:"test"`
	Split            int    `json:"split"`
	// Arrays are the arrays of a graph file without node data (no x, y),
	// each with its shape, e.g. "added (2, 18)"; absent for a dataset.
	Arrays []string `json:"arrays,omitempty"`
}

// describeDataset computes the DataInfo of a dataset in one form and split: E0 as definitions
// §1 counts it, and components (undirected) or strongly connected components
// (directed). O(n + m).
func describeDataset(d *dataset.Dataset, g *linalg.Graph, split int) DataInfo {
	comp, count := tarjan.SCC(g) // the connected components when undirected
	sizes := make([]int, count)
	for _, c := range comp {
		sizes[c]++
	}
	form := "undirected"
	if g.Directed() {
		form = "directed"
	}
	var sp dataset.Split // none for an archive without masks
	if split < len(d.Splits) {
		sp = d.Splits[split]
	}
	return DataInfo{
		Dataset:          d.Name,
		Form:             form,
		Nodes:            g.N(),
		Edges:            g.E0(),
		SelfLoops:        g.NumSelfLoops(),
		Features:         d.NumFeatures(),
		FeatureNNZ:       d.Features.NNZ(),
		Classes:          d.NumClasses,
		ClassCounts:      d.ClassCounts(),
		Components:       count,
		LargestComponent: slices.Max(append(sizes, 0)),
		Train:            len(sp.Train),
		Val:              len(sp.Val),
		Test:             len(sp.Test),
		Split:            split,
	}
}

// Run describes the dataset, or a graph file without node data (what
// ohm rewire --out writes: describeGraphFile).
func (c *dataInfoCmd) Run(g *Globals) error {
	if isTUInput(g, c.Dataset) {
		return c.runTU(g)
	}
	if c.NodeAttr || c.EdgeAttr {
		return usagef("--node-attr and --edge-attr apply to TU datasets (mutag, enzymes, proteins, …)")
	}
	d, gr, err := c.Load(g)
	if err != nil {
		if graphOnlyArchive(c.Dataset, err) {
			return c.describeGraphFile(g)
		}
		return err
	}
	if c.Split < 0 || c.Split >= len(d.Splits) && !(c.Split == 0 && len(d.Splits) == 0) {
		return usagef("--split %d: %s has %s, 0..%d", c.Split, d.Name, plural(len(d.Splits), "split"), len(d.Splits)-1)
	}
	info := describeDataset(d, gr, c.Split)
	if c.JSON {
		return writeJSON(g.Stdout, info)
	}
	comp := "components"
	if gr.Directed() {
		comp = "SCCs"
	}
	tw := tabwriter.NewWriter(g.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "dataset\t%s (%s)\n", info.Dataset, info.Form)
	fmt.Fprintf(tw, "nodes\t%d\n", info.Nodes)
	fmt.Fprintf(tw, "edges (E0)\t%d (self-loops %d)\n", info.Edges, info.SelfLoops)
	fmt.Fprintf(tw, "%s\t%d (largest %d)\n", comp, info.Components, info.LargestComponent)
	fmt.Fprintf(tw, "features\t%d (non-zero %d)\n", info.Features, info.FeatureNNZ)
	fmt.Fprintf(tw, "classes\t%d %v\n", info.Classes, info.ClassCounts)
	if len(d.Splits) == 0 {
		fmt.Fprintf(tw, "splits\tnone (no split masks: ohm train and ohm sweep need --split-rule)\n")
	} else {
		fmt.Fprintf(tw, "split %d\ttrain %d / val %d / test %d (of %s)\n", info.Split, info.Train, info.Val, info.Test, plural(len(d.Splits), "split"))
	}
	return tw.Flush()
}

// dataExportCmd is `ohm data export`.
type dataExportCmd struct {
	DatasetFlags
	Out string `required:"" short:"o" placeholder:"FILE" help:"Output file. .npz: edge_index (int64, 2×E), num_nodes (int64), x (the raw features training uses before row-normalising them: float32 when exact, as PyG's, else float64; n×d), y (labels, int64, n), train_mask, val_mask, test_mask (bool: n for one split, n×k for WebKB's k splits, PyG's layout). .txt: the graph only ('# num_nodes N', then one 'u v' per line; no features, labels or splits). A TU dataset (mutag, enzymes, proteins, …): .npz only, the collated dataset as ohm rewire --out writes it (x, edge_index per graph, edge_attr, edge_type, y, ptr, edge_ptr)." type:"path"`
}

// Run writes the dataset (.npz) or its graph (.txt). The undirected form is
// written as both arcs of every edge (PyG's convention), self-loops once;
// --directed writes the arcs as PyG's edge_index holds them.
func (c *dataExportCmd) Run(g *Globals) error {
	switch strings.ToLower(filepath.Ext(c.Out)) {
	case ".npz", ".txt":
	default:
		return usagef("--out %s: unknown extension %q (use .npz or .txt)", c.Out, filepath.Ext(c.Out))
	}
	if err := checkOutput("--out", c.Out); err != nil {
		return err
	}
	if isTUInput(g, c.Dataset) {
		return exportTU(g, c.Dataset, c.Out)
	}
	d, gr, err := c.Load(g)
	if err != nil {
		return err
	}
	what := ""
	if graphio.IsNPZ(c.Out) {
		err = dataset.WriteArchive(c.Out, d, gr)
		what = fmt.Sprintf(", %s, %s, %s", plural(d.NumFeatures(), "feature"), plural(d.NumClasses, "class"), plural(len(d.Splits), "split"))
	} else {
		err = graphio.Save(c.Out, gr)
		what = " (graph only: .npz holds the features, labels and splits too)"
	}
	if err != nil {
		return fmt.Errorf("export %s: %w", c.Out, err)
	}
	if !g.Quiet {
		fmt.Fprintf(g.Stderr, "wrote %s: %d nodes, %d arcs (%s form)%s\n", c.Out, gr.N(), len(gr.Arcs()), c.form(), what)
	}
	return nil
}
