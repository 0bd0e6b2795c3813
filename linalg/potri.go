package linalg

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// potriUpper is lapack64.Potri of the upper Cholesky factor in a (n×n,
// row stride lda), with the bits of gonum's pure-Go Dpotri in the upper
// triangle (the lower one is overwritten in places): Dtrtri (blocks
// of 64 columns: Dtrmm, Dtrsm, Dtrti2), then Dlauum (lauumUpper). The
// Dtrmm of each block, the bulk of Dtrtri's arithmetic, is trmmUpper (the
// same sums in the same order, AVX2 blocks of 4 rows × 8 columns); the
// rest is gonum's.
// Elsewhere (no AVX2, the openblas build) it is lapack64.Potri. It
// reports false when a diagonal entry is zero (Dtrtri's failure).
// O(n³).
func potriUpper(n int, a []float64, lda int) bool {
	if !symKernel || !pureGoLAPACK {
		_, ok := lapack64.Potri(blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: n, Data: a, Stride: lda})
		return ok
	}
	for i := range n {
		if a[i*lda+i] == 0 {
			return false
		}
	}
	impl := lapackgonum.Implementation{}
	const nb = 64 // gonum's Ilaenv for DTRTRI
	if nb > n {
		impl.Dtrti2(blas.Upper, blas.NonUnit, n, a, lda)
	} else {
		for j := 0; j < n; j += nb {
			jb := min(nb, n-j)
			trmmUpper(j, jb, a, lda, a[j:], lda)
			trsmRightUpperNeg(j, jb, a[j*lda+j:], lda, a[j:], lda)
			impl.Dtrti2(blas.Upper, blas.NonUnit, jb, a[j*lda+j:], lda)
		}
	}
	lauumUpper(n, a, lda)
	return true
}

// lauumUpper is gonum's Dlauum(Upper, n, a, lda) — U·Uᵀ of the upper
// triangle U of a, in place — with its bits in the upper triangle: blocks
// of 64 (Dtrmm, Dlauu2, Dgemm, Dsyrk), the Dgemm and the Dsyrk of each
// block by gemmNT (the same dot products in the same order, AVX2 eight
// columns at a time; the Dsyrk's block whole, its lower triangle
// overwritten); the rest is gonum's. O(n³).
func lauumUpper(n int, a []float64, lda int) {
	impl := lapackgonum.Implementation{}
	const nb = 64 // gonum's Ilaenv for DLAUUM
	if n <= nb {
		impl.Dlauu2(blas.Upper, n, a, lda)
		return
	}
	bi := blas64.Implementation()
	var zt []float64
	for i := 0; i < n; i += nb {
		ib := min(nb, n-i)
		bi.Dtrmm(blas.Right, blas.Upper, blas.Trans, blas.NonUnit, i, ib, 1, a[i*lda+i:], lda, a[i:], lda)
		impl.Dlauu2(blas.Upper, ib, a[i*lda+i:], lda)
		if n-i-ib > 0 {
			if need := ib * (n - i - ib); cap(zt) < need {
				zt = make([]float64, need)
			}
			gemmNT(i, ib, n-i-ib, a[i+ib:], lda, a[i*lda+i+ib:], lda, a[i:], lda, zt, gemmChunked(i, ib))
			// Dsyrk(Upper, NoTrans, ib, n−i−ib, 1, …): c += dot over the
			// whole inner dimension, gemmNT's sums unchunked (the lower
			// triangle, unused, is overwritten).
			gemmNT(ib, ib, n-i-ib, a[i*lda+i+ib:], lda, a[i*lda+i+ib:], lda, a[i*lda+i:], lda, zt, false)
		}
	}
}

// gemmNT adds a·bᵀ to the m×nc c (a m×k, b nc×k, row strides lda, ldb,
// ldc): c_rj += DotUnitary(row r of a, row j of b) over the whole k, or
// chunk by chunk of 64 when chunked — the bits of gonum's Dgemm(NoTrans,
// Trans, m, nc, k, 1, a, lda, b, ldb, 1, c, ldc) with chunked =
// gemmChunked(m, nc) (its parallel path), and of the upper triangle of
// Dsyrk(Upper, NoTrans, …, 1, a, lda, 1, c, ldc) unchunked —, by dotChunk
// on bᵀ copied into zt (k·nc floats). O(m·nc·k).
func gemmNT(m, nc, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int, zt []float64, chunked bool) {
	if m == 0 || nc == 0 || k == 0 {
		return
	}
	zt = zt[:k*nc]
	for j := range nc {
		for l, v := range b[j*ldb : j*ldb+k] {
			zt[l*nc+j] = v
		}
	}
	step := k
	if chunked {
		step = gemmBlock
	}
	for r := range m {
		row := c[r*ldc : r*ldc+nc]
		for k0 := 0; k0 < k; k0 += step {
			kc := min(step, k-k0)
			dotChunk(a[r*lda+k0:r*lda+k0+kc], zt[k0*nc:], nc, row, kc)
		}
	}
}

