package sketch

import (
	"fmt"
	"slices"

	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/laplace"
	"gonum.org/v1/gonum/floats"
)

// carryBatch carries each vector of a batch, x_j = X[j·n:(j+1)·n] of the
// graph before the batch, to the graph just before its edit ws[j]: x_j +=
// c_i x_i (x_i[u_j] − x_i[v_j]) for i < j in order, x_i already carried,
// each entry's arithmetic that of carry on the whole vectors. It returns
// the coefficients c_j. The factors f_ji = c_i (x_i[u_j] − x_i[v_j]) need
// the carried vectors at the batch's ends only, which are carried first,
// alone; the whole vectors then take their updates tile by tile (every
// vector's tile stays in cache while the updates read it, where carry over
// the whole vectors would stream |batch|²/2 vectors through memory), the
// tiles split among workers goroutines.
// O(|batch|²·n).
func carryBatch(X []float64, n int, ws []waitingEdit, workers int) []float64 {
	B := len(ws)
	cs := make([]float64, B)
	var pos []int // the edits' ends
	at := make(map[int]int, 2*B)
	for _, ed := range ws {
		for _, i := range [2]int{ed.u, ed.v} {
			if _, ok := at[i]; !ok {
				at[i] = len(pos)
				pos = append(pos, i)
			}
		}
	}
	P := len(pos)
	vals := make([]float64, B*P) // vals[j·P + p]: x_j at pos[p], carried
	for j := range B {
		for p, i := range pos {
			vals[j*P+p] = X[j*n+i]
		}
	}
	fs := make([]float64, B*B) // fs[j·B + i] = f_ji
	for j, ed := range ws {
		a, b := at[ed.u], at[ed.v]
		vj := vals[j*P : (j+1)*P]
		for i := range j {
			vi := vals[i*P : (i+1)*P]
			f := cs[i] * (vi[a] - vi[b])
			fs[j*B+i] = f
			if f != 0 {
				floats.AddScaled(vj, f, vi)
			}
		}
		cs[j] = ed.c
	}
	const tile = 4096
	tiles := (n + tile - 1) / tile
	parallel.Rows(min(workers, max(1, tiles)), tiles, func(_, lo, hi int) {
		for t := lo; t < hi; t++ {
			r0, r1 := t*tile, min(n, (t+1)*tile)
			for j := range B {
				xj := X[j*n+r0 : j*n+r1]
				for i := range j {
					if f := fs[j*B+i]; f != 0 {
						floats.AddScaled(xj, f, X[i*n+r0:i*n+r1])
					}
				}
			}
		}
	})
	return cs
}

// boundBatch is how many edits wait for their bounds' update (flushBounds)
// at most: two of the solver's blocks (laplace.Block, 16 right-hand sides:
// additions in one, removals in the other), one per core with two
// workers: a block's right-hand sides are solved together for little more
// than the cost of one.
const boundBatch = 2 * laplace.Block

// waitingEdit is an edit applied to M and to the graph whose effect on the
// bounds waits for flushBounds: c is its Sherman–Morrison coefficient
// (L⁺' = L⁺ + c x xᵀ; negative for an addition, positive for a removal).
type waitingEdit struct {
	u, v int
	c    float64
}

// flushBounds brings the bounds up to the current graph: the waiting
// edits' full vectors x_j = L⁺(e_u − e_v) of the graph before each are
// solved side by side (to BoundTol) on the graph before the first of them
// (laplace.Solver.SolveManyBefore), then carried forward by the earlier
// ones' updates, x_j += Σ_{i<j} c_i x_i (x_i[u_j] − x_i[v_j]); the same
// Sherman–Morrison identity then updates the anchors' columns and every
// D̂_i. Until then the bounds are those of the graph before the waiting
// edits: additions only lower resistances, so they stay bounds for
// additions, and MaxPair flushes before it keeps a node on their word.
// O(|batch| solves + n·|batch|² + n·|anchors|·|batch|).
func (e *Engine) flushBounds() error {
	if len(e.waiting) == 0 {
		return nil
	}
	n := e.g.N()
	ws := e.waiting
	// The vectors, one after another in X (xs[j] = X[j·n:(j+1)·n]), the
	// layout linalg.AddScaledRows reads.
	X := slices.Grow(e.batch[:0], len(ws)*n)[:len(ws)*n] // every entry written below
	e.batch = X
	xs := make([][]float64, len(ws))
	for j := range xs {
		xs[j] = X[j*n : (j+1)*n]
	}
	// Additions first, then removals: a block of sides costs the
	// iterations of its slowest, and a removal's vector (an edge's ends,
	// close) converges in fewer than an addition's (the farthest pair).
	order := make([]int, 0, len(ws))
	for _, add := range [2]bool{true, false} {
		for j, ed := range ws {
			if (ed.c < 0) == add {
				order = append(order, j)
			}
		}
	}
	_, err := e.solver.SolveManyBefore(e.waitFrom, len(ws), func(q int, b []float64) { b[ws[order[q]].u], b[ws[order[q]].v] = 1, -1 },
		func(q int, x []float64) { copy(xs[order[q]], x) }, e.opt.BoundTol, 10*n+100, max(1, e.opt.Workers))
	if err != nil {
		return fmt.Errorf("sketch: edit vectors: %w", err)
	}
	e.solves += len(ws)
	cs := carryBatch(X, n, ws, max(1, e.opt.Workers))
	e.updateAnchors(X, cs)
	for j, x := range xs {
		c := cs[j]
		for i, v := range x {
			e.dhat[i] += c * v * v
		}
	}
	for p, i := range e.kept {
		e.dhat[i] = e.diag[p]
	}
	e.waiting = e.waiting[:0]
	e.dirty = true
	e.flushM()
	return nil
}

// updateAnchors adds Σ_j c_j x_j x_j[a] to every anchor a's column
// (Sherman–Morrison with the batch's full vectors x_j = X[j·n:(j+1)·n],
// composed as in flushBounds; each entry updated edit by edit, in order,
// linalg.AddScaledRows) and sets δ from the new columns. The columns are
// split among up to Workers goroutines (each entry's arithmetic the same
// whatever the split), and each goroutine goes tile by tile, every column
// of its share for a tile before the next, so the batch's tiles stay in
// cache. O(n·|anchors|·|batch|).
func (e *Engine) updateAnchors(X, cs []float64) {
	if len(cs) == 0 {
		return
	}
	n := e.g.N()
	A := len(e.anchors)
	lows := make([]float64, A)
	const tile = 2048
	parallel.Rows(min(max(1, e.opt.Workers), A), A, func(_, lo, hi int) {
		fs := make([]float64, (hi-lo)*len(cs))
		for q := lo; q < hi; q++ {
			a := e.anchors[q]
			for j, c := range cs {
				fs[(q-lo)*len(cs)+j] = c * X[j*n+a]
			}
		}
		for t := 0; t < n; t += tile {
			end := min(n, t+tile)
			for q := lo; q < hi; q++ {
				col := e.acol[q*n+t : q*n+end]
				linalg.AddScaledRows(col, fs[(q-lo)*len(cs):(q-lo+1)*len(cs)], X[t:], n)
				lows[q] = min(lows[q], minimum(col))
			}
		}
	})
	e.delta = 0
	for _, low := range lows {
		e.delta = max(e.delta, -low)
	}
}
