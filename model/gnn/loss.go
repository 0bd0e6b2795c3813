package gnn

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// CrossEntropy returns the softmax cross-entropy of the n×C logits at the
// given nodes, averaged over them:
//
//	L = −(1/|T|) Σ_{i∈T} log softmax(z_i)[y_i]
//
// computed stably (log-sum-exp around the row maximum). When grad is not
// nil (n×C) it is set to dL/dz: (softmax(z_i) − e_{y_i})/|T| on the rows of T,
// zero elsewhere. Empty nodes give 0. O(n·C).
func CrossEntropy(logits *mat.Dense, labels, nodes []int, grad *mat.Dense) float64 {
	logits = contiguous(logits)
	n, c := logits.Dims()
	g := strided{}
	if grad != nil {
		g = strided{rawDense(grad), c, 0}
	}
	return crossEntropy(strided{rawDense(logits), c, 0}, n, c, labels, nodes, g)
}

// crossEntropy is CrossEntropy on the strided block z (n×c), setting the
// strided block grad (n×c) unless grad.data is nil.
func crossEntropy(z strided, n, c int, labels, nodes []int, grad strided) float64 {
	g := grad.data
	if g != nil {
		for i := range n {
			clear(g[i*grad.stride+grad.off : i*grad.stride+grad.off+c])
		}
	}
	if len(nodes) == 0 {
		return 0
	}
	inv := 1 / float64(len(nodes))
	var loss float64
	for _, i := range nodes {
		zi := z.data[i*z.stride+z.off : i*z.stride+z.off+c]
		mx := math.Inf(-1)
		for _, v := range zi {
			mx = max(mx, v)
		}
		var s float64
		for _, v := range zi {
			s += math.Exp(v - mx)
		}
		lse := mx + math.Log(s)
		loss -= zi[labels[i]] - lse
		if g != nil {
			gi := g[i*grad.stride+grad.off : i*grad.stride+grad.off+c]
			for k, v := range zi {
				gi[k] = math.Exp(v-lse) * inv
			}
			gi[labels[i]] -= inv
		}
	}
	return loss * inv
}

// Accuracy returns the fraction of the given nodes whose arg-max logit (the
// first maximum on ties) equals their label, in [0, 1]; 0 for no nodes.
// O(|nodes|·C).
func Accuracy(logits *mat.Dense, labels, nodes []int) float64 {
	logits = contiguous(logits)
	_, c := logits.Dims()
	return accuracy(strided{rawDense(logits), c, 0}, c, labels, nodes)
}

// accuracy is Accuracy on the strided block z with c columns.
func accuracy(z strided, c int, labels, nodes []int) float64 {
	if len(nodes) == 0 {
		return 0
	}
	right := 0
	for _, i := range nodes {
		if argmax(z.data[i*z.stride+z.off:i*z.stride+z.off+c]) == labels[i] {
			right++
		}
	}
	return float64(right) / float64(len(nodes))
}

// argmax returns the index of the first maximum of z (a NaN never wins).
func argmax(z []float64) int {
	best, arg := math.Inf(-1), 0
	for k, v := range z {
		if v > best {
			best, arg = v, k
		}
	}
	return arg
}
