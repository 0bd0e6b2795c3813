package gnn

// The AVX-512 row loops of BatchNorm (batchnorm_amd64.s), on blocks of
// w ≤ 32 columns with row stride ss; the bits of the Go loops of
// batchnorm_rows.go. The callers check the bounds; each costs O(n·w).

// bnSqDev32 sets dst[k] += (src[i·ss+k] − mean[k])² for the rows i < n in
// order.
//
//go:noescape
func bnSqDev32(dst, src *float64, n, ss int, mean *float64, w int)

// bnNorm32 sets xh = (x − mean[k])·inv[k] and y = gamma[k]·xh + beta[k],
// or max(that, 0) when relu, on n rows.
//
//go:noescape
func bnNorm32(x, xh, y *float64, n, ss int, mean, inv, gamma, beta *float64, relu bool, w int)

// bnSumDot32 sets sum[k] += d[i·ss+k] and dot[k] += d[i·ss+k]·h[i·ss+k]
// for the rows i < n in order.
//
//go:noescape
func bnSumDot32(sum, dot, d, h *float64, n, ss, w int)

// bnGrad32 sets dx = a[k]·((fn·d − sum[k]) − h·dot[k]) on n rows.
//
//go:noescape
func bnGrad32(dx, d, h *float64, n, ss int, a, sum, dot *float64, fn float64, w int)
