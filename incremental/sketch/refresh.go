package sketch

import (
	"cmp"
	"slices"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/linalg/laplace"
)

// roundStart is what the stages of refresh hand on to each other.
type roundStart struct {
	sk    *laplace.Sketch
	diag  []float64   // the sketch's estimate of L⁺_ii, ‖Z e_i‖²
	ecc   []float64   // the eccentricity estimates ρ, then the bounds
	order []int       // the nodes by descending ecc, ties by id (sortByEcc)
	X     []int       // the exact anchors, ascending
	cols  []float64   // their full columns of L⁺ (X[q]'s is cols[q·n:(q+1)·n])
	inX   map[int]int // exact anchor → its position in X
	calib []int       // the calibration nodes
}

// refresh starts a round on the current graph: solver, sketch, candidates,
// and the exact block M. extra nodes are kept as addition candidates too.
// Its stages, in order: the solver and the sketch (startRound), the
// eccentricity estimates from the sketch's anchors
// (estimateEccentricities), the exact anchors' columns (solveAnchors), the
// diagonal estimate (estimateDiagonal), the bounds, the candidates with
// the calibration nodes and the nodes kept (chooseCandidates, keptNodes),
// M (solveKept), the calibration (calibrate) and the round's live state
// (finishRound).
func (e *Engine) refresh(extra []int) error {
	sk, err := e.startRound()
	if err != nil {
		return err
	}
	if err := e.stopped(); err != nil {
		return err
	}
	rs := e.estimateEccentricities(sk)
	if err := e.stopped(); err != nil {
		return err
	}
	if err := e.solveAnchors(rs); err != nil {
		return err
	}
	if err := e.estimateDiagonal(rs); err != nil {
		return err
	}
	if err := e.findSmall(); err != nil {
		return err
	}
	e.setAnchors(rs.X, rs.cols)
	e.scale = 1
	if err := e.bounds(rs.ecc); err != nil {
		return err
	}
	rs.sortByEcc()
	if err := e.stopped(); err != nil {
		return err
	}
	isCand := e.chooseCandidates(rs, extra)
	if err := e.solveKept(rs, e.keptNodes(rs, isCand)); err != nil {
		return err
	}
	e.calibrate(rs)
	return e.finishRound(rs)
}

// startRound builds the solver and the sketch Z (Rows rows) of the current
// graph, on which the round starts, and its components. O(Rows) solves.
func (e *Engine) startRound() (*laplace.Sketch, error) {
	g := e.g
	// The last round's work vectors and anchors' columns go before the new
	// round allocates its own (its solves keep several n-vectors per
	// worker, its anchors theirs): the peak holds one round's, as Bytes
	// counts.
	if e.solver != nil {
		e.solver.ReleaseWork()
	}
	e.anchors, e.acol = e.anchors[:0], nil
	solver, err := laplace.NewWith(g, laplace.Options{Preconditioner: laplace.Auto, Seed: e.opt.Seed + uint64(e.round), Stop: e.opt.Stop})
	if err != nil {
		return nil, err
	}
	k := e.opt.Rows
	e.solver = solver
	e.waiting = e.waiting[:0] // the new round's bounds are of the current graph
	sk, err := laplace.NewSketch(solver, g, k, e.opt.Seed+uint64(e.round), 1e-4, max(1, e.opt.Workers))
	if err != nil {
		return nil, err
	}
	e.solves += k
	e.round++
	e.comp = e.comp[:0]
	for i := range g.N() {
		e.comp = append(e.comp, int32(solver.Component(i)))
	}
	return sk, nil
}

// stopped is the error of Options.Stop, nil when it is unset or lets the
// work go on.
func (e *Engine) stopped() error {
	if e.opt.Stop == nil {
		return nil
	}
	return e.opt.Stop()
}

// byDesc orders nodes by descending score, ties by ascending id.
func byDesc(score []float64) func(a, b int) int {
	return func(a, b int) int {
		if c := cmp.Compare(score[b], score[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}
}

// sortByEcc sorts order, every node, by descending ecc. O(n log n).
func (rs *roundStart) sortByEcc() {
	for i := range rs.order {
		rs.order[i] = i
	}
	slices.SortFunc(rs.order, byDesc(rs.ecc))
}

// finishRound sets what the round's decisions read once M is solved and
// the calibration made: the rows' minima of M, the exact L⁺_ii of the kept
// nodes, the live bounds and the cover, the edges with both ends kept, and
// the round's iterations. O(|K|² + n + Σ deg over K).
func (e *Engine) finishRound(rs *roundStart) error {
	e.setRowMin()
	for p, i := range e.kept { // kept nodes: L⁺_ii exact
		e.dhat[i], e.sd[i] = e.diag[p], 0
	}
	e.ecc = rs.ecc
	e.dirty = true
	if err := e.updateBounds(); err != nil {
		return err
	}
	e.edges = e.edges[:0]
	for _, u := range e.kept {
		for _, v := range e.g.Neighbours(u) {
			if v > u && e.index[v] >= 0 {
				e.edges = append(e.edges, incremental.Pair{U: u, V: v})
			}
		}
	}
	e.left, e.stale = e.opt.Round, false
	return nil
}
