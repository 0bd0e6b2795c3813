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
