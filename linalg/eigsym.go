package linalg

// The eigenvectors of a symmetric matrix with the QL/QR sweeps' rotations
// applied to the rows of the eigenvector matrix in parallel.
//
// symEigVectors is gonum's Dsyev (jobz = EVCompute, upper triangle) step for
// step — the scaling, Dsytrd and Dorgtr are gonum's own calls, with the
// workspace symEig gives Dsyev — and its Dsteqr is steqrRows below, a copy of
// gonum's Dsteqr (lapack/gonum/dsteqr.go, gonum v0.17.0, Copyright ©2016 The
// Gonum Authors, BSD-3-Clause license, see gonum's LICENSE file) reduced to
// compz = EVOrig, whose only change is that the saved rotations
// (gonum's Dlasr, side Right, pivot Variable) are applied by rotateRows:
// Dlasr itself on blocks of rows, split over GOMAXPROCS goroutines (the
// rows of the product are independent). The result is bit for bit gonum's Dsyev
// (TestSymEigVectorsBits); the rotations, about two thirds of Dsyev's time
// at the order of orthoBasis.result's core (q ≈ 170), no longer run on one
// thread.

import (
	"math"
	"runtime"

	"github.com/ohmgnn/ohm/internal/parallel"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

// symEigVectors is lapack64.Syev(EVCompute) of the r×r row-major c (upper
// triangle read, overwritten with the eigenvectors as columns), the
// eigenvalues ascending into w, with the workspace work (len(work) is
// Syev's lwork). It reports false where Dsyev does (no convergence).
// O(r³).
func symEigVectors(r int, c, w, work []float64) bool {
	impl := gonum.Implementation{}
	if r == 1 {
		w[0] = c[0]
		c[0] = 1
		return true
	}
	const (
		safmin = 0x1p-1022
		eps    = 0x1p-52 // dlamchP: base·(2⁻⁵³)
	)
	smlnum := safmin / eps
	bignum := 1 / smlnum
	rmin := math.Sqrt(smlnum)
	rmax := math.Sqrt(bignum)
	anrm := impl.Dlansy(lapack.MaxAbs, blas.Upper, r, c, r, work)
	scaled := false
	var sigma float64
	if anrm > 0 && anrm < rmin {
		scaled = true
		sigma = rmin / anrm
	} else if anrm > rmax {
		scaled = true
		sigma = rmax / anrm
	}
	if scaled {
		impl.Dlascl(lapack.UpperTri, 0, 0, 1, sigma, r, r, c, r)
	}
	lwork := len(work)
	inde, indtau, indwork := 0, r, 2*r
	impl.Dsytrd(blas.Upper, r, c, r, w, work[inde:], work[indtau:], work[indwork:], lwork-indwork)
	impl.Dorgtr(blas.Upper, r, c, r, work[indtau:], work[indwork:], lwork-indwork)
	if !steqrRows(r, w, work[inde:], c, r, work[indtau:]) {
		return false
	}
	if scaled {
		blas64.Implementation().Dscal(r, 1/sigma, w, 1)
	}
	return true
}

// steqrRows is gonum's Dsteqr with compz = EVOrig (see the file's comment):
// the eigenvalues of the symmetric tridiagonal (d, e) into d, ascending, and
// the n×n z (stride ldz) multiplied by its eigenvectors; work holds
// 2n − 2 floats. It reports false without convergence after 30n sweeps.
func steqrRows(n int, d, e, z []float64, ldz int, work []float64) bool {
	impl := gonum.Implementation{}
	if n == 1 {
		return true
	}
	bi := blas64.Implementation()
	const (
		eps    = 0x1p-53
		safmin = 0x1p-1022
	)
	eps2 := eps * eps
	safmax := 1 / safmin
	ssfmax := math.Sqrt(safmax) / 3
	ssfmin := math.Sqrt(safmin) / eps2
	const maxit = 30
	nmaxit := n * maxit
	jtot := 0
	l1 := 0
	nm1 := n - 1
	type scaletype int
	const (
		down scaletype = iota + 1
		up
	)
	var iscale scaletype
	for {
		if l1 > n-1 {
			// Order eigenvalues and eigenvectors.
			for ii := 1; ii < n; ii++ {
				i := ii - 1
				k := i
				p := d[i]
				for j := ii; j < n; j++ {
					if d[j] < p {
						k = j
						p = d[j]
					}
				}
				if k != i {
					d[k] = d[i]
					d[i] = p
					bi.Dswap(n, z[i:], ldz, z[k:], ldz)
				}
			}
			return true
		}
		if l1 > 0 {
			e[l1-1] = 0
		}
		var m int
		if l1 <= nm1 {
			for m = l1; m < nm1; m++ {
				test := math.Abs(e[m])
				if test == 0 {
					break
				}
				if test <= (math.Sqrt(math.Abs(d[m]))*math.Sqrt(math.Abs(d[m+1])))*eps {
					e[m] = 0
					break
				}
			}
		}
		l := l1
		lsv := l
		lend := m
		lendsv := lend
		l1 = m + 1
		if lend == l {
			continue
		}
		anorm := impl.Dlanst(lapack.MaxAbs, lend-l+1, d[l:], e[l:])
		switch {
		case anorm == 0:
			continue
		case anorm > ssfmax:
			iscale = down
			impl.Dlascl(lapack.General, 0, 0, anorm, ssfmax, lend-l+1, 1, d[l:], 1)
			impl.Dlascl(lapack.General, 0, 0, anorm, ssfmax, lend-l, 1, e[l:], 1)
		case anorm < ssfmin:
			iscale = up
			impl.Dlascl(lapack.General, 0, 0, anorm, ssfmin, lend-l+1, 1, d[l:], 1)
			impl.Dlascl(lapack.General, 0, 0, anorm, ssfmin, lend-l, 1, e[l:], 1)
		}
		if math.Abs(d[lend]) < math.Abs(d[l]) {
			lend = lsv
			l = lendsv
		}
		if lend > l {
			jtot = steqrQL(n, d, e, z, ldz, work, l, lend, jtot, nmaxit, eps2, safmin)
		} else {
			jtot = steqrQR(n, d, e, z, ldz, work, l, lend, jtot, nmaxit, eps2, safmin)
		}
		switch iscale {
		case down:
			impl.Dlascl(lapack.General, 0, 0, ssfmax, anorm, lendsv-lsv+1, 1, d[lsv:], 1)
			impl.Dlascl(lapack.General, 0, 0, ssfmax, anorm, lendsv-lsv, 1, e[lsv:], 1)
		case up:
			impl.Dlascl(lapack.General, 0, 0, ssfmin, anorm, lendsv-lsv+1, 1, d[lsv:], 1)
			impl.Dlascl(lapack.General, 0, 0, ssfmin, anorm, lendsv-lsv, 1, e[lsv:], 1)
		}
		if jtot >= nmaxit {
			break
		}
	}
	for i := 0; i < n-1; i++ {
		if e[i] != 0 {
			return false
		}
	}
	return true
}

// steqrQL is the QL iteration of steqrRows on the block [l, lend]
// (lend > l); it returns the updated sweep count.
func steqrQL(n int, d, e, z []float64, ldz int, work []float64, l, lend, jtot, nmaxit int, eps2, safmin float64) int {
	impl := gonum.Implementation{}
	var m int
	for {
		if l != lend {
			for m = l; m < lend; m++ {
				v := math.Abs(e[m])
				if v*v <= (eps2*math.Abs(d[m]))*math.Abs(d[m+1])+safmin {
					break
				}
			}
		} else {
			m = lend
		}
		if m < lend {
			e[m] = 0
		}
		p := d[l]
		if m == l {
			l++
			if l > lend {
				return jtot
			}
			continue
		}
		if m == l+1 {
			d[l], d[l+1], work[l], work[n-1+l] = impl.Dlaev2(d[l], e[l], d[l+1])
			rotateRows(false, n, 2, work[l:], work[n-1+l:], z[l:], ldz)
			e[l] = 0
			l += 2
			if l > lend {
				return jtot
			}
			continue
		}
		if jtot == nmaxit {
			return jtot
		}
		jtot++
		g := (d[l+1] - p) / (2 * e[l])
		r := impl.Dlapy2(g, 1)
		g = d[m] - p + e[l]/(g+math.Copysign(r, g))
		s := 1.0
		c := 1.0
		p = 0.0
		for i := m - 1; i >= l; i-- {
			f := s * e[i]
			b := c * e[i]
			c, s, r = impl.Dlartg(g, f)
			if i != m-1 {
				e[i+1] = r
			}
			g = d[i+1] - p
			r = (d[i]-g)*s + 2*c*b
			p = s * r
			d[i+1] = g + p
			g = c*r - b
			work[i] = c
			work[n-1+i] = -s
		}
		rotateRows(false, n, m-l+1, work[l:], work[n-1+l:], z[l:], ldz)
		d[l] -= p
		e[l] = g
	}
}

// steqrQR is the QR iteration of steqrRows on the block [lend, l]
// (lend < l); it returns the updated sweep count.
func steqrQR(n int, d, e, z []float64, ldz int, work []float64, l, lend, jtot, nmaxit int, eps2, safmin float64) int {
	impl := gonum.Implementation{}
	var m int
	for {
		if l != lend {
			for m = l; m > lend; m-- {
				v := math.Abs(e[m-1])
				if v*v <= (eps2*math.Abs(d[m])*math.Abs(d[m-1]) + safmin) {
					break
				}
			}
		} else {
			m = lend
		}
		if m > lend {
			e[m-1] = 0
		}
		p := d[l]
		if m == l {
			l--
			if l < lend {
				return jtot
			}
			continue
		}
		if m == l-1 {
			d[l-1], d[l], work[m], work[n-1+m] = impl.Dlaev2(d[l-1], e[l-1], d[l])
			rotateRows(true, n, 2, work[m:], work[n-1+m:], z[l-1:], ldz)
			e[l-1] = 0
			l -= 2
			if l < lend {
				return jtot
			}
			continue
		}
		if jtot == nmaxit {
			return jtot
		}
		jtot++
		g := (d[l-1] - p) / (2 * e[l-1])
		r := impl.Dlapy2(g, 1)
		g = d[m] - p + (e[l-1])/(g+math.Copysign(r, g))
		s := 1.0
		c := 1.0
		p = 0.0
		for i := m; i < l; i++ {
			f := s * e[i]
			b := c * e[i]
			c, s, r = impl.Dlartg(g, f)
			if i != m {
				e[i-1] = r
			}
			g = d[i] - p
			r = (d[i+1]-g)*s + 2*c*b
			p = s * r
			d[i] = g + p
			g = c*r - b
			work[i] = c
			work[n-1+i] = s
		}
		rotateRows(true, n, l-m+1, work[m:], work[n-1+m:], z[m:], ldz)
		d[l] -= p
		e[l-1] = g
	}
}

// rotateRowsMin is the least m·n for which rotateRows splits its rows.
const rotateRowsMin = 1 << 13

// rotateRows is gonum's Dlasr(blas.Right, lapack.Variable, forward or
// backward, m, n, c, s, a, lda) — the plane rotations (c_j, s_j) applied to
// the columns j, j+1 of the m×n a in turn — with the rows split over
// GOMAXPROCS goroutines when m·n ≥ rotateRowsMin, each calling Dlasr on its
// rows: each entry gets the same operations in the same order. O(m·n).
func rotateRows(forward bool, m, n int, c, s, a []float64, lda int) {
	dir := lapack.Backward
	if forward {
		dir = lapack.Forward
	}
	impl := gonum.Implementation{}
	w := runtime.GOMAXPROCS(0)
	if w < 2 || m*n < rotateRowsMin || m < 2*w {
		impl.Dlasr(blas.Right, lapack.Variable, dir, m, n, c, s, a, lda)
		return
	}
	parallel.Rows(w, m, func(_, i0, i1 int) {
		if i1 > i0 {
			impl.Dlasr(blas.Right, lapack.Variable, dir, i1-i0, n, c, s, a[i0*lda:], lda)
		}
	})
}
