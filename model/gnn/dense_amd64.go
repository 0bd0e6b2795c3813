package gnn

// denseNN16AVX sets 16 columns of dst = a·b (dense_amd64.s): for i < n,
// dst[i·ds : +16] = Σ_{p<k, a[i·as+p] ≠ 0} a[i·as+p]·b[p·bs : +16], summed
// from zero in ascending p, a zero coefficient's term masked to +0 — bit
// for bit gather over the row's non-zero entries. The caller checks the
// bounds. O(n·k·16).
//
//go:noescape
func denseNN16AVX(dst *float64, ds int, a *float64, as int, n, k int, b *float64, bs int)

// denseNN16x2AVX is denseNN16AVX on an even n, two rows at a time (each row
// of b loaded once for both): the same bits.
//
//go:noescape
func denseNN16x2AVX(dst *float64, ds int, a *float64, as int, n, k int, b *float64, bs int)

// denseNN16x2FAVX is denseNN16x2AVX without the masking of zero
// coefficients, for a b of finite entries only: the same bits there
// (a zero coefficient's term is ±0, which leaves a sum started at +0
// unchanged).
//
//go:noescape
func denseNN16x2FAVX(dst *float64, ds int, a *float64, as int, n, k int, b *float64, bs int)

// denseNN8AVX is denseNN16AVX for the lanes of 8 columns whose mask entry
// is −1 (masks8[w] for w ≤ 8 columns): only those are written to dst, but
// b's rows are read whole (8 entries each: the caller pads b).
//
//go:noescape
func denseNN8AVX(dst *float64, ds int, a *float64, as int, n, k int, b *float64, bs int, mask *[8]int64)

// denseTN16AVX adds aᵀ·g over the listed rows to 16 columns of dst
// (dense_amd64.s): for i in rows[0:nr] in order and p < k with
// a[i·as+p] ≠ 0, dst[p·ds : +16] += a[i·as+p]·gr[i·gs : +16] — bit for bit
// scatter row by row. The caller checks the bounds. O(nr·k·16).
//
//go:noescape
func denseTN16AVX(dst *float64, ds int, a *float64, as int, rows *int, nr, k int, gr *float64, gs int)

// denseTN16x2AVX is denseTN16AVX on an even nr, two listed rows at a time
// (each row of dst loaded and stored once for both): the same bits.
//
//go:noescape
func denseTN16x2AVX(dst *float64, ds int, a *float64, as int, rows *int, nr, k int, gr *float64, gs int)

// denseTN16x2FAVX is denseTN16x2AVX without the masking of zero
// coefficients, for a g of finite entries only: the same bits there.
//
//go:noescape
func denseTN16x2FAVX(dst *float64, ds int, a *float64, as int, rows *int, nr, k int, gr *float64, gs int)

// denseTN8AVX is denseTN16AVX for 8 columns of dst, read and written whole
// (the caller pads dst), and the lanes of g whose mask entry is −1 (the
// others read as zero).
//
//go:noescape
func denseTN8AVX(dst *float64, ds int, a *float64, as int, rows *int, nr, k int, gr *float64, gs int, mask *[8]int64)

// finiteAVX reports whether the n entries of v (n a multiple of 16) are
// all finite, in AVX without a branch per entry (dense_amd64.s). The
// caller checks the bounds. O(n).
//
//go:noescape
func finiteAVX(v *float64, n int) bool
