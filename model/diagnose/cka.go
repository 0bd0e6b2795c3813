package diagnose

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// LinearCKA returns the linear centered kernel alignment of Kornblith et al.
// between the representations x (n×p) and y (n×q) of the same n nodes (definitions
// §5): with X and Y the column-centered x and y,
//
//	CKA = ‖YᵀX‖²_F / (‖XᵀX‖_F · ‖YᵀY‖_F),
//
// a number in [0, 1], 1 for representations equal up to an orthogonal
// transformation and isotropic scaling (to which it is invariant, as to
// translations). If either centered representation is zero (every row equal)
// the ratio is undefined and LinearCKA returns 0. x and y are not modified.
// It panics if the row counts differ.
//
// Cost: O(n·(p² + q² + p·q)) for the three Gram products.
func LinearCKA(x, y *mat.Dense) float64 {
	n, _ := x.Dims()
	if ny, _ := y.Dims(); ny != n {
		panic(fmt.Sprintf("diagnose: LinearCKA of %d and %d rows", n, ny))
	}
	cx, cy := centered(x), centered(y)
	var xy, xx, yy mat.Dense
	xy.Mul(cy.T(), cx)
	xx.Mul(cx.T(), cx)
	yy.Mul(cy.T(), cy)
	num := mat.Norm(&xy, 2) // Frobenius
	den := mat.Norm(&xx, 2) * mat.Norm(&yy, 2)
	if !(den > 0) {
		return 0
	}
	return math.Min(1, num*num/den)
}

// centered returns a copy of a with every column's mean subtracted.
func centered(a *mat.Dense) *mat.Dense {
	r, c := a.Dims()
	out := mat.DenseCopyOf(a)
	for j := range c {
		var s float64
		for i := range r {
			s += out.At(i, j)
		}
		s /= float64(r)
		for i := range r {
			out.Set(i, j, out.At(i, j)-s)
		}
	}
	return out
}
