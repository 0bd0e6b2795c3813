package sketch

import (
	"fmt"
	"math"
	"slices"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/internal/parallel"
)

// solveKept makes M's columns the round's removal candidates pool (edge
// vectors, first) and the kept nodes keep (ascending ids, all of them
// addition candidates) and sets M = VᵀL⁺V: the entries of two columns kept
// before are reused when M is still of the current graph (no addition
// joined components since), the exact anchors' rows come from their
// columns, and every other column takes one solve (L x = e_i for a node,
// L x = e_u − e_v for an edge); M is then made symmetric. O(|todo|)
// solves + O(|K|²).
func (e *Engine) solveKept(rs *roundStart, keep map[int]bool, pool []incremental.Pair) error {
	n := e.g.N()
	var oldAt map[[2]int]int // a column kept before → its old position
	var oldM []float64
	oldStride := 0
	if !e.stale && len(e.kept) > 0 {
		e.flushM()
		oldAt = make(map[[2]int]int, len(e.kept))
		for p := range e.kept {
			oldAt[e.column(p)] = p
		}
		oldM, oldStride = e.m, e.stride
	}
	e.dropWaiting()
	e.pool = pool
	e.poolAt = make(map[[2]int]int32, len(pool))
	e.kept = e.kept[:0]
	for p, f := range pool {
		e.poolAt[[2]int{f.U, f.V}] = int32(p)
		e.kept = append(e.kept, -1)
	}
	for i := range keep {
		e.kept = append(e.kept, i)
	}
	slices.Sort(e.kept[len(pool):])
	for i := range e.index {
		e.index[i] = -1
	}
	for p, i := range e.kept {
		if i >= 0 {
			e.index[i] = int32(p)
		}
	}
	e.setCandidates()
	K := len(e.kept)
	e.m, e.stride = make([]float64, K*K), K
	old := make([]int, K) // position before, or −1
	for p := range e.kept {
		old[p] = -1
		if op, ok := oldAt[e.column(p)]; ok {
			old[p] = op
		}
	}
	var todo []int // positions to solve (the anchors' columns are known)
	for p, i := range e.kept {
		row := e.row(p)
		if op := old[p]; op >= 0 {
			for p2, o2 := range old {
				if o2 >= 0 {
					row[p2] = oldM[op*oldStride+o2]
				}
			}
		} else if q, ok := rs.inX[i]; ok && i >= 0 {
			e.project(rs.cols[q*n:(q+1)*n], row)
		} else {
			todo = append(todo, p)
		}
	}
	_, err := e.solver.SolveMany(len(todo), func(q int, b []float64) { e.rhs(todo[q], b) },
		func(q int, x []float64) { e.project(x, e.row(todo[q])) }, e.opt.Tol, 10*n+100, max(1, e.opt.Workers))
	if err != nil {
		return fmt.Errorf("sketch: re-scoring solves: %w", err)
	}
	e.solves += len(todo)
	S := e.stride
	for p := range e.kept { // reused rows: the new columns' entries by symmetry
		if old[p] >= 0 {
			for p2, o2 := range old {
				if o2 < 0 {
					e.m[p*S+p2] = e.m[p2*S+p]
				}
			}
		}
	}
	oldM = nil
	for a := range K { // symmetrise: the solves meet Tol, not the last bit
		for b := a + 1; b < K; b++ {
			v := (e.m[a*S+b] + e.m[b*S+a]) / 2
			e.m[a*S+b], e.m[b*S+a] = v, v
		}
	}
	e.setDiag()
	return nil
}

// column names M's column p: {i, −1} for node i, {u, v} for the edge.
func (e *Engine) column(p int) [2]int {
	if i := e.kept[p]; i >= 0 {
		return [2]int{i, -1}
	}
	f := e.pool[p]
	return [2]int{f.U, f.V}
}

// rhs sets b (zero) to column p's vector: e_i, or e_u − e_v for an edge.
func (e *Engine) rhs(p int, b []float64) {
	if i := e.kept[p]; i >= 0 {
		b[i] = 1
		return
	}
	b[e.pool[p].U], b[e.pool[p].V] = 1, -1
}

// project sets dst[p] to column p's vector times x, for every column:
// x_i for a node, x_u − x_v for an edge (with x = L⁺b, M's row of b).
// O(|columns|).
func (e *Engine) project(x, dst []float64) {
	for p, i := range e.kept {
		if i >= 0 {
			dst[p] = x[i]
		} else {
			dst[p] = x[e.pool[p].U] - x[e.pool[p].V]
		}
	}
}

// r is the exact resistance between kept nodes at positions a and b
// (across components, L⁺_aa + L⁺_bb: M_ab is 0 there). O(waiting
// updates).
func (e *Engine) r(a, b int32) float64 {
	return e.diag[a] + e.diag[b] - 2*e.at(int(a), int(b))
}

// setRowMin sets rowMin to every row's minimum of M over the nodes'
// columns (the pairs bestCandidatePair bounds), the rows split among up
// to Workers goroutines; nothing may wait (flushM). O(|K|²).
func (e *Engine) setRowMin() {
	K := len(e.kept)
	e.rowMin = slices.Grow(e.rowMin[:0], K)[:K]
	parallel.Rows(e.rowWorkers(), K, func(_, lo, hi int) {
		for p := lo; p < hi; p++ {
			e.rowMin[p] = e.nodeMin(e.row(p))
		}
	})
}

// nodeMin is the least entry of a row of M (or of an update's vector)
// over the nodes' columns, +Inf when no node is kept.
func (e *Engine) nodeMin(row []float64) float64 {
	if len(row) == len(e.pool) {
		return math.Inf(1)
	}
	return minimum(row[len(e.pool):])
}

// row is M's row p as stored (without the waiting updates): |K| numbers.
func (e *Engine) row(p int) []float64 { return e.m[p*e.stride : p*e.stride+len(e.kept)] }

// mii is M's diagonal entry at kept position a, L⁺ of the node.
func (e *Engine) mii(a int32) float64 { return e.diag[a] }

// rowWorkers is how many goroutines share a pass over M's rows: up to
// Workers, one per 256 rows at least.
func (e *Engine) rowWorkers() int { return min(max(1, e.opt.Workers), max(1, len(e.kept)/256)) }

// minimum is the least entry of a non-empty row (a plain comparison:
// the builtin min's NaN rules cost three times as much; M has no NaN).
func minimum(row []float64) float64 {
	low := row[0]
	for _, v := range row[1:] {
		if v < low {
			low = v
		}
	}
	return low
}
