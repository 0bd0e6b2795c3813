package gnn

import (
	"github.com/james-bowman/sparse/blas"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// The kernels below work on row-major float64 slices. Every one visits the
// terms of each output element in a fixed order (ascending row of the
// summed-over index, then ascending stored position), so results are
// bit-for-bit reproducible. All products reduce to one gather kernel,
// d = Σ_q v_q·src[idx_q], over a sparse row (idx, v): a CSR row, or the
// non-zero entries of a dense row (ReLU and dropout leave many zeros).
// With AVX the layers call the whole-matrix forms of these loops instead
// (csr.go, dense.go), which give the same bits; the loops here remain the
// path without AVX and the reference the tests compare against.

// rawDense returns the row-major elements of m, whose stride must equal its
// column count (every matrix this package allocates has that layout).
func rawDense(m *mat.Dense) []float64 {
	r := m.RawMatrix()
	if r.Stride != r.Cols {
		panic("gnn: matrix view with stride ≠ columns")
	}
	return r.Data[:r.Rows*r.Cols]
}

// contiguous returns m itself when its stride equals its column count, else
// a contiguous copy.
func contiguous(m *mat.Dense) *mat.Dense {
	if r := m.RawMatrix(); r.Stride == r.Cols {
		return m
	}
	return mat.DenseCopyOf(m)
}

// ensure returns buf when it is an r×c matrix; else an r×c matrix on buf's
// storage when that holds r·c elements, its contents left as they are (the
// batches of a graph model change shape at every batch, and every caller
// overwrites the whole matrix: TestGraphBuffersReused); else a new zero
// r×c matrix (with a quarter more room when it replaces buf).
func ensure(buf *mat.Dense, r, c int) *mat.Dense {
	if buf != nil {
		raw := buf.RawMatrix()
		if raw.Rows == r && raw.Cols == c {
			return buf
		}
		if d := raw.Data; r > 0 && c > 0 && cap(d) >= r*c {
			return mat.NewDense(r, c, d[:r*c])
		}
		if r > 0 && c > 0 { // reshaped and grown: room for the next batches
			return mat.NewDense(r, c, make([]float64, r*c, r*c+r*c/4))
		}
	}
	return mat.NewDense(r, c, nil)
}

// scratch holds grow-only work buffers, so that the kernels do not allocate
// in the training loop. A scratch serves one goroutine.
type scratch struct {
	idx  []int
	val  []float64
	t    []float64
	rows []int
	pad  []float64
	list []int32 // denseMul's non-zero column indices, row by row
	cnt  []int32 // their number per row
}

// padded returns a zeroed buffer of length n (8-column padded blocks).
func (s *scratch) padded(n int) []float64 {
	if len(s.pad) < n {
		s.pad = make([]float64, n)
	}
	clear(s.pad[:n])
	return s.pad[:n]
}

// row returns index and value buffers of length ≥ n.
func (s *scratch) row(n int) ([]int, []float64) {
	if len(s.idx) < n {
		s.idx, s.val = make([]int, n), make([]float64, n)
	}
	return s.idx, s.val
}

// trans returns a buffer of length ≥ n for a transposed matrix.
func (s *scratch) trans(n int) []float64 {
	if len(s.t) < n {
		s.t = make([]float64, n)
	}
	return s.t[:n]
}

// axpy sets d += a·s (len(s) ≥ len(d)). With AVX (useAVX) from 8 entries
// on, four entries at a time in vector registers (axpyAVX); else long
// vectors go to gonum's SSE2 kernel (floats.AddScaled, about 1.7× faster
// from 64 entries on) and short ones, where its call overhead would
// dominate, to a loop unrolled by four. Every entry is d + a·s, rounded
// after the multiply and after the add, on every path.
func axpy(d []float64, a float64, s []float64) {
	s = s[:len(d)]
	if useAVX && len(d) >= 8 {
		n := len(d) &^ 3
		axpyAVX(&d[0], a, &s[0], n)
		for k := n; k < len(d); k++ {
			d[k] += a * s[k]
		}
		return
	}
	if len(d) >= 32 {
		floats.AddScaled(d, a, s)
		return
	}
	for len(d) >= 4 {
		d0, d1, d2, d3 := d[0]+a*s[0], d[1]+a*s[1], d[2]+a*s[2], d[3]+a*s[3]
		d[0], d[1], d[2], d[3] = d0, d1, d2, d3
		d, s = d[4:], s[4:]
	}
	for k := range d {
		d[k] += a * s[k]
	}
}

// isZero reports whether every element of v is zero.
func isZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// dot returns Σ a_k b_k (len(b) ≥ len(a)).
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for k := range a {
		s += a[k] * b[k]
	}
	return s
}

