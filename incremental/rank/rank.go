// Package rank is definitions §3.1's ranking rule, in one place: how ohm orders
// scored node pairs when it picks the pair to add, the edge to remove, the
// least-curved edge, or the next pair after some were passed over.
//
// The rule: two scores are equal when they differ by at most
// Tol(best) = 1e-9·max(1, |best|), where best is the extreme (maximum or
// minimum) of the set being ranked. Among equal scores, a keyed ranking
// (per-hop scores, whose key is the pair's resistance R) prefers the larger
// key, keys being equal under the same tolerance relative to the largest key
// among the tied pairs; then the first pair in row-major order (smallest U,
// then smallest V) wins. Ranking a set means taking its first pair by this
// rule, then the first of the rest, and so on: "the next pair after these" is
// the first pair of the set without them.
//
// Max is the streaming form, for the fused O(n²) passes of the engines;
// First and Each rank a slice.
package rank

import (
	"math"
	"slices"
)

// Pair is a node pair with the score it is ranked by and, for keyed
// rankings, its second key (the resistance of a pair scored per hop).
type Pair struct {
	U, V  int
	Score float64
	Key   float64
}

// Order is the direction of a ranking.
type Order int

const (
	// Descending ranks the greatest score first (the pair to add).
	Descending Order = iota
	// Ascending ranks the least score first (the edge to remove, the most
	// negatively curved edge).
	Ascending
)

// Keys says which keys a ranking compares: the score alone, or the score
// and then, among equal scores, the per-hop second key (Pair.Key, larger
// first: definitions §3.1). A bool underneath, so that the constants read
// at the call site.
type Keys bool

const (
	// ScoreOnly ranks by the score alone (ties by the node order).
	ScoreOnly Keys = false
	// ScoreThenKey breaks score ties by Pair.Key first (the per-hop methods).
	ScoreThenKey Keys = true
)

// Tol is definitions §3.1's tolerance: scores within Tol(best) of best are equal.
func Tol(best float64) float64 { return 1e-9 * math.Max(1, math.Abs(best)) }

// RowMajorLess reports whether p comes before q in row-major order.
func RowMajorLess(p, q Pair) bool {
	if p.U != q.U {
		return p.U < q.U
	}
	return p.V < q.V
}

// Same reports whether p and q are the same pair (scores aside).
func Same(p, q Pair) bool { return p.U == q.U && p.V == q.V }

// inWindow reports whether s is equal to the extreme m under order o.
func inWindow(s, m float64, o Order) bool {
	if o == Descending {
		return s >= m-Tol(m)
	}
	return s <= m+Tol(m)
}

// First returns the index of the pair the rule ranks first in ps (in any
// order), and -1 when ps is empty. keyed (ScoreThenKey) selects the per-hop second key. O(len(ps)).
func First(ps []Pair, o Order, keyed Keys) int {
	if len(ps) == 0 {
		return -1
	}
	m := ps[0].Score
	for _, p := range ps[1:] {
		if (o == Descending && p.Score > m) || (o == Ascending && p.Score < m) {
			m = p.Score
		}
	}
	k := math.Inf(-1)
	if keyed {
		for _, p := range ps {
			if inWindow(p.Score, m, o) {
				k = math.Max(k, p.Key)
			}
		}
	}
	pick := -1
	for q, p := range ps {
		if !inWindow(p.Score, m, o) || (keyed == ScoreThenKey && p.Key < k-Tol(k)) {
			continue
		}
		if pick < 0 || RowMajorLess(p, ps[pick]) {
			pick = q
		}
	}
	return pick
}

// Each visits ps in the order of the rule until visit returns false: the
// first pair, then the first of the rest, and so on. It reorders ps. The
// first few pairs are found by linear scans (O(len(ps)) each: a caller that
// usually accepts the first pays no sort); after 16 it sorts once by score
// and each further step costs its tie window.
func Each(ps []Pair, o Order, keyed Keys, visit func(Pair) bool) {
	for rejected := 0; len(ps) > 0; rejected++ {
		if rejected == 16 {
			eachSorted(ps, o, keyed, visit)
			return
		}
		q := First(ps, o, keyed)
		p := ps[q]
		ps[q] = ps[len(ps)-1]
		ps = ps[:len(ps)-1]
		if !visit(p) {
			return
		}
	}
}

// FirstAccepted returns the first pair of ps in the order of the rule that
// accept (nil: any) takes, such as the least edge that is no bridge, and
// false when it takes none. It reorders ps.
func FirstAccepted(ps []Pair, o Order, keyed Keys, accept func(u, v int) bool) (Pair, bool) {
	var pick Pair
	found := false
	Each(ps, o, keyed, func(p Pair) bool {
		if accept == nil || accept(p.U, p.V) {
			pick, found = p, true
			return false
		}
		return true
	})
	return pick, found
}

// eachSorted is Each after one sort by score (best first).
func eachSorted(ps []Pair, o Order, keyed Keys, visit func(Pair) bool) {
	slices.SortFunc(ps, func(a, b Pair) int {
		if a.Score != b.Score {
			if (a.Score > b.Score) == (o == Descending) {
				return -1
			}
			return 1
		}
		if RowMajorLess(a, b) {
			return -1
		}
		if RowMajorLess(b, a) {
			return 1
		}
		return 0
	})
	for head := 0; head < len(ps); head++ {
		m := ps[head].Score
		end := head + 1
		for end < len(ps) && inWindow(ps[end].Score, m, o) {
			end++
		}
		q := head + First(ps[head:end], o, keyed)
		// Move the pick to the head, keeping the others in order.
		p := ps[q]
		copy(ps[head+1:q+1], ps[head:q])
		ps[head] = p
		if !visit(p) {
			return
		}
	}
}
