package sketch

import (
	"cmp"
	"math"
	"slices"

	"github.com/ohmgnn/ohm/internal/parallel"
)

// confidence is the number of standard errors of D̂_i added to the bound.
const confidence = 3

// bounds sets ecc[i] to the bound on node i's eccentricity in the current
// graph: the larger of
//
//   - max over anchors a of D̂_i + L⁺_aa − 2L⁺_ai (exact but for D̂_i),
//   - D̂_i + D_out + 2δ, for partners that are no anchor: D_out the largest
//     D̂_j + 3σ_j over the nodes j ≠ i that are no anchor, δ the most
//     negative entry of the anchors' columns (−L⁺_ij is at most that, the
//     anchors being the nodes farthest out),
//
// plus 3σ_i. A node of a small component has its exact eccentricity in
// the component instead, and D̂_i + D̂_j + 3σ_j for partners j in other
// components. O(n·|anchors|).
func (e *Engine) bounds(ecc []float64) error {
	sh, err := e.boundShared()
	if err != nil {
		return err
	}
	for i := range e.g.N() {
		ecc[i] = e.nodeBound(i, e.anchorPart(i), &sh)
	}
	return nil
}

// shared is what the bounds of all nodes have in common.
type shared struct {
	xtop, xother float64 // the largest D̂_j + 3σ_j, and the largest in another component
	xcomp        int32   // the component of xtop
	top, second  float64 // the largest two D̂_j + 3σ_j over the nodes that are no anchor
	arg          int     // the node of top
	delta        float64 // the most negative entry of the anchors' columns
	anchorMax    float64 // the largest L⁺_aa of an anchor
}

// boundShared brings the small components' L⁺ up to date and returns what
// the bounds share (δ is kept by the edits). O(n + |anchors|).
func (e *Engine) boundShared() (shared, error) {
	if err := e.updateSmall(); err != nil {
		return shared{}, err
	}
	n := e.g.N()
	sh := shared{xcomp: -1, arg: -1}
	for j := range n {
		d := e.dhat[j] + confidence*e.sd[j]
		switch {
		case d > sh.xtop && e.comp[j] != sh.xcomp:
			sh.xtop, sh.xother, sh.xcomp = d, sh.xtop, e.comp[j]
		case d > sh.xtop:
			sh.xtop = d
		case d > sh.xother && e.comp[j] != sh.xcomp:
			sh.xother = d
		}
		if e.aidx[j] >= 0 {
			continue
		}
		if d > sh.top {
			sh.top, sh.second, sh.arg = d, sh.top, j
		} else if d > sh.second {
			sh.second = d
		}
	}
	sh.delta = e.delta
	sh.anchorMax = math.Inf(-1)
	for q, a := range e.anchors {
		sh.anchorMax = max(sh.anchorMax, e.acol[q*n+a])
	}
	return sh, nil
}

// anchorPart is max over anchors a ≠ i of L⁺_aa − 2L⁺_ai (−∞ without
// one). O(|anchors|).
func (e *Engine) anchorPart(i int) float64 {
	n := e.g.N()
	best := math.Inf(-1)
	for q, a := range e.anchors {
		if a == i || (e.opt.WithinComponents && e.comp[i] != e.comp[a]) {
			continue
		}
		best = max(best, e.acol[q*n+a]-2*e.acol[q*n+i])
	}
	return best
}

// nodeBound is node i's bound given its anchors' part abest (bounds).
// O(1).
func (e *Engine) nodeBound(i int, abest float64, sh *shared) float64 {
	dh := e.dhat[i]
	if e.small[i] >= 0 {
		b := e.smallEcc[i]
		if !e.opt.WithinComponents {
			across := sh.xtop
			if e.comp[i] == sh.xcomp {
				across = sh.xother
			}
			b = max(b, dh+across)
		}
		return b
	}
	out := sh.top
	if i == sh.arg {
		out = sh.second
	}
	b := 0.0
	if abest > math.Inf(-1) {
		b = max(0, dh+abest)
	}
	if out > 0 {
		b = max(b, dh+out+2*sh.delta)
	}
	return confidence*e.sd[i] + b
}

