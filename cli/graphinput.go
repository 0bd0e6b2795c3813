package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/model/dataset"
)

// DatasetFlags choose a dataset and its form.
type DatasetFlags struct {
	Dataset      string `required:"" short:"d" help:"Dataset: cora, citeseer, cornell, texas, or the built-in bottleneck, ring, sbm; or a dataset archive FILE.npz (edge_index, num_nodes, x, y and the split masks, as 'ohm data export' writes), named by its base name."`
	Directed     bool   `help:"Use the directed form (arcs as PyG's edge_index) instead of the undirected one."`
	SynthSeed    uint64 `name:"synth-seed" help:"Seed of the built-in synthetic datasets." default:"0"`
	Heterophilic bool   `help:"Built-in sbm: connect mostly different classes (heterophilic) instead of the same class."`
}

// Load returns the dataset and the graph in the chosen form.
func (f *DatasetFlags) Load(g *Globals) (*dataset.Dataset, *linalg.Graph, error) {
	// "sbm-heterophilic" is the name data info prints for --heterophilic.
	if strings.EqualFold(f.Dataset, "sbm-heterophilic") {
		f.Dataset, f.Heterophilic = "sbm", true
	}
	if graphio.IsNPZ(f.Dataset) {
		a, err := dataset.ReadArchive(f.Dataset, strings.TrimSuffix(filepath.Base(f.Dataset), filepath.Ext(f.Dataset)))
		if err != nil {
			return nil, nil, fmt.Errorf("--dataset: %w", err)
		}
		if f.Directed {
			return a.Dataset, a.Graph, nil
		}
		return a.Dataset, a.Graph.Undirected(), nil
	}
	if dataset.IsTU(f.Dataset) {
		return nil, nil, usagef("--dataset %s: a graph-classification dataset of many graphs: 'ohm rewire' and 'ohm data info' read it", f.Dataset)
	}
	// An unknown name is a usage error (status 2), in every command.
	if !slices.ContainsFunc(dataset.Names(), func(n string) bool { return strings.EqualFold(n, f.Dataset) }) {
		return nil, nil, usagef("--dataset: unknown dataset %q (known: %s, sbm-heterophilic)", f.Dataset, strings.Join(dataset.Names(), ", "))
	}
	d, err := g.locator().Load(f.Dataset, dataset.SynthOptions{Seed: f.SynthSeed, Heterophilic: f.Heterophilic})
	if err != nil {
		return nil, nil, err
	}
	if f.Directed {
		return d, d.Graph, nil
	}
	return d, d.Graph.Undirected(), nil
}

// form names the graph form: "directed" or "undirected".
func (f *DatasetFlags) form() string {
	if f.Directed {
		return "directed"
	}
	return "undirected"
}

// GraphFlags choose the input graph: a dataset or a graph file.
type GraphFlags struct {
	Dataset      string `short:"d" xor:"input" placeholder:"NAME" help:"Dataset: cora, citeseer, cornell, texas, or the built-in bottleneck, ring, sbm. Exactly one of --dataset and --graph is required."`
	Graph        string `xor:"input" type:"existingfile" placeholder:"FILE" help:"Graph file instead of a dataset: .npz (edge_index, num_nodes) or an edge list ('u v' per line). Exactly one of --dataset and --graph is required."`
	Directed     bool   `help:"Use the directed form (arcs as PyG's edge_index; for --graph, the arcs of the file)."`
	SynthSeed    uint64 `name:"synth-seed" help:"Seed of the built-in synthetic datasets." default:"0"`
	Heterophilic bool   `help:"Built-in sbm: heterophilic instead of homophilic."`
}

// LoadGraph returns the graph in the chosen form and a name for it.
// Exactly one of --dataset and --graph must be given (kong's xor refuses
// both; this refuses neither).
func (f *GraphFlags) LoadGraph(g *Globals) (*linalg.Graph, string, error) {
	if f.Graph == "" && f.Dataset == "" {
		return nil, "", usagef("missing input: give --dataset NAME or --graph FILE")
	}
	if f.Graph != "" {
		gr, err := graphio.Load(f.Graph, 0, f.Directed)
		if err != nil {
			return nil, "", fmt.Errorf("--graph: %w", err)
		}
		return gr, filepath.Base(f.Graph), nil
	}
	df := DatasetFlags{Dataset: f.Dataset, Directed: f.Directed, SynthSeed: f.SynthSeed, Heterophilic: f.Heterophilic}
	d, gr, err := df.Load(g)
	if err != nil {
		return nil, "", err
	}
	return gr, d.Name, nil
}
