package linalg

import (
	"runtime"

	"github.com/ohmgnn/ohm/internal/parallel"
)

// The fused multiply–add kernel of AddToSym (fmaKernel). AddToSym's only
// caller, the directed engine's update, promises its decisions and not the
// last bits of its scores (definitions §2.2), so its product need not make
// gonum's sums in gonum's order (addUpperTZ does): it packs four rows of
// T and eight rows of Z at a time, interleaved, and keeps a 4×8 block of
// the product in registers over the whole inner dimension, with fused
// multiply–adds. Hand-written, because gonum's pure-Go Dgemm uses neither
// register blocking nor fused multiply–adds and no pure-Go library does;
// the OpenBLAS build calls its own Dgemm instead.

const (
	fmaStripRows = 64  // rows of a unit of work (16 groups of four)
	fmaTileCols  = 512 // columns of a tile: the packed panel of Z stays in L2
)

// addUpperTZFMA adds the upper triangle (diagonal included) of T Zᵀ to the
// n×n row-major x (stride ld), T and Z n×r row-major, and, when mirror is
// set, sets the lower triangle to the mirror image of the upper one (else
// leaves it as it was). Rows are split over GOMAXPROCS goroutines in strips.
// About n²·r/2 fused multiply–adds and 2·n·r floats for the packed copies.
func addUpperTZFMA(n, r int, t, z, x []float64, ld int, mirror bool) {
	ng, nb := n/4, n/8
	tp := make([]float64, ng*r*4)
	for g := range ng {
		for a := range 4 {
			row := t[(4*g+a)*r : (4*g+a)*r+r]
			for l, v := range row {
				tp[(g*r+l)*4+a] = v
			}
		}
	}
	zp := make([]float64, nb*r*8)
	for b := range nb {
		for j := range 8 {
			row := z[(8*b+j)*r : (8*b+j)*r+r]
			for l, v := range row {
				zp[(b*r+l)*8+j] = v
			}
		}
	}
	units := (n + fmaStripRows - 1) / fmaStripRows
	parallel.Each(runtime.GOMAXPROCS(0), units, func(_, u int) {
		i0 := u * fmaStripRows
		fmaStrip(n, r, i0, min(i0+fmaStripRows, n), t, z, tp, zp, x, ld, mirror)
	})
}

// fmaStrip does rows [i0, i1) of addUpperTZFMA (i0 a multiple of four):
// first the entries the blocks leave (near the diagonal, in the last n mod 8
// columns, in the last n mod 4 rows) one by one, then each group of four
// rows by 4×8 blocks from the first block wholly on or above the diagonal
// to the last whole block of eight columns, tile by tile, each tile's
// entries above the diagonal mirrored below it while in cache (no other
// strip reads or writes them) when mirror is set.
func fmaStrip(n, r, i0, i1 int, t, z, tp, zp, x []float64, ld int, mirror bool) {
	full := min(i1, n/4*4) // rows in whole groups of four
	nb8 := n / 8 * 8       // columns in whole blocks of eight
	for i := i0; i < i1; i++ {
		jFirst := nb8 // the blocks' first column in row i
		if i < full {
			jFirst = min(nb8, max(i, (i/4*4+3+7)/8*8))
		}
		for j := i; j < jFirst; j++ {
			x[i*ld+j] += dotRows(t[i*r:i*r+r], z[j*r:j*r+r])
		}
		for j := max(i, nb8); j < n; j++ {
			x[i*ld+j] += dotRows(t[i*r:i*r+r], z[j*r:j*r+r])
		}
	}
	for jt := i0 / 8 * 8; jt < nb8; jt += fmaTileCols {
		jtEnd := min(jt+fmaTileCols, nb8)
		for i := i0; i < full; i += 4 {
			j := max(jt, (i+3+7)/8*8)
			if j >= jtEnd {
				continue
			}
			tg := tp[(i/4)*r*4:]
			for ; j < jtEnd; j += 8 {
				_ = x[(i+3)*ld+j+7]
				fmaBlock4x8(&tg[0], &zp[(j/8)*r*8], r, &x[i*ld+j], ld)
			}
		}
		if mirror {
			mirrorStrip(i0, i1, jt, jtEnd, x, ld)
		}
	}
	if mirror {
		mirrorStrip(i0, i1, max(i0, nb8), n, x, ld)
	}
}

