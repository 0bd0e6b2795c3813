package incremental

import (
	"container/heap"
	"math"

	"github.com/ohmgnn/ohm/incremental/rank"
)

// Top returns the k admissible pairs of greatest score, best first, ranked by
// definitions §3.1's tie rule: repeatedly, the best remaining score b is taken, scores
// within rank.Tol(b) of it count as equal, and the first of those in row-major
// order comes next. score reports a pair's score and whether it is
// admissible; pairs are visited in row-major order over i ≠ j (ordered) or
// i < j (unordered).
//
// Two passes: the first finds the k-th greatest score s_k and the maximum;
// every pair the ranking can pick scores at least s_k − rank.Tol(max), and the
// second pass collects exactly those. O(n² log k) plus the ranking of the
// collected pairs (k of them unless many tie).
func Top(n, k int, ordered bool, score func(i, j int) (float64, bool)) []Pair {
	if k <= 0 {
		return nil
	}
	each := func(f func(i, j int, s float64)) {
		for i := range n {
			j0 := i + 1
			if ordered {
				j0 = 0
			}
			for j := j0; j < n; j++ {
				if i == j {
					continue
				}
				if s, ok := score(i, j); ok && !math.IsNaN(s) {
					f(i, j, s)
				}
			}
		}
	}
	h := &pairHeap{}
	best := math.Inf(-1)
	each(func(i, j int, s float64) {
		best = math.Max(best, s)
		if h.Len() < k {
			heap.Push(h, Pair{U: i, V: j, Score: s})
		} else if s > (*h)[0].Score {
			(*h)[0] = Pair{U: i, V: j, Score: s}
			heap.Fix(h, 0)
		}
	})
	if h.Len() == 0 {
		return nil
	}
	th := (*h)[0].Score - rank.Tol(best)
	var cand []Pair // row-major, so "first among equals" is the first index
	each(func(i, j int, s float64) {
		if s >= th {
			cand = append(cand, Pair{U: i, V: j, Score: s})
		}
	})
	out := make([]Pair, 0, min(k, len(cand)))
	rank.Each(cand, rank.Descending, rank.ScoreOnly, func(p Pair) bool {
		out = append(out, p)
		return len(out) < k
	})
	return out
}

// pairHeap is a min-heap on score; among equal scores the later pair in
// row-major order is at the top, so it is evicted first.
type pairHeap []Pair

func (h pairHeap) Len() int { return len(h) }
func (h pairHeap) Less(a, b int) bool {
	if h[a].Score != h[b].Score {
		return h[a].Score < h[b].Score
	}
	if h[a].U != h[b].U {
		return h[a].U > h[b].U
	}
	return h[a].V > h[b].V
}
func (h pairHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *pairHeap) Push(x any)   { *h = append(*h, x.(Pair)) }
func (h *pairHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
