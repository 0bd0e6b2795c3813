//go:build !amd64 || noasm || openblas

package linalg

func fmaBlock4x8US(a *float64, lda int, b *float64, ldb int, k int, c *float64, ldc int) {
	panic("linalg: fmaBlock4x8US without FMA")
}
