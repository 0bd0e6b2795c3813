package linalg

import (
	"runtime"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/ohmgnn/ohm/internal/parallel"
)

// The product kernel of AddToSym. AddToSym forms the upper triangle of
// T Zᵀ (T = alpha·Z D) by the matrix products of a recursive halving, and
// the rounding of every entry depends only on how gonum's pure-Go Dgemm sums
// it: an entry of a product whose output has at least minParBlock blocks of
// 64×64 is summed in chunks of 64 of the inner dimension, c += dot(chunk) one
// chunk after the other, an entry of a smaller product in one dot product
// over the whole inner dimension; each dot product is DotUnitary's (four
// partial sums over the multiples of four, the rest added to the first,
// then (s0 + s2) + (s1 + s3); no fused multiply–add). addUpperTZ makes the
// same sums in the same order for every entry, with AVX2 holding four
// columns per register and the panel of Zᵀ reused across rows, so that
// X + T Zᵀ is bit-identical to what the Dgemm calls leave, whatever the
// split of the rows over goroutines.

// gonum's Dgemm: the block order and the number of blocks of an output
// below which it runs serially (gonum.org/v1/gonum/blas/gonum).
const (
	gemmBlock   = 64
	gemmParMin  = 4
	kernelTileJ = 512 // columns of a tile: the panel of Zᵀ (64×512 floats) stays in L2
	kernelStrip = 16  // rows of a unit of work
)

// symRect is one Dgemm product of AddToSym's recursion: rows [i0, i1),
// columns [j0, j1) of the output; diag: a diagonal block, of which only
// the upper triangle (j ≥ i) is needed; chunked: summed in chunks of 64.
type symRect struct {
	i0, i1, j0, j1 int
	diag, chunked  bool
}

// gemmChunked reports whether gonum's Dgemm sums an m×n output in chunks of
// the inner dimension (its parallel path).
func gemmChunked(m, n int) bool {
	blocks := func(d int) int { return (d + gemmBlock - 1) / gemmBlock }
	return blocks(m)*blocks(n) >= gemmParMin
}

// symRects returns the products of AddToSym's recursive halving of an n×n
// upper triangle: the off-diagonal block of each split and the diagonal
// blocks of at most symLeaf rows.
func symRects(n int) []symRect {
	var rects []symRect
	var rec func(i0, m int)
	rec = func(i0, m int) {
		if m <= symLeaf {
			rects = append(rects, symRect{i0, i0 + m, i0, i0 + m, true, gemmChunked(m, m)})
			return
		}
		h := m / 2
		rects = append(rects, symRect{i0, i0 + h, i0 + h, i0 + m, false, gemmChunked(h, m-h)})
		rec(i0, h)
		rec(i0+h, m-h)
	}
	rec(0, n)
	return rects
}

// addUpperTZ adds the upper triangle (diagonal included) of T Zᵀ to the
// n×n row-major x (stride ld), T and Z n×r row-major, with the rounding of
// AddToSym's Dgemm calls (see above), and sets the lower triangle to the
// mirror image of the upper one. It splits the rows over GOMAXPROCS
// goroutines. About n²·r/2 multiply–adds and n·r floats for Zᵀ.
func addUpperTZ(n, r int, t, z, x []float64, ld int) {
	zt := make([]float64, r*n)
	for i := range n {
		for c, v := range z[i*r : i*r+r] {
			zt[c*n+i] = v
		}
	}
	type unit struct {
		rect   symRect
		i0, i1 int
	}
	var units []unit
	for _, rc := range symRects(n) {
		for i := rc.i0; i < rc.i1; i += kernelStrip {
			units = append(units, unit{rc, i, min(i+kernelStrip, rc.i1)})
		}
	}
	parallel.Each(runtime.GOMAXPROCS(0), len(units), func(_, k int) {
		u := units[k]
		addStrip(u.rect, u.i0, u.i1, r, t, zt, n, x, ld)
	})
}

