package gnn

// Dense products with AVX: the whole n-row matrix goes through one
// assembly loop per column block (16 columns, or at most 8 under a lane
// mask), zero coefficients masked rather than skipped. They give the bits
// of the sparse-row loops mulNNb, mulTNb and mulNTb (S = 1), which remain
// the path without AVX.

// denseMul sets dst = a·b for a (n×k), b (k×m), dst (n×m), every entry
// summed from zero over ascending p with the terms of zero a[i,p] left out.
// It panics when a slice is too short. O(n·k·m).
func denseMul(dst, a, b []float64, n, k, m int, s *scratch) {
	if !useAVX || n == 0 || m == 0 || k == 0 {
		mulNNb(dst, a, [][]float64{b}, n, k, m, s)
		return
	}
	if len(a) < n*k || len(b) < k*m || len(dst) < n*m {
		panic("gnn: dense product operand too short")
	}
	pairs := denseNN16x2AVX
	fin := allFinite(b[:k*m])
	if fin {
		pairs = denseNN16x2FAVX // no zero coefficient to mask against Inf or NaN
	}
	var idx, cnt []int32
	if fin && useAVX512 && m >= 64 && sparseRows(a, n, k) {
		idx, cnt = s.nonZeroLists(a, n, k)
	}
	for c := 0; c < m; {
		if idx != nil && m-c >= 64 {
			denseNNList64(&dst[c], m, &a[0], k, n, &b[c], m, &idx[0], &cnt[0])
			c += 64
			continue
		}
		if fin && useAVX512 && m-c >= 64 {
			if n >= 2 {
				denseNN64x2FZ(&dst[c], m, &a[0], k, n&^1, k, &b[c], m)
			}
			if n&1 == 1 {
				for q := c; q < c+64; q += 16 {
					denseNN16AVX(&dst[(n-1)*m+q], m, &a[(n-1)*k], k, 1, k, &b[q], m)
				}
			}
			c += 64
			continue
		}
		if m-c >= 16 {
			if n >= 2 {
				pairs(&dst[c], m, &a[0], k, n&^1, k, &b[c], m)
			}
			if n&1 == 1 {
				denseNN16AVX(&dst[(n-1)*m+c], m, &a[(n-1)*k], k, 1, k, &b[c], m)
			}
			c += 16
			continue
		}
		r := min(m-c, 8)
		pad := s.padded(k * 8) // b's r columns, zero-padded to 8
		for p := range k {
			copy(pad[p*8:p*8+8], b[p*m+c:p*m+c+r])
		}
		denseNN8AVX(&dst[c], m, &a[0], k, n, k, &pad[0], 8, &masks8[r])
		c += r
	}
}

// listMaxDensity is the share of non-zero coefficients in a up to which
// denseMul lists them and sums only their terms (denseNNList64, the same
// bits): a listed term costs about what a term of the two-row kernel does,
// so lists pay below about 0.9 and the scan that builds them is a few per
// cent of a dense product. Tests set it to 0 and 1 to compare both paths.
var listMaxDensity = 0.6

// sparseRows estimates from every 16th row of a (n×k) whether its share of
// non-zero entries is at most listMaxDensity. O(n·k/16).
func sparseRows(a []float64, n, k int) bool {
	if listMaxDensity >= 1 {
		return true
	}
	nz, all := 0, 0
	for i := 0; i < n; i += 16 {
		for _, v := range a[i*k : i*k+k] {
			if v != 0 {
				nz++
			}
		}
		all += k
	}
	return float64(nz) <= listMaxDensity*float64(all)
}

// nonZeroLists lists, row by row, the column indices of the non-zero
// entries of a (n×k, n and k ≥ 1; NaN counts as non-zero, ±0 as zero) in
// idx and their number per row in cnt, both buffers of s (nonZeroIdx512:
// only denseMul's AVX-512 path calls it). O(n·k).
func (s *scratch) nonZeroLists(a []float64, n, k int) (idx, cnt []int32) {
	if cap(s.list) < n*k+16 {
		s.list = make([]int32, n*k+16)
	}
	if cap(s.cnt) < n {
		s.cnt = make([]int32, n)
	}
	idx, cnt = s.list[:n*k+16], s.cnt[:n]
	if len(a) < n*k {
		panic("gnn: nonZeroLists operand too short")
	}
	nonZeroIdx512(&a[0], n, k, &idx[0], &cnt[0])
	return idx, cnt
}