// gather sets d = Σ_q v[q]·src[idx[q]·ss+so : …+len(d)] (adds it to d when
// add). Each column is summed from zero in q order, and added to d last —
// except for more than 32 columns with add, which go term by term onto d
// through axpy (d + t₁ + t₂ …). With AVX (useAVX), sixteen columns at a time
// are summed in vector registers (gather16AVX: about 2× the scalar loops)
// and a remainder of 3–8 columns in one masked pass (gather8AVX); the rest,
// or everything without AVX, eight or four columns at a time in scalar
// registers, about 1.5× faster than one axpy per term; more than 32 columns
// without AVX stream whole source rows through axpy. Every path gives each
// column the same bits. O(len(idx)·len(d)).
//
// Kept whole: its passes are fused for speed (a call per pass and row measured 3–24 % slower).
func gather(d []float64, idx []int, v []float64, src []float64, ss, so int, add bool) {
	w := len(d)
	v = v[:len(idx)]
	c := 0
	if useAVX && w >= 16 && len(idx) > 0 && !(add && w > 32) {
		// Sixteen columns at a time in AVX registers: the terms and their
		// order of the loops below (a column is summed from zero, then
		// added to d when add), so the bits are the same.
		for _, j := range idx {
			if j < 0 || j*ss+so+w > len(src) {
				panic("gnn: gather index out of range")
			}
		}
		var t [16]float64
		for ; c+16 <= w; c += 16 {
			gather16AVX(&t[0], &idx[0], &v[0], len(idx), &src[so+c], ss)
			dc := d[c : c+16 : c+16]
			if add {
				for k, x := range t {
					dc[k] = x + dc[k]
				}
			} else {
				copy(dc, t[:])
			}
		}
	} else if w > 32 {
		if !add {
			clear(d)
		}
		for q, j := range idx {
			axpy(d, v[q], src[j*ss+so:])
		}
		return
	}
	if r := w - c; useAVX && r >= 3 && r <= 8 && len(idx) > 0 {
		// The last 3–8 columns (the class widths) in one masked AVX pass.
		for _, j := range idx {
			if j < 0 || j*ss+so+w > len(src) {
				panic("gnn: gather index out of range")
			}
		}
		var t [8]float64
		gather8AVX(&t[0], &idx[0], &v[0], len(idx), &src[so+c], ss, &masks8[r])
		dc := d[c:w]
		if add {
			for k := range dc {
				dc[k] = t[k] + dc[k]
			}
		} else {
			copy(dc, t[:r])
		}
		return
	}
	for ; c+8 <= w; c += 8 {
		var a0, a1, a2, a3, a4, a5, a6, a7 float64
		o := so + c
		for q, j := range idx {
			s := src[j*ss+o : j*ss+o+8 : j*ss+o+8]
			x := v[q]
			a0 += x * s[0]
			a1 += x * s[1]
			a2 += x * s[2]
			a3 += x * s[3]
			a4 += x * s[4]
			a5 += x * s[5]
			a6 += x * s[6]
			a7 += x * s[7]
		}
		dc := d[c : c+8 : c+8]
		if add {
			a0, a1, a2, a3, a4, a5, a6, a7 = a0+dc[0], a1+dc[1], a2+dc[2], a3+dc[3], a4+dc[4], a5+dc[5], a6+dc[6], a7+dc[7]
		}
		dc[0], dc[1], dc[2], dc[3], dc[4], dc[5], dc[6], dc[7] = a0, a1, a2, a3, a4, a5, a6, a7
	}
	for ; c+4 <= w; c += 4 {
		var a0, a1, a2, a3 float64
		o := so + c
		for q, j := range idx {
			s := src[j*ss+o : j*ss+o+4 : j*ss+o+4]
			x := v[q]
			a0 += x * s[0]
			a1 += x * s[1]
			a2 += x * s[2]
			a3 += x * s[3]
		}
		dc := d[c : c+4 : c+4]
		if add {
			a0, a1, a2, a3 = a0+dc[0], a1+dc[1], a2+dc[2], a3+dc[3]
		}
		dc[0], dc[1], dc[2], dc[3] = a0, a1, a2, a3
	}
	for ; c < w; c++ {
		var a float64
		o := so + c
		for q, j := range idx {
			a += v[q] * src[j*ss+o]
		}
		if add {
			a += d[c]
		}
		d[c] = a
	}
}

