package linalg

import (
	"gonum.org/v1/gonum/lapack"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
)

// Backend names the BLAS/LAPACK implementation that ohm's dense linear
// algebra (and every gonum mat call in the process) runs on: "gonum (pure Go)"
// in the default build, "openblas" when built with the openblas tag (see
// backend_openblas.go). CLIs and benchmarks print it so that timings say which
// backend produced them.
func Backend() string { return backendName }

// backendName is what Backend returns; the openblas build overrides it.
var backendName = "gonum (pure Go)"

// pureGoLAPACK reports whether lapack64 runs gonum's pure-Go LAPACK, whose
// bits potriUpper reproduces; the openblas build clears it.
var pureGoLAPACK = true

// hessenbergSchur is the part of LAPACK that RealSchur calls directly, because
// gonum's lapack64 does not wrap it: Hessenberg reduction (Dgehrd), the
// orthogonal factor (Dorghr) and the multishift QR algorithm (Dhseqr), with
// gonum's 0-based, row-major conventions.
type hessenbergSchur interface {
	Dgehrd(n, ilo, ihi int, a []float64, lda int, tau, work []float64, lwork int)
	Dorghr(n, ilo, ihi int, a []float64, lda int, tau, work []float64, lwork int)
	Dhseqr(job lapack.SchurJob, compz lapack.SchurComp, n, ilo, ihi int, h []float64, ldh int, wr, wi []float64, z []float64, ldz int, work []float64, lwork int) (unconverged int)
}

// lapackImpl is the implementation realSchur uses: gonum's pure-Go LAPACK by
// default, LAPACKE/OpenBLAS in the openblas build. It is set only during
// package initialisation.
var lapackImpl hessenbergSchur = lapackgonum.Implementation{}
