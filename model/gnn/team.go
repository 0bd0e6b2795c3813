package gnn

import (
	"github.com/james-bowman/sparse/blas"

	"github.com/ohmgnn/ohm/internal/parallel"
)

// A team splits the kernels of one optimiser step over goroutines
// (definitions §4.5): the rows of the dense products x·W and g·Wᵀ and of
// the sparse products A·x, the rows of the weight gradient xᵀ·g (the
// columns of x), the columns of column sums and BatchNorm statistics, the
// entries of element-wise maps. Every split is one of independent output
// entries: each entry is computed by one goroutine with the terms, in the
// order, of the serial kernel, so the results are the same bits at every
// team size. A nil *team, or one of size 1, runs every kernel on the
// caller's goroutine with the caller's scratch. A team serves one model
// (its kernels run one at a time).
type team struct {
	w  int
	ws []scratch // one per goroutine
}

// newTeam returns a team of w goroutines, or nil when w ≤ 1.
func newTeam(w int) *team {
	if w <= 1 {
		return nil
	}
	return &team{w: w, ws: make([]scratch, w)}
}

// minBlockWork is the fewest multiply-adds (or element operations) worth a
// goroutine of its own: below it the split costs more than it saves.
var minBlockWork = 1 << 14 // a variable so that tests can force every split

// blocks returns how many blocks n units of cost unit each are split into:
// at most the team's size, each holding at least minBlockWork.
func (p *team) blocks(n, unit int) int {
	if p == nil || n < 2 {
		return 1
	}
	return max(1, min(p.w, n, n*max(1, unit)/minBlockWork))
}

// run calls body(s, lo, hi) on contiguous ranges covering [0, n): on the
// caller's goroutine with own when one block suffices, else one range per
// goroutine with its own scratch (parallel.Rows).
func (p *team) run(n, unit int, own *scratch, body func(s *scratch, lo, hi int)) {
	b := p.blocks(n, unit)
	if b <= 1 {
		body(own, 0, n)
		return
	}
	parallel.Rows(b, n, func(t, lo, hi int) { body(&p.ws[t], lo, hi) })
}

// mulNN is mulNN (dst = a·b, a n×k, b k×m) over blocks of rows: a row of
// dst depends on its row of a only.
func (p *team) mulNN(dst, a, b []float64, n, k, m int, s *scratch) {
	p.run(n, k*m, s, func(s *scratch, lo, hi int) {
		mulNN(dst[lo*m:hi*m], a[lo*k:hi*k], b, hi-lo, k, m, s)
	})
}

// biasChunk is the rows mulNNBias adds the bias to right after their
// product, while they are in cache (a batch's n×64 output is larger than
// L2).
const biasChunk = 128

// mulNNBias sets dst = a·b + bias (bias added to every row after the
// product, the bits of mulNN then addBias) over blocks of rows, each in
// chunks of biasChunk rows whose bias is added while they are in cache.
func (p *team) mulNNBias(dst, a, b, bias []float64, n, k, m int, s *scratch) {
	p.run(n, k*m, s, func(s *scratch, lo, hi int) {
		for r0 := lo; r0 < hi; r0 += biasChunk {
			r1 := min(hi, r0+biasChunk)
			mulNN(dst[r0*m:r1*m], a[r0*k:r1*k], b, r1-r0, k, m, s)
			addBias(dst[r0*m:r1*m], bias, r1-r0, m)
		}
	})
}

// mulNT is mulNT (dst = g·bᵀ, g n×m, b k×m) with bᵀ formed once, then
// blocks of rows.
func (p *team) mulNT(dst, g, b []float64, n, k, m int, s *scratch) {
	if p.blocks(n, k*m) <= 1 {
		mulNT(dst, g, b, n, k, m, s)
		return
	}
	bt := s.trans(m * k)
	transpose(bt, b, k, m)
	p.mulNN(dst, g, bt, n, m, k, s)
}

// mulTN is mulTN (dst = aᵀ·g, a n×k, g n×m, dst k×m) over blocks of the
// rows of dst (columns of a): each entry still sums over the rows of a in
// ascending order. Without AVX it runs on the caller's goroutine.
func (p *team) mulTN(dst, a, g []float64, n, k, m int, s *scratch) {
	if !useAVX || n == 0 || m == 0 || k == 0 || p.blocks(k, n*m) <= 1 {
		mulTN(dst, a, g, n, k, m, s)
		return
	}
	if len(a) < n*k || len(g) < n*m || len(dst) < k*m {
		panic("gnn: dense product operand too short")
	}
	rows := nonZeroRows(whole(g, m), n, m, s)
	fin := allFinite(g[:n*m])
	p.run(k, n*m, s, func(s *scratch, lo, hi int) {
		clear(dst[lo*m : hi*m])
		if len(rows) > 0 {
			denseTNRows(dst, a, g, k, m, lo, hi, rows, fin, s)
		}
	})
}

// csrMul is csrMul over blocks of P's rows.
func (p *team) csrMul(dst strided, a *blas.SparseMatrix, src strided, w int, add bool, bias []float64) {
	if !useAVX || (add && w > 32) || a.I == 0 || w == 0 || p.blocks(a.I, w*max(1, a.Indptr[a.I]/a.I)) <= 1 {
		csrMul(dst, a, src, w, add, bias)
		return
	}
	csrCheck(dst, a, src, w)
	if add {
		bias = nil
	}
	if bias != nil && len(bias) < w {
		panic("gnn: bias shorter than the block")
	}
	p.run(a.I, w*max(1, a.Indptr[a.I]/a.I), nil, func(_ *scratch, lo, hi int) {
		csrRows(dst, a, src, w, add, bias, lo, hi)
	})
}

// spmmTBy is spmmTBy with its gather over pt split by the team (the
// scatter path, for few non-zero rows of g, stays on the caller's
// goroutine).
func (p *team) spmmTBy(dst strided, a, at *blas.SparseMatrix, g strided, w int, s *scratch) {
	if p.blocks(a.J, w*max(1, a.Indptr[a.I]/max(1, a.J))) <= 1 {
		spmmTBy(dst, a, at, g, w, s)
		return
	}
	rows := nonZeroRows(g, a.I, w, s)
	if 4*len(rows) >= a.I {
		p.csrMul(dst, at, g, w, false, nil)
		return
	}
	spmmTBy(dst, a, at, g, w, s)
}

// colSums is colSums over blocks of 16 columns: each column still sums its
// rows in ascending order.
func (p *team) colSums(db, g []float64, n, m int) {
	c16 := (m + 15) / 16
	if p.blocks(c16, 16*n) <= 1 {
		colSums(db, g, n, m)
		return
	}
	p.run(c16, 16*n, nil, func(_ *scratch, lo, hi int) {
		c0, c1 := 16*lo, min(m, 16*hi)
		colSumsS(db[c0:c1], strided{g, m, c0}, n, c1-c0)
	})
}

// elems calls body(lo, hi) on ranges covering [0, n) whose bounds are
// even (dropout's draws cover two entries each).
func (p *team) elems(n int, body func(lo, hi int)) {
	b := p.blocks(n, 1)
	if b <= 1 {
		body(0, n)
		return
	}
	bounds := make([]int, b+1)
	for t := range b {
		bounds[t] = (n * t / b) &^ 1
	}
	bounds[b] = n
	parallel.Ranges(bounds, func(_, lo, hi int) { body(lo, hi) })
}
