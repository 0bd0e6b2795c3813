package linalg

import (
	"runtime"
	"sync"
	"sync/atomic"
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
// AddToSym's Dgemm calls (see above). It splits the rows over GOMAXPROCS
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
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(units))) {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= len(units) {
					return
				}
				u := units[k]
				addStrip(u.rect, u.i0, u.i1, r, t, zt, n, x, ld)
			}
		})
	}
	wg.Wait()
}

// addStrip does rows [i0, i1) of the product rc, column tile by column tile.
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
	}
}

// dotChunk adds to every c[j] the dot product of tk (k entries) with column
// j of the k-row panel zt (stride ldz), summed as DotUnitary sums: with AVX2
// eight columns at a time, the rest by dotChunkGo.
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
