//go:build !noasm && !openblas

package linalg

// fmaBlock4x8US is fmaBlock4x8U storing the 4×8 block of c instead of
// adding to it (pinvsquare_amd64.s). The caller checks the bounds.
//
//go:noescape
func fmaBlock4x8US(a *float64, lda int, b *float64, ldb int, k int, c *float64, ldc int)