// trmmUpper sets the m×n b to A·b for the upper triangle A of a (m×m,
// non-unit diagonal), with the bits of gonum's Dtrmm(Left, Upper, NoTrans,
// NonUnit, m, n, 1, a, lda, b, ldb): row i of b is scaled by A_ii, then
// gains A_ik·(row k) for k = i+1, …, m−1 in turn (rows below i still as
// they were), each product and sum rounded on its own, a zero A_ik
// skipped. Rows go four at a time: the part of their sums within the four
// rows in Go, the rest, where no A_ik is zero, by MulAddOrdered (AVX2
// 4×8 blocks). O(m²·n).
func trmmUpper(m, n int, a []float64, lda int, b []float64, ldb int) {
	for i0 := 0; i0 < m; i0 += 4 {
		i1 := min(i0+4, m)
		for i := i0; i < i1; i++ {
			bi := b[i*ldb : i*ldb+n]
			for j := range bi {
				bi[j] *= a[i*lda+i]
			}
			for k := i + 1; k < i1; k++ {
				axpyRow(a[i*lda+k], b[k*ldb:k*ldb+n], bi)
			}
		}
		if i1 == m {
			continue
		}
		zero := i1-i0 < 4
		for i := i0; i < i1 && !zero; i++ {
			for _, v := range a[i*lda+i1 : i*lda+m] {
				zero = zero || v == 0
			}
		}
		if !zero {
			MulAddOrdered(4, n, m-i1, a[i0*lda+i1:], lda, 1, b[i1*ldb:], ldb, b[i0*ldb:], ldb)
			continue
		}
		for i := i0; i < i1; i++ {
			bi := b[i*ldb : i*ldb+n]
			for k := i1; k < m; k++ {
				axpyRow(a[i*lda+k], b[k*ldb:k*ldb+n], bi)
			}
		}
	}
}

// axpyRow is gonum's AxpyUnitary(alpha, x, y) as Dtrmm calls it: y[j] +=
// alpha·x[j], the product rounded before the sum (never fused), nothing
// when alpha is zero. O(len(y)).
func axpyRow(alpha float64, x, y []float64) {
	if alpha == 0 {
		return
	}
	axpyRowAll(alpha, x, y)
}

// axpyRowAll is axpyRow also for a zero alpha (as Dtrsm's right-side
// solve calls AxpyUnitary: a zero product still turns a −0 into +0).
// O(len(y)).
func axpyRowAll(alpha float64, x, y []float64) {
	x = x[:len(y)]
	for j := range y {
		y[j] += float64(alpha * x[j])
	}
}

// potrfUpper is lapack64.Potrf of the upper triangle of the symmetric a
// (n×n, row stride lda), with the bits of gonum's pure-Go Dpotrf in the
// upper triangle: blocks of 64 columns (Dsyrk, Dpotf2, Dgemm, Dtrsm), the
// Dsyrk, the Dgemm and the Dtrsm of each block by gemmTransNeg and
// trsmUpperTrans (the same sums in the same order, AVX2 4×8 blocks; the
// Dsyrk's block whole, the lower triangle of the diagonal blocks
// overwritten); the rest is gonum's. Elsewhere (no AVX2, the openblas build) it is
// lapack64.Potrf. It reports false when a is not positive definite.
// O(n³).
func potrfUpper(n int, a []float64, lda int) bool {
	if !symKernel || !pureGoLAPACK {
		_, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: n, Data: a, Stride: lda})
		return ok
	}
	impl := lapackgonum.Implementation{}
	const nb = 64 // gonum's Ilaenv for DPOTRF
	if n <= nb {
		return impl.Dpotf2(blas.Upper, n, a, lda)
	}
	// The coefficients of gemmTransNeg (jb·j ≤ nb·(n−nb)) and of
	// trsmUpperTrans (4·nb).
	neg := make([]float64, max(nb*(n-nb), 4*nb))
	for j := 0; j < n; j += nb {
		jb := min(nb, n-j)
		// Dsyrk(Upper, Trans, jb, j, −1, …): its upper triangle's sums are
		// gemmTransNeg's (the lower one, unused, is overwritten).
		gemmTransNeg(jb, jb, j, a[j:], lda, a[j:], lda, a[j*lda+j:], lda, neg[:jb*j])
		if !impl.Dpotf2(blas.Upper, jb, a[j*lda+j:], lda) {
			return false
		}
		if j+jb < n {
			gemmTransNeg(jb, n-j-jb, j, a[j:], lda, a[j+jb:], lda, a[j*lda+j+jb:], lda, neg[:jb*j])
			trsmUpperTrans(jb, n-j-jb, a[j*lda+j:], lda, a[j*lda+j+jb:], lda, neg)
		}
	}
	return true
}

