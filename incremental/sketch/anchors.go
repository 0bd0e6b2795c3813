package sketch

import (
	"fmt"
	"slices"

	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/linalg/laplace"
)

// estimateEccentricities estimates every node's eccentricity from the
// sketch, ρ_i = max over anchors a of R̂_ia (across components L̂⁺_ii +
// L̂⁺_aa, as the paper scores such pairs): the farthest pair's ends are far
// from some anchor. Two passes: the sketch's anchors (sketchAnchors), then
// the 128 nodes of largest ρ join the anchors and ρ is taken again (a node
// whose farthest partner is no anchor is found by the partner). It returns
// the round's start with diag, ecc and order set. O(n·|anchors|·k).
func (e *Engine) estimateEccentricities(sk *laplace.Sketch) *roundStart {
	n := e.g.N()
	rs := &roundStart{sk: sk, diag: make([]float64, n), order: make([]int, n)}
	for i := range n {
		rs.diag[i] = sk.Diag(i)
		rs.order[i] = i
	}
	anchors := e.sketchAnchors(rs)
	rs.ecc = make([]float64, n)
	e.widenEccentricity(rs, anchors)
	var more []int
	for _, i := range rs.order[:min(n, 128)] {
		if _, found := slices.BinarySearch(anchors, i); !found {
			more = append(more, i)
		}
	}
	slices.Sort(more)
	e.widenEccentricity(rs, more)
	return rs
}

// sketchAnchors returns the sketch's anchors, ascending: the 32 nodes of
// largest sketched L⁺_ii and the extremes of the embedding along each of
// its k coordinates (random directions). It sorts order by diag.
// O(n·k + n log n).
func (e *Engine) sketchAnchors(rs *roundStart) []int {
	n, sk, order := len(rs.diag), rs.sk, rs.order
	slices.SortFunc(order, byDesc(rs.diag))
	anchors := slices.Clone(order[:min(n, 32)])
	for q := range e.opt.Rows {
		lo, hi := 0, 0
		for i := 1; i < n; i++ {
			z := sk.Point(i)[q]
			if z < sk.Point(lo)[q] {
				lo = i
			}
			if z > sk.Point(hi)[q] {
				hi = i
			}
		}
		anchors = append(anchors, lo, hi)
	}
	slices.Sort(anchors)
	return slices.Compact(anchors)
}

// widenEccentricity makes ecc[i] the max of itself and ρ_i over the
// partners (ρ over a union of anchor sets is the max of the sets' ρ: the
// second pass reads only the new anchors), the nodes split among the
// workers, then sorts order by ecc. O(n·|partners|·k).
func (e *Engine) widenEccentricity(rs *roundStart, partners []int) {
	sk, diag, ecc := rs.sk, rs.diag, rs.ecc
	parallel.Rows(max(1, e.opt.Workers), len(ecc), func(_, lo, hi int) {
		rhat := make([]float64, len(partners))
		for i := lo; i < hi; i++ {
			sk.Rs(i, partners, rhat)
			ecc[i] = max(ecc[i], e.farthest(i, partners,
				func(q, _ int) float64 { return rhat[q] },
				func(_, a int) float64 { return diag[i] + diag[a] }))
		}
	})
	rs.sortByEcc()
}

// solveAnchors sharpens the bounds. The estimates ρ err by about √(2/k) ≈
// 10 % of R, more than the spread of the eccentricities on expanders. The
// exactAnchors nodes X of largest ρ are solved exactly (their full
// columns, |X|·n numbers, are kept for the round and follow its edits);
// with the diagonal estimate (estimateDiagonal) they bound the
// eccentricities (bounds). O(|X|) solves.
func (e *Engine) solveAnchors(rs *roundStart) error {
	n := e.g.N()
	X := slices.Clone(rs.order[:min(n, exactAnchors)])
	slices.Sort(X)
	cols := make([]float64, len(X)*n, max(len(X), maxAnchors)*n) // grow appends up to maxAnchors columns
	if _, err := e.solver.SolveMany(len(X), func(q int, b []float64) { b[X[q]] = 1 },
		func(q int, x []float64) { copy(cols[q*n:(q+1)*n], x) }, e.opt.Tol, 10*n+100, max(1, e.opt.Workers)); err != nil {
		return fmt.Errorf("sketch: anchor solves: %w", err)
	}
	e.solves += len(X)
	rs.X, rs.cols = X, cols
	return nil
}

// setAnchors makes X, with their full columns cols, the round's anchors,
// and sets δ from the columns. O(n·|X|).
func (e *Engine) setAnchors(X []int, cols []float64) {
	n := e.g.N()
	e.anchors, e.acol = X, cols
	e.delta = 0
	for _, v := range cols {
		e.delta = max(e.delta, -v)
	}
	e.aidx = slices.Grow(e.aidx[:0], n)[:n]
	for i := range e.aidx {
		e.aidx[i] = -1
	}
	for q, a := range X {
		e.aidx[a] = int32(q)
	}
}

// farthest is the largest resistance from i to the partners a ≠ i (q is
// a's position in partners): within(q, a) when a is in i's component, else
// across(q, a), or nothing with WithinComponents. O(|partners|) calls.
func (e *Engine) farthest(i int, partners []int, within, across func(q, a int) float64) float64 {
	best := 0.0
	for q, a := range partners {
		switch {
		case a == i:
		case e.comp[a] == e.comp[i]:
			best = max(best, within(q, a))
		case !e.opt.WithinComponents:
			best = max(best, across(q, a))
		}
	}
	return best
}

// exactAnchors is the number of nodes whose exact columns bound every
// node's eccentricity at the start of a round.
const exactAnchors = 64

// maxAnchors caps the anchors (full columns, n numbers each) that nodes
// kept inside a round add to the exactAnchors of its start: each costs
// O(n) per edit.
const maxAnchors = 128
