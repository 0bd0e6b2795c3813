package gnn

import (
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// graphNominalFlops returns the floating-point operations of one epoch of
// tr counted nominally, 2 per multiply-add of the dense products only (the
// Linear layers, GCN's X·W; propagation, BatchNorm and the rest left out):
// each training graph's nodes through a forward and a backward pass (three
// forwards' worth) and every graph's nodes through one evaluation forward.
func graphNominalFlops(tr *GraphTrainer) float64 {
	s, a := tr.data.Set, tr.model.Arch
	nodes := func(ids []int) float64 {
		n := 0
		for _, g := range ids {
			n += s.Graphs[g].N
		}
		return float64(n)
	}
	train := nodes(tr.split.Train)
	all := train + nodes(tr.split.Val) + nodes(tr.split.Test)
	var perNode float64 // multiply-adds per node of one forward pass
	for l := range a.Layers + 1 {
		in, out := float64(a.Hidden), float64(a.Hidden)
		if l == 0 {
			in = float64(a.In)
		}
		if l == a.Layers {
			out = float64(a.Classes)
		}
		switch a.Kind {
		case GraphGCN:
			perNode += in * out
		case GraphGIN:
			perNode += in*out + out*out
		case GraphRGCN:
			perNode += 3 * in * out
		case GraphRGIN:
			perNode += in*out + 2*(in*out+out*out)
		}
	}
	return 2 * perNode * (3*train + all)
}

// BenchmarkGraphEpoch times one epoch of FoSR's protocol (GraphTrainer.Epoch:
// the training graphs in shuffled batches of 64, each a forward, backward and
// Adam step, then the evaluation of every graph) on one thread: GIN-4 on
// PROTEINS (1113 graphs, GEMM-bound) and GCN-4 on MUTAG (188 small graphs,
// per-call overhead), and R-GCN-4, R-GIN-4 on MUTAG and GCN-4 on PROTEINS
// for the grid's cost. Skipped without $OHM_DATA. ms/epoch is wall time,
// cpu-ms/epoch the thread's CPU time, GFLOP/s graphNominalFlops over the
// wall time. The PyTorch side: testdata/graph_bench.py.
//
//	OHM_DATA=/path/to/data go test -run '^$' -bench GraphEpoch -cpu 1 ./model/gnn
func BenchmarkGraphEpoch(b *testing.B) {
	benchGraphEpochs(b, false)
}

// BenchmarkGraphEpochEvalAll is BenchmarkGraphEpoch with the training,
// validation and test accuracies at every epoch (SetEvalAll), as the
// PyTorch side (testdata/graph_bench.py) evaluates every graph: the
// like-for-like comparison. BenchmarkGraphEpoch computes the training and
// test accuracies only at kept epochs and the last, as a run does.
//
//	OHM_DATA=/path/to/data go test -run '^$' -bench GraphEpochEvalAll -cpu 1 ./model/gnn
func BenchmarkGraphEpochEvalAll(b *testing.B) {
	benchGraphEpochs(b, true)
}

// BenchmarkSynthGraphEpoch is BenchmarkGraphEpoch's GIN-4 on a synthetic
// set of PROTEINS' size (1113 graphs of 20–58 nodes, 3 one-hot features,
// 2 classes, about 3.7 arcs a node), needing no data files:
//
//	go test -run '^$' -bench SynthGraphEpoch -cpu 1 ./model/gnn
func BenchmarkSynthGraphEpoch(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 5))
	set := &GraphSet{Name: "synth-proteins", Features: 3, Classes: 2}
	for i := range 1113 {
		n := 20 + rng.IntN(39)
		g := GraphItem{N: n, Label: i % 2}
		for u := range n {
			row := [3]float64{}
			row[rng.IntN(3)] = 1
			g.X = append(g.X, row[:]...)
			for _, v := range []int{u + 1, u + 2 + rng.IntN(5)} {
				if v < n {
					g.Src, g.Dst = append(g.Src, u, v), append(g.Dst, v, u)
				}
			}
		}
		set.Graphs = append(set.Graphs, g)
	}
	data, err := NewGraphData(set, GraphGIN)
	if err != nil {
		b.Fatal(err)
	}
	benchGraphEpoch(b, data, GraphGIN, false)
}

// benchGraphEpochs runs BenchmarkGraphEpoch's cases on the real datasets,
// every accuracy at every epoch when evalAll.
func benchGraphEpochs(b *testing.B, evalAll bool) {
	for _, tc := range []struct {
		name, dataset string
		kind          GraphKind
	}{
		{"gin-4/PROTEINS", "PROTEINS", GraphGIN},
		{"gcn-4/MUTAG", "MUTAG", GraphGCN},
		{"gin-4/MUTAG", "MUTAG", GraphGIN},
		{"rgcn-4/MUTAG", "MUTAG", GraphRGCN},
		{"rgin-4/MUTAG", "MUTAG", GraphRGIN},
		{"gcn-4/PROTEINS", "PROTEINS", GraphGCN},
	} {
		b.Run(tc.name, func(b *testing.B) {
			root := datatest.Root(b, tc.dataset+"/raw/"+tc.dataset+"_A.txt")
			d, err := dataset.LoadTU(filepath.Join(root, tc.dataset, "raw"), tc.dataset, dataset.TUOptions{})
			if err != nil {
				b.Fatal(err)
			}
			data, err := NewGraphData(NewGraphSet(d), tc.kind)
			if err != nil {
				b.Fatal(err)
			}
			benchGraphEpoch(b, data, tc.kind, evalAll)
		})
	}
}