// gemmTransNeg sets the m×nc c to c − aᵀ·b (a k×m, b k×nc, row strides
// lda, ldb, ldc), with the bits of gonum's Dgemm(Trans, NoTrans, m, nc, k,
// −1, a, lda, b, ldb, 1, c, ldc): every entry gains (−a_lr)·b_lj for l =
// 0, 1, …, k−1 in turn, the product rounded before the sum. Without a
// zero a_lr (which Dgemm skips) by MulAddOrdered on neg (m·k floats, the
// coefficients −a_lr), else by Dgemm. O(m·nc·k).
func gemmTransNeg(m, nc, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int, neg []float64) {
	if m == 0 || nc == 0 || k == 0 {
		return
	}
	for r := range m {
		for l := range k {
			v := a[l*lda+r]
			if v == 0 {
				blas64.Implementation().Dgemm(blas.Trans, blas.NoTrans, m, nc, k, -1, a, lda, b, ldb, 1, c, ldc)
				return
			}
			neg[r*k+l] = -v
		}
	}
	MulAddOrdered(m, nc, k, neg, k, 1, b, ldb, c, ldc)
}

// trsmUpperTrans solves Uᵀ·X = b in place for the upper triangle U of a
// (m×m, non-unit diagonal; b m×nc), with the bits of gonum's
// Dtrsm(Left, Upper, Trans, NonUnit, m, nc, 1, a, lda, b, ldb): row i of
// b gains (−U_ki)·(row k of X) for k = 0, …, i−1 in turn (a zero U_ki
// skipped), then is multiplied by 1/U_ii. Rows go four at a time: the
// rows above them, final, by MulAddOrdered on neg (the coefficients −U_ki,
// 4·m floats) when none is zero, then the part within the four in Go.
// O(m²·nc).
func trsmUpperTrans(m, nc int, a []float64, lda int, b []float64, ldb int, neg []float64) {
	for i0 := 0; i0 < m; i0 += 4 {
		i1 := min(i0+4, m)
		zero := i1-i0 < 4
		for r := range i1 - i0 {
			for l := range i0 {
				v := a[l*lda+i0+r]
				zero = zero || v == 0
				neg[r*i0+l] = -v
			}
		}
		if !zero {
			MulAddOrdered(4, nc, i0, neg, i0, 1, b, ldb, b[i0*ldb:], ldb)
		} else {
			for i := i0; i < i1; i++ {
				bi := b[i*ldb : i*ldb+nc]
				for k := range i0 {
					axpyRow(-a[k*lda+i], b[k*ldb:k*ldb+nc], bi)
				}
			}
		}
		for k := i0; k < i1; k++ {
			bk := b[k*ldb : k*ldb+nc]
			tmp := 1 / a[k*lda+k]
			for j := range bk {
				bk[j] *= tmp
			}
			for i := k + 1; i < i1; i++ {
				axpyRow(-a[k*lda+i], bk, b[i*ldb:i*ldb+nc])
			}
		}
	}
}

// trsmRightUpperNeg sets the m×n b to −b·U⁻¹ for the upper triangle U of
// a (n×n, non-unit diagonal), with the bits of gonum's Dtrsm(Right, Upper,
// NoTrans, NonUnit, m, n, −1, a, lda, b, ldb): each row is negated, then
// for k = 0, …, n−1 in turn its entry k, unless zero, is divided by U_kk
// and the entries after it gain (−x_k)·U_kj. Rows go four at a time and
// their entries eight at a time: an entry first gains the terms of the
// entries before its eight (final by then) by MulAddOrdered when none of
// them is zero, then those of its eight in Go. O(m·n²).
func trsmRightUpperNeg(m, n int, a []float64, lda int, b []float64, ldb int) {
	var coef [4 * 64]float64 // −x of the four rows' final entries (n ≤ 64)
	var skip [4 * 64]bool    // the entries gonum skips (zero before the division)
	if n > 64 {
		blas64.Implementation().Dtrsm(blas.Right, blas.Upper, blas.NoTrans, blas.NonUnit, m, n, -1, a, lda, b, ldb)
		return
	}
	for i0 := 0; i0 < m; i0 += 4 {
		rows := min(4, m-i0)
		for r := range rows {
			br := b[(i0+r)*ldb : (i0+r)*ldb+n]
			for j := range br {
				br[j] = -br[j] // ScalUnitary(−1): exact
			}
		}
		zero := rows < 4 // a zero final entry: no MulAddOrdered from there on
		for j0 := 0; j0 < n; j0 += 8 {
			j1 := min(j0+8, n)
			if j0 > 0 {
				if !zero {
					MulAddOrdered(4, j1-j0, j0, coef[:], n, 1, a[j0:], lda, b[i0*ldb+j0:], ldb)
				} else {
					for r := range rows {
						br := b[(i0+r)*ldb : (i0+r)*ldb+n]
						for k := range j0 {
							if !skip[r*n+k] {
								axpyRowAll(-br[k], a[k*lda+j0:k*lda+j1], br[j0:j1])
							}
						}
					}
				}
			}
			for r := range rows {
				br := b[(i0+r)*ldb : (i0+r)*ldb+n]
				for k := j0; k < j1; k++ {
					skip[r*n+k] = br[k] == 0
					if skip[r*n+k] {
						zero = true
						continue
					}
					br[k] /= a[k*lda+k]
					axpyRowAll(-br[k], a[k*lda+k+1:k*lda+j1], br[k+1:j1])
					coef[r*n+k] = -br[k]
				}
			}
		}
	}
}
