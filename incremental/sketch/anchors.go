package sketch

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
