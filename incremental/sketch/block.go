package sketch

import (
	"fmt"
	"slices"

	"github.com/ohmgnn/ohm/internal/parallel"
)

// solveKept makes the nodes keep the round's K (ascending ids), all of
// them addition candidates, and sets M = L⁺[K, K]: the entries of two nodes
// kept before are reused when M is still L⁺[K, K] of the current graph (no
// addition joined components since), the exact anchors' rows come from
// their columns, and every other kept node takes one solve; M is then
// made symmetric. O(|todo|) solves + O(|K|²).
func (e *Engine) solveKept(rs *roundStart, keep map[int]bool) error {
	n := e.g.N()
	var oldIndex []int32
	var oldM []float64
	oldStride := 0
	if !e.stale && len(e.kept) > 0 {
		e.flushM()
		oldIndex, oldM, oldStride = slices.Clone(e.index), e.m, e.stride
	}
	e.dropWaiting()
	e.kept = e.kept[:0]
	for i := range keep {
		e.kept = append(e.kept, i)
	}
	slices.Sort(e.kept)
	for i := range e.index {
		e.index[i] = -1
	}
	for p, i := range e.kept {
		e.index[i] = int32(p)
	}
	e.setCandidates()
	K := len(e.kept)
	e.m, e.stride = make([]float64, K*K), K
	var todo []int // kept positions to solve (the anchors' columns are known)
	reused := func(i int) bool { return oldIndex != nil && oldIndex[i] >= 0 }
	for p, i := range e.kept {
		row := e.row(p)
		if reused(i) {
			op := int(oldIndex[i]) * oldStride
			for p2, j := range e.kept {
				if reused(j) {
					row[p2] = oldM[op+int(oldIndex[j])]
				}
			}
		} else if q, ok := rs.inX[i]; ok {
			for p2, j := range e.kept {
				row[p2] = rs.cols[q*n+j]
			}
		} else {
			todo = append(todo, p)
		}
	}
	_, err := e.solver.SolveMany(len(todo), func(q int, b []float64) { b[e.kept[todo[q]]] = 1 },
		func(q int, x []float64) {
			p := todo[q]
			row := e.row(p)
			for p2, i := range e.kept {
				row[p2] = x[i]
			}
		}, e.opt.Tol, 10*n+100, max(1, e.opt.Workers))
	if err != nil {
		return fmt.Errorf("sketch: re-scoring solves: %w", err)
	}
	e.solves += len(todo)
	S := e.stride
	for p, i := range e.kept { // reused rows: the new nodes' entries by symmetry
		if reused(i) {
			for p2, j := range e.kept {
				if !reused(j) {
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

// r is the exact resistance between kept positions a and b (across
// components, L⁺_aa + L⁺_bb: M_ab is 0 there). O(waiting updates).
func (e *Engine) r(a, b int32) float64 {
	return e.diag[a] + e.diag[b] - 2*e.at(int(a), int(b))
}

// setRowMin sets rowMin to every row's minimum of M, the rows split
// among up to Workers goroutines; nothing may wait (flushM). O(|K|²).
func (e *Engine) setRowMin() {
	K := len(e.kept)
	e.rowMin = slices.Grow(e.rowMin[:0], K)[:K]
	parallel.Rows(e.rowWorkers(), K, func(_, lo, hi int) {
		for p := lo; p < hi; p++ {
			e.rowMin[p] = minimum(e.row(p))
		}
	})
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
