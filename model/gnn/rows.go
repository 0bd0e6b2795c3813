package gnn

// Row-wise sums over whole blocks — column sums, adding one row to every
// row, scaling — in one AVX loop per 16 columns (AVX-512: 32) instead of
// an axpy call per row, with the same bits.

// masks16[w] selects the first w of 16 lanes.
var masks16 = func() (m [17][16]int64) {
	for w := range m {
		for k := range w {
			m[w][k] = -1
		}
	}
	return m
}()

// sumRows adds the n rows of the w-column block src to dst[0:w], in
// ascending row order, each entry one rounded add per row (the bits of
// axpy(dst, 1, row) row by row). O(n·w).
func sumRows(dst []float64, src strided, n, w int) {
	if !useAVX || n == 0 || w == 0 {
		for i := range n {
			axpy(dst[:w], 1, src.data[i*src.stride+src.off:i*src.stride+src.off+w])
		}
		return
	}
	if len(dst) < w || src.off < 0 || (n-1)*src.stride+src.off+w > len(src.data) {
		panic("gnn: sumRows block out of range")
	}
	if useAVX512 {
		for c := 0; c < w; c += 32 {
			sumRows32(&dst[c], &src.data[src.off+c], n, src.stride, min(32, w-c))
		}
		return
	}
	for c := 0; c < w; c += 16 {
		sumRows16AVX(&dst[c], &src.data[src.off+c], n, src.stride, &masks16[min(16, w-c)])
	}
}

// addToRows adds v[0:w] to each of the n rows of the w-column block dst
// (the bits of axpy(row, 1, v)). O(n·w).
func addToRows(dst strided, n, w int, v []float64) {
	if !useAVX || n == 0 || w == 0 {
		for i := range n {
			axpy(dst.data[i*dst.stride+dst.off:i*dst.stride+dst.off+w], 1, v)
		}
		return
	}
	if len(v) < w || dst.off < 0 || (n-1)*dst.stride+dst.off+w > len(dst.data) {
		panic("gnn: addToRows block out of range")
	}
	if useAVX512 {
		for c := 0; c < w; c += 32 {
			addToRows32(&dst.data[dst.off+c], dst.stride, n, &v[c], min(32, w-c))
		}
		return
	}
	for c := 0; c < w; c += 16 {
		addToRows16AVX(&dst.data[dst.off+c], dst.stride, n, &v[c], &masks16[min(16, w-c)])
	}
}

// scaleAll multiplies every entry of y by f (the bits of y[k] *= f). O(len(y)).
func scaleAll(y []float64, f float64) {
	k := 0
	if useAVX && len(y) >= 4 {
		k = len(y) &^ 3
		scaleAVX(&y[0], f, k)
	}
	for ; k < len(y); k++ {
		y[k] *= f
	}
}
