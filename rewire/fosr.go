package rewire

import (
	"errors"
	"math"
	"math/rand/v2"

	"github.com/ohmgnn/ohm/linalg"
)

// FoSR (first-order spectral rewiring, Karhadkar, Banerjee & Montúfar, ICLR
// 2023) adds B = floor(r·E0) edges, each chosen from an estimate x of the
// second eigenvector of the normalized adjacency D^{-1/2} A D^{-1/2}, as the
// authors' code does:
//
//   - x starts uniform in [−1, 1) (from FoSROptions.Seed; FoSROptions.X0
//     gives it instead) and takes FoSRInitialPowerIterations power steps;
//   - a power step: x ← x − (x·√d) √d / Σd, y = x + D^{-1/2} A D^{-1/2} x,
//     x ← y / ‖y‖;
//   - each addition is the non-edge {u,v}, u ≠ v, minimising y_u·y_v with
//     y = x / √(d+1), ties (exactly equal products) to the first in
//     row-major order (the reference's argmin over the n×n products); then
//     d_u, d_v grow by one and x takes one power step.
//
// The graph is taken as PyG's edge_index holds it: A has both arcs of every
// edge and self-loops once, and d counts them (a self-loop adds 1). Where
// the authors' code divides by √0 for an isolated node (giving NaN), a zero
// degree contributes nothing here. The search avoids the n×n product of the
// reference: the most negative products pair the most negative and the most
// positive entries, so they are enumerated best first from the sorted y
// (a heap over the two sorted lists, O(n log n) plus O(log n) per edge
// passed over); only when no pair of opposite signs is a non-edge does it
// scan all pairs (O(n²)).

// FoSRInitialPowerIterations is the number of power steps before the first
// addition (the reference's edge_rewire default).
const FoSRInitialPowerIterations = 5

// fosrOperator makes FoSR's iterations: one addition each, then a power
// step. O(n log n + m) per iteration.
type fosrOperator struct {
	f   *fosr
	opt FoSROptions // what chose the start vector (startError)
	pcg rand.PCG    // the start vector's generator (rand)
	rnd *rand.Rand
	log [1]Edit // iterate's edits
	// added are the pairs added so far, which undo takes back (a batch
	// rewiring the caller's graph in place, whose run vanishes).
	added [][2]int
}

// newFoSROperator draws (or takes) the start vector and makes the initial
// power steps. In a batch (Config.scratch) the worker's FoSR state is
// reused, its buffers resized for this graph: the same arithmetic, no
// allocation but the graph's copy.
func newFoSROperator(p *Plan) (operator, error) {
	g := p.Graph
	opt := FoSROptions{}
	if p.Config.FoSR != nil {
		opt = *p.Config.FoSR
	}
	if err := checkOperatorMemory(p); err != nil {
		return nil, err
	}
	var o *fosrOperator
	var h *linalg.Graph
	if s := p.Config.scratch; s != nil {
		if s.fosr.f == nil {
			s.fosr.f = new(fosr)
		}
		o, h = &s.fosr, g
		if !s.inPlace {
			h = s.graphs.Clone(g)
		}
		o.added = o.added[:0]
	} else {
		o, h = &fosrOperator{f: new(fosr)}, g.Clone()
	}
	o.opt = opt
	f := o.f
	f.reset(h)
	x := f.x
	if opt.X0 != nil {
		copy(x, opt.X0)
	} else {
		r := o.rand(opt.Seed)
		for i := range x {
			x[i] = 2*r.Float64() - 1
		}
	}
	for range FoSRInitialPowerIterations {
		if err := f.powerStep(); err != nil {
			return nil, o.startError(err)
		}
	}
	return o, nil
}

// rand is the generator of the start vector for seed: FoSR's PCG stream,
// the operator's own generator reseeded (no allocation after the first).
func (o *fosrOperator) rand(seed uint64) *rand.Rand {
	if o.rnd == nil {
		o.rnd = rand.New(&o.pcg)
	}
	o.pcg.Seed(seed, 0x666f7372)
	return o.rnd
}

