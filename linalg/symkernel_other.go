//go:build !amd64 || noasm || openblas

package linalg

// symKernel is false off amd64 and in the openblas build: AddToSym calls
// the backend's Dgemm (gonum's pure-Go dot products may be fused into
// multiply–adds on other architectures, so no kernel here could promise
// gonum's bits).
var symKernel = false

func dotChunkAVX2(t, zt *float64, ldz int, c *float64, k, groups int) {
	panic("linalg: dotChunkAVX2 without AVX2")
}

func axpyBlockAVX2(a *float64, sa, sl int, b *float64, ldb int, c *float64, ldc int, k int) {
	panic("linalg: axpyBlockAVX2 without AVX2")
}

func axpyRowAVX2(a *float64, sl int, b *float64, ldb int, c *float64, k int) {
	panic("linalg: axpyRowAVX2 without AVX2")
}

// fmaKernel is false off amd64 and in the openblas build.
var fmaKernel = false

func fmaBlock4x8(tp, zp *float64, k int, c *float64, ldc int) {
	panic("linalg: fmaBlock4x8 without FMA")
}

func fmaBlock4x8U(a *float64, lda int, b *float64, ldb int, k int, c *float64, ldc int) {
	panic("linalg: fmaBlock4x8U without FMA")
}
