package gnn

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// nominalFlops returns the floating-point operations of one epoch counted
// nominally: 2 per multiply-add, three forward passes' worth per epoch (the
// training forward, the backward pass at twice its cost, less the input
// gradient of the first layer, and the evaluation forward, ≈ 3), each
// forward with dense hidden activations and the full features. Dropout and
// ReLU zeros make the real count smaller; the number is a fixed yardstick
// for comparing kernels, not a hardware count.
func nominalFlops(data *Data, cfg Config) float64 {
	nnzX := float64(len(data.X.RawMatrix().Data))
	n := float64(data.Ops.N)
	var nnzOp float64
	wmul := 1.0
	if cfg.Kind == GCN {
		nnzOp = float64(len(data.Ops.Norm.RawMatrix().Data))
	} else {
		nnzOp = float64(len(data.Ops.In.RawMatrix().Data) + len(data.Ops.Out.RawMatrix().Data))
		wmul = 3
	}
	var fwd float64
	for l := range cfg.Layers {
		out := float64(cfg.Hidden)
		if l == cfg.Layers-1 {
			out = float64(data.Classes)
		}
		if l == 0 {
			fwd += nnzX * wmul * out
		} else {
			fwd += n * float64(cfg.Hidden) * wmul * out
		}
		fwd += nnzOp * out
	}
	return 2 * 3 * fwd
}

// epochCases are the models BenchmarkEpoch times: GCN-2, GCN-8 with
// PairNorm (both on the undirected form) and DirGCN-2 (on the arcs).
var epochCases = []struct {
	name     string
	kind     Kind
	layers   int
	pairnorm bool
}{
	{"gcn-2", GCN, 2, false},
	{"gcn-8-pairnorm", GCN, 8, true},
	{"dirgcn-2", DirGCN, 2, false},
}

// BenchmarkEpoch times one training epoch (Trainer.Epoch) of GCN-2, GCN-8
// with PairNorm and DirGCN-2 on a synthetic dataset of Cora's size
// (synthCora: 2708 nodes, 1433 binary features, 7 classes, 10556 arcs,
// Cora's split sizes), with the AVX kernels and with the scalar ones
// (kernels=go; the same bits, see TestTrainAVXBits and TestTrainGolden). It
// needs no data files. ms/epoch is the wall time of one epoch, cpu-ms/epoch
// the thread's CPU time (where the OS reports it; steadier on a shared
// machine), GFLOP/s the nominal count (nominalFlops) over the wall time:
//
//	go test -run '^$' -bench 'Epoch$' -cpu 1 ./model/gnn
//
// BenchmarkEpochCora does the same on the real Cora when $OHM_DATA holds it.
func BenchmarkEpoch(b *testing.B) {
	benchEpochs(b, "synth-cora", synthCora(1))
}

// BenchmarkEpochCora is BenchmarkEpoch on the real Cora (skipped without
// $OHM_DATA):
//
//	OHM_DATA=/path/to/data go test -run '^$' -bench EpochCora -cpu 1 ./model/gnn
func BenchmarkEpochCora(b *testing.B) {
	root := datatest.Root(b, "Cora/raw/ind.cora.x")
	d, err := (&dataset.Locator{DataDir: root}).Load("cora", dataset.SynthOptions{})
	if err != nil {
		b.Fatal(err)
	}
	benchEpochs(b, "cora", d)
}

// benchEpochs runs the epochCases on d, with and without AVX.
func benchEpochs(b *testing.B, name string, d *dataset.Dataset) {
	for _, tc := range epochCases {
		cfg := Defaults("cora")
		cfg.Kind, cfg.Layers, cfg.PairNorm = tc.kind, tc.layers, tc.pairnorm
		g := d.Graph
		if tc.kind == GCN {
			g = g.Undirected()
		}
		data, err := NewData(d, g, tc.kind, FeaturesRow)
		if err != nil {
			b.Fatal(err)
		}
		flops := nominalFlops(data, cfg)
		for _, avx := range []bool{true, false} {
			if avx && !useAVX {
				continue
			}
			kernels := "avx"
			if !avx {
				kernels = "go"
			}
			b.Run(fmt.Sprintf("%s/%s/kernels=%s", name, tc.name, kernels), func(b *testing.B) {
				runtime.LockOSThread() // one thread, so that its CPU time is the epochs'
				defer runtime.UnlockOSThread()
				var cpu float64
				withAVX(avx, func() {
					tr, err := NewTrainer(data, cfg, 0, 0)
					if err != nil {
						b.Fatal(err)
					}
					c0 := threadSeconds()
					for b.Loop() {
						tr.Epoch()
					}
					cpu = threadSeconds() - c0
				})
				perEpoch := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(1000*perEpoch, "ms/epoch")
				if cpu > 0 {
					b.ReportMetric(1000*cpu/float64(b.N), "cpu-ms/epoch")
				}
				b.ReportMetric(flops/perEpoch/1e9, "GFLOP/s")
			})
		}
	}
}
