package gnn

import "gonum.org/v1/gonum/mat"

// Embeddings returns the representation of every node after each layer of
// the model, in eval mode (no dropout): element ℓ−1 (ℓ = 1..L) is the n×width
// output of convolution ℓ itself — Â·H·W + b for GCN, the DirGCN sum for
// DirGCN — before the PairNorm and ReLU that follow it (definitions §5: "after each
// layer ℓ"). The last element is therefore the logits Forward(x, false)
// returns. The matrices are fresh copies owned by the caller.
//
// Taking the convolution's output rather than the ReLU's keeps the signs
// (after a ReLU every cosine is ≥ 0 and rows that are all negative become
// zero) and makes every layer, the last included, the same kind of
// quantity. The input of the next layer is relu(PairNorm(Embeddings[ℓ−1])).
//
// Embeddings leaves the model in the state Forward(x, false) leaves it in
// (Backward may follow). Cost: that of Forward(x, false) plus copying the L
// outputs, O(n·(Hidden·(L−1) + Classes)).
func (m *Model) Embeddings(x mat.Matrix) []*mat.Dense {
	out := make([]*mat.Dense, len(m.convs))
	m.forward(x, false, func(l int, z *mat.Dense) { out[l] = mat.DenseCopyOf(z) })
	return out
}
