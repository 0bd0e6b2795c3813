package rewire

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// BenchmarkRunManyTU rewires every graph of MUTAG, ENZYMES and PROTEINS
// with fosr and gtr at 10 %, one thread: the loop `ohm rewire --dataset
// NAME --method M --budget 0.1 --threads 1` times (its summary's seconds),
// the one bench/peers compares with the peers' loops (the graphs given
// up to the batch, as the CLI gives them: ManyOptions.InPlace). Skips without
// OHM_DATA.
func BenchmarkRunManyTU(b *testing.B) {
	for _, name := range []string{"MUTAG", "ENZYMES", "PROTEINS"} {
		root := datatest.Root(b, name+"/raw/"+name+"_A.txt")
		d, err := dataset.LoadTU(filepath.Join(root, name, "raw"), name, dataset.TUOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range []Method{FoSR, GTR} {
			b.Run(name+"/"+string(m), func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					gs := d.Graphs(false) // given up to the batch, as the CLI's
					b.StartTimer()
					if _, err := RunMany(context.Background(), gs, Config{Method: m, Budget: 0.1, FoSR: &FoSROptions{}}, ManyOptions{Threads: 1, InPlace: true}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
