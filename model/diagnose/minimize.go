package diagnose

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/optimize"
)

// minimize minimises the smooth function fg (which returns f(x) and, when g
// is not nil, writes ∇f(x) to g) from x with gonum's optimize.LBFGS, stopping
// when ‖∇f‖∞ < gtol or after maxIter major iterations. It returns the
// minimiser, its value, and an error only when the optimiser failed without
// a usable point (running out of iterations or the line search stalling at
// the optimum are not errors: the last point is returned). Cost per
// iteration: one to a few evaluations of fg plus O(10·len(x)).
func minimize(fg func(x, g []float64) float64, x []float64, gtol float64, maxIter int) ([]float64, float64, error) {
	p := optimize.Problem{
		Func: func(x []float64) float64 { return fg(x, nil) },
		Grad: func(g, x []float64) { fg(x, g) },
	}
	res, err := optimize.Minimize(p, x, &optimize.Settings{GradientThreshold: gtol, MajorIterations: maxIter}, &optimize.LBFGS{})
	if res == nil || res.X == nil {
		if err == nil {
			err = errors.New("diagnose: optimizer returned no point")
		}
		return x, math.NaN(), err
	}
	return res.X, res.F, nil
}

// normInf returns max_i |x_i|.
func normInf(x []float64) float64 {
	var m float64
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}