// masks8[r] selects the first r of 8 lanes for gather8AVX.
var masks8 = func() (m [9][8]int64) {
	for r := range m {
		for k := range r {
			m[r][k] = -1
		}
	}
	return m
}()

// nonZeros stores the positions and values of the non-zero entries of row
// (read with stride st: row[k·st]) in idx and val and returns their count.
// Branch-free, as about half the entries of a ReLU output are zero.
func nonZeros(idx []int, val []float64, row []float64, n, st int) int {
	c := 0
	for k := range n {
		v := row[k*st]
		idx[c], val[c] = k, v
		if v != 0 {
			c++
		}
	}
	return c
}

// The dense products below take S runs side by side: a row-major matrix
// with S·w columns holds run r's n×w matrix in columns r·w … r·w+w−1. They
// visit row by row and, within a row, run by run, so a row of every run is
// read while it is in cache; each run's elements get exactly the terms, in
// the order, of one run alone (S = 1).

// mulNN sets dst = a·b for a (n×k), b (k×m), dst (n×m), skipping the zero
// entries of a. O(nnz(a)·m + n·k).
func mulNN(dst, a, b []float64, n, k, m int, s *scratch) {
	denseMul(dst, a, b, n, k, m, s)
}

// mulNNb sets dst_r = a_r·b[r] for the S = len(b) runs of a (n×k each, side
// by side) and dst (n×m each), b[r] row-major k×m. O(nnz(a)·m + S·n·k).
func mulNNb(dst, a []float64, b [][]float64, n, k, m int, s *scratch) {
	S := len(b)
	idx, val := s.row(k)
	for i := range n {
		for r, br := range b {
			c := nonZeros(idx, val, a[(i*S+r)*k:], k, 1)
			gather(dst[(i*S+r)*m:(i*S+r+1)*m], idx[:c], val, br, m, 0, false)
		}
	}
}

// mulTN sets dst = aᵀ·g for a (n×k), g (n×m), dst (k×m). Each element sums
// a[i,p]·g[i,:] over ascending i from zero; rows where g is zero and zero
// entries of a are left out (the loss gradient lives on the training nodes
// and their neighbourhoods). O(n·m + nnz(a on those rows)·m + k·m).
func mulTN(dst, a, g []float64, n, k, m int, s *scratch) {
	denseMulTN(dst, a, g, n, k, m, s)
}

// mulTNb sets dst[r] = a_rᵀ·g_r (k×m) for the S = len(dst) runs of a (n×k
// each, side by side) and g (n×m each), by scattering the rows of g.
func mulTNb(dst [][]float64, a, g []float64, n, k, m int, s *scratch) {
	S := len(dst)
	for _, d := range dst {
		clear(d[:k*m])
	}
	idx, val := s.row(k)
	for i := range n {
		for r, d := range dst {
			gi := g[(i*S+r)*m : (i*S+r+1)*m]
			if isZero(gi) {
				continue
			}
			c := nonZeros(idx, val, a[(i*S+r)*k:], k, 1)
			scatter(d, m, idx[:c], val, gi, m)
		}
	}
}

// mulNT sets dst = g·bᵀ for g (n×m), b (k×m), dst (n×k), as g·(bᵀ) with bᵀ
// formed in scratch. O(nnz(g)·k + n·m + k·m).
func mulNT(dst, g, b []float64, n, k, m int, s *scratch) {
	denseMulNT(dst, g, b, n, k, m, s)
}

