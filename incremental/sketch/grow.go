package sketch

import (
	"fmt"
	"slices"

	"github.com/ohmgnn/ohm/incremental"
)

// grow keeps the nodes ws (not kept, distinct) too, after the waiting
// edits' bounds (flushBounds): one solve each, on the
// current graph (the round's solver with its updates), gives the node's
// column of L⁺, its entries on K go to M, and while there are fewer than
// maxAnchors anchors the whole column is kept as an anchor's. O(|ws|
// solves + |ws|·|K|, and O(|K|²) when M's stride must grow).
func (e *Engine) grow(ws []int) error {
	// The new anchors' columns are of the current graph: the waiting
	// edits' updates must not reach them.
	if err := e.flushBounds(); err != nil {
		return err
	}
	e.flushM() // M's layout changes below
	slices.Sort(ws)
	ws = slices.Compact(ws)
	K0, N := len(e.kept), len(ws)
	for j, w := range ws {
		if e.index[w] >= 0 {
			panic("sketch: grow of a kept node")
		}
		e.index[w] = int32(K0 + j)
		e.kept = append(e.kept, w)
	}
	K := K0 + N
	y := make([]float64, N*K) // row j: L⁺ e_{ws[j]} on the kept positions
	n := e.g.N()
	room := max(0, maxAnchors-len(e.anchors))
	newCols := make([]float64, min(N, room)*n)
	_, err := e.solver.SolveMany(N, func(q int, b []float64) { b[ws[q]] = 1 },
		func(q int, x []float64) {
			row := y[q*K : (q+1)*K]
			for p, i := range e.kept {
				row[p] = x[i]
			}
			if q < room {
				copy(newCols[q*n:(q+1)*n], x)
			}
		}, e.opt.Tol, 10*n+100, max(1, e.opt.Workers))
	if err != nil {
		return fmt.Errorf("sketch: re-scoring solves: %w", err)
	}
	e.solves += N
	for _, w := range ws[:min(N, room)] {
		e.aidx[w] = int32(len(e.anchors))
		e.anchors = append(e.anchors, w)
	}
	e.acol = append(e.acol, newCols...)
	for _, v := range newCols {
		e.delta = max(e.delta, -v)
	}
	if K > e.stride {
		e.reserve(K0, K)
	}
	m, S := e.m, e.stride
	for j := range N {
		for p := range K {
			v := y[j*K+p]
			if p >= K0 {
				v = (v + y[(p-K0)*K+K0+j]) / 2
			}
			m[(K0+j)*S+p], m[p*S+K0+j] = v, v
		}
	}
	e.setDiag()
	// The old rows' bounds stay bounds over their old columns; the new
	// columns and rows are read once. O(K·N), not M's O(K²).
	e.rowMin = slices.Grow(e.rowMin[:K0], N)[:K]
	for p := range K0 {
		e.rowMin[p] = min(e.rowMin[p], minimum(e.row(p)[K0:]))
	}
	for p := K0; p < K; p++ {
		e.rowMin[p] = minimum(e.row(p))
	}
	for j, w := range ws {
		e.dhat[w], e.sd[w] = e.diag[K0+j], 0
	}
	e.setCandidates()
	for _, w := range ws {
		for _, v := range e.g.Neighbours(w) {
			if e.index[v] >= 0 && (int(e.index[v]) < K0 || v > w) {
				e.edges = append(e.edges, incremental.Pair{U: min(v, w), V: max(v, w)})
			}
		}
	}
	e.dirty = true
	return nil
}

// reserve makes M's stride at least K, with room to grow: min(MaxKept,
// 1.5·K) rows and columns (no less than K), the entries of the first K0
// rows and columns copied. A cover that keeps nodes batch after batch
// then copies M a few times a round instead of clearing and copying a
// |K|² block at every batch (docs/sketch.md, "M grows in place"). Within
// MaxKept the two blocks held while it copies are those Bytes counts.
// O(stride²).
func (e *Engine) reserve(K0, K int) {
	S := max(K, min(e.opt.MaxKept, K+K/2))
	m := make([]float64, S*S)
	for p := range K0 {
		copy(m[p*S:p*S+K0], e.m[p*e.stride:p*e.stride+K0])
	}
	e.m, e.stride = m, S
}
