package sketch

import (
	"cmp"
	"math"
	"slices"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/rank"
)

// MaxPair ranks every pair of addition candidates by its exact resistance
// (definitions §3.1's rule), starting a new round first when the last one is used
// up. A pair that is an edge needs its ends' neighbours kept (case 2): if
// they are not, they are kept (grow) before it decides. O(|S|²). When the
// nodes kept at a round's start, or those the cover would keep next,
// exceed Options.HandOff of the nodes and the dense state fits in memory,
// the exact engine takes over (handoff.go, definitions §3.7.1) and
// answers this and every later call.
func (e *Engine) MaxPair() (incremental.Pair, bool) {
	if e.exact != nil {
		return e.exact.MaxPair()
	}
	if e.err != nil {
		return incremental.Pair{}, false
	}
	if e.left <= 0 || e.stale {
		e.handOffRefused = false
		if e.err = e.refresh(nil); e.err != nil {
			return incremental.Pair{}, false
		}
	}
	if e.handOffDue(len(e.kept)) { // a round start that keeps too many: definitions §3.7.1
		return e.handOffMaxPair(len(e.kept))
	}
	for {
		if e.err = e.updateBounds(); e.err != nil {
			return incremental.Pair{}, false
		}
		p, ok := e.bestCandidatePair()
		var more []int
		room := e.opt.MaxKept - len(e.kept)
		// A pair outside the candidates may be the farthest: keep the next
		// nodes by the bound (which follows the edits).
		if room > 0 && (!ok || p.Score < coverMargin*e.cover) {
			more = e.nextByBound(min(growBatch, room))
		}
		// Case 2 of definitions §3.3 needs the ends' neighbours.
		if len(more) == 0 && ok && e.g.HasEdge(p.U, p.V) && !e.neighboursKept(p.U, p.V) {
			for _, x := range [2]int{p.U, p.V} {
				for _, y := range e.g.Neighbours(x) {
					if e.index[y] < 0 {
						more = append(more, y)
					}
				}
			}
		}
		if len(more) == 0 {
			return p, ok
		}
		if len(e.waiting) > 0 {
			// Bounds of the graph before the waiting edits: bring them
			// up to date before keeping a node on their word.
			if e.err = e.flushBounds(); e.err != nil {
				return incremental.Pair{}, false
			}
			continue
		}
		if k := len(e.kept) + len(more); e.handOffDue(k) {
			return e.handOffMaxPair(k)
		}
		if e.err = e.grow(more); e.err != nil {
			return incremental.Pair{}, false
		}
	}
}

// handOffMaxPair hands the run to the exact engine (handOff), kept the
// nodes that crossed the fraction, and returns its MaxPair.
func (e *Engine) handOffMaxPair(kept int) (incremental.Pair, bool) {
	if e.err = e.handOff(kept); e.err != nil {
		return incremental.Pair{}, false
	}
	return e.exact.MaxPair()
}

// growBatch is how many nodes the cover test keeps at a time, and
// coverMargin the fraction of the cover the best pair must reach: the
// bound is an estimate, and the chosen pair is to reach 98 % of the
// farthest pair's R.
const (
	growBatch   = 32
	coverMargin = 0.98
)

func (e *Engine) neighboursKept(u, v int) bool {
	for _, x := range [2]int{u, v} {
		for _, y := range e.g.Neighbours(x) {
			if e.index[y] < 0 {
				return false
			}
		}
	}
	return true
}

// bestCandidatePair is the first pair of definitions §3.1's descending ranking
// over the pairs of kept nodes (less the skipped ones), by their exact
// resistances. It offers the pairs in row-major order to rank.Max but
// leaves out those that cannot be ranked first: R_ij = M_ii + M_jj − 2M_ij
// is at most M_ii + M_jj + 2·min(δ_i, δ_j), δ_i = −rowMin_i at least the
// most negative entry of row i negated (the sum rounded the same way, so
// the bound holds in floating point too), and a pair whose bound is below
// lb − Tol(lb), lb the exact R of an admissible pair (pairLowerBound), is
// below the tie window of the maximum: offered, it could only have been a
// record that a later one drops. O(|K| + |eligible|²).
func (e *Engine) bestCandidatePair() (incremental.Pair, bool) {
	t := &e.tracker
	t.Exclude = e.skip
	t.Reset()
	th := math.Inf(-1)
	lb, ok, top := e.pairLowerBound()
	if ok {
		th = lb - rank.Tol(lb)
	}
	el := e.eligible[:0]
	for _, a := range e.cand {
		if !(e.mii(a)+top-2*e.rowMin[a] < th) {
			el = append(el, a)
		}
	}
	e.eligible = el
	for x, a := range el {
		u, da, la := e.kept[a], e.mii(a), e.rowMin[a]
		for _, b := range el[x+1:] {
			if da+e.mii(b)-2*max(la, e.rowMin[b]) < th {
				continue
			}
			v := e.kept[b]
			if e.opt.WithinComponents && e.comp[u] != e.comp[v] {
				continue
			}
			if s := e.r(a, b); s > t.Floor() {
				t.Offer(incremental.Pair{U: u, V: v, Score: s})
			}
		}
	}
	return t.Result()
}

// pairLowerBound is the exact R of the best admissible pair (not skipped;
// in one component with WithinComponents) among the 8 kept nodes of
// largest M_ii (false when there is none), and the largest M_ii.
// O(|K| log |K|).
func (e *Engine) pairLowerBound() (lb float64, ok bool, top float64) {
	byDiag := slices.Clone(e.cand)
	slices.SortFunc(byDiag, func(x, y int32) int { return cmp.Compare(e.mii(y), e.mii(x)) })
	lb, top = math.Inf(-1), math.Inf(-1)
	if len(byDiag) > 0 {
		top = e.mii(byDiag[0])
	}
	byDiag = byDiag[:min(len(byDiag), 8)]
	for x, a := range byDiag {
		for _, b := range byDiag[x+1:] {
			u, v := e.kept[a], e.kept[b]
			if e.opt.WithinComponents && e.comp[u] != e.comp[v] {
				continue
			}
			p := incremental.Pair{U: min(u, v), V: max(u, v)}
			if slices.ContainsFunc(e.skip, func(q incremental.Pair) bool { return rank.Same(q, p) }) {
				continue
			}
			lb, ok = max(lb, e.r(a, b)), true
		}
	}
	return lb, ok, top
}
