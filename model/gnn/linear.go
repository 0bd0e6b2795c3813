package gnn

import (
	"math"
	"math/rand/v2"

	"github.com/james-bowman/sparse"
	"gonum.org/v1/gonum/mat"
)

// linear is a dense affine map y = x·W + b (PyTorch's nn.Linear with W
// stored in×out, the transpose of PyTorch's weight); without a bias when B
// is nil. Forward costs O(n·in·out), Backward twice that.
type linear struct {
	W, B    *Param
	in, out int
	x       *mat.Dense
	y, dx   *mat.Dense
	ws      scratch
	team    *team // nil: the caller's goroutine
}

// newLinear returns an in→out linear map named prefix, with a bias when
// bias is true, all parameters zero.
func newLinear(prefix string, in, out int, bias bool) *linear {
	l := &linear{in: in, out: out, W: newParam(prefix+".weight", in, out)}
	if bias {
		l.B = newParam(prefix+".bias", 1, out)
	}
	return l
}

// initTorch draws W and b as PyTorch's nn.Linear.reset_parameters does:
// kaiming_uniform with a = √5, i.e. U(−1/√in, 1/√in), and the bias from the
// same interval; W row-major (in×out) first, then b.
func (l *linear) initTorch(rng *rand.Rand) {
	a := 1 / math.Sqrt(float64(l.in))
	uniform(rawDense(l.W.Value), a, rng)
	if l.B != nil {
		uniform(rawDense(l.B.Value), a, rng)
	}
}

// uniform fills w with draws U(−a, a).
func uniform(w []float64, a float64, rng *rand.Rand) {
	for k := range w {
		w[k] = a * (2*rng.Float64() - 1)
	}
}

// params returns W and, when present, b.
func (l *linear) params() []*Param {
	if l.B == nil {
		return []*Param{l.W}
	}
	return []*Param{l.W, l.B}
}

// forward returns x·W + b in a buffer of l.
func (l *linear) forward(x *mat.Dense) *mat.Dense {
	x = contiguous(x)
	n, c := x.Dims()
	if c != l.in {
		panic("gnn: linear input width mismatch")
	}
	l.x = x
	l.y = ensure(l.y, n, l.out)
	y := rawDense(l.y)
	if l.B != nil {
		l.team.mulNNBias(y, rawDense(x), rawDense(l.W.Value), rawDense(l.B.Value), n, l.in, l.out, &l.ws)
	} else {
		l.team.mulNN(y, rawDense(x), rawDense(l.W.Value), n, l.in, l.out, &l.ws)
	}
	return l.y
}

// backward sets dW = xᵀ·dy and db = 1ᵀ·dy and returns dy·Wᵀ when needInput.
func (l *linear) backward(dy *mat.Dense, needInput bool) *mat.Dense {
	n, _ := l.x.Dims()
	g := rawDense(contiguous(dy))
	l.team.mulTN(rawDense(l.W.Grad), rawDense(l.x), g, n, l.in, l.out, &l.ws)
	if l.B != nil {
		l.team.colSums(rawDense(l.B.Grad), g, n, l.out)
	}
	if !needInput {
		return nil
	}
	l.dx = ensure(l.dx, n, l.in)
	l.team.mulNT(rawDense(l.dx), g, rawDense(l.W.Value), n, l.in, l.out, &l.ws)
	return l.dx
}

// prop is a propagation y = A·x by a sparse operator of the batch.
type prop struct {
	y, dx *mat.Dense
	team  *team // nil: the caller's goroutine
}

// forward returns A·x in a buffer of p. O(nnz(A)·w).
func (p *prop) forward(a *sparse.CSR, x *mat.Dense) *mat.Dense {
	x = contiguous(x)
	n, w := x.Dims()
	p.y = ensure(p.y, n, w)
	p.team.csrMul(whole(rawDense(p.y), w), a.RawMatrix(), whole(rawDense(x), w), w, false, nil)
	return p.y
}

// backward returns Aᵀ·dy (at = Aᵀ) in a buffer of p. O(nnz(A)·w).
func (p *prop) backward(at *sparse.CSR, dy *mat.Dense) *mat.Dense {
	dy = contiguous(dy)
	n, w := dy.Dims()
	p.dx = ensure(p.dx, n, w)
	p.team.csrMul(whole(rawDense(p.dx), w), at.RawMatrix(), whole(rawDense(dy), w), w, false, nil)
	return p.dx
}

// addInto sets d += s elementwise.
func addInto(d, s *mat.Dense) {
	dd, ss := rawDense(d), rawDense(s)
	for k, v := range ss[:len(dd)] {
		dd[k] += v
	}
}
