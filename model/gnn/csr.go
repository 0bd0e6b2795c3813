package gnn

import (
	"github.com/james-bowman/sparse"
	"github.com/james-bowman/sparse/blas"
)

// csrMul sets dst = P·src for a CSR P (r×c) and w-column blocks src (c
// rows) and dst (r rows); with add it adds P·src to dst, and with a bias
// (length ≥ w) it adds the bias to every row of P·src (bias is ignored with
// add). Each entry is the gather sum (from zero, in stored order) plus, last,
// what dst held or the bias: the bits of spmm followed by addBias. With AVX
// the whole matrix goes through one assembly loop per column block
// (csr16AVX, csr8AVX; with AVX-512 csr32 on 32 columns), without a call
// per row; more than 32 columns with
// add, or no AVX, take spmm. It panics on an index out of range.
// O(nnz(P)·w + r·w).
func csrMul(dst strided, p *blas.SparseMatrix, src strided, w int, add bool, bias []float64) {
	if add {
		bias = nil
	}
	if !useAVX || (add && w > 32) || p.I == 0 || w == 0 {
		spmm(dst, p, src, w, add)
		if bias != nil {
			for i := range p.I {
				axpy(dst.data[i*dst.stride+dst.off:i*dst.stride+dst.off+w], 1, bias)
			}
		}
		return
	}
	csrCheck(dst, p, src, w)
	if bias != nil && len(bias) < w {
		panic("gnn: bias shorter than the block")
	}
	csrRows(dst, p, src, w, add, bias, 0, p.I)
}

// csrRows is csrMul's assembly loops on the rows lo … hi−1 of P and dst
// (team.csrMul: rows are independent), after csrCheck. It panics on an
// index out of range. O(nnz(P's rows)·w + (hi−lo)·w).
func csrRows(dst strided, p *blas.SparseMatrix, src strided, w int, add bool, bias []float64, lo, hi int) {
	if lo >= hi {
		return
	}
	base := p.Indptr[lo]
	ind, val := ptrInt(p.Ind[base:]), ptrFloat(p.Data[base:])
	row := lo*dst.stride + dst.off
	for c := 0; c < w; {
		var addp *float64
		as := 0
		switch {
		case add:
			addp, as = &dst.data[row+c], dst.stride
		case bias != nil:
			addp = &bias[c]
		}
		d, s := &dst.data[row+c], &src.data[src.off+c]
		var ok bool
		if useAVX512 {
			r := min(w-c, 32)
			ok = csr32(d, dst.stride, &p.Indptr[lo], ind, val, hi-lo, s, src.stride, addp, as, r, p.J)
			c += r
		} else if w-c >= 16 {
			ok = csr16AVX(d, dst.stride, &p.Indptr[lo], ind, val, hi-lo, s, src.stride, addp, as, p.J)
			c += 16
		} else {
			r := min(w-c, 8)
			ok = csr8AVX(d, dst.stride, &p.Indptr[lo], ind, val, hi-lo, s, src.stride, addp, as, &masks8[r], p.J)
			c += r
		}
		if !ok {
			panic("gnn: CSR column index out of range or row pointers decreasing")
		}
	}
}

// csrCheck panics unless the assembly loops may run P·src into dst for w
// columns: row pointers from 0 up to at most the index and value arrays'
// length, src and dst long enough (the loops themselves check that the row
// pointers do not decrease and that every column index is below c). O(1).
func csrCheck(dst strided, p *blas.SparseMatrix, src strided, w int) {
	if len(p.Indptr) < p.I+1 || p.Indptr[0] != 0 {
		panic("gnn: CSR row pointers malformed")
	}
	if nnz := p.Indptr[p.I]; nnz < 0 || nnz > len(p.Ind) || nnz > len(p.Data) {
		panic("gnn: CSR row pointers beyond the entries")
	}
	if src.off < 0 || dst.off < 0 || (p.J > 0 && (p.J-1)*src.stride+src.off+w > len(src.data)) ||
		(p.I-1)*dst.stride+dst.off+w > len(dst.data) {
		panic("gnn: CSR product block out of range")
	}
}

// ptrInt returns &s[0], or nil for an empty s.
func ptrInt(s []int) *int {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

// ptrFloat returns &s[0], or nil for an empty s.
func ptrFloat(s []float64) *float64 {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

// transposeCSR returns Pᵀ (c×r) of the CSR P (r×c) with each row's column
// indices ascending: row j of Pᵀ lists the rows i of P that store column j,
// in ascending i, with the same values. A gather over Pᵀ therefore visits,
// for every output entry, exactly the terms spmmT scatters, in the same
// order. O(r + c + nnz).
func transposeCSR(a *sparse.CSR) *sparse.CSR {
	p := a.RawMatrix()
	nnz := p.Indptr[p.I]
	ia := make([]int, p.J+1)
	for _, j := range p.Ind[:nnz] {
		ia[j+1]++
	}
	for j := range p.J {
		ia[j+1] += ia[j]
	}
	ja := make([]int, nnz)
	data := make([]float64, nnz)
	next := append([]int(nil), ia[:p.J]...)
	for i := range p.I {
		for q := p.Indptr[i]; q < p.Indptr[i+1]; q++ {
			j := p.Ind[q]
			ja[next[j]], data[next[j]] = i, p.Data[q]
			next[j]++
		}
	}
	return sparse.NewCSR(p.J, p.I, ia, ja, data)
}

// spmmTBy sets dst = Pᵀ·g (w columns) given P and its transpose pt
// (transposeCSR): by scattering the non-zero rows of g when fewer than a
// quarter of them are non-zero (the loss gradient and its first
// propagations), else by gathering over pt (csrMul), which visits the same
// terms in the same order and adds only zero terms besides (a zero row of g
// contributes ±0 to a sum that started at +0): both give the bits of spmmT.
// O(r·w) to find the non-zero rows, then the cost of the chosen product.
func spmmTBy(dst strided, p, pt *blas.SparseMatrix, g strided, w int, s *scratch) {
	rows := nonZeroRows(g, p.I, w, s)
	if 4*len(rows) >= p.I {
		csrMul(dst, pt, g, w, false, nil)
		return
	}
	for j := range p.J {
		clear(dst.data[j*dst.stride+dst.off : j*dst.stride+dst.off+w])
	}
	for _, i := range rows {
		lo, hi := p.Indptr[i], p.Indptr[i+1]
		scatter(dst.data[dst.off:], dst.stride, p.Ind[lo:hi], p.Data[lo:hi], g.data[i*g.stride+g.off:i*g.stride+g.off+w], w)
	}
}

// nonZeroRows returns, in s.rows, the rows i < n of the w-column block g
// that hold a non-zero entry, ascending. O(n·w).
func nonZeroRows(g strided, n, w int, s *scratch) []int {
	if cap(s.rows) < n {
		s.rows = make([]int, n)
	}
	rows := s.rows[:0]
	for i := range n {
		if !isZero(g.data[i*g.stride+g.off : i*g.stride+g.off+w]) {
			rows = append(rows, i)
		}
	}
	return rows
}
