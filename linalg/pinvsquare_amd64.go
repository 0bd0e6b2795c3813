//go:build !noasm && !openblas

package linalg

import "golang.org/x/sys/cpu"

// fmaBlock4x8US is fmaBlock4x8U storing the 4×8 block of c instead of
// adding to it (pinvsquare_amd64.s). The caller checks the bounds.
//
//go:noescape
func fmaBlock4x8US(a *float64, lda int, b *float64, ldb int, k int, c *float64, ldc int)

// fmaBlock8x8US is fmaBlock4x8US on an 8×8 block by AVX-512
// (pinvsquare512_amd64.s). The caller checks the bounds and the CPU.
//
//go:noescape
func fmaBlock8x8US(a *float64, lda int, b *float64, ldb int, k int, c *float64, ldc int)

// fma8x8 reports whether ComponentPinvSquare's products run by
// fmaBlock8x8US: with AVX-512F besides fmaKernel's AVX2 and FMA.
var fma8x8 = fmaKernel && cpu.X86.HasAVX512F

// fmaBlock8x8U is fmaBlock8x8US adding to the block of c (the sums
// continued from its entries). The caller checks the bounds and the CPU.
//
//go:noescape
func fmaBlock8x8U(a *float64, lda int, b *float64, ldb int, k int, c *float64, ldc int)