// mirrorStrip copies the entries (i, j), i0 ≤ i < i1, j0 ≤ j < j1, j > i,
// to (j, i).
func mirrorStrip(i0, i1, j0, j1 int, x []float64, ld int) {
	for j := j0; j < j1; j++ {
		row := x[j*ld : j*ld+j]
		for i := i0; i < min(i1, j); i++ {
			row[i] = x[i*ld+j]
		}
	}
}

// dotRows is the dot product of a and b (len(b) ≥ len(a)).
func dotRows(a, b []float64) float64 {
	var s float64
	for l, v := range a {
		s += v * b[l]
	}
	return s
}

// fmaMinRows is the least number of rows for which MulAdd packs its
// operands for the fused multiply–add kernel.
const fmaMinRows = 16

// MulAdd adds to the m×nc block c (row stride ldc) the product of the
// m×k matrix A, A(r, l) = a[r·sa + l·sl], and the k×nc matrix b (row
// stride ldb): MulAddOrdered's product, with fused multiply–adds in
// register blocks where the CPU has them (then not MulAddOrdered's bits,
// nor gonum's), else MulAddOrdered itself. O(m·nc·k).
func MulAdd(m, nc, k int, a []float64, sa, sl int, b []float64, ldb int, c []float64, ldc int) {
	if !fmaKernel || m < fmaMinRows {
		// Few rows: packing b would cost as much as the product.
		gemmSeq(m, nc, k, a, sa, sl, b, ldb, c, ldc)
		return
	}
	gemmFMA(m, nc, k, a, sa, sl, b, ldb, 1, c, ldc)
}

// gemmFMA adds to the m×nc block c (row stride ldc) the product of A,
// A(r, l) = a[r·sa + l·sl], and B, B(l, j) = b[l·sbl + j·sbj], with
// fmaBlock4x8 on packed copies (four rows of A and eight columns of B
// interleaved) and the last m mod 4 rows and nc mod 8 columns entry by
// entry; column blocks split over GOMAXPROCS goroutines when the product
// is large (row groups, each with its rows' edge entries, when there are
// fewer units of column blocks than goroutines). The same bits whatever
// the split. O(m·nc·k) plus (m + nc)·k copies.
func gemmFMA(m, nc, k int, a []float64, sa, sl int, b []float64, sbl, sbj int, c []float64, ldc int) {
	if m == 0 || nc == 0 || k == 0 {
		return
	}
	ng, nb := m/4, nc/8
	ap := make([]float64, ng*k*4)
	for g := range ng {
		for q := range 4 {
			r := 4*g + q
			for l := range k {
				ap[(g*k+l)*4+q] = a[r*sa+l*sl]
			}
		}
	}
	bp := make([]float64, nb*k*8)
	for blk := range nb {
		for l := range k {
			for j := range 8 {
				bp[(blk*k+l)*8+j] = b[l*sbl+(8*blk+j)*sbj]
			}
		}
	}
	const tile = 16 // column blocks of a unit of work
	units := (nb + tile - 1) / tile
	w := 1
	if m*nc*k >= 1<<20 {
		w = runtime.GOMAXPROCS(0)
	}
	if w > 1 && units < w && ng >= 8*w {
		// Few column blocks (a tall product such as orthoBasis.result's
		// Q·U): split the rows instead, each goroutine with its rows'
		// edge columns. Every entry's sum is the same whatever the split.
		parallel.Rows(w, ng, func(_, g0, g1 int) {
			for blk := range nb {
				for g := g0; g < g1; g++ {
					_ = c[(4*g+3)*ldc+8*blk+7]
					fmaBlock4x8(&ap[g*k*4], &bp[blk*k*8], k, &c[4*g*ldc+8*blk], ldc)
				}
			}
			r0, r1 := 4*g0, 4*g1
			if g1 == ng {
				r1 = m // the last m mod 4 rows too
			}
			gemmEdges(r1-r0, nc, k, 4*(g1-g0), 8*nb, a[r0*sa:], sa, sl, b, sbl, sbj, c[r0*ldc:], ldc)
		})
		return
	}
	parallel.Each(w, units, func(_, u int) {
		for blk := u * tile; blk < min(nb, (u+1)*tile); blk++ {
			for g := range ng {
				_ = c[(4*g+3)*ldc+8*blk+7]
				fmaBlock4x8(&ap[g*k*4], &bp[blk*k*8], k, &c[4*g*ldc+8*blk], ldc)
			}
		}
	})
	gemmEdges(m, nc, k, 4*ng, 8*nb, a, sa, sl, b, sbl, sbj, c, ldc)
}

