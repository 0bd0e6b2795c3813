//go:build !noasm && !openblas

package linalg

import "golang.org/x/sys/cpu"

// dotChunkAVX2 adds to each of the groups·8 entries c[0:8·groups] the dot
// product of t[0:k] with the matching column of the k×(8·groups) panel zt
// (row stride ldz), summed in the order of gonum's amd64 DotUnitary
// (symkernel_amd64.s). Pointers, not slices: the caller checks the bounds.
//
//go:noescape
func dotChunkAVX2(t, zt *float64, ldz int, c *float64, k, groups int)

// axpyBlockAVX2 adds to the 4×8 block of c (row stride ldc) the products
// a(r, l)·b[l][j] for l = 0, …, k−1 in turn, a(r, l) at a[r·sa + l·sl],
// row l of b at b[l·ldb], in the order of gonum's AxpyUnitary
// (symkernel_amd64.s). The caller checks the bounds.
//
//go:noescape
func axpyBlockAVX2(a *float64, sa, sl int, b *float64, ldb int, c *float64, ldc int, k int)

// axpyRowAVX2 is axpyBlockAVX2 for one row of sixteen columns, a(l) at
// a[l·sl].
//
//go:noescape
func axpyRowAVX2(a *float64, sl int, b *float64, ldb int, c *float64, k int)

// symKernel reports whether AddToSym uses its own product kernel
// (addUpperTZ): on amd64 with AVX2, in the pure-Go build, where it gives
// the same bits as gonum's Dgemm.
var symKernel = cpu.X86.HasAVX2 && cpu.X86.HasAVX

// fmaBlock4x8 adds to the 4×8 block of c (row stride ldc) the products of
// four packed rows of T (tp) and eight packed rows of Z (zp) over k ≥ 1
// terms, with fused multiply–adds (symfma_amd64.s). The caller checks the
// bounds.
//
//go:noescape
func fmaBlock4x8(tp, zp *float64, k int, c *float64, ldc int)

// fmaKernel reports whether AddToSym uses fmaBlock4x8 (addUpperTZFMA):
// on amd64 with AVX2 and FMA, in the pure-Go build.
var fmaKernel = cpu.X86.HasAVX2 && cpu.X86.HasAVX && cpu.X86.HasFMA

// fmaBlock4x8U is fmaBlock4x8 on operands in place: four rows of A at a
// (row stride lda, each contiguous) and eight columns of B at b (row
// stride ldb). The caller checks the bounds.
//
//go:noescape
func fmaBlock4x8U(a *float64, lda int, b *float64, ldb int, k int, c *float64, ldc int)