// liveBounds is bounds for the cover and the growth inside a round, which
// need the largest bounds of the nodes not kept only. Every node first
// gets the cheap bound with the anchors' part replaced by its own upper
// bound, max L⁺_aa + 2δ (O(1) each); the anchors' part is then computed
// for the growBatch·2 nodes of largest cheap bound and for every node
// whose cheap bound reaches the growBatch-th largest bound so found. The
// nodes left keep their cheap bound, valid and below every bound that the
// cover and nextByBound read. O(n + |evaluated|·|anchors|) against bounds'
// O(n·|anchors|).
func (e *Engine) liveBounds(ecc []float64) error {
	sh, err := e.boundShared()
	if err != nil {
		return err
	}
	n := e.g.N()
	cheap := math.Inf(-1)
	if len(e.anchors) > 0 {
		cheap = sh.anchorMax + 2*sh.delta
	}
	// heads: the nodes not kept and not in a small component, whose
	// anchors' part matters (ascending; the nodes split among the workers).
	w := max(1, e.opt.Workers)
	parts := make([][]int, w)
	parallel.Rows(w, n, func(t, lo, hi int) {
		var hs []int
		for i := lo; i < hi; i++ {
			ecc[i] = e.nodeBound(i, cheap, &sh)
			if e.index[i] < 0 && e.small[i] < 0 {
				hs = append(hs, i)
			}
		}
		parts[t] = hs
	})
	heads := slices.Concat(parts...)
	if len(heads) == 0 || len(e.anchors) == 0 {
		return nil
	}
	// The k heads of largest cheap bound (a running top-k: O(n) plus the
	// rare insertions).
	k := min(len(heads), 2*growBatch)
	byBound := func(a, b int) int { return cmp.Compare(ecc[b], ecc[a]) }
	top := slices.Clone(heads[:k])
	slices.SortFunc(top, byBound)
	for _, i := range heads[k:] {
		if ecc[i] > ecc[top[k-1]] {
			at, _ := slices.BinarySearchFunc(top, i, byBound)
			copy(top[at+1:], top[at:k-1])
			top[at] = i
		}
	}
	var exact []float64
	for _, i := range top {
		ecc[i] = e.nodeBound(i, e.anchorPart(i), &sh)
		exact = append(exact, ecc[i])
	}
	slices.SortFunc(exact, func(a, b float64) int { return cmp.Compare(b, a) })
	floor := exact[min(len(exact), growBatch)-1]
	parallel.Rows(w, len(heads), func(_, lo, hi int) {
		for _, i := range heads[lo:hi] { // the top again too: the same value, no bookkeeping
			if ecc[i] >= floor {
				ecc[i] = e.nodeBound(i, e.anchorPart(i), &sh)
			}
		}
	})
	return nil
}

// updateBounds computes the bounds again after edits (when dirty, by
// liveBounds) and sets the cover. O(n + |evaluated|·|anchors|).
func (e *Engine) updateBounds() error {
	if e.dirty { // the bounds and the kept nodes, hence the cover, change only then
		if err := e.liveBounds(e.ecc); err != nil {
			return err
		}
		e.dirty = false
		e.setCover()
	}
	return nil
}

// setCover sets the cover to the scaled bound of the node of largest
// bound that is not kept. O(n).
func (e *Engine) setCover() {
	e.cover = 0
	for i, b := range e.ecc {
		if e.index[i] < 0 {
			e.cover = max(e.cover, e.scale*b)
		}
	}
}

// nextByBound returns up to k nodes that are not kept, largest bound first
// (ties by id). O(n log n).
func (e *Engine) nextByBound(k int) []int {
	if k <= 0 {
		return nil
	}
	byBound := func(a, b int) int {
		if c := cmp.Compare(e.ecc[b], e.ecc[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}
	// A running top k (the order is total: the same k nodes, in the same
	// order, as sorting them all; O(n) plus the rare insertions).
	out := make([]int, 0, k)
	for i := range e.ecc {
		if e.index[i] >= 0 {
			continue
		}
		if len(out) == k && byBound(i, out[k-1]) >= 0 {
			continue
		}
		at, _ := slices.BinarySearchFunc(out, i, byBound)
		if len(out) < k {
			out = append(out, 0)
		}
		copy(out[at+1:], out[at:len(out)-1])
		out[at] = i
	}
	return out
}
