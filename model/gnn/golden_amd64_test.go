package gnn

import (
	"fmt"
	"math"
	"testing"
)

// TestTrainGolden: 30 epochs on a small synthetic Planetoid-like dataset
// give, bit for bit, the losses, validation accuracies and final weights
// that commit f676298 (before the AVX kernels) gave, with and without the
// AVX kernels: the faster kernels change no result. The hashes were printed
// by that commit's code on this test's inputs. amd64 only: elsewhere the Go
// compiler may fuse a multiply and an add, which changes the last bits.
func TestTrainGolden(t *testing.T) {
	d := synthPlanetoid(600, 300, 5, 10, 2400, 3)
	for _, tc := range []struct {
		kind     Kind
		layers   int
		pairnorm bool
		hidden   int
		want     uint64
	}{
		{GCN, 2, false, 16, 0xd942e1ef52a4b784},
		{GCN, 8, true, 16, 0x535220767834af60},
		{DirGCN, 2, false, 16, 0xa78660961a0d88db},
		{GCN, 3, true, 64, 0x14c0b98bbc16f2c5},
		{DirGCN, 4, true, 64, 0xd0fa4e84ae5551df},
		{GCN, 1, false, 16, 0x7e6d30ecf2b5a041},
		{DirGCN, 3, false, 40, 0xb5a7b6a8c953d92e},
		{GCN, 4, false, 21, 0xa7603b0c56d47587},
	} {
		cfg := Defaults("cora")
		cfg.Kind, cfg.Layers, cfg.PairNorm, cfg.Hidden, cfg.Epochs = tc.kind, tc.layers, tc.pairnorm, tc.hidden, 30
		g := d.Graph
		if tc.kind == GCN {
			g = g.Undirected()
		}
		data, err := NewData(d, g, tc.kind, FeaturesRow)
		if err != nil {
			t.Fatal(err)
		}
		for _, avx := range []bool{true, false} {
			if avx && !useAVX {
				continue
			}
			withAVX(avx, func() {
				tr, err := NewTrainer(data, cfg, 0, 7)
				if err != nil {
					t.Fatal(err)
				}
				h := uint64(1469598103934665603) // FNV-style fold of the bits
				for range cfg.Epochs {
					st := tr.Epoch()
					h = h*1099511628211 ^ math.Float64bits(st.Loss) ^ math.Float64bits(st.ValAcc)
				}
				for _, p := range tr.Model().Params() {
					for _, v := range rawDense(p.Value) {
						h = h*1099511628211 ^ math.Float64bits(v)
					}
				}
				name := fmt.Sprintf("%v-%d pairnorm=%v hidden=%d avx=%v", tc.kind, tc.layers, tc.pairnorm, tc.hidden, avx)
				if h != tc.want {
					t.Errorf("%s: hash %016x, want %016x (f676298)", name, h, tc.want)
				}
			})
		}
	}
}

// graphGoldenHash trains tr to the end and folds every epoch's loss and
// validation accuracy, the result's accuracies and epochs, and the final
// weights and running statistics into one hash.
func graphGoldenHash(t *testing.T, tr *GraphTrainer) uint64 {
	h := uint64(1469598103934665603)
	fold := func(v float64) { h = h*1099511628211 ^ math.Float64bits(v) }
	for !tr.Done() {
		st, err := tr.Epoch()
		if err != nil {
			t.Fatal(err)
		}
		fold(st.Loss)
		fold(st.ValAcc)
	}
	r := tr.Result()
	for _, v := range []float64{float64(r.Epochs), float64(r.BestEpoch), r.TrainAcc, r.ValAcc, r.TestAcc, r.LastValAcc, r.LastTestAcc} {
		fold(v)
	}
	for _, p := range tr.Model().Params() {
		for _, v := range rawDense(p.Value) {
			fold(v)
		}
	}
	for _, b := range tr.Model().BatchNorms() {
		for k := range b.RunMean {
			fold(b.RunMean[k])
			fold(b.RunVar[k])
		}
	}
	return h
}

// TestGraphTrainGolden: runs of GCN, GIN, R-GCN and R-GIN on MUTAG-like
// graphs give, bit for bit, the losses, validation accuracies, results,
// final weights and running statistics that commit 92da802 (evaluating
// every accuracy at every epoch, one goroutine per run) gave, on 1, 2 and
// 3 threads: the lazy evaluation and the team kernels change no result.
// The hashes were printed by that commit's code on this test's inputs.
func TestGraphTrainGolden(t *testing.T) {
	want := map[GraphKind][]uint64{
		GraphGCN:  {0x0203d5f48ffe7e7c, 0xb2ac92c97c6c952b, 0x7cae399e204211d8},
		GraphGIN:  {0xd6d366c2ed4925cc, 0xae901f7df12f919d, 0x9907f1db0602491c},
		GraphRGCN: {0xe8154dded635b3f1, 0x3c0694e074502d3f, 0x24ea2aef7e324e5f},
		GraphRGIN: {0x7fdb232ca935d55b, 0x384a8b5fb8fe92e8, 0xa1341d98e098c7f8},
	}
	for _, k := range []GraphKind{GraphGCN, GraphGIN, GraphRGCN, GraphRGIN} {
		d, err := NewGraphData(mutagLike(72, 3), k)
		if err != nil {
			t.Fatal(err)
		}
		cfg := speedConfig(k)
		for i, seed := range []uint64{0, 1, 2} {
			for _, w := range []int{1, 2, 3} {
				tr, err := NewGraphTrainer(d, cfg, seed)
				if err != nil {
					t.Fatal(err)
				}
				tr.SetThreads(w)
				if h := graphGoldenHash(t, tr); h != want[k][i] {
					t.Errorf("%v seed %d threads %d: hash %016x, want %016x (92da802)", k, seed, w, h, want[k][i])
				}
			}
		}
	}
}
