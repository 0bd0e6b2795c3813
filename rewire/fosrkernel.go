package rewire

import (
	"math"

	"github.com/ohmgnn/ohm/linalg"
)

// divTo sets dst[k] = a[k] / b[k] for every k of dst (a and b at least as
// long). O(n), four quotients an instruction with fosrKernel.
func divTo(dst, a, b []float64) {
	n := len(dst)
	a, b = a[:n], b[:n]
	if fosrKernel && n > 0 {
		divAVX2(&dst[0], &a[0], &b[0], n)
		return
	}
	for k := range dst {
		dst[k] = a[k] / b[k]
	}
}

// scaleDivTo sets dst[k] = a[k] / d for every k of dst. O(n).
func scaleDivTo(dst, a []float64, d float64) {
	n := len(dst)
	a = a[:n]
	if fosrKernel && n > 0 {
		scaleDivAVX2(&dst[0], &a[0], n, d)
		return
	}
	for k := range dst {
		dst[k] = a[k] / d
	}
}

// center sets x[k] = x[k] − (dot·sd[k])/sum and w[k] = x[k]·isd[k] for
// every k of x (FoSR's projection off √d and the scaling by 1/√d of a
// power step). O(n).
func center(x, w, sd, isd []float64, dot, sum float64) {
	n := len(x)
	w, sd, isd = w[:n], sd[:n], isd[:n]
	if fosrKernel && n > 0 {
		centerAVX2(&x[0], &w[0], &sd[0], &isd[0], n, dot, sum)
		return
	}
	for k := range x {
		xk := x[k] - dot*sd[k]/sum
		x[k], w[k] = xk, xk*isd[k]
	}
}

// extremes is the state of extremePair's scan over y: the most negative
// entry a1 (its first index ia), the next a2 (equal to a1 on a tie; 0
// when there are fewer than two negatives), and likewise the most
// positive b1 (ib) and the next b2; ia, ib = −1 for none.
type extremes struct {
	a1, a2, b1, b2 float64
	ia, ib         int
}

// add takes entry i, v = y_i, into the scan (i above every index taken).
// O(1).
func (e *extremes) add(i int, v float64) {
	switch {
	case v < e.a2:
		if v < e.a1 {
			e.a1, e.a2, e.ia = v, e.a1, i
		} else {
			e.a2 = v // ties a1: a2 = a1, no quick answer
		}
	case v > e.b2:
		if v > e.b1 {
			e.b1, e.b2, e.ib = v, e.b1, i
		} else {
			e.b2 = v
		}
	}
}

// scanExtremes is the scan of every entry of y in order. O(n).
func scanExtremes(y []float64) extremes {
	e := extremes{ia: -1, ib: -1}
	for i, v := range y {
		e.add(i, v)
	}
	return e
}

// divScan sets y[k] = x[k]/sd1[k] and returns scanExtremes(y): with
// fosrKernel, the quotients and four interleaved scans (entries k ≡ 0, 1,
// 2, 3 mod 4) in one pass (extremesAVX2), merged, then the last 0–3
// entries one by one; the scan's branches, which mispredict on FoSR's
// vector, become blends. The same quotients and extremes. O(n).
func divScan(y, x, sd1 []float64) extremes {
	n := len(y)
	x, sd1 = x[:n], sd1[:n]
	if !fosrKernel || n < 4 {
		divTo(y, x, sd1)
		return scanExtremes(y)
	}
	var l extremeLanes
	extremesAVX2(&y[0], &x[0], &sd1[0], n, &l) // the lanes merged
	e := l.merge()
	for i := n &^ 3; i < n; i++ {
		y[i] = x[i] / sd1[i]
		e.add(i, y[i])
	}
	return e
}

// extremeLanes is extremesAVX2's output: the scan of its entries in
// every lane, merged (lane 0 is read).
type extremeLanes struct {
	a1, a2, b1, b2 [4]float64
	ia, ib         [4]int64
}

// merge is the scan the lanes hold. O(1).
func (l *extremeLanes) merge() extremes {
	return extremes{a1: l.a1[0], a2: l.a2[0], b1: l.b1[0], b2: l.b2[0], ia: int(l.ia[0]), ib: int(l.ib[0])}
}

// neighbourSums sets y[i] = x[i] + s_i·isd[i], s_i the sum of w over i's
// neighbours in order and then w[i] when i has a self-loop (as the
// reference sums them), and returns Σ y[i]² in order: the sums of a power
// step on the undirected g. w has n+1 entries, w[n] = +0 (fosrRowsSSE2
// reads it for the entries past a list's end). With fosrRowsKernel, in
// fosrRowsSSE2, with the same roundings. O(n + m).
func neighbourSums(g *linalg.Graph, x, isd, y, w []float64) float64 {
	n := len(x)
	lists, loop := g.OutLists()
	isd, y, w, lists, loop = isd[:n], y[:n], w[:n+1], lists[:n], loop[:n]
	if n == 0 {
		return 0
	}
	if fosrRowsKernel {
		// The lists hold nodes < n (the graph's invariant).
		return fosrRowsSSE2(&x[0], &isd[0], &y[0], &w[0], &lists[0], &loop[0], n)
	}
	norm := 0.0
	for i, nb := range lists {
		s := 0.0
		for _, j := range nb {
			s += w[j]
		}
		if loop[i] {
			s += w[i]
		}
		yi := x[i] + s*isd[i]
		y[i] = yi
		norm += yi * yi
	}
	return norm
}

// roots sets sd[k] = √deg[k], isd[k] = invSqrt(deg[k]) and sd1[k] =
// √(deg[k]+1) for every k of deg (FoSR's degree roots, setDeg's), four
// entries an instruction with fosrKernel, the same bits. O(n).
func roots(deg, sd, isd, sd1 []float64) {
	n := len(deg)
	sd, isd, sd1 = sd[:n], isd[:n], sd1[:n]
	k := 0
	if fosrKernel && n >= 4 {
		rootsAVX2(&deg[0], &sd[0], &isd[0], &sd1[0], n)
		k = n &^ 3
	}
	for ; k < n; k++ {
		d := deg[k]
		sd[k], isd[k], sd1[k] = math.Sqrt(d), invSqrt(d), math.Sqrt(d+1)
	}
}
