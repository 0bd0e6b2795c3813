package gnn

// The row loops of BatchNorm (definitions §4.4) on row-major n×c blocks
// (its column sums are rows.go's sumRows): sums of squared deviations over
// the rows in ascending order, the normalisation of a range of rows, and
// dL/dx. Each runs the AVX-512 kernels of batchnorm_amd64.s on 32 columns
// at a time where the CPU has them, with the bits of the Go loops here
// (TestBatchNormAVXBits).

// bnBlock is the widest block of columns the AVX-512 kernels take.
const bnBlock = 32

// bnColSqDev adds Σ_i (x_ik − mean[k])² over the n rows of columns c0 …
// c0+w−1 of xs (n×c) to dst[0:w], rows in ascending order. O(n·w).
func bnColSqDev(dst, xs []float64, n, c, c0, w int, mean []float64) {
	checkCols(len(dst), len(xs), n, c, c0, w)
	if len(mean) < w {
		panic("gnn: bnColSqDev mean out of range")
	}
	if useAVX512 && n > 0 {
		for b := 0; b < w; b += bnBlock {
			bnSqDev32(&dst[b], &xs[c0+b], n, c, &mean[b], min(bnBlock, w-b))
		}
		return
	}
	dst, mean = dst[:w], mean[:w]
	for i := range n {
		for k, v := range xs[i*c+c0:][:w] {
			d := v - mean[k]
			dst[k] += d * d
		}
	}
}

// bnColSumDot adds the column sums of d and of d∘h (both n×c, columns c0 …
// c0+w−1) to sum[0:w] and dot[0:w], rows in ascending order. O(n·w).
func bnColSumDot(sum, dot, d, h []float64, n, c, c0, w int) {
	checkCols(min(len(sum), len(dot)), min(len(d), len(h)), n, c, c0, w)
	if useAVX512 && n > 0 {
		for b := 0; b < w; b += bnBlock {
			bnSumDot32(&sum[b], &dot[b], &d[c0+b], &h[c0+b], n, c, min(bnBlock, w-b))
		}
		return
	}
	sum, dot = sum[:w], dot[:w]
	for i := range n {
		dr, hr := d[i*c+c0:][:w], h[i*c+c0:][:w]
		for k, v := range dr {
			sum[k] += v
			dot[k] += v * hr[k]
		}
	}
}

// bnNormRows sets, on the rows lo … hi−1 of the n×c xs, xh = (x −
// mean[k])·inv[k] and y = g[k]·xh + be[k], or max(g[k]·xh + be[k], 0) when
// relu. O((hi−lo)·c).
func bnNormRows(xs, xh, y []float64, lo, hi, c int, mean, inv, g, be []float64, relu bool) {
	checkRows(min(len(xs), len(xh), len(y)), min(len(mean), len(inv), len(g), len(be)), lo, hi, c)
	if useAVX512 && hi > lo {
		for b := 0; b < c; b += bnBlock {
			o := lo*c + b
			bnNorm32(&xs[o], &xh[o], &y[o], hi-lo, c, &mean[b], &inv[b], &g[b], &be[b], relu, min(bnBlock, c-b))
		}
		return
	}
	mean, inv, g, be = mean[:c], inv[:c], g[:c], be[:c] // rows of length c: no bounds checks
	for i := lo; i < hi; i++ {
		xr, hr, yr := xs[i*c:][:c], xh[i*c:][:c], y[i*c:][:c]
		for k, v := range xr {
			h := (v - mean[k]) * inv[k]
			hr[k] = h
			yr[k] = g[k]*h + be[k]
		}
		if relu {
			for k, v := range yr {
				yr[k] = max(v, 0)
			}
		}
	}
}

// bnGradRows sets, on the rows lo … hi−1 of the n×c d, dx = a[k]·((fn·d −
// sum[k]) − h·dot[k]). O((hi−lo)·c).
func bnGradRows(dx, d, h []float64, lo, hi, c int, a, sum, dot []float64, fn float64) {
	checkRows(min(len(dx), len(d), len(h)), min(len(a), len(sum), len(dot)), lo, hi, c)
	if useAVX512 && hi > lo {
		for b := 0; b < c; b += bnBlock {
			o := lo*c + b
			bnGrad32(&dx[o], &d[o], &h[o], hi-lo, c, &a[b], &sum[b], &dot[b], fn, min(bnBlock, c-b))
		}
		return
	}
	a, sum, dot = a[:c], sum[:c], dot[:c]
	for i := lo; i < hi; i++ {
		dr, hr, xr := d[i*c:][:c], h[i*c:][:c], dx[i*c:][:c]
		for k, v := range dr {
			xr[k] = a[k] * (fn*v - sum[k] - hr[k]*dot[k])
		}
	}
}

// checkCols panics unless a w-long vector and the columns c0 … c0+w−1 of
// n rows of stride c fit their slices.
func checkCols(vec, mat, n, c, c0, w int) {
	if w < 0 || c0 < 0 || c0+w > c || vec < w || (n > 0 && (n-1)*c+c0+w > mat) {
		panic("gnn: BatchNorm column block out of range")
	}
}

// checkRows panics unless the rows lo … hi−1 of stride c and c-long
// vectors fit their slices.
func checkRows(mat, vec, lo, hi, c int) {
	if lo < 0 || hi < lo || hi*c > mat || vec < c {
		panic("gnn: BatchNorm row block out of range")
	}
}