// startError turns ErrFoSRVanished into a *ConfigError about what chose the
// start vector: X0 (FieldStartVector) or the seed that drew it (FieldSeed),
// which commands map to their flags.
func (o *fosrOperator) startError(err error) error {
	if !errors.Is(err, ErrFoSRVanished) {
		return err
	}
	why := "fosr's power iteration vanished (the start vector is zero or parallel to √d): give another one"
	if o.opt.X0 != nil {
		return &ConfigError{Field: FieldStartVector, Reason: why, Cause: err}
	}
	return &ConfigError{Field: FieldSeed, Value: o.opt.Seed, Reason: why, Cause: err}
}

func (o *fosrOperator) graph() *linalg.Graph { return o.f.g }

// takeGraph gives up the operator's copy of the graph (graphTaker): the
// operator is not used after the loop.
func (o *fosrOperator) takeGraph() *linalg.Graph {
	g := o.f.g
	o.f.g = nil
	return g
}

func (o *fosrOperator) idle() string { return "no pair could be added (the graph is complete)" }

func (o *fosrOperator) iterate(it int) ([]Edit, error) {
	f := o.f
	u, v, p, ok := f.choose()
	if !ok {
		return nil, nil
	}
	f.g.AddEdge(u, v)
	o.added = append(o.added, [2]int{u, v})
	f.setDeg(u, f.deg[u]+1)
	f.setDeg(v, f.deg[v]+1)
	if err := f.powerStep(); err != nil {
		return nil, o.startError(err)
	}
	o.log[0] = Edit{Iteration: it, Op: "add", U: u, V: v, Score: p}
	return o.log[:], nil
}

func (o *fosrOperator) finish(*Result) error { return nil }

// undo removes the pairs added in place (added, last first): the graph
// as it came in. O(k·n) for k additions.
func (o *fosrOperator) undo() {
	for i := len(o.added) - 1; i >= 0; i-- {
		o.f.g.RemoveEdge(o.added[i][0], o.added[i][1])
	}
	o.added = o.added[:0]
}

// ErrFoSRVanished is FoSR's failure when its power iteration's vector
// vanishes: a start vector zero or in the span of √d, or a graph on which
// every vector orthogonal to √d is cancelled (a single edge). RunMany
// leaves such a graph as it is (definitions §3.8); a run returns it
// inside a *ConfigError about the start vector or its seed (errors.Is finds
// it).
var ErrFoSRVanished = errors.New("rewire: fosr's power iteration vanished (the start vector is zero or parallel to √d)")

// fosr is FoSR's state: the graph (edited in place), the degrees of
// edge_index (self-loops count 1) and the vector x.
type fosr struct {
	g   *linalg.Graph
	deg []float64
	// sd, isd and sd1 are √d, 1/√d (invSqrt) and √(d+1) of deg, kept
	// beside it (setDeg); sum is Σ d (whole numbers: exact in any order).
	sd, isd, sd1 []float64
	sum          float64
	x, y, w      []float64     // w has n+1 entries, w[n] = 0 (neighbourSums)
	mark         []bool        // denseMarked's scratch
	search       productSearch // minProductNonEdge's buffers
}

// reset makes f the state of g with x zero, its buffers reused when they
// are long enough. O(n + m).
func (f *fosr) reset(g *linalg.Graph) {
	n := g.N()
	if cap(f.deg) < n {
		v := make([]float64, 7*n+1) // one allocation for the seven vectors
		for _, p := range []*[]float64{&f.deg, &f.x, &f.y, &f.sd, &f.isd, &f.sd1} {
			*p, v = v[:n:n], v[n:]
		}
		f.w = v[: n+1 : n+1]
		f.search.neg.h, f.search.pos.h = make([]entry, 0, n), make([]entry, 0, n)
	}
	for _, p := range []*[]float64{&f.deg, &f.x, &f.y, &f.sd, &f.isd, &f.sd1} {
		*p = (*p)[:n]
	}
	f.w = f.w[:n+1]
	f.w[n] = 0
	f.g = g
	lists, loop := g.OutLists()
	sum := 0.0
	for u, nb := range lists[:n] {
		d := float64(len(nb))
		if loop[u] {
			d++
		}
		f.deg[u] = d
		sum += d // whole numbers: exact, as setDeg's running sum
	}
	f.sum = sum
	roots(f.deg, f.sd, f.isd, f.sd1)
}

