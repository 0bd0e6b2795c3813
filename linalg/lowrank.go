package linalg

import (
	"errors"
	"fmt"
	"math"
	"runtime"

	"github.com/ohmgnn/ohm/internal/parallel"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// ErrADINotConverged is returned (wrapped) by SolveLyapunovADI when the
// residual is still above the tolerance after the allowed number of steps.
var ErrADINotConverged = errors.New("linalg: low-rank ADI did not reach its tolerance")

// LowRankSym is the symmetric n×n matrix Z D Zᵀ, held by its factors: Z is
// n×R (row-major, Z[i*R+c]) and D is R×R symmetric (row-major, both
// triangles set). R may be 0 (the zero matrix).
type LowRankSym struct {
	N, R int
	Z    []float64
	D    []float64
}

// At returns entry (i, j) of Z D Zᵀ. O(R²).
func (l *LowRankSym) At(i, j int) float64 {
	r := l.R
	zi, zj := l.Z[i*r:i*r+r], l.Z[j*r:j*r+r]
	var s float64
	for a, va := range zi {
		if va == 0 {
			continue
		}
		row := l.D[a*r : a*r+r]
		var t float64
		for b, vb := range zj {
			t += row[b] * vb
		}
		s += va * t
	}
	return s
}

// Quad returns bᵀ Z D Zᵀ b for the n-vector b given by its nonzero entries
// (idx[k], val[k]). O(R·len(idx) + R²).
func (l *LowRankSym) Quad(idx []int, val []float64) float64 {
	r := l.R
	zb := make([]float64, r)
	for k, i := range idx {
		v := val[k]
		for c, z := range l.Z[i*r : i*r+r] {
			zb[c] += v * z
		}
	}
	var s float64
	for a, va := range zb {
		row := l.D[a*r : a*r+r]
		var t float64
		for b, vb := range zb {
			t += row[b] * vb
		}
		s += va * t
	}
	return s
}

// Norm2 returns the spectral norm ‖Z D Zᵀ‖₂: the largest |eigenvalue| of
// G^{1/2} D G^{1/2}, G = ZᵀZ. It is accurate to rounding relative to the
// result itself (no cancellation: the factors are those of the matrix whose
// norm is taken). O(n·R² + R³).
func (l *LowRankSym) Norm2() float64 {
	if l.R == 0 {
		return 0
	}
	r := l.R
	g := make([]float64, r*r)
	if r <= gramRowsMax {
		gramRows(l.N, r, l.Z, g)
	} else {
		blas64.Implementation().Dgemm(blas.Trans, blas.NoTrans, r, r, l.N, 1, l.Z, r, l.Z, r, 0, g, r)
	}
	lam, vec, ok := symEig(r, g, true)
	if !ok {
		return math.Inf(1)
	}
	// H = Vᵀ D V scaled by sqrt(Λ) on both sides.
	h := make([]float64, r*r)
	t := make([]float64, r*r)
	blas64.Implementation().Dgemm(blas.Trans, blas.NoTrans, r, r, r, 1, vec, r, l.D, r, 0, t, r)
	blas64.Implementation().Dgemm(blas.NoTrans, blas.NoTrans, r, r, r, 1, t, r, vec, r, 0, h, r)
	for a := range r {
		sa := math.Sqrt(math.Max(lam[a], 0))
		for b := range r {
			h[a*r+b] *= sa * math.Sqrt(math.Max(lam[b], 0))
		}
	}
	mu, _, ok := symEig(r, h, false)
	if !ok {
		return math.Inf(1)
	}
	return math.Max(math.Abs(mu[0]), math.Abs(mu[r-1]))
}

// gramRowsMax is the widest factor whose Gram matrix Norm2 sums row by
// row: gonum's Dgemm(Trans, NoTrans) makes an AxpyUnitary call of length r
// per row of Z, which for the ADI's residual factors (r ≤ 8, a norm per
// step) cost more than the rest of the norm.
const gramRowsMax = 16

// gramRows sets the r×r g (both triangles) to ZᵀZ for the n×r row-major z,
// summing the rows' outer products in order. O(n·r²/2).
func gramRows(n, r int, z, g []float64) {
	clear(g[:r*r])
	for i := range n {
		row := z[i*r : i*r+r]
		for a, va := range row {
			if va == 0 {
				continue
			}
			ga := g[a*r : a*r+r]
			for b := a; b < r; b++ {
				ga[b] += va * row[b]
			}
		}
	}
	for a := range r {
		for b := a + 1; b < r; b++ {
			g[b*r+a] = g[a*r+b]
		}
	}
}

// symEig returns the eigenvalues (ascending) and, if vectors, the
// eigenvectors (columns of the r×r row-major result) of the symmetric r×r
// row-major matrix a (upper triangle read). a is not modified. With
// vectors and gonum's LAPACK, Dsyev's result computed by symEigVectors.
func symEig(r int, a []float64, vectors bool) ([]float64, []float64, bool) {
	c := make([]float64, r*r)
	copy(c, a)
	w := make([]float64, r)
	job := lapack.EVNone
	if vectors {
		job = lapack.EVCompute
	}
	sym := blas64.Symmetric{Uplo: blas.Upper, N: r, Stride: r, Data: c}
	work := make([]float64, 1)
	lapack64.Syev(job, sym, w, work, -1)
	work = make([]float64, max(int(work[0]), 3*r))
	if vectors && pureGoLAPACK {
		// Dsyev's bits, its rotations over the rows in parallel (eigsym.go).
		return w, c, symEigVectors(r, c, w, work)
	}
	ok := lapack64.Syev(job, sym, w, work, len(work))
	return w, c, ok
}

// thinQR overwrites the n×k row-major a (n ≥ k) with the orthonormal factor
// Q of a = QR and returns the k×k upper triangular R (row-major).
// O(n·k²) (Householder, lapack64.Geqrf and Orgqr).
func thinQR(n, k int, a []float64) []float64 {
	if k == 0 {
		return nil
	}
	g := blas64.General{Rows: n, Cols: k, Stride: k, Data: a}
	tau := make([]float64, k)
	work := make([]float64, 1)
	lapack64.Geqrf(g, tau, work, -1)
	lw := int(work[0])
	lapack64.Orgqr(g, tau, work, -1)
	work = make([]float64, max(lw, int(work[0]), n))
	lapack64.Geqrf(g, tau, work, len(work))
	r := make([]float64, k*k)
	for i := range k {
		copy(r[i*k+i:i*k+k], a[i*k+i:i*k+k])
	}
	lapack64.Orgqr(g, tau, work, len(work))
	return r
}

// Compress returns an equivalent factorization of Z D Zᵀ with orthonormal
// Z, diagonal D (eigenvalues, decreasing in magnitude) and the eigenvalues of
// magnitude at most tol·max|eigenvalue| dropped; it also returns the largest
// dropped magnitude (the spectral norm of what was dropped). The receiver is
// not modified. Cost O(n·R² + R³): a thin QR of Z, the eigenvalues of the
// R×R core R_Z D R_Zᵀ and a product n×R×R'.
func (l *LowRankSym) Compress(tol float64) (*LowRankSym, float64) {
	n, r := l.N, l.R
	if r == 0 {
		return &LowRankSym{N: n}, 0
	}
	k := min(r, n)
	var q, rz []float64
	if r <= n {
		q = make([]float64, n*r)
		copy(q, l.Z)
		rz = thinQR(n, r, q)
	} else {
		// More columns than rows: the identity is an orthonormal basis, and
		// the core is Z D Zᵀ itself.
		q = make([]float64, n*n)
		for i := range n {
			q[i*n+i] = 1
		}
		rz = make([]float64, n*r)
		copy(rz, l.Z)
	}
	// core = Rz D Rzᵀ (k×k), Rz k×r.
	t := make([]float64, k*r)
	core := make([]float64, k*k)
	impl := blas64.Implementation()
	impl.Dgemm(blas.NoTrans, blas.NoTrans, k, r, r, 1, rz, r, l.D, r, 0, t, r)
	impl.Dgemm(blas.NoTrans, blas.Trans, k, k, r, 1, t, r, rz, r, 0, core, k)
	for a := range k {
		for b := a + 1; b < k; b++ {
			v := 0.5 * (core[a*k+b] + core[b*k+a])
			core[a*k+b], core[b*k+a] = v, v
		}
	}
	lam, vec, ok := symEig(k, core, true)
	if !ok {
		return l, 0
	}
	u, d, rk, dropped := truncateEig(k, lam, vec, tol)
	z := make([]float64, n*rk)
	if rk > 0 {
		impl.Dgemm(blas.NoTrans, blas.NoTrans, n, rk, k, 1, q, k, u, rk, 0, z, rk)
	}
	return &LowRankSym{N: n, R: rk, Z: z, D: d}, dropped
}

// AddToSym adds alpha·Z D Zᵀ to the symmetric n×n matrix x (row-major,
// stride ld, both triangles set and kept so). It computes T = Z D once and the
// upper block triangle of T Zᵀ by matrix products in row blocks, then mirrors
// it: about n²·R multiply–adds (half of a full product) plus O(n·R²). On
// amd64 with FMA the products are fused multiply–adds (symfma.go), accurate
// to rounding but not the bits of gonum's Dgemm.
func (l *LowRankSym) AddToSym(alpha float64, x []float64, ld int) {
	n, r := l.N, l.R
	if r == 0 || n == 0 {
		return
	}
	impl := blas64.Implementation()
	t := make([]float64, n*r)
	if !symKernel || !scaleDiag(n, r, alpha, l.Z, l.D, t) {
		impl.Dgemm(blas.NoTrans, blas.NoTrans, n, r, r, alpha, l.Z, r, l.D, r, 0, t, r)
	}
	if fmaKernel {
		// Fused multiply–adds in register blocks (symfma.go).
		addUpperTZFMA(n, r, t, l.Z, x, ld, true) // mirrored too
		return
	}
	if symKernel {
		// The same sums as the products below, faster (symkernel.go).
		addUpperTZ(n, r, t, l.Z, x, ld) // mirrored too
		return
	}
	// The upper triangle of T Zᵀ by recursive halving: the off-diagonal
	// block of each split is one large matrix product, the diagonal blocks
	// below symLeaf rows are computed whole.
	var rec func(i0, m int)
	rec = func(i0, m int) {
		if m <= symLeaf {
			impl.Dgemm(blas.NoTrans, blas.Trans, m, m, r, 1, t[i0*r:], r, l.Z[i0*r:], r, 1, x[i0*ld+i0:], ld)
			return
		}
		h := m / 2
		impl.Dgemm(blas.NoTrans, blas.Trans, h, m-h, r, 1, t[i0*r:], r, l.Z[(i0+h)*r:], r, 1, x[i0*ld+i0+h:], ld)
		rec(i0, h)
		rec(i0+h, m-h)
	}
	rec(0, n)
	mirrorUpperParallel(n, x, ld)
}

// AddToSymUpper is AddToSym without the mirror image where that saves work:
// it adds alpha·Z D Zᵀ to the upper triangle (diagonal included) of x and
// leaves the strict lower triangle either as it was or updated too (updated
// when the fused multiply–add kernel is not used). MirrorUpper makes x
// symmetric again. The same bits in the upper triangle as AddToSym; about
// n²·R/2 multiply–adds without the n²/2 scattered copies of the mirror,
// which on Cora's largest SCC take about a third of AddToSym's time.
func (l *LowRankSym) AddToSymUpper(alpha float64, x []float64, ld int) {
	n, r := l.N, l.R
	if r == 0 || n == 0 {
		return
	}
	if !fmaKernel {
		l.AddToSym(alpha, x, ld)
		return
	}
	t := make([]float64, n*r)
	if !symKernel || !scaleDiag(n, r, alpha, l.Z, l.D, t) {
		blas64.Implementation().Dgemm(blas.NoTrans, blas.NoTrans, n, r, r, alpha, l.Z, r, l.D, r, 0, t, r)
	}
	addUpperTZFMA(n, r, t, l.Z, x, ld, false)
}

// MirrorUpper copies the strict upper triangle of the n×n row-major x
// (stride ld) into its strict lower triangle, tile by tile, split over
// GOMAXPROCS goroutines. O(n²) copies.
func MirrorUpper(n int, x []float64, ld int) { mirrorUpperParallel(n, x, ld) }

// symLeaf is the order below which AddToSym computes diagonal blocks whole.
const symLeaf = 192

// mirrorUpperParallel is lyapMirrorUpper split by tile rows over GOMAXPROCS
// goroutines, each with about the same share of the triangle.
func mirrorUpperParallel(n int, a []float64, ld int) {
	w := min(runtime.GOMAXPROCS(0), max(1, n/256))
	if w <= 1 {
		lyapMirrorUpper(n, a, ld)
		return
	}
	ParallelTriangle(w, (n+lyapTile-1)/lyapTile, func(_, t0, t1 int) { mirrorUpperTiles(n, a, ld, t0, t1) })
}

// ParallelTriangle runs body(t, lo, hi) for t = 0..w−1 on w goroutines,
// over consecutive row ranges [lo, hi) of [0, n) that hold about equal parts
// of the upper triangle of an n×n matrix (row a holds n − a entries), and
// returns when all are done. O(n) to split.
func ParallelTriangle(w, n int, body func(t, lo, hi int)) {
	bounds := make([]int, w+1)
	total := float64(n) * float64(n+1) / 2
	k, acc := 1, 0.0
	for a := range n {
		if k < w && acc >= total*float64(k)/float64(w) {
			bounds[k] = a
			k++
		}
		acc += float64(n - a)
	}
	for ; k <= w; k++ {
		bounds[k] = n
	}
	parallel.Ranges(bounds, body)
}

// ShiftedSolve overwrites the n×k row-major matrix b with (M + p_j I)⁻¹ b,
// p_j the j-th shift given to SolveLyapunovADI, for a matrix M whose
// eigenvalues have positive real parts.
type ShiftedSolve func(j int, b []float64, k int) error

// ADIOptions configure SolveLyapunovADI.
type ADIOptions struct {
	// Tol stops the iteration once the residual's spectral norm is at most
	// Tol (absolute).
	Tol float64
	// MaxSteps bounds the number of shifted block solves; reaching it with
	// the residual above Tol returns the iterate and ErrADINotConverged.
	MaxSteps int
	// Truncate ≥ 0 returns the solution compressed: orthonormal Z, diagonal D
	// (eigenvalues by decreasing magnitude), eigenvalues of magnitude at most
	// Truncate·max|eigenvalue| dropped. Truncate < 0 returns the raw ADI
	// factors (Z = [V_1 … V_J], D block diagonal), cheaper when only a few
	// entries or quadratic forms are needed.
	Truncate float64
}

// ADIInfo describes a low-rank ADI solve.
type ADIInfo struct {
	Steps    int     // shifted block solves made
	Residual float64 // ‖M Δ + Δ Mᵀ − W S Wᵀ‖₂ of the ADI iterate as the iteration tracks it (exact solves assumed)
	RHSNorm  float64 // ‖W S Wᵀ‖₂
	Dropped  float64 // largest |eigenvalue| dropped by the compression (Truncate ≥ 0)
	Rank     int     // number of columns of the result
}

// SolveLyapunovADI returns a low-rank approximation Δ = Z D Zᵀ of the
// solution of
//
//	M Δ + Δ Mᵀ = W S Wᵀ
//
// (W n×k row-major, S k×k symmetric, possibly indefinite) for a matrix M with
// eigenvalues in the open right half-plane, known only through shifted solves.
//
// The method is the low-rank ADI iteration in LDLᵀ form (Li & White; Lang,
// Mena & Saak): with the residual factor W_0 = W, each step j takes the next
// shift p of the list (used cyclically, all real and positive), solves
// V = (M + pI)⁻¹ W_{j−1}, appends V to Z and 2p·S to the block diagonal of D,
// and sets W_j = W_{j−1} − 2p·V. The residual of the iterate is then exactly
// W_j S W_jᵀ, whose norm costs O(n·k²); the iteration stops when it is at
// most opt.Tol or after opt.MaxSteps steps (error ErrADINotConverged, with
// the iterate reached). The right-hand side is first compressed to its
// numerical rank (thin QR of W, eigenvalues of R S Rᵀ), so that S is diagonal
// and k that rank.
//
// With opt.Truncate ≥ 0 the new blocks are orthogonalized against the basis
// built so far (block classical Gram–Schmidt, twice, with matrix products, in
// batches of 16 columns, by a second goroutine while the iteration goes on; a
// column whose remainder is below 1e-14 of its norm adds no basis vector), so
// that Z = Q·R with orthonormal Q; the core R D Rᵀ is then diagonalized and
// truncated. Cost: Steps block solves with k
// right-hand sides, O(n·q·k) per step for q basis vectors, and
// O(q²·(k·Steps) + q³ + n·q·rank) at the end.
//
// Good shifts for a spectrum in [a, b] are WachspressShifts(a, b, J).
func SolveLyapunovADI(n int, W []float64, k int, S []float64, shifts []float64, solve ShiftedSolve, opt ADIOptions) (*LowRankSym, ADIInfo, error) {
	var info ADIInfo
	checkShifts(shifts)
	w0, _ := (&LowRankSym{N: n, R: k, Z: W, D: S}).Compress(1e-15)
	kk := w0.R
	if kk > 0 {
		info.RHSNorm = math.Max(math.Abs(w0.D[0]), math.Abs(w0.D[(kk-1)*kk+kk-1]))
	}
	if kk == 0 || info.RHSNorm <= opt.Tol {
		return &LowRankSym{N: n}, info, nil
	}
	sd := make([]float64, kk) // S is diagonal after compression
	for c := range kk {
		sd[c] = w0.D[c*kk+c]
	}
	sdm := diagMatrix(sd)
	w := w0.Z
	f := newADIFactors(n, kk, opt.Truncate)
	defer f.stop()
	res := info.RHSNorm
	var vbuf []float64 // the step's block, reused when add copies it
	for step := 0; step < opt.MaxSteps && res > opt.Tol; step++ {
		j := step % len(shifts)
		p := shifts[j]
		v := vbuf
		if v == nil {
			v = make([]float64, n*kk)
			if f.ob != nil {
				vbuf = v
			}
		}
		copy(v, w)
		if err := solve(j, v, kk); err != nil {
			return nil, info, err
		}
		for i, x := range v {
			w[i] -= 2 * p * x
		}
		f.add(v, p, sd)
		info.Steps++
		res = (&LowRankSym{N: n, R: kk, Z: w, D: sdm}).Norm2()
		if math.IsNaN(res) || math.IsInf(res, 0) {
			return nil, info, fmt.Errorf("%w: the residual is not finite after %d steps", ErrADINotConverged, info.Steps)
		}
	}
	info.Residual = res
	out, dropped := f.result(opt.Truncate)
	info.Dropped = dropped
	info.Rank = out.R
	if res > opt.Tol {
		return out, info, fmt.Errorf("%w: residual %.3g > %.3g after %d steps", ErrADINotConverged, res, opt.Tol, info.Steps)
	}
	return out, info, nil
}

// checkShifts panics unless there are shifts, all positive and finite.
func checkShifts(shifts []float64) {
	if len(shifts) == 0 {
		panic("linalg: SolveLyapunovADI without shifts")
	}
	for _, p := range shifts {
		if !(p > 0) || math.IsInf(p, 0) {
			panic(fmt.Sprintf("linalg: SolveLyapunovADI: shift %v is not positive", p))
		}
	}
}

// adiFactors collects the factors of SolveLyapunovADI's iterate: the
// diagonal of D, one entry per column of Z, and Z's blocks V, kept as
// they come (blocks, Truncate < 0) or orthogonalized into ob. Blocks
// wait in pending until orthoBatch columns have come, so that the
// orthogonalization's matrix products are not too thin; a second
// goroutine orthogonalizes them, in the order they came, while the
// iteration goes on (the recurrence does not depend on the basis).
type adiFactors struct {
	n, kk    int
	ob       *orthoBasis
	blocks   [][]float64
	dcol     []float64
	pending  []float64
	npend    int
	queue    chan adiBatch
	orthDone chan struct{}
}

// adiBatch is a batch of k columns (n×k row-major) for the orthogonalization.
type adiBatch struct {
	v []float64
	k int
}

// newADIFactors returns the collector of blocks of kk columns of n rows,
// orthogonalizing (its goroutine started) when truncate ≥ 0.
func newADIFactors(n, kk int, truncate float64) *adiFactors {
	f := &adiFactors{n: n, kk: kk}
	if truncate >= 0 {
		f.ob = newOrthoBasis(n)
		f.queue, f.orthDone = make(chan adiBatch, 64), make(chan struct{})
		go func() {
			for b := range f.queue {
				f.ob.add(b.v, b.k)
			}
			close(f.orthDone)
		}()
	}
	return f
}

// add appends a step's block v (shift p) to Z and 2p·sd to D's diagonal.
func (f *adiFactors) add(v []float64, p float64, sd []float64) {
	for c := range f.kk {
		f.dcol = append(f.dcol, 2*p*sd[c])
	}
	if f.ob == nil {
		f.blocks = append(f.blocks, v)
		return
	}
	// A batch holds kk·⌈orthoBatch/kk⌉ columns: the steps' blocks are
	// written in place into its rows (stride width), not appended.
	width := f.kk * ((orthoBatch + f.kk - 1) / f.kk)
	if f.pending == nil {
		f.pending = make([]float64, f.n*width)
	}
	for i := range f.n {
		copy(f.pending[i*width+f.npend:i*width+f.npend+f.kk], v[i*f.kk:i*f.kk+f.kk])
	}
	f.npend += f.kk
	if f.npend >= orthoBatch {
		f.flush()
	}
}

// flush hands the pending columns to the orthogonalization (a batch not
// full is first packed to its npend columns).
func (f *adiFactors) flush() {
	if f.npend > 0 {
		width := f.kk * ((orthoBatch + f.kk - 1) / f.kk)
		b := f.pending
		if f.npend < width {
			b = make([]float64, f.n*f.npend)
			for i := range f.n {
				copy(b[i*f.npend:i*f.npend+f.npend], f.pending[i*width:i*width+f.npend])
			}
		}
		f.queue <- adiBatch{b, f.npend}
	}
	f.pending, f.npend = nil, 0
}

// stop hands over the last columns and waits for the orthogonalization
// (once; nothing without it).
func (f *adiFactors) stop() {
	if f.queue != nil {
		f.flush()
		close(f.queue)
		<-f.orthDone
		f.queue = nil
	}
}

// result returns the iterate Z D Zᵀ: compressed and truncated at truncate
// with the largest magnitude dropped (ob), or the raw factors Z = [V_1 …
// V_J], D diagonal, and 0.
func (f *adiFactors) result(truncate float64) (*LowRankSym, float64) {
	if f.ob != nil {
		f.stop()
		return f.ob.result(f.dcol, truncate)
	}
	n, kk := f.n, f.kk
	r := kk * len(f.blocks)
	out := &LowRankSym{N: n, R: r, Z: make([]float64, n*r), D: diagMatrix(f.dcol)}
	for b, v := range f.blocks {
		for i := range n {
			copy(out.Z[i*r+b*kk:i*r+b*kk+kk], v[i*kk:i*kk+kk])
		}
	}
	return out, 0
}

// orthoBasis builds an orthonormal basis Q of the columns appended to a
// factor Z, and the coefficients R with Z = Q R.
type orthoBasis struct {
	n  int
	qt []float64   // Qᵀ, q×n row-major: basis vector c is qt[c*n : c*n+n]
	r  [][]float64 // column l of R: coefficients of Z's column l on the basis (prefix)
}

func newOrthoBasis(n int) *orthoBasis { return &orthoBasis{n: n} }

func (o *orthoBasis) q() int { return len(o.qt) / o.n }

// add appends the k columns of the n×k row-major v to Z. Block classical
// Gram–Schmidt twice against the basis (matrix products), then modified
// Gram–Schmidt, twice, inside the block.
func (o *orthoBasis) add(v []float64, k int) {
	n := o.n
	impl := blas64.Implementation()
	// Columns of v as contiguous vectors.
	cols := make([]float64, k*n)
	for i := range n {
		for c := range k {
			cols[c*n+i] = v[i*k+c]
		}
	}
	norms := make([]float64, k)
	for c := range k {
		norms[c] = impl.Dnrm2(n, cols[c*n:], 1)
	}
	q0 := o.q()
	coef := make([][]float64, k)
	for c := range k {
		coef[c] = make([]float64, q0, q0+k)
	}
	if q0 > 0 {
		h := make([]float64, k*q0)
		for range 2 {
			// h = cols·Q (k×q0), cols −= h·Qᵀ.
			if fmaKernel {
				projectOutFMA(n, k, q0, cols, o.qt, h)
			} else if symKernel {
				projectOut(n, k, q0, cols, o.qt, h)
			} else {
				impl.Dgemm(blas.NoTrans, blas.Trans, k, q0, n, 1, cols, n, o.qt, n, 0, h, q0)
				impl.Dgemm(blas.NoTrans, blas.NoTrans, k, n, q0, -1, h, q0, o.qt, n, 1, cols, n)
			}
			for c := range k {
				for b := range q0 {
					coef[c][b] += h[c*q0+b]
				}
			}
		}
	}
	for c := range k {
		x := cols[c*n : c*n+n]
		// Against the vectors of this block added so far.
		for range 2 {
			for b := q0; b < o.q(); b++ {
				qb := o.qt[b*n : b*n+n]
				d := impl.Ddot(n, qb, 1, x, 1)
				impl.Daxpy(n, -d, qb, 1, x, 1)
				coef[c] = growTo(coef[c], b+1)
				coef[c][b] += d
			}
		}
		nx := impl.Dnrm2(n, x, 1)
		if nx > 1e-14*norms[c] && nx > 0 {
			impl.Dscal(n, 1/nx, x, 1)
			o.qt = append(o.qt, x...)
			coef[c] = growTo(coef[c], o.q())
			coef[c][o.q()-1] = nx
		}
		o.r = append(o.r, coef[c])
	}
}

func growTo(s []float64, m int) []float64 {
	for len(s) < m {
		s = append(s, 0)
	}
	return s
}

// result returns Q·(eigenvectors) and the eigenvalues of the core R D Rᵀ (D
// diagonal, d), those of magnitude at most tol·max dropped, and the largest
// dropped magnitude.
func (o *orthoBasis) result(d []float64, tol float64) (*LowRankSym, float64) {
	n, q := o.n, o.q()
	if q == 0 {
		return &LowRankSym{N: n}, 0
	}
	core := o.core(d)
	lam, vec, ok := symEig(q, core, true)
	if !ok {
		// Keep the factors as they are: Z = Q, D = core.
		z := make([]float64, n*q)
		for c := range q {
			for i := range n {
				z[i*q+c] = o.qt[c*n+i]
			}
		}
		return &LowRankSym{N: n, R: q, Z: z, D: core}, 0
	}
	u, dd, rk, dropped := truncateEig(q, lam, vec, tol)
	z := make([]float64, n*rk)
	if rk > 0 {
		if fmaKernel {
			gemmFMA(n, rk, q, o.qt, 1, n, u, rk, 1, z, rk)
		} else if symKernel {
			// The same sums (z starts at +0, so Dgemm's skipped zero
			// products change nothing).
			gemmSeq(n, rk, q, o.qt, 1, n, u, rk, z, rk)
		} else {
			blas64.Implementation().Dgemm(blas.Trans, blas.NoTrans, n, rk, q, 1, o.qt, n, u, rk, 0, z, rk)
		}
	}
	return &LowRankSym{N: n, R: rk, Z: z, D: dd}, dropped
}

// core returns the q×q core R D Rᵀ (row-major; D diagonal, d) of the
// columns appended so far, Z = Q R. With the fused multiply–add kernel it
// is one product R·(D Rᵀ) on R padded to q×L (L columns), about q²·L fused
// multiply–adds in 4×8 register blocks (the upper triangle, which symEig
// reads, and the lower one, which it does not); without it, the rows'
// outer products summed in order, O(q²·L).
func (o *orthoBasis) core(d []float64) []float64 {
	q := o.q()
	core := make([]float64, q*q)
	if fmaKernel {
		nl := len(o.r)
		rm := make([]float64, q*nl)  // R, q×L
		rdt := make([]float64, nl*q) // D Rᵀ, L×q
		for l, col := range o.r {
			for a, va := range col {
				rm[a*nl+l] = va
				rdt[l*q+a] = d[l] * va
			}
		}
		gemmFMA(q, q, nl, rm, nl, 1, rdt, q, 1, core, q)
		return core
	}
	for l, col := range o.r {
		dl := d[l]
		for a, va := range col {
			if va == 0 {
				continue
			}
			f := dl * va
			row := core[a*q : a*q+q]
			for b, vb := range col {
				row[b] += f * vb
			}
		}
	}
	return core
}

// orthoBatch is the number of columns SolveLyapunovADI orthogonalizes at once.
const orthoBatch = 16

func diagMatrix(d []float64) []float64 {
	k := len(d)
	m := make([]float64, k*k)
	for i, v := range d {
		m[i*k+i] = v
	}
	return m
}

// WachspressShifts returns J ADI shifts for a matrix whose eigenvalues are
// real and lie in [a, b] (0 < a ≤ b): Wachspress's optimal parameters
// p_j = b·dn((2j−1)K/(2J), k), k² = 1 − (a/b)², K the complete elliptic
// integral of the first kind, which minimise max over [a, b] of
// Π_j |(λ − p_j)/(λ + p_j)|; ADIReduction gives that bound. They are returned
// in an interleaved order (bit-reversed index), so that any first few of them
// cover [a, b] evenly, which helps an iteration that stops early. O(J·log).
func WachspressShifts(a, b float64, J int) []float64 {
	if !(a > 0 && a <= b) || J < 1 {
		panic(fmt.Sprintf("linalg: WachspressShifts(%v, %v, %d)", a, b, J))
	}
	p := make([]float64, J)
	if a == b {
		for j := range p {
			p[j] = a
		}
		return p
	}
	kp := a / b
	kk := ellipticK(kp)
	for j := range J {
		p[j] = b * jacobiDN((2*float64(j)+1)/(2*float64(J))*kk, kp)
	}
	// Bit-reversed order of the sorted shifts.
	order := make([]int, 0, J)
	bitsN := 0
	for 1<<bitsN < J {
		bitsN++
	}
	for x := range 1 << bitsN {
		rev := 0
		for q := range bitsN {
			if x&(1<<q) != 0 {
				rev |= 1 << (bitsN - 1 - q)
			}
		}
		if rev < J {
			order = append(order, rev)
		}
	}
	out := make([]float64, J)
	for i, o := range order {
		out[i] = p[o]
	}
	return out
}

// ADIReduction returns max over λ ∈ [a, b] of Π_j ((λ − p_j)/(λ + p_j))², the
// factor by which the ADI steps with shifts p reduce the residual of a
// Lyapunov equation with a symmetric M whose spectrum lies in [a, b],
// evaluated on a logarithmic grid of 2000 points plus the shifts' own
// neighbourhoods. O(2000·len(p)).
func ADIReduction(a, b float64, p []float64) float64 {
	worst := 0.0
	eval := func(l float64) {
		f := 1.0
		for _, q := range p {
			r := (l - q) / (l + q)
			f *= r * r
		}
		worst = math.Max(worst, f)
	}
	const m = 2000
	for i := 0; i <= m; i++ {
		eval(a * math.Pow(b/a, float64(i)/m))
	}
	return worst
}

// WachspressCount returns the least J ≤ 200 for which the Wachspress shifts
// on [a, b] reduce the residual by at least the factor reduction
// (ADIReduction), or 200.
func WachspressCount(a, b, reduction float64) int {
	for J := 1; J < 200; J++ {
		if ADIReduction(a, b, WachspressShifts(a, b, J)) <= reduction {
			return J
		}
	}
	return 200
}

// agm runs the arithmetic–geometric mean of (1, kp) and returns the a_i and
// c_i of the descending Landen sequence (Abramowitz & Stegun 16.4).
func agm(kp float64) (as, cs []float64) {
	a, b := 1.0, kp
	c := math.Sqrt(math.Max(0, (1-kp)*(1+kp)))
	as, cs = []float64{a}, []float64{c}
	for i := 0; i < 60 && math.Abs(c) > 1e-17*a; i++ {
		a, b, c = (a+b)/2, math.Sqrt(a*b), (a-b)/2
		as, cs = append(as, a), append(cs, c)
	}
	return as, cs
}

// ellipticK returns K(k) for the complementary modulus kp = sqrt(1 − k²),
// π/(2·AGM(1, kp)).
func ellipticK(kp float64) float64 {
	as, _ := agm(kp)
	return math.Pi / (2 * as[len(as)-1])
}

// jacobiDN returns the Jacobi elliptic function dn(u, k), k² = 1 − kp², by
// the descending Landen (AGM) method, accurate for kp near 0 because kp is
// given directly.
func jacobiDN(u, kp float64) float64 {
	as, cs := agm(kp)
	nn := len(as) - 1
	phi := math.Ldexp(as[nn]*u, nn)
	prev := phi
	for i := nn; i >= 1; i-- {
		prev = phi
		phi = (phi + math.Asin(cs[i]/as[i]*math.Sin(phi))) / 2
	}
	if nn == 0 {
		return 1
	}
	return math.Cos(phi) / math.Cos(prev-phi)
}

// truncateEig keeps the eigenpairs (lam ascending, vec k×k row-major with
// eigenvectors in columns) whose |λ| exceeds tol·max|λ|, by decreasing |λ|.
// It returns U (k×rk, the kept eigenvectors as columns), D = diag(kept λ)
// (rk×rk), rk, and the largest |λ| dropped. O(k·rk).
func truncateEig(k int, lam, vec []float64, tol float64) (u, d []float64, rk int, dropped float64) {
	big := math.Max(math.Abs(lam[0]), math.Abs(lam[k-1]))
	var keep []int
	lo, hi := 0, k-1
	for lo <= hi {
		var c int
		if math.Abs(lam[lo]) >= math.Abs(lam[hi]) {
			c, lo = lo, lo+1
		} else {
			c, hi = hi, hi-1
		}
		if math.Abs(lam[c]) > tol*big {
			keep = append(keep, c)
		} else {
			dropped = math.Max(dropped, math.Abs(lam[c]))
		}
	}
	rk = len(keep)
	u = make([]float64, k*rk)
	d = make([]float64, rk*rk)
	for c, e := range keep {
		for a := range k {
			u[a*rk+c] = vec[a*k+e]
		}
		d[c*rk+c] = lam[e]
	}
	return u, d, rk, dropped
}
