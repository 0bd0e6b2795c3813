package sweep_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/sweep"
)

// Run trains every run of the grid that the results file does not hold
// and appends each as it finishes: on the built-in bottleneck graph, no
// rewiring and err at 5 % of the edges, one and two layers, two seeds,
// PairNorm no and yes (the default) is 2 × 2 × 2 × 2 = 16 runs and one
// rewiring (err's graph, cached). The same spec again finds all 16
// recorded and trains nothing.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "sweep-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	results := filepath.Join(dir, "results.jsonl")
	load := func(name string, o dataset.SynthOptions) (*dataset.Dataset, error) { return dataset.Bottleneck(o), nil }
	spec := sweep.Spec{Datasets: []string{"bottleneck"}, Methods: []string{sweep.None, "err"},
		Budgets: []float64{0.05}, Depths: []int{1, 2}, Seeds: 2, Epochs: 3}
	for range 2 {
		sum, err := sweep.Run(context.Background(), spec, sweep.Options{Results: results, Load: load})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%d runs: %d trained, %d already recorded; %d graphs rewired, %d from the cache\n",
			sum.Total, sum.Ran, sum.Skipped, sum.Rewired, sum.Cached)
	}
	recs, err := sweep.ReadResults(results)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d records; the first: %s\n", len(recs), recs[0].Key())

	// Output:
	// 16 runs: 16 trained, 0 already recorded; 1 graphs rewired, 0 from the cache
	// 16 runs: 0 trained, 16 already recorded; 0 graphs rewired, 0 from the cache
	// 16 records; the first: bottleneck/undirected/none/0/gcn/features=row/pairnorm=no/L=1/seed=0/split=0
}