// setDeg sets node u's degree to d, with its roots and the sum. O(1).
func (f *fosr) setDeg(u int, d float64) {
	f.sum += d - f.deg[u]
	f.deg[u] = d
	f.sd[u], f.isd[u], f.sd1[u] = math.Sqrt(d), invSqrt(d), math.Sqrt(d+1)
}

// invSqrt is 1/√d, and 0 for d = 0.
func invSqrt(d float64) float64 {
	if d == 0 {
		return 0
	}
	return 1 / math.Sqrt(d)
}

// powerStep is one step of the reference's power iteration. O(n + m). It
// fails when x vanishes (a start vector in the span of √d, or zero), where
// the reference would go on with NaN.
func (f *fosr) powerStep() error {
	n := len(f.x)
	x, sd, isd := f.x[:n], f.sd[:n], f.isd[:n]
	w, y := f.w[:n+1], f.y[:n]
	dot, sum := 0.0, f.sum
	for i := range n {
		dot += x[i] * sd[i]
	}
	if sum > 0 {
		center(x, w[:n], sd, isd, dot, sum)
	} else {
		for i := range n {
			w[i] = x[i] * isd[i]
		}
	}
	norm := neighbourSums(f.g, x, isd, y, w)
	norm = math.Sqrt(norm)
	if !(norm > 0) || math.IsInf(norm, 0) {
		return ErrFoSRVanished
	}
	scaleDivTo(x, y, norm)
	return nil
}

// choose returns the non-edge {u,v}, u < v, of least y_u·y_v (y = x/√(d+1)),
// its product, and false when every pair is an edge.
func (f *fosr) choose() (int, int, float64, bool) {
	n := len(f.x)
	y := f.y[:n]
	if n <= smallFoSR {
		divTo(y, f.x, f.sd1)
		return f.denseMarked(y)
	}
	// search.min, its first step (extremePair) fused with the quotients.
	if u, v, p, ok := divScan(y, f.x, f.sd1).pair(f.g); ok {
		return u, v, p, true
	}
	if u, v, p, ok := f.search.heaps(f.g, y); ok {
		return u, v, p, true
	}
	return f.denseMarked(y)
}

// smallFoSR is the node count up to which choose scans every pair (the
// reference's search, denseMarked) rather than the sorted y. Since the
// sorted y come from heaps as far as the search reaches, the sorted search
// is the faster from 16 nodes on (3× there, 20× at 128 nodes:
// BenchmarkFoSRSearchSmall); both give the same pair (TestFoSRSearch).
const smallFoSR = 8

// denseMarked is denseMinProduct with the neighbours of each row marked in
// a scratch slice (f.mark) instead of looked up in the graph's hash set, and
// only the pairs i < j scanned (y_i·y_j = y_j·y_i exactly, and (i, j) comes
// before (j, i) in row-major order): the same result. O(n²/2 + m).
func (f *fosr) denseMarked(y []float64) (int, int, float64, bool) {
	n := len(y)
	if cap(f.mark) < n {
		f.mark = make([]bool, n)
	}
	f.mark = f.mark[:n] // all false: each row clears its marks
	mark := f.mark      // true on row i and its neighbours while row i is scanned
	best, bu, bv, found := math.Inf(1), 0, 0, false
	for i := range n {
		nb := f.g.Neighbours(i)
		for _, j := range nb {
			mark[j] = true
		}
		mark[i] = true
		yi := y[i]
		// Only j > i: the product is symmetric to the bit, so the first
		// least ordered pair in row-major order always has i < j.
		for j, m := range mark[i+1:] {
			if !m {
				if p := yi * y[i+1+j]; p < best {
					best, bu, bv, found = p, i, i+1+j, true
				}
			}
		}
		for _, j := range nb {
			mark[j] = false
		}
		mark[i] = false
	}
	return min(bu, bv), max(bu, bv), best, found
}

