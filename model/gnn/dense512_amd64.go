package gnn

import "golang.org/x/sys/cpu"

// useAVX512 selects the AVX-512 dense kernels (dense512_amd64.s) where
// the CPU has AVX-512F and the OS saves its registers; tests switch it
// off to compare. They give the bits of the AVX kernels, faster
// (docs/benchmarks.md).
var useAVX512 = cpu.X86.HasAVX512F

// denseNN64x2FZ is denseNN16x2FAVX on 64 columns at once in AVX-512: for
// i < n (n even), dst[i·ds : +64] = Σ_{p<k} a[i·as+p]·b[p·bs : +64],
// summed from zero in ascending p, for a b of finite entries only. The
// caller checks the bounds. O(n·k·64).
//
//go:noescape
func denseNN64x2FZ(dst *float64, ds int, a *float64, as int, n, k int, b *float64, bs int)

// denseTN32x4FZ is denseTN16x2FAVX on 32 columns of dst and four listed
// rows at a time in AVX-512: for the rows i of rows[0:nr] (nr a multiple
// of 4) in order and p < k, dst[p·ds : +32] += a[i·as+p]·gr[i·gs : +32],
// for a g of finite entries only. The caller checks the bounds.
// O(nr·k·32).
//
//go:noescape
func denseTN32x4FZ(dst *float64, ds int, a *float64, as int, rows *int, nr, k int, gr *float64, gs int)

// denseNNList64 is denseNN64x2FZ on the listed non-zero coefficients of
// each row of a only (densesparse512_amd64.s): for i < n, dst[i·ds : +64] =
// Σ a[i·as+p]·b[p·bs : +64] over the cnt[i] indices p of row i in idx (the
// rows' lists in turn), the same bits for a b of finite entries only. The
// caller checks the bounds. O(Σcnt·64).
//
//go:noescape
func denseNNList64(dst *float64, ds int, a *float64, as int, n int, b *float64, bs int, idx, cnt *int32)

// nonZeroIdx512 lists row by row the column indices of the non-zero
// entries of a (n×k; NaN counts, ±0 does not) in idx, their number per
// row in cnt, and returns their total (densesparse512_amd64.s); idx must
// hold the total plus 16. The caller checks the bounds. O(n·k).
//
//go:noescape
func nonZeroIdx512(a *float64, n, k int, idx, cnt *int32) (total int)