// gemmFMAU adds to the m×nc block c (row stride ldc) the product of the
// row-major m×k a (row stride lda) and k×nc b (row stride ldb), read in
// place by fmaBlock4x8U (no copies: for products that pass over a large
// operand once, where packing would double the memory traffic), the last
// m mod 4 rows and nc mod 8 columns entry by entry; row groups split over
// GOMAXPROCS goroutines when the product is large. O(m·nc·k).
func gemmFMAU(m, nc, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	if m == 0 || nc == 0 || k == 0 {
		return
	}
	ng, nb := m/4, nc/8
	if ng > 0 && nb > 0 {
		_ = a[(4*ng-1)*lda+k-1]
		_ = b[(k-1)*ldb+8*nb-1]
		_ = c[(4*ng-1)*ldc+8*nb-1]
	}
	w := 1
	if m*nc*k >= 1<<20 {
		w = runtime.GOMAXPROCS(0)
	}
	if nb > 0 {
		parallel.Each(w, ng, func(_, g int) {
			for blk := range nb {
				fmaBlock4x8U(&a[4*g*lda], lda, &b[8*blk], ldb, k, &c[4*g*ldc+8*blk], ldc)
			}
		})
	}
	gemmEdges(m, nc, k, 4*ng, 8*nb, a, lda, 1, b, ldb, 1, c, ldc)
}

// projectOutFMA is projectOut with the fused multiply–add kernel: h =
// cols·Q (k×q0) and cols −= h·Qᵀ, for the k×n cols and the q0×n qt, each
// product one pass over qt in place. O(k·q0·n).
func projectOutFMA(n, k, q0 int, cols, qt, h []float64) {
	nk := make([]float64, n*k) // colsᵀ, n×k
	for c := range k {
		for i, v := range cols[c*n : c*n+n] {
			nk[i*k+c] = v
		}
	}
	ht := make([]float64, q0*k) // hᵀ = Q·colsᵀ
	gemmFMAU(q0, k, n, qt, n, nk, k, ht, k)
	neg := make([]float64, k*q0)
	for c := range k {
		for b := range q0 {
			h[c*q0+b] = ht[b*k+c]
			neg[c*q0+b] = -ht[b*k+c]
		}
	}
	gemmFMAU(k, n, q0, neg, q0, qt, n, cols, n)
}

// gemmEdges adds to c the entries of the product A·B (strides as in
// gemmFMA) that the 4×8 blocks leave: columns from nb8 on in the first
// mg rows, every column in the rest, entry by entry, each a sum over l in
// order from 0. The first part runs with l outermost over one accumulator
// per entry: the same operations on each entry in the same order, without
// a pass over a column of A or of B, strided by a whole row, per entry (a
// transposed A in orthoBasis.result, B in projectOutFMA).
// O((m·(nc−nb8) + (m−mg)·nb8)·k).
func gemmEdges(m, nc, k, mg, nb8 int, a []float64, sa, sl int, b []float64, sbl, sbj int, c []float64, ldc int) {
	first := 0
	if e := nc - nb8; e > 0 && mg > 0 {
		acc := make([]float64, mg*e)
		for l := range k {
			bl := b[l*sbl+nb8*sbj:]
			for r := range mg {
				ar := a[r*sa+l*sl]
				row := acc[r*e : r*e+e]
				for jj := range row {
					row[jj] += ar * bl[jj*sbj]
				}
			}
		}
		for r := range mg {
			for jj, v := range acc[r*e : r*e+e] {
				c[r*ldc+nb8+jj] += v
			}
		}
		first = mg
	}
	for r := first; r < m; r++ {
		j0 := nb8
		if r >= mg {
			j0 = 0
		}
		for j := j0; j < nc; j++ {
			var s float64
			for l := range k {
				s += a[r*sa+l*sl] * b[l*sbl+j*sbj]
			}
			c[r*ldc+j] += s
		}
	}
}
