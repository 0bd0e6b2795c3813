package bench

import (
	"path/filepath"
	"testing"

	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// BenchmarkLoad measures reading and assembling each real dataset from its raw
// files (pickles for Planetoid, text and npz for WebKB).
func BenchmarkLoad(b *testing.B) {
	for _, tc := range []struct{ name, dir, file string }{
		{"cora", "Cora", "ind.cora.x"},
		{"citeseer", "CiteSeer", "ind.citeseer.x"},
		{"cornell", "cornell", "out1_graph_edges.txt"},
		{"texas", "texas", "out1_graph_edges.txt"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			root := datatest.Root(b, filepath.Join(tc.dir, "raw", tc.file))
			loc := &dataset.Locator{DataDir: root}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := loc.Load(tc.name, dataset.SynthOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTarjanCora measures the Tarjan module on Cora (2708 nodes, 5278
// edges): all bridges, all components, and the SCCs of the directed form.
func BenchmarkTarjanCora(b *testing.B) {
	root := datatest.Root(b, "Cora/raw/ind.cora.x")
	d, err := (&dataset.Locator{DataDir: root}).Load("cora", dataset.SynthOptions{})
	if err != nil {
		b.Fatal(err)
	}
	u := d.Graph.Undirected()
	b.Run("bridges", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tarjan.Bridges(u)
		}
	})
	b.Run("components", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tarjan.Components(u)
		}
	})
	b.Run("scc-directed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tarjan.SCC(d.Graph)
		}
	})
}
