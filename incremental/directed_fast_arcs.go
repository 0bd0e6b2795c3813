package incremental

import "cmp"

// scoredArc is an arc inside an SCC with its score, its SCC, its error bound
// and its position in the row-major order (uncertainRemove).
type scoredArc struct {
	p   Pair
	s   int
	err float64
	idx int
}

// arcLess is the removal order of uncertainRemove: ascending score, ties by
// row-major position (cmp.Compare's order, NaN first).
func arcLess(a, b *scoredArc) bool {
	if c := cmp.Compare(a.p.Score, b.p.Score); c != 0 {
		return c < 0
	}
	return a.idx < b.idx
}

// arcOrder hands out arcs in arcLess order on demand: a binary min-heap,
// popped into a sorted prefix as far as at asks. uncertainRemove usually
// stops after a few arcs, so this replaces a sort of all of them,
// O(m log m), by a heap built in O(m) and O(log m) per arc taken; the order
// is the sort's (the keys are distinct).
type arcOrder struct {
	sorted []scoredArc
	heap   []scoredArc
}

// newArcOrder takes ownership of arcs and heapifies them. O(len(arcs)).
func newArcOrder(arcs []scoredArc) *arcOrder {
	o := &arcOrder{heap: arcs, sorted: make([]scoredArc, 0, 64)}
	for i := len(arcs)/2 - 1; i >= 0; i-- {
		o.down(i)
	}
	return o
}

// at returns the k-th arc in order, false when there are at most k arcs.
func (o *arcOrder) at(k int) (*scoredArc, bool) {
	for len(o.sorted) <= k && len(o.heap) > 0 {
		o.sorted = append(o.sorted, o.heap[0])
		last := len(o.heap) - 1
		o.heap[0] = o.heap[last]
		o.heap = o.heap[:last]
		if last > 0 {
			o.down(0)
		}
	}
	if k < len(o.sorted) {
		return &o.sorted[k], true
	}
	return nil, false
}

// down restores the heap order below position i.
func (o *arcOrder) down(i int) {
	h := o.heap
	n := len(h)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && arcLess(&h[c+1], &h[c]) {
			c++
		}
		if !arcLess(&h[c], &h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