// minProductNonEdge enumerates the pairs of one negative and one positive
// entry of y by increasing product (a heap over the negatives in ascending
// and the positives in descending order) until the first non-edge; among
// the non-edges of exactly that product the first in row-major order wins.
// false when no such pair is a non-edge.
func minProductNonEdge(g *linalg.Graph, y []float64) (int, int, float64, bool) {
	return new(productSearch).min(g, y)
}

// productSearch is minProductNonEdge with its buffers kept from one call to
// the next (one per FoSR run).
type productSearch struct {
	neg, pos lazyOrder
	h        productHeap
}

// entry is a node and its y, ordered together (no indirection).
type entry struct {
	v float64
	i int
}

// min is minProductNonEdge. Pair (a, b) of neg × pos enters the heap when
// its one predecessor leaves it — (a, b−1), or (a−1, 0) when b = 0 — whose
// product is no larger, so the pairs leave in ascending product and each
// pair enters once (no set of the pairs seen). Every pair of the least
// product of a non-edge leaves before the first larger one, so the pair
// chosen does not depend on the order of ties. The negatives in ascending
// and the positives in descending y (ties by node: a total order, no zero
// or NaN here) are taken from heaps as far as the search reaches (usually
// a few entries), not sorted whole. O(n) to build the heaps, then
// O(log n) per pair passed over.
func (s *productSearch) min(g *linalg.Graph, y []float64) (int, int, float64, bool) {
	if u, v, p, ok := extremePair(g, y); ok {
		return u, v, p, true
	}
	return s.heaps(g, y)
}

// heaps is min without its first step. O(n), then O(log n) per pair
// passed over.
func (s *productSearch) heaps(g *linalg.Graph, y []float64) (int, int, float64, bool) {
	neg, pos := s.neg.h[:0], s.pos.h[:0]
	for i, v := range y {
		switch {
		case v < 0:
			neg = append(neg, entry{v, i})
		case v > 0:
			pos = append(pos, entry{-v, i}) // descending y: ascending −y
		}
	}
	if len(neg) == 0 || len(pos) == 0 {
		s.neg.h, s.pos.h = neg, pos
		return 0, 0, 0, false
	}
	s.neg.reset(neg)
	s.pos.reset(pos)
	h := &s.h
	h.neg, h.pos, h.items = &s.neg, &s.pos, h.items[:0]
	h.push([2]int{0, 0})
	found := false
	var best float64
	var bu, bv int
	for len(h.items) > 0 {
		top := h.items[0]
		if found && h.product(top) != best {
			break
		}
		h.pop()
		a, b := top[0], top[1]
		i, j := s.neg.at(a).i, s.pos.at(b).i
		if !g.HasEdge(i, j) {
			u, v := min(i, j), max(i, j)
			if !found || u < bu || (u == bu && v < bv) {
				bu, bv = u, v
			}
			best, found = h.product(top), true
		}
		if b+1 < s.pos.n {
			h.push([2]int{a, b + 1})
		}
		if b == 0 && a+1 < s.neg.n {
			h.push([2]int{a + 1, 0})
		}
	}
	return bu, bv, best, found
}

// extremePair is min's first step, one pass over y: the pair of the most
// negative entry y_a and the most positive y_b when it is a non-edge and
// every other pair's product is greater — which holds when both are
// strictly beyond the runners-up a2 and b2 with fl(a2·y_b) and fl(y_a·b2)
// above fl(y_a·y_b): any other pair of opposite signs has |y_a'| ≤ |a2| or
// |y_b'| ≤ |b2| (the other factor no larger), rounding is monotone, and
// pairs of one sign have products ≥ 0. The pair is then the one min (and
// the reference's argmin) chooses, ties being impossible. false: take the
// heaps. O(n).
func extremePair(g *linalg.Graph, y []float64) (int, int, float64, bool) {
	return scanExtremes(y).pair(g)
}

