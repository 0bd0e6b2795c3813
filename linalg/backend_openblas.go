//go:build openblas

package linalg

// The netlib packages carry no linker flags of their own; these make a plain
// `go build -tags openblas` link against the system libraries (Debian:
// libopenblas-dev for CBLAS, liblapacke-dev for LAPACKE) without CGO_LDFLAGS.

/*
#cgo LDFLAGS: -llapacke -lopenblas
*/
import "C"

import (
	"fmt"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
	blasnetlib "gonum.org/v1/netlib/blas/netlib"
	lapacknetlib "gonum.org/v1/netlib/lapack/netlib"
)

// With the openblas build tag, ohm routes all of gonum's dense linear algebra
// to OpenBLAS through cgo (gonum.org/v1/netlib): blas64 (every mat product),
// lapack64 (Cholesky, inverses, eigen and SVD decompositions in mat) and the
// Dgehrd/Dorghr/Dhseqr calls of RealSchur. The default build stays pure Go and
// needs neither cgo nor the C libraries.
func init() {
	blas64.Use(blasnetlib.Implementation{})
	lapack64.Use(lapacknetlib.Implementation{})
	lapackImpl = netlibSchur{}
	backendName = "openblas"
	pureGoLAPACK = false
}

// netlibSchur is netlib's LAPACKE binding for RealSchur. It differs from the
// plain binding only in Dhseqr, where a negative LAPACKE status (an invalid
// argument, or LAPACKE failing to allocate its transposition buffers) panics
// instead of passing for "all eigenvalues converged".
type netlibSchur struct{ lapacknetlib.Implementation }

func (s netlibSchur) Dhseqr(job lapack.SchurJob, compz lapack.SchurComp, n, ilo, ihi int, h []float64, ldh int, wr, wi []float64, z []float64, ldz int, work []float64, lwork int) int {
	info := s.Implementation.Dhseqr(job, compz, n, ilo, ihi, h, ldh, wr, wi, z, ldz, work, lwork)
	if info < 0 {
		panic(fmt.Sprintf("linalg: LAPACKE_dhseqr failed with status %d", info))
	}
	return info
}