// addStrip does rows [i0, i1) of the product rc, column tile by column
// tile, and copies each finished tile's entries above the diagonal to
// their mirror images below it.
func addStrip(rc symRect, i0, i1, r int, t, zt []float64, ldz int, x []float64, ld int) {
	step := r
	if rc.chunked {
		step = gemmBlock
	}
	jStart := rc.j0
	if rc.diag {
		jStart = i0
	}
	for jt := jStart; jt < rc.j1; jt += kernelTileJ {
		jtEnd := min(jt+kernelTileJ, rc.j1)
		for i := i0; i < i1; i++ {
			ja := jt
			if rc.diag {
				ja = max(jt, i)
			}
			if ja >= jtEnd {
				continue
			}
			c := x[i*ld+ja : i*ld+jtEnd]
			for k0 := 0; k0 < r; k0 += step {
				k := min(step, r-k0)
				dotChunk(t[i*r+k0:i*r+k0+k], zt[k0*ldz+ja:], ldz, c, k)
			}
		}
		// The tile's entries above the diagonal are final: mirror them
		// while they are in cache (no other unit reads or writes them).
		for j := jt; j < jtEnd; j++ {
			row := x[j*ld : j*ld+j]
			for i := i0; i < min(i1, j); i++ {
				row[i] = x[i*ld+j]
			}
		}
	}
}

// dotChunk adds to every c[j] the dot product of tk (k entries) with column
// j of the k-row panel zt (stride ldz), summed as DotUnitary sums: with AVX2
// eight columns at a time, the rest by dotChunkGo. (AVX-512, sixteen
// columns a register, measured no faster: the multiplies and additions,
// rounded apart, keep the same two ports busy.)
func dotChunk(tk, zt []float64, ldz int, c []float64, k int) {
	g := len(c) / 8
	if g > 0 && symKernel {
		// Bounds: rows 0..k−1 of zt up to column 8g−1, c up to 8g−1.
		_ = zt[(k-1)*ldz+8*g-1]
		dotChunkAVX2(&tk[0], &zt[0], ldz, &c[0], k, g)
	} else {
		g = 0
	}
	if j := 8 * g; j < len(c) {
		dotChunkGo(tk, zt[j:], ldz, c[j:], k)
	}
}

// dotChunkGo is dotChunk in Go, entry by entry, with the same order of
// operations (explicit conversions keep every product rounded on its own).
func dotChunkGo(tk, zt []float64, ldz int, c []float64, k int) {
	for j := range c {
		var s0, s1, s2, s3 float64
		l := 0
		for ; l+4 <= k; l += 4 {
			s0 += float64(tk[l] * zt[l*ldz+j])
			s1 += float64(tk[l+1] * zt[(l+1)*ldz+j])
			s2 += float64(tk[l+2] * zt[(l+2)*ldz+j])
			s3 += float64(tk[l+3] * zt[(l+3)*ldz+j])
		}
		for ; l < k; l++ {
			s0 += float64(tk[l] * zt[l*ldz+j])
		}
		c[j] += (s0 + s2) + (s1 + s3)
	}
}

// MulAddOrdered adds to the m×nc block c (row stride ldc) the products
// a(r, l)·b[l][j], a(r, l) = a[r·sa + l·sl], for l = 0, 1, …, k−1 in turn,
// each product and each addition rounded on its own: the arithmetic, in its
// order, of gonum's pure-Go Dgemm with b not transposed and alpha folded into
// a (one AxpyUnitary per l), when no a(r, l) is zero (Dgemm skips those,
// which changes a sum only when the entry of c is −0). With AVX2 it runs in
// blocks of 4 rows × 8 columns and of 1 row × 16 columns, the rest entry by
// entry. m·nc·k multiply–adds.
func MulAddOrdered(m, nc, k int, a []float64, sa, sl int, b []float64, ldb int, c []float64, ldc int) {
	gemmSeq(m, nc, k, a, sa, sl, b, ldb, c, ldc)
}

