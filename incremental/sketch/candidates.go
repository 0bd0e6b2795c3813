package sketch

import (
	"cmp"
	"slices"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/laplace"
)

// chooseCandidates returns the addition candidates of the round's start:
// the Candidates nodes of largest bound, the exact anchors, extra, and the
// calibration nodes (drawCalibration, set in rs.calib). O(Candidates + |X|
// + |extra|) after the sort by bound.
func (e *Engine) chooseCandidates(rs *roundStart, extra []int) map[int]bool {
	s := min(e.g.N(), e.opt.Candidates)
	isCand := make(map[int]bool, s+len(rs.X)+len(extra))
	for _, i := range rs.order[:s] {
		isCand[i] = true
	}
	for _, a := range rs.X {
		isCand[a] = true
	}
	for _, i := range extra {
		isCand[i] = true
	}
	rs.calib = e.drawCalibration(isCand)
	for _, i := range rs.calib {
		isCand[i] = true
	}
	return isCand
}

// keptNodes returns the nodes the round keeps: the candidates isCand, the
// nodes kept before (when the last round is not stale) while there are
// room and fewer than carryKept, and with Removes the removal candidates'
// ends. O(|K| log |K| + m·k) with the removal candidates.
func (e *Engine) keptNodes(rs *roundStart, isCand map[int]bool) map[int]bool {
	keep := make(map[int]bool, len(isCand))
	for i := range isCand {
		keep[i] = true
	}
	if !e.stale {
		// The nodes kept before stay, largest bound first, while K holds
		// fewer than carryKept of them with the new candidates (and fits
		// in MaxKept): their entries cost no solve (solveKept), and a node
		// dropped could hold the farthest pair that its new bound misses.
		old := slices.Clone(e.kept)
		slices.SortFunc(old, byDesc(rs.ecc))
		for _, i := range old {
			if len(keep) >= min(e.opt.MaxKept, carryKept) {
				break
			}
			keep[i] = true
		}
	}
	if e.opt.Removes {
		// Removal candidates: the lightest non-bridge edges by the sketch.
		bridges := tarjan.Bridges(e.g)
		for _, p := range lightest(sketchedEdges(e.g, rs.sk, bridges, max(1, e.opt.Workers)), e.opt.RemovalCandidates) {
			keep[p.U], keep[p.V] = true, true
		}
	}
	return keep
}

// sketchedEdges lists the edges of g that are not bridges, in g.Edges()'s
// order, each scored by its sketched resistance (laplace.Sketch.Rs, one node's
// higher neighbours at a time), the nodes split among workers goroutines.
// O(m·k).
func sketchedEdges(g *linalg.Graph, sk *laplace.Sketch, bridges tarjan.BridgeSet, workers int) []incremental.Pair {
	n := g.N()
	parts := make([][]incremental.Pair, workers)
	parallel.Rows(workers, n, func(t, lo, hi int) {
		var es []incremental.Pair
		var vs []int
		var rs []float64
		for u := lo; u < hi; u++ {
			vs = vs[:0]
			for _, v := range g.Neighbours(u) {
				if v > u && !bridges.Has(u, v) {
					vs = append(vs, v)
				}
			}
			rs = slices.Grow(rs[:0], len(vs))[:len(vs)]
			sk.Rs(u, vs, rs)
			for q, v := range vs {
				es = append(es, incremental.Pair{U: u, V: v, Score: rs[q]})
			}
		}
		parts[t] = es
	})
	return slices.Concat(parts...)
}

// lightest returns the first t pairs of es sorted stably by score (all of
// them when there are fewer), in es's order: those below the t-th
// smallest score thr, then those at thr in es's order until there are t.
// O(|es| log |es|) on the scores alone, cheaper than a stable sort of the
// pairs themselves.
func lightest(es []incremental.Pair, t int) []incremental.Pair {
	t = min(t, len(es))
	if t <= 0 {
		return nil
	}
	scores := make([]float64, len(es))
	for j, p := range es {
		scores[j] = p.Score
	}
	slices.SortFunc(scores, cmp.Compare[float64])
	thr := scores[t-1]
	out := make([]incremental.Pair, 0, t)
	for _, p := range es {
		if cmp.Compare(p.Score, thr) < 0 {
			out = append(out, p)
		}
	}
	for _, p := range es {
		if len(out) == t {
			break
		}
		if cmp.Compare(p.Score, thr) == 0 {
			out = append(out, p)
		}
	}
	return out
}

// setCandidates makes every kept node an addition candidate (removals
// raise the resistances around their ends, which can become the farthest),
// in ascending node id: the row-major order rank.Max wants.
func (e *Engine) setCandidates() {
	e.cand = e.cand[:0]
	for p := range e.kept {
		e.cand = append(e.cand, int32(p))
	}
	slices.SortFunc(e.cand, func(a, b int32) int { return cmp.Compare(e.kept[a], e.kept[b]) })
}

// carryKept caps the nodes a new round keeps from the rounds before
// (with its own addition candidates; its removal candidates come on top):
// without it K would grow by the removal candidates' ends every round, up
// to MaxKept, and the O(|K|²) per iteration of the decision and of M's
// updates would take over.
const carryKept = 1024
