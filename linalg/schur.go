package linalg

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/mat"
)

// ErrSchurNotConverged is returned (wrapped) when the QR algorithm of the real
// Schur decomposition fails to converge.
var ErrSchurNotConverged = errors.New("linalg: real Schur decomposition did not converge")

// ErrNotFinite is returned (wrapped) when an input matrix holds a NaN or an
// infinity.
var ErrNotFinite = errors.New("linalg: matrix has a NaN or infinite entry")

// RealSchur computes the real Schur decomposition A = U T Uᵀ of the square
// matrix A: U is orthogonal and T is upper quasi-triangular, with 1×1 diagonal
// blocks for the real eigenvalues and 2×2 diagonal blocks, in LAPACK's standard
// form (equal diagonal entries, off-diagonal entries of opposite signs), for the
// complex-conjugate pairs. Entries of T below the diagonal other than the
// subdiagonal entry of a 2×2 block are exactly zero.
//
// It reduces A to Hessenberg form (Dgehrd), forms the orthogonal factor (Dorghr)
// and runs the multishift QR algorithm (Dhseqr) of gonum's pure-Go LAPACK
// (LAPACKE/OpenBLAS when built with the openblas tag, see Backend). The cost is
// O(n³), in practice about 25n³ flops, and it dominates SolveLyapunov.
// A is not modified. A non-square A panics; an empty A gives empty results. The
// error wraps ErrNotFinite if A holds a NaN or an infinity and
// ErrSchurNotConverged if the QR iteration fails.
func RealSchur(A *mat.Dense) (T, U *mat.Dense, err error) {
	if A.IsEmpty() {
		return &mat.Dense{}, &mat.Dense{}, nil
	}
	r, c := A.Dims()
	if r != c {
		panic(fmt.Sprintf("linalg: RealSchur: A is %d×%d, not square", r, c))
	}
	t := schurCopyDense(A)
	u, _, _, err := realSchur(r, t)
	if err != nil {
		return nil, nil, err
	}
	return mat.NewDense(r, r, t), mat.NewDense(r, r, u), nil
}

// schurCopyDense returns the entries of the n×n matrix A in a fresh contiguous
// row-major slice.
func schurCopyDense(A *mat.Dense) []float64 {
	raw := A.RawMatrix()
	n := raw.Rows
	out := make([]float64, n*raw.Cols)
	for i := 0; i < n; i++ {
		copy(out[i*raw.Cols:(i+1)*raw.Cols], raw.Data[i*raw.Stride:i*raw.Stride+raw.Cols])
	}
	return out
}

// lyapAllFinite reports whether every element of s is finite.
func lyapAllFinite(s []float64) bool {
	for _, v := range s {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// realSchur overwrites the n×n row-major matrix h (stride n) with the Schur
// form T of its input and returns the Schur vectors U (n×n, stride n, so that
// input = U T Uᵀ) and the eigenvalues (wr[i] + i·wi[i], in the order of the
// diagonal of T). Below the diagonal, T is zero except for the subdiagonal
// entries of its 2×2 blocks.
func realSchur(n int, h []float64) (u, wr, wi []float64, err error) {
	if !lyapAllFinite(h[:n*n]) {
		return nil, nil, nil, fmt.Errorf("%w (matrix to reduce to real Schur form)", ErrNotFinite)
	}
	impl := lapackImpl // gonum, or LAPACKE with the openblas tag (backend*.go)
	wr = make([]float64, n)
	wi = make([]float64, n)
	u = make([]float64, n*n)
	if n == 1 {
		u[0] = 1
		wr[0] = h[0]
		return u, wr, wi, nil
	}

	// Workspace: the largest of the three optimal sizes.
	var q [1]float64
	impl.Dgehrd(n, 0, n-1, h, n, nil, q[:], -1)
	lwork := int(q[0])
	impl.Dorghr(n, 0, n-1, u, n, nil, q[:], -1)
	lwork = max(lwork, int(q[0]))
	impl.Dhseqr(lapack.EigenvaluesAndSchur, lapack.SchurOrig, n, 0, n-1, h, n, wr, wi, u, n, q[:], -1)
	lwork = max(lwork, int(q[0]), n)
	work := make([]float64, lwork)
	tau := make([]float64, n-1)

	// Hessenberg reduction A = Q H Qᵀ; the reflectors are left below the
	// subdiagonal of h.
	impl.Dgehrd(n, 0, n-1, h, n, tau, work, lwork)
	copy(u, h)
	impl.Dorghr(n, 0, n-1, u, n, tau, work, lwork)
	for i := 2; i < n; i++ {
		clear(h[i*n : i*n+i-1])
	}

	// QR iterations H = Z T Zᵀ, with Z accumulated into Q: U = Q Z.
	if unconv := impl.Dhseqr(lapack.EigenvaluesAndSchur, lapack.SchurOrig, n, 0, n-1, h, n, wr, wi, u, n, work, lwork); unconv > 0 {
		return nil, nil, nil, fmt.Errorf("%w (%d of %d eigenvalues unconverged)", ErrSchurNotConverged, unconv, n)
	}
	// Make the structure explicit: zero below the diagonal except inside the
	// 2×2 blocks, which Dhseqr reports through wi.
	for i := 1; i < n; i++ {
		if !(wi[i-1] > 0 && wi[i] < 0) {
			h[i*n+i-1] = 0
		}
		clear(h[i*n : i*n+i-1])
	}
	return u, wr, wi, nil
}