// pair is extremePair's answer from the scan e of y. O(1).
func (e extremes) pair(g *linalg.Graph) (int, int, float64, bool) {
	if e.ia < 0 || e.ib < 0 {
		return 0, 0, 0, false
	}
	best := e.a1 * e.b1
	if !(e.a2*e.b1 > best && e.a1*e.b2 > best) || g.HasEdge(e.ia, e.ib) {
		return 0, 0, 0, false
	}
	return min(e.ia, e.ib), max(e.ia, e.ib), best, true
}

// lazyOrder hands out entries in ascending (v, i) one at a time: a binary
// min-heap of those not yet taken, and the prefix taken so far.
type lazyOrder struct {
	h   []entry // the heap
	out []entry // the least entries, in order
	n   int     // entries in all
}

func entryLess(a, b entry) bool { return a.v < b.v || (a.v == b.v && a.i < b.i) }

// reset makes es (which the order keeps) the entries. O(len(es)).
func (l *lazyOrder) reset(es []entry) {
	l.h, l.out, l.n = es, l.out[:0], len(es)
	for k := len(es)/2 - 1; k >= 0; k-- {
		l.down(k)
	}
}

// at returns the k-th least entry (k < n). O(log n) per entry not taken yet.
func (l *lazyOrder) at(k int) entry {
	for len(l.out) <= k {
		l.out = append(l.out, l.h[0])
		last := len(l.h) - 1
		l.h[0] = l.h[last]
		l.h = l.h[:last]
		l.down(0)
	}
	return l.out[k]
}

func (l *lazyOrder) down(k int) {
	h, n := l.h, len(l.h)
	for {
		c := 2*k + 1
		if c >= n {
			return
		}
		if c+1 < n && entryLess(h[c+1], h[c]) {
			c++
		}
		if !entryLess(h[c], h[k]) {
			return
		}
		h[k], h[c] = h[c], h[k]
		k = c
	}
}

// productHeap is a binary min-heap of index pairs (a, b) into neg × pos by
// y_a·y_b (the positives hold −y).
type productHeap struct {
	neg, pos *lazyOrder
	items    [][2]int
}

func (h *productHeap) product(p [2]int) float64 { return -(h.neg.at(p[0]).v * h.pos.at(p[1]).v) }

func (h *productHeap) push(p [2]int) {
	h.items = append(h.items, p)
	k, pk := len(h.items)-1, h.product(p)
	for k > 0 {
		up := (k - 1) / 2
		if !(pk < h.product(h.items[up])) {
			break
		}
		h.items[k] = h.items[up]
		k = up
	}
	h.items[k] = p
}

func (h *productHeap) pop() {
	last := len(h.items) - 1
	p := h.items[last]
	h.items = h.items[:last]
	if last == 0 {
		return
	}
	pp, k := h.product(p), 0
	for {
		c := 2*k + 1
		if c >= last {
			break
		}
		if c+1 < last && h.product(h.items[c+1]) < h.product(h.items[c]) {
			c++
		}
		if !(h.product(h.items[c]) < pp) {
			break
		}
		h.items[k] = h.items[c]
		k = c
	}
	h.items[k] = p
}

// denseMinProduct is the reference's search: every ordered pair, the first
// least product in row-major order. O(n²).
func denseMinProduct(g *linalg.Graph, y []float64) (int, int, float64, bool) {
	best, bu, bv, found := math.Inf(1), 0, 0, false
	for i := range y {
		for j := range y {
			if i == j || g.HasEdge(i, j) {
				continue
			}
			if p := y[i] * y[j]; p < best {
				best, bu, bv, found = p, i, j, true
			}
		}
	}
	return min(bu, bv), max(bu, bv), best, found
}
