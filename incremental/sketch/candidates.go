package sketch

import (
	"cmp"
	"slices"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/laplace"
)

// sketchedEdges lists the edges of g that are not bridges, in g.Edges()'s
// order, each scored by its sketched resistance (laplace.Sketch.Rs, one node's
// higher neighbours at a time), the nodes split among workers goroutines.
// O(m·k).
func sketchedEdges(g *linalg.Graph, sk *laplace.Sketch, bridges tarjan.BridgeSet, workers int) []incremental.Pair {
	n := g.N()
	parts := make([][]incremental.Pair, workers)
	parallelRows(workers, n, func(t, lo, hi int) {
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
// O(|es| log |es|) on the scores alone: at 10⁷ edges a stable sort of the
// pairs themselves took seconds a round.
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
// (with its own addition candidates; its removal candidates come on top).
// Without it K grew by the removal candidates' ends of every round, about
// 1 100 nodes a round on the 10⁵-node SBM, up to MaxKept, and the O(|K|²)
// per iteration of the decision and of M's updates took over: 77 % of the
// time in the sixth round there.
const carryKept = 1024
