package rank

import "math"

// Max finds the first pair of the descending ranking of a stream of pairs
// offered in row-major order, without keeping the stream: the kernel of the
// engines' fused update-and-scan passes. A pass over a range of rows feeds
// one Max; Merge combines the Max of consecutive or disjoint ranges.
//
// Unkeyed, it keeps only the running maxima ("records") still within Tol of
// the current maximum: the first pair in row-major order within Tol of the
// final maximum is always a record. Keyed, a pair below the running maximum
// can still win on its key, so it keeps every pair within Tol of the running
// maximum except those dominated by an earlier pair (one with a score and a
// key at least as large, which the rule always prefers). Amortised O(1) per
// offered pair when few pairs tie, no allocation after warm-up.
//
// Exclude lists pairs the ranking must pass over ("the next pair after
// these"); they are checked only for offered pairs, O(len(Exclude)) each.
// Call Reset before the first Offer.
type Max struct {
	Keyed   bool
	Exclude []Pair

	best  float64
	floor float64
	items []Pair
}

// Reset empties the tracker, keeping Keyed, Exclude and its storage.
func (t *Max) Reset() {
	t.best, t.floor = math.Inf(-1), math.Inf(-1)
	t.items = t.items[:0]
}

// Best returns the greatest score offered and kept (−Inf if none).
func (t *Max) Best() float64 { return t.best }

// Floor is the value a score must exceed to matter: hot loops offer a pair
// only when its score is > Floor. O(1).
func (t *Max) Floor() float64 { return t.floor }

// Offer adds the pair p, which must come after every pair offered before in
// row-major order.
func (t *Max) Offer(p Pair) {
	if !(p.Score > t.floor) {
		return
	}
	for _, x := range t.Exclude {
		if Same(x, p) {
			return
		}
	}
	if p.Score > t.best {
		t.best = p.Score
		th := t.best - Tol(t.best)
		if t.Keyed {
			t.items = prune(t.items, th)
		} else {
			k := 0
			for k < len(t.items) && t.items[k].Score < th {
				k++
			}
			t.items = append(t.items[:0], t.items[k:]...)
		}
		if t.Keyed {
			t.floor = math.Nextafter(th, math.Inf(-1))
		} else {
			t.floor = t.best
		}
	} else if t.Keyed {
		for _, q := range t.items {
			if q.Score >= p.Score && q.Key >= p.Key {
				return
			}
		}
	}
	t.items = append(t.items, p)
}

// prune keeps, in order, the items scoring at least th.
func prune(items []Pair, th float64) []Pair {
	out := items[:0]
	for _, q := range items {
		if q.Score >= th {
			out = append(out, q)
		}
	}
	return out
}

// Kept returns the pairs the tracker keeps, in the order they were offered
// (row-major): offering them, in this order, to a tracker that saw the
// pairs before them leaves it as offering it the whole stream would (a pair
// this tracker dropped, any tracker that saw more before it drops too), so
// that consecutive ranges of rows may be scanned by trackers of their own.
// The slice is the tracker's; do not modify it. O(1).
func (t *Max) Kept() []Pair { return t.items }

// Result returns the first pair of the ranking of everything offered, and
// false when nothing was.
func (t *Max) Result() (Pair, bool) { return Merge([]*Max{t}) }

// Merge returns the first pair of the descending ranking of the union of the
// pairs offered to ts (each fed in row-major order; the trackers may cover
// any disjoint sets of pairs and must agree on Keyed), and false when none
// saw a pair. O(total kept pairs).
func Merge(ts []*Max) (Pair, bool) {
	best := math.Inf(-1)
	for _, t := range ts {
		best = math.Max(best, t.best)
	}
	if math.IsInf(best, -1) {
		return Pair{}, false
	}
	th := best - Tol(best)
	keyed := ts[0].Keyed
	k := math.Inf(-1)
	if keyed {
		for _, t := range ts {
			for _, q := range t.items {
				if q.Score >= th {
					k = math.Max(k, q.Key)
				}
			}
		}
	}
	var pick Pair
	found := false
	for _, t := range ts {
		for _, q := range t.items {
			if q.Score < th || (keyed && q.Key < k-Tol(k)) {
				continue
			}
			if !found || RowMajorLess(q, pick) {
				pick, found = q, true
			}
			if !keyed {
				break // records are in row-major order
			}
		}
	}
	if !found {
		panic("rank: maximum lost by the trackers")
	}
	return pick, true
}