// benchGraphEpoch times GraphTrainer.Epoch of kind's protocol on data, one
// thread (SetEvalAll(evalAll)), reporting wall and thread CPU time and the
// nominal GFLOP/s of an epoch that evaluates every graph.
func benchGraphEpoch(b *testing.B, data *GraphData, kind GraphKind, evalAll bool) {
	tr, err := NewGraphTrainer(data, GraphDefaults(kind), 0)
	if err != nil {
		b.Fatal(err)
	}
	tr.SetEvalAll(evalAll)
	flops := graphNominalFlops(tr)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0 := threadSeconds()
	for b.Loop() {
		if _, err := tr.Epoch(); err != nil {
			b.Fatal(err)
		}
	}
	cpu := threadSeconds() - c0
	perEpoch := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(1000*perEpoch, "ms/epoch")
	if cpu > 0 {
		b.ReportMetric(1000*cpu/float64(b.N), "cpu-ms/epoch")
	}
	b.ReportMetric(flops/1e9, "GFLOP/epoch")
	b.ReportMetric(flops/perEpoch/1e9, "GFLOP/s")
}

// BenchmarkDenseMul times a GIN layer's product x·W (a batch of 2 560
// nodes, 64×64, half of x zero as after a ReLU) through the AVX two-row
// kernel without masks (denseNN16x2FAVX) and, where the machine has
// AVX-512, the 64-column one (denseNN64x2FZ, the same bits) and the one
// that sums only x's listed non-zero coefficients (denseNNList64, the
// same bits; GFLOP/s counts the dense product's multiply-adds):
//
//	go test -run '^$' -bench 'DenseMul(TN)?$' -cpu 1 ./model/gnn
func BenchmarkDenseMul(b *testing.B) {
	if !useAVX {
		b.Skip("no AVX: the row loops run")
	}
	const n, k, m = 2560, 64, 64
	x, w := ginOperands(n*k, k*m)
	dst := make([]float64, n*m)
	var s scratch
	for _, c := range []struct {
		name  string
		z     bool
		lists float64
	}{{"avx", false, 0}, {"avx512", true, 0}, {"avx512-lists", true, 1}} {
		if c.z && !useAVX512 {
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			old := listMaxDensity
			listMaxDensity = c.lists
			defer func() { listMaxDensity = old }()
			withAVX512(c.z, func() {
				for b.Loop() {
					denseMul(dst, x, w, n, k, m, &s)
				}
			})
			b.ReportMetric(2*n*k*m/b.Elapsed().Seconds()*float64(b.N)/1e9, "GFLOP/s")
		})
	}
}

// ginOperands returns a GIN layer's input x (nx entries, half of them
// zero as after a ReLU) and a second operand of ny normal entries (the
// weights or the gradient), from a fixed seed.
func ginOperands(nx, ny int) (x, y []float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, y = make([]float64, nx), make([]float64, ny)
	for i := range x {
		x[i] = max(0, rng.NormFloat64())
	}
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	return x, y
}

// BenchmarkDenseMulTN times a GIN layer's weight gradient xᵀ·g (a batch of
// 2 560 nodes, 64×64, half of x zero as after a ReLU) through the masked
// two-row kernel (denseTN16x2AVX), the one without masks that a finite
// g allows (denseTN16x2FAVX, the same bits) and, where the machine has
// AVX-512, the four-row one (denseTN32x4FZ, the same bits):
//
//	go test -run '^$' -bench DenseMulTN -cpu 1 ./model/gnn
func BenchmarkDenseMulTN(b *testing.B) {
	if !useAVX {
		b.Skip("no AVX: the row loops run")
	}
	const n, k, m = 2560, 64, 64
	x, g := ginOperands(n*k, n*m)
	dst := make([]float64, k*m)
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	var s scratch
	for _, c := range []struct {
		name     string
		fin, z51 bool
	}{{"masked", false, false}, {"unmasked", true, false}, {"unmasked-avx512", true, true}} {
		if c.z51 && !useAVX512 {
			continue
		}
		fin := c.fin
		b.Run(c.name, func(b *testing.B) {
			withAVX512(c.z51, func() {
				for b.Loop() {
					clear(dst)
					denseTNRows(dst, x, g, k, m, 0, k, rows, fin, &s)
				}
			})
			b.ReportMetric(2*n*k*m/b.Elapsed().Seconds()*float64(b.N)/1e9, "GFLOP/s")
		})
	}
}