// gemmSeq is MulAddOrdered. The 4×8 blocks go column block by column
// block when m is small (b's column stripe stays in L1), else row block by
// row block (a's rows stay in L1), the rows split over GOMAXPROCS
// goroutines when there are at least 512.
func gemmSeq(m, nc, k int, a []float64, sa, sl int, b []float64, ldb int, c []float64, ldc int) {
	if m == 0 || nc == 0 || k == 0 {
		return
	}
	_ = a[(m-1)*sa+(k-1)*sl]
	_ = b[(k-1)*ldb+nc-1]
	_ = c[(m-1)*ldc+nc-1]
	m4, n8, n16 := 0, 0, 0
	if symKernel {
		m4, n8, n16 = m/4*4, nc/8*8, nc/16*16
	}
	block := func(r, j int) { axpyBlockAVX2(&a[r*sa], sa, sl, &b[j], ldb, &c[r*ldc+j], ldc, k) }
	if m <= 64 {
		for j := 0; j < n8; j += 8 {
			for r := 0; r < m4; r += 4 {
				block(r, j)
			}
		}
	} else {
		// Row blocks split over GOMAXPROCS goroutines (each entry's sum
		// is the same whatever the split).
		w := max(1, min(runtime.GOMAXPROCS(0), m4/256))
		parallel.Rows(w, m4/4, func(_, lo, hi int) {
			for r := 4 * lo; r < 4*hi; r += 4 {
				for j := 0; j < n8; j += 8 {
					block(r, j)
				}
			}
		})
	}
	for r := m4; r < m; r++ {
		for j := 0; j < n16; j += 16 {
			axpyRowAVX2(&a[r*sa], sl, &b[j], ldb, &c[r*ldc+j], k)
		}
	}
	for r := range m {
		j0 := n8
		if r >= m4 {
			j0 = n16
		}
		for j := j0; j < nc; j++ {
			v := c[r*ldc+j]
			for l := range k {
				v += float64(a[r*sa+l*sl] * b[l*ldb+j])
			}
			c[r*ldc+j] = v
		}
	}
}

// projectOut is one pass of orthoBasis.add's block Gram–Schmidt with the
// kernels: h = cols·Q (k×q0) and cols −= h·Qᵀ, for the k×n cols and the
// q0×n qt, with the bits of the two Dgemm calls it replaces
// (Dgemm(NoTrans, Trans, k, q0, n, 1, cols, n, qt, n, 0, h, q0), then
// Dgemm(NoTrans, NoTrans, k, n, q0, −1, h, q0, qt, n, 1, cols, n)). O(k·q0·n).
func projectOut(n, k, q0 int, cols, qt, h []float64) {
	nk := make([]float64, n*k) // cols as n×k: the panel of the dot products
	for c := range k {
		for i, v := range cols[c*n : c*n+n] {
			nk[i*k+c] = v
		}
	}
	step := n
	if gemmChunked(k, q0) {
		step = gemmBlock
	}
	ht := make([]float64, q0*k) // hᵀ
	for b := range q0 {
		for k0 := 0; k0 < n; k0 += step {
			kc := min(step, n-k0)
			dotChunk(qt[b*n+k0:b*n+k0+kc], nk[k0*k:], k, ht[b*k:b*k+k], kc)
		}
	}
	neg := make([]float64, k*q0)
	zero := false
	for c := range k {
		for b := range q0 {
			h[c*q0+b] = ht[b*k+c]
			neg[c*q0+b] = -ht[b*k+c]
			zero = zero || ht[b*k+c] == 0
		}
	}
	if zero {
		// Dgemm skips the zero coefficients; keep its bits exactly.
		blas64.Implementation().Dgemm(blas.NoTrans, blas.NoTrans, k, n, q0, -1, h, q0, qt, n, 1, cols, n)
		return
	}
	gemmSeq(k, n, q0, neg, q0, 1, qt, n, cols, n)
}

// scaleDiag sets the n×r t to alpha·Z·D when D (r×r) is diagonal, with the
// bits of Dgemm(NoTrans, NoTrans, n, r, r, alpha, Z, r, D, r, 0, t, r) —
// t_ic = (alpha·Z_ic)·D_cc, the other products being zeros that leave the
// sum as it is, and +0 where Dgemm skips alpha·Z_ic = 0 — and reports
// true; it reports false, leaving t alone, when D is not diagonal. O(n·r + r²).
func scaleDiag(n, r int, alpha float64, z, d, t []float64) bool {
	for a := range r {
		for b := range r {
			if a != b && d[a*r+b] != 0 {
				return false
			}
		}
	}
	for i := range n {
		for c, v := range z[i*r : i*r+r] {
			if tmp := alpha * v; tmp != 0 {
				t[i*r+c] = 0 + float64(tmp*d[c*r+c])
			}
		}
	}
	return true
}
