//go:build !amd64 || noasm || openblas

package linalg

func fmaBlock4x8US(a *float64, lda int, b *float64, ldb int, k int, c *float64, ldc int) {
	panic("linalg: fmaBlock4x8US without FMA")
}

func fmaBlock8x8US(a *float64, lda int, b *float64, ldb int, k int, c *float64, ldc int) {
	panic("linalg: fmaBlock8x8US without AVX-512")
}

// fma8x8 is false where fmaBlock8x8US is not built.
var fma8x8 = false

func fmaBlock8x8U(a *float64, lda int, b *float64, ldb int, k int, c *float64, ldc int) {
	panic("linalg: fmaBlock8x8U without AVX-512")
}
