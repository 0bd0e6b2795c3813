package diagnose

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// LinearProbe fits a multinomial logistic regression to (train, ytrain) and
// returns its accuracy on (test, ytest), a fraction in [0, 1].
//
// The features are first standardised with the training rows' column mean
// and population standard deviation (the test rows with the same numbers); a
// column constant on the training rows (standard deviation ≤ 1e-12 times its
// scale) is dropped, i.e. set to 0 on both sides. The model has a weight
// matrix W (d×classes) and a bias b (classes); it minimises
//
//	(1/n) Σ_i −log softmax(x_i W + b)[y_i]  +  (l2/2)·‖W‖²_F
//
// (the bias unpenalised) with L-BFGS (gonum's optimize.LBFGS, see minimize) from W = 0, b = 0,
// until the gradient's largest entry is below 1e-6, the objective stops
// improving, or 1000 iterations. The fit is deterministic. With l2 = 1/n it is
// scikit-learn's LogisticRegression(C=1) objective. Predictions are the
// arg max of the logits (the smallest class on ties); a label-independent
// embedding thus predicts the training majority class.
//
// It returns an error for mismatched shapes, labels outside [0, classes),
// no training or test rows, l2 < 0, or a failed fit (non-finite objective).
//
// Cost: O(n·d·classes) per objective and gradient evaluation, times the
// number of L-BFGS evaluations (typically tens to hundreds).
func LinearProbe(train, test *mat.Dense, ytrain, ytest []int, classes int, l2 float64) (acc float64, err error) {
	n, d := train.Dims()
	nt, dt := test.Dims()
	switch {
	case n == 0 || nt == 0:
		return 0, errors.New("diagnose: linear probe: no training or no test rows")
	case d != dt:
		return 0, fmt.Errorf("diagnose: linear probe: %d training columns, %d test columns", d, dt)
	case len(ytrain) != n || len(ytest) != nt:
		return 0, fmt.Errorf("diagnose: linear probe: %d/%d labels for %d/%d rows", len(ytrain), len(ytest), n, nt)
	case classes < 1:
		return 0, fmt.Errorf("diagnose: linear probe: %d classes", classes)
	case !(l2 >= 0 && !math.IsInf(l2, 1)):
		return 0, fmt.Errorf("diagnose: linear probe: l2 %v must be a finite number ≥ 0", l2)
	}
	for _, ys := range [][]int{ytrain, ytest} {
		for _, y := range ys {
			if y < 0 || y >= classes {
				return 0, fmt.Errorf("diagnose: linear probe: label %d outside [0, %d)", y, classes)
			}
		}
	}
	xs, xt := standardise(train, test)
	C := classes
	nw := d * C
	obj := &softmaxObjective{x: xs, y: ytrain, d: d, c: C, l2: l2,
		logits: make([]float64, C)}
	th, f, err := minimize(obj.eval, make([]float64, nw+C), 1e-6, 1000)
	if err != nil {
		return 0, fmt.Errorf("diagnose: linear probe: %w", err)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, errors.New("diagnose: linear probe: non-finite objective")
	}
	correct := 0
	logits := make([]float64, C)
	for i := range nt {
		obj.logitsOf(xt[i*d:(i+1)*d], th, logits)
		best := 0
		for c := 1; c < C; c++ {
			if logits[c] > logits[best] {
				best = c
			}
		}
		if best == ytest[i] {
			correct++
		}
	}
	return float64(correct) / float64(nt), nil
}

// standardise returns the row-major standardised training and test features.
func standardise(train, test *mat.Dense) (xs, xt []float64) {
	n, d := train.Dims()
	nt, _ := test.Dims()
	mean, scale := make([]float64, d), make([]float64, d)
	for j := range d {
		var s, mx float64
		for i := range n {
			v := train.At(i, j)
			s += v
			mx = math.Max(mx, math.Abs(v))
		}
		m := s / float64(n)
		var ss float64
		for i := range n {
			c := train.At(i, j) - m
			ss += c * c
		}
		sd := math.Sqrt(ss / float64(n))
		mean[j] = m
		if sd > 1e-12*math.Max(mx, 1e-300) && sd > 0 {
			scale[j] = 1 / sd
		}
	}
	fill := func(a *mat.Dense, rows int) []float64 {
		out := make([]float64, rows*d)
		for i := range rows {
			for j := range d {
				out[i*d+j] = (a.At(i, j) - mean[j]) * scale[j]
			}
		}
		return out
	}
	return fill(train, n), fill(test, nt)
}

// softmaxObjective is the probe's mean cross-entropy plus L2 on W. The
// parameter vector is W (d×c, row-major) followed by b (c).
type softmaxObjective struct {
	x      []float64 // n×d row-major
	y      []int
	d, c   int
	l2     float64
	logits []float64
}

// logitsOf sets out = xi·W + b.
func (o *softmaxObjective) logitsOf(xi, th []float64, out []float64) {
	d, c := o.d, o.c
	copy(out, th[d*c:])
	for j, v := range xi {
		if v == 0 {
			continue
		}
		w := th[j*c : (j+1)*c]
		for k := range out {
			out[k] += v * w[k]
		}
	}
}

// eval returns the objective at th and, when g is not nil, sets g to its
// gradient: dW = Xᵀ(P − Y)/n + l2·W, db = 1ᵀ(P − Y)/n.
func (o *softmaxObjective) eval(th, g []float64) float64 {
	d, c := o.d, o.c
	n := len(o.y)
	if g != nil {
		clear(g)
	}
	var loss float64
	z := o.logits
	for i := range n {
		xi := o.x[i*d : (i+1)*d]
		o.logitsOf(xi, th, z)
		mx := z[0]
		for _, v := range z[1:] {
			mx = math.Max(mx, v)
		}
		var se float64
		for k, v := range z {
			z[k] = math.Exp(v - mx)
			se += z[k]
		}
		loss += math.Log(se) + mx - (math.Log(z[o.y[i]]) + mx)
		if g == nil {
			continue
		}
		// z ← (softmax − onehot)/n
		for k := range z {
			z[k] /= se
		}
		z[o.y[i]] -= 1
		for k := range z {
			z[k] /= float64(n)
		}
		for j, v := range xi {
			if v == 0 {
				continue
			}
			gw := g[j*c : (j+1)*c]
			for k := range gw {
				gw[k] += v * z[k]
			}
		}
		gb := g[d*c:]
		for k := range gb {
			gb[k] += z[k]
		}
	}
	loss /= float64(n)
	var reg float64
	for k, w := range th[:d*c] {
		reg += w * w
		if g != nil {
			g[k] += o.l2 * w
		}
	}
	return loss + o.l2/2*reg
}