// transpose sets bt (m×k) to the transpose of b (k×m).
func transpose(bt, b []float64, k, m int) {
	for p := range k {
		for c := range m {
			bt[c*k+p] = b[p*m+c]
		}
	}
}

// mulNTb sets dst_r = g_r·bt[r] for the S = len(bt) runs of g (n×m each,
// side by side) and dst (n×k each), bt[r] the transposed weight (m×k).
// O(nnz(g)·k + S·n·m).
func mulNTb(dst, g []float64, bt [][]float64, n, k, m int, s *scratch) {
	S := len(bt)
	idx, val := s.row(m)
	for i := range n {
		for r, b := range bt {
			c := nonZeros(idx, val, g[(i*S+r)*m:], m, 1)
			gather(dst[(i*S+r)*k:(i*S+r+1)*k], idx[:c], val, b, k, 0, false)
		}
	}
}

// scatter adds v[q]·s to the w entries of dst from idx[q]·stride for q in
// order — axpy term by term, in one AVX call when useAVX (w ≥ 8: the
// columns beyond the last multiple of 4 after it, each entry still getting
// its terms in q order). It panics on an index outside dst.
func scatter(dst []float64, stride int, idx []int, v []float64, s []float64, w int) {
	v, s = v[:len(idx)], s[:w]
	if !useAVX || w < 8 || len(idx) == 0 {
		for q, j := range idx {
			axpy(dst[j*stride:j*stride+w], v[q], s)
		}
		return
	}
	for _, j := range idx {
		if j < 0 || j*stride+w > len(dst) {
			panic("gnn: scatter index out of range")
		}
	}
	w4 := w &^ 3
	scatterAVX(&dst[0], stride, &idx[0], &v[0], len(idx), &s[0], w4)
	if w4 < w {
		for q, j := range idx {
			d := dst[j*stride+w4 : j*stride+w]
			for k := range d {
				d[k] += v[q] * s[w4+k]
			}
		}
	}
}

// strided names w columns of a row-major matrix: element (i, j) is
// data[i*stride+off+j].
type strided struct {
	data        []float64
	stride, off int
}

// spmm sets dst = P·src (or adds it when add) for a CSR P (r×c) and
// w-column blocks src (c rows) and dst (r rows). O(nnz(P)·w).
func spmm(dst strided, p *blas.SparseMatrix, src strided, w int, add bool) {
	for i := range p.I {
		lo, hi := p.Indptr[i], p.Indptr[i+1]
		d := dst.data[i*dst.stride+dst.off : i*dst.stride+dst.off+w]
		gather(d, p.Ind[lo:hi], p.Data[lo:hi], src.data, src.stride, src.off, add)
	}
}

// spmmT sets dst = Pᵀ·g for a CSR P (r×c), g (r rows) and dst (c rows), w
// columns each, by scattering the rows of g; zero rows of g are skipped (the
// loss gradient is zero outside the training nodes, and so are its
// propagations beyond their neighbourhoods). O(nnz(P)·w + c·w).
func spmmT(dst strided, p *blas.SparseMatrix, g strided, w int) {
	for j := range p.J {
		clear(dst.data[j*dst.stride+dst.off : j*dst.stride+dst.off+w])
	}
	for i := range p.I {
		gi := g.data[i*g.stride+g.off : i*g.stride+g.off+w]
		if isZero(gi) {
			continue
		}
		lo, hi := p.Indptr[i], p.Indptr[i+1]
		scatter(dst.data[dst.off:], dst.stride, p.Ind[lo:hi], p.Data[lo:hi], gi, w)
	}
}

// whole returns the strided view of all m columns of a row-major slice.
func whole(data []float64, m int) strided { return strided{data: data, stride: m} }

// addBias adds b to every row of the n×m row-major z.
func addBias(z, b []float64, n, m int) {
	addToRows(whole(z, m), n, m, b)
}

// colSums sets db to the column sums of the n×m row-major g.
func colSums(db, g []float64, n, m int) {
	colSumsS(db, strided{g, m, 0}, n, m)
}

// colSumsS sets db to the column sums of the strided block g (n×m), rows in
// ascending order.
func colSumsS(db []float64, g strided, n, m int) {
	clear(db[:m])
	sumRows(db, g, n, m)
}
