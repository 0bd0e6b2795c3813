package gnn

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// BatchNorm is PyTorch's BatchNorm1d over the rows of an n×C input
// (definitions §4.4). In training mode it normalises with the batch's
// statistics — mean μ_c and biased variance σ²_c = Σ(x−μ_c)²/n — as
// y = γ·(x−μ)/√(σ²+ε) + β, and updates the running statistics with momentum
// m: r_μ ← (1−m)·r_μ + m·μ, r_σ² ← (1−m)·r_σ² + m·σ²·n/(n−1) (unbiased).
// In evaluation mode it uses the running statistics. γ starts at 1, β at 0,
// r_μ at 0 and r_σ² at 1; m = 0.1, ε = 1e-5. Forward and Backward cost O(n·C).
type BatchNorm struct {
	Gamma, Beta      *Param    // 1×C scale and shift
	RunMean, RunVar  []float64 // running statistics
	Momentum, Eps    float64
	train            bool
	xhat, y, dx      *mat.Dense
	invStd, sum, dot []float64
	scale            []float64 // γ·s/n of the last Backward
	team             *team     // nil: the caller's goroutine
	// relu makes Forward return max(y, 0) (GIN's BatchNorm1d → ReLU in one
	// pass) and Backward take the gradient with respect to it.
	relu bool
}

// NewBatchNorm returns a BatchNorm over c channels with PyTorch's defaults;
// parameter names start with prefix.
func NewBatchNorm(prefix string, c int) *BatchNorm {
	b := &BatchNorm{Gamma: newParam(prefix+".weight", 1, c), Beta: newParam(prefix+".bias", 1, c),
		RunMean: make([]float64, c), RunVar: make([]float64, c), Momentum: 0.1, Eps: 1e-5,
		invStd: make([]float64, c), sum: make([]float64, c), dot: make([]float64, c),
		scale: make([]float64, c)}
	for k := range c {
		b.Gamma.Value.Set(0, k, 1)
		b.RunVar[k] = 1
	}
	return b
}

// Params returns γ and β.
func (b *BatchNorm) Params() []*Param { return []*Param{b.Gamma, b.Beta} }

// Forward normalises x (n×C): with batch statistics when train (n ≥ 2 is
// required there, as PyTorch requires), with the running ones otherwise.
// The result belongs to b. The statistics are split over the channels and
// the normalisation over the rows of b's team (the same bits at any size).
func (b *BatchNorm) Forward(x *mat.Dense, train bool) *mat.Dense {
	x = contiguous(x)
	n, c := x.Dims()
	b.train = train
	b.xhat = ensure(b.xhat, n, c)
	b.y = ensure(b.y, n, c)
	xs, xh, y := rawDense(x), rawDense(b.xhat), rawDense(b.y)
	g, be := rawDense(b.Gamma.Value), rawDense(b.Beta.Value)
	mean, variance := b.sum, b.dot
	if train {
		if n < 2 {
			panic("gnn: BatchNorm in training mode needs at least two rows")
		}
		b.team.run(c, n, nil, func(_ *scratch, c0, c1 int) { b.stats(xs, n, c, c0, c1) })
	} else {
		copy(mean, b.RunMean)
		copy(variance, b.RunVar)
	}
	for k := range c {
		b.invStd[k] = 1 / math.Sqrt(variance[k]+b.Eps)
	}
	b.team.run(n, c, nil, func(_ *scratch, lo, hi int) {
		bnNormRows(xs, xh, y, lo, hi, c, mean, b.invStd, g, be, b.relu)
	})
	return b.y
}

// stats sets the batch mean and biased variance of the channels c0 … c1−1
// of xs (n×c) in b.sum and b.dot, each summed over the rows in ascending
// order, and updates their running statistics. O(n·(c1−c0)).
func (b *BatchNorm) stats(xs []float64, n, c, c0, c1 int) {
	w := c1 - c0
	mean, variance := b.sum[c0:c1][:w], b.dot[c0:c1][:w]
	clear(mean)
	sumRows(mean, strided{xs, c, c0}, n, w)
	for k := range mean {
		mean[k] /= float64(n)
	}
	clear(variance)
	bnColSqDev(variance, xs, n, c, c0, w, mean)
	rm, rv := b.RunMean[c0:c1], b.RunVar[c0:c1]
	for k := range variance {
		s := variance[k]
		variance[k] = s / float64(n)
		rm[k] = (1-b.Momentum)*rm[k] + b.Momentum*mean[k]
		rv[k] = (1-b.Momentum)*rv[k] + b.Momentum*s/float64(n-1)
	}
}

// Backward sets dγ = Σ dy·x̂ and dβ = Σ dy and returns dL/dx of the last
// Forward: in training mode (γ·s/n)·(n·dy − Σdy − x̂·Σ(dy·x̂)) with
// s = 1/√(σ²+ε), the batch statistics depending on x; in evaluation mode
// γ·s·dy. With relu, dy is the gradient with respect to max(y, 0) and is
// zeroed in place where y ≤ 0 first. The result belongs to b. The sums are
// split over the channels and dL/dx over the rows of b's team.
func (b *BatchNorm) Backward(dy *mat.Dense) *mat.Dense {
	dy = contiguous(dy)
	n, c := dy.Dims()
	d, xh := rawDense(dy), rawDense(b.xhat)
	if b.relu { // dy is with respect to max(y, 0): zero it where y ≤ 0, in place
		ys := rawDense(b.y)
		b.team.elems(len(d), func(lo, hi int) { reluGrad(d[lo:hi], ys[lo:hi]) })
	}
	g := rawDense(b.Gamma.Value)
	sum, dot := b.sum, b.dot
	b.team.run(c, n, nil, func(_ *scratch, c0, c1 int) {
		w := c1 - c0
		sum, dot := sum[c0:c1][:w], dot[c0:c1][:w]
		clear(sum)
		clear(dot)
		bnColSumDot(sum, dot, d, xh, n, c, c0, w)
	})
	copy(rawDense(b.Beta.Grad), sum)
	copy(rawDense(b.Gamma.Grad), dot)
	b.dx = ensure(b.dx, n, c)
	dx := rawDense(b.dx)
	train, fn := b.train, float64(n)
	for k := range c {
		b.scale[k] = g[k] * b.invStd[k] / fn // dL/dx's factor, as the Go loop groups it
	}
	b.team.run(n, c, nil, func(_ *scratch, lo, hi int) {
		if train {
			bnGradRows(dx, d, xh, lo, hi, c, b.scale, sum, dot, fn)
			return
		}
		g, inv := g[:c], b.invStd[:c]
		for i := lo; i < hi; i++ {
			dr, xr := d[i*c:][:c], dx[i*c:][:c]
			for k, v := range dr {
				xr[k] = g[k] * inv[k] * v
			}
		}
	})
	return b.dx
}
