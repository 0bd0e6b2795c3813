package gnn

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestEmbeddings: one matrix per layer of the right width; the last equals
// the eval-mode logits of Forward; the first equals the first convolution
// applied alone; the model stays usable (Forward after Embeddings agrees,
// and a trained model's embeddings do not depend on dropout).
func TestEmbeddings(t *testing.T) {
	const n, in = 12, 6
	for _, k := range []Kind{GCN, DirGCN} {
		for _, pn := range []bool{false, true} {
			ops := NewOperators(testGraph(t, n, true, 3), k)
			x := randCSR(n, in, 0.5, rand.New(rand.NewPCG(5, 5)))
			arch := Architecture{Kind: k, Layers: 3, In: in, Hidden: 8, Classes: 4, Dropout: 0.5,
				PairNorm: pn, PairNormScale: 1}
			m, err := NewModel(arch, ops, rand.New(rand.NewPCG(6, 6)))
			if err != nil {
				t.Fatal(err)
			}
			m.Forward(x, true) // a training pass first: Embeddings must not use its masks
			emb := m.Embeddings(x)
			if len(emb) != 3 {
				t.Fatalf("%v: %d embeddings, want 3", k, len(emb))
			}
			for l, e := range emb {
				r, c := e.Dims()
				want := 8
				if l == 2 {
					want = 4
				}
				if r != n || c != want {
					t.Fatalf("%v layer %d: %d×%d, want %d×%d", k, l+1, r, c, n, want)
				}
			}
			logits := mat.DenseCopyOf(m.Forward(x, false))
			if !mat.Equal(emb[2], logits) {
				t.Fatalf("%v pairnorm=%v: last embedding differs from the eval-mode logits", k, pn)
			}
			first := mat.DenseCopyOf(m.Convs()[0].Forward(x))
			if !mat.Equal(emb[0], first) {
				t.Fatalf("%v: first embedding is not the first convolution's output", k)
			}
			if again := m.Embeddings(x); !mat.Equal(again[2], logits) {
				t.Fatalf("%v: second call differs", k)
			}
		}
	}
}

// TestEmbeddingsTrained: after training, the last embedding gives the
// trainer's reported accuracies.
func TestEmbeddingsTrained(t *testing.T) {
	data := bottleneckData(t, GCN)
	cfg := Defaults("bottleneck")
	cfg.Layers, cfg.Epochs = 3, 20
	tr, err := NewTrainer(data, cfg, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	var st EpochStats
	for range cfg.Epochs {
		st = tr.Epoch()
	}
	emb := tr.Model().Embeddings(data.X)
	sp := data.Splits[0]
	if got := Accuracy(emb[2], data.Labels, sp.Test); got != st.TestAcc {
		t.Fatalf("test accuracy from the last embedding %v, trainer %v", got, st.TestAcc)
	}
}