// denseMulTN sets dst = aᵀ·g for a (n×k), g (n×m), dst (k×m): each entry
// sums a[i,p]·g[i,:] over ascending i from zero, leaving out the rows where
// g is zero and the zero entries of a. It panics when a slice is too short.
// O(n·m + (non-zero rows of g)·k·m).
func denseMulTN(dst, a, g []float64, n, k, m int, s *scratch) {
	if !useAVX || n == 0 || m == 0 || k == 0 {
		mulTNb([][]float64{dst}, a, g, n, k, m, s)
		return
	}
	if len(a) < n*k || len(g) < n*m || len(dst) < k*m {
		panic("gnn: dense product operand too short")
	}
	clear(dst[:k*m])
	rows := nonZeroRows(whole(g, m), n, m, s)
	if len(rows) == 0 {
		return
	}
	denseTNRows(dst, a, g, k, m, 0, k, rows, allFinite(g[:n*m]), s)
}

// denseTNRows adds aᵀ·g over the listed rows of a (n×k) and g (n×m) to the
// rows p0 … p1−1 of dst (k×m), each entry term by term in the order of
// rows: denseMulTN's loop, on a block of dst's rows (team.mulTN); with fin
// (g finite) the rows go through the kernels without masks
// (denseTN16x2FAVX, and denseTN32x4FZ with AVX-512: the same bits). The
// caller checks the bounds.
// O(len(rows)·(p1−p0)·m).
func denseTNRows(dst, a, g []float64, k, m, p0, p1 int, rows []int, fin bool, s *scratch) {
	kk := p1 - p0
	for c := 0; c < m; {
		if fin && useAVX512 && m-c >= 32 {
			// Four rows at a time, then the rest in order (each
			// entry still sums over the rows in their order).
			n4 := len(rows) &^ 3
			if n4 > 0 {
				denseTN32x4FZ(&dst[p0*m+c], m, &a[p0], k, &rows[0], n4, kk, &g[c], m)
			}
			denseTN16Rows(dst, a, g, k, m, p0, kk, c, rows[n4:], fin)
			denseTN16Rows(dst, a, g, k, m, p0, kk, c+16, rows[n4:], fin)
			c += 32
			continue
		}
		if m-c >= 16 {
			denseTN16Rows(dst, a, g, k, m, p0, kk, c, rows, fin)
			c += 16
			continue
		}
		r := min(m-c, 8)
		pad := s.padded(kk * 8) // the r columns of dst, padded to 8
		denseTN8AVX(&pad[0], 8, &a[p0], k, &rows[0], len(rows), kk, &g[c], m, &masks8[r])
		for p := range kk {
			copy(dst[(p0+p)*m+c:(p0+p)*m+c+r], pad[p*8:p*8+r])
		}
		c += r
	}
}

// denseTN16Rows is denseTNRows' 16-column block at column c for the
// listed rows: two rows at a time, then the last one if their number is
// odd. The caller checks the bounds. O(len(rows)·kk·16).
func denseTN16Rows(dst, a, g []float64, k, m, p0, kk, c int, rows []int, fin bool) {
	pairs := denseTN16x2AVX
	if fin {
		pairs = denseTN16x2FAVX
	}
	np := len(rows) &^ 1
	if np > 0 {
		pairs(&dst[p0*m+c], m, &a[p0], k, &rows[0], np, kk, &g[c], m)
	}
	if np < len(rows) {
		denseTN16AVX(&dst[p0*m+c], m, &a[p0], k, &rows[np], 1, kk, &g[c], m)
	}
}

// denseMulNT sets dst = g·bᵀ for g (n×m), b (k×m), dst (n×k), as g·(bᵀ)
// with bᵀ formed in scratch (denseMul). O(n·m·k + k·m).
func denseMulNT(dst, g, b []float64, n, k, m int, s *scratch) {
	bt := s.trans(m * k)
	transpose(bt, b, k, m)
	denseMul(dst, g, bt, n, m, k, s)
}

// allFinite reports whether every entry of v is finite, the bulk in AVX
// without a branch per entry (finiteAVX; it scans every gradient before
// its product: docs/benchmarks.md). O(len(v)).
func allFinite(v []float64) bool {
	if n := len(v) &^ 15; useAVX && n > 0 {
		if !finiteAVX(&v[0], n) {
			return false
		}
		v = v[n:]
	}
	for _, x := range v {
		if x-x != 0 { // NaN or ±Inf
			return false
		}
	}
	return true
}
