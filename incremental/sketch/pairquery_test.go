package sketch

// A pruned threshold query for the Pythagorean pair bound (OHM_PAIRQUERY);
// docs/sketch.md, "Step 4, third measurement: the exact diagonal and a
// pruned query".

import (
	"math"
	"os"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/linalg"
)

// pairPoints are the query's points p_i (dim = |A| coordinates), ρ_i² and
// h_i with its total H: the Pythagorean bound is B_ij = ‖p_i − p_j‖² + ρ_i²
// + ρ_j² + 2h_ih_j/H. (Points u_i = (p_i, ρ_i, 0), v_j = (p_j, 0, ρ_j) in
// |A| + 2 coordinates give the same B with one ball per node, but their
// balls are looser: the ρ coordinates enter the radius; measured.)
type pairPoints struct {
	n, dim int
	p      []float64 // row-major n×dim
	rho2   []float64
	h      []float64
	H      float64
}

func (pp *pairPoints) bound(i, j int) float64 {
	return dist2(pp.p[i*pp.dim:(i+1)*pp.dim], pp.p[j*pp.dim:(j+1)*pp.dim]) + pp.rho2[i] + pp.rho2[j] + 2*pp.h[i]*pp.h[j]/pp.H
}

// ballTree is a ball tree over the points p: node k covers idx[lo[k]:hi[k]]
// inside the ball of centre c[k] and radius r[k], its largest h hmax[k]
// and ρ² r2max[k];
// children left[k], right[k] (−1 for a leaf).
type ballTree struct {
	pp           *pairPoints
	idx          []int
	lo, hi, left []int
	right        []int
	c            [][]float64
	r, hmax      []float64
	r2max        []float64
}

// newBallTree builds the tree, splitting each node at the median of the
// points' projections on the line between two far points. O(n log² n · dim).
func newBallTree(pp *pairPoints, pts []float64, leaf int) *ballTree {
	bt := &ballTree{pp: pp, idx: make([]int, pp.n)}
	for i := range bt.idx {
		bt.idx[i] = i
	}
	var build func(lo, hi int) int
	build = func(lo, hi int) int {
		k := len(bt.lo)
		bt.lo, bt.hi, bt.left, bt.right = append(bt.lo, lo), append(bt.hi, hi), append(bt.left, -1), append(bt.right, -1)
		c := make([]float64, pp.dim)
		hm, rm := 0.0, 0.0
		for _, j := range bt.idx[lo:hi] {
			rm = max(rm, pp.rho2[j])
			for x, y := range pts[j*pp.dim : (j+1)*pp.dim] {
				c[x] += y
			}
			hm = max(hm, pp.h[j])
		}
		for x := range c {
			c[x] /= float64(hi - lo)
		}
		far, r := bt.idx[lo], 0.0
		for _, j := range bt.idx[lo:hi] {
			if d := dist2(c, pts[j*pp.dim:(j+1)*pp.dim]); d > r {
				r, far = d, j
			}
		}
		bt.c, bt.r, bt.hmax = append(bt.c, c), append(bt.r, math.Sqrt(r)), append(bt.hmax, hm)
		bt.r2max = append(bt.r2max, rm)
		if hi-lo <= leaf {
			return k
		}
		a := pts[far*pp.dim : (far+1)*pp.dim]
		other, best := far, -1.0
		for _, j := range bt.idx[lo:hi] {
			if d := dist2(a, pts[j*pp.dim:(j+1)*pp.dim]); d > best {
				best, other = d, j
			}
		}
		b := pts[other*pp.dim : (other+1)*pp.dim]
		proj := func(j int) float64 {
			s := 0.0
			for x, y := range pts[j*pp.dim : (j+1)*pp.dim] {
				s += y * (b[x] - a[x])
			}
			return s
		}
		part := bt.idx[lo:hi]
		key := make(map[int]float64, len(part))
		for _, j := range part {
			key[j] = proj(j)
		}
		slices.SortFunc(part, func(x, y int) int {
			switch {
			case key[x] < key[y]:
				return -1
			case key[x] > key[y]:
				return 1
			}
			return x - y
		})
		mid := (lo + hi) / 2
		l := build(lo, mid)
		rr := build(mid, hi)
		bt.left[k], bt.right[k] = l, rr
		return k
	}
	build(0, pp.n)
	return bt
}

func dist2(a, b []float64) float64 {
	s := 0.0
	for k, x := range a {
		d := x - b[k]
		s += d * d
	}
	return s
}

// above reports whether max_j B_ij > tau, visiting the nodes whose bound
// (‖p_i − c‖ + r)² + ρ_i² + ρ²max + 2h_i·hmax/H passes tau, the higher first, and stopping
// at the first pair that passes; it adds the pairs scored and the balls
// tested to the counters.
func (bt *ballTree) above(i int, tau float64, pairs, balls *int) bool {
	pp := bt.pp
	pi := pp.p[i*pp.dim : (i+1)*pp.dim]
	nodeBound := func(k int) float64 {
		*balls++
		d := math.Sqrt(dist2(pi, bt.c[k])) + bt.r[k]
		return d*d + pp.rho2[i] + bt.r2max[k] + 2*pp.h[i]*bt.hmax[k]/pp.H
	}
	stack := []int{0}
	if nodeBound(0) <= tau {
		return false
	}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if l := bt.left[k]; l >= 0 {
			rt := bt.right[k]
			bl, br := nodeBound(l), nodeBound(rt)
			first, second, bf, bs := l, rt, bl, br
			if br > bl {
				first, second, bf, bs = rt, l, br, bl
			}
			if bs > tau {
				stack = append(stack, second)
			}
			if bf > tau {
				stack = append(stack, first)
			}
			continue
		}
		for _, j := range bt.idx[bt.lo[k]:bt.hi[k]] {
			*pairs++
			if pp.bound(i, j) > tau {
				return true
			}
		}
	}
	return false
}

// TestPairQueryMeasure measures the pruned threshold query on a graph
// (OHM_PAIRQUERY=G.npz) after the first k iterations of an edit log
// (OHM_PAIRQUERY_LOG, OHM_PAIRQUERY_K, default 0): the exact diagonal and
// the anchors' columns from the sparse factor (|A| = OHM_PAIRQUERY_A,
// default 64, farthest-point sampling in R from the end of a double sweep;
// R̂* the largest R among the pairs seen), h = L_U⁻¹1 from a factor grounded
// at A, then for the thresholds R̂*/0.98 (the cover rule: a node stays out
// when 0.98·B_i ≤ R̂*) and 0.98·R̂* the nodes with max_j B_ij above, the
// pairs scored and balls tested against n², checked against the plain
// scan when n ≤ OHM_PAIRQUERY_BRUTE (default 20 000).
func TestPairQueryMeasure(t *testing.T) {
	g, _ := measuredGraph(t, "OHM_PAIRQUERY", "a measurement: OHM_PAIRQUERY=G.npz [OHM_PAIRQUERY_LOG=log.jsonl OHM_PAIRQUERY_K=0,10 OHM_PAIRQUERY_A=64] runs it")
	ks := envInts(t, "OHM_PAIRQUERY_K", "0")
	d := envInts(t, "OHM_PAIRQUERY_A", "64")[0]
	brute := envInts(t, "OHM_PAIRQUERY_BRUTE", "20000")[0]
	edits := readEditLog(t, os.Getenv("OHM_PAIRQUERY_LOG"))
	next := 0
	for _, k := range ks {
		for ; next < len(edits) && edits[next].Iteration <= k; next++ {
			if ed := edits[next]; ed.Op == "add" {
				g.AddEdge(ed.U, ed.V)
			} else {
				g.RemoveEdge(ed.U, ed.V)
			}
		}
		measurePairQuery(t, g, k, d, g.N() <= brute)
	}
}

func measurePairQuery(t *testing.T, g *linalg.Graph, k, d int, brute bool) {
	n := g.N()
	t0 := time.Now()
	order := ndOrder(g, allTrue(n), 64)
	diag, f, err := pinvDiag(g, order, math.MaxInt)
	if err != nil {
		t.Fatal(err)
	}
	diagSec := time.Since(t0).Seconds()
	t0 = time.Now()
	far := 0
	for i := range n {
		if diag[i] > diag[far] {
			far = i
		}
	}
	rstar := 0.0
	rFrom := func(a int) ([]float64, []float64) {
		col := f.pinvColumn(a)
		r := make([]float64, n)
		for i := range n {
			r[i] = diag[a] + diag[i] - 2*col[i]
			rstar = max(rstar, r[i])
		}
		return col, r
	}
	for range 3 { // double sweep
		_, r := rFrom(far)
		far = floats.MaxIdx(r)
	}
	A := []int{far}
	col, r := rFrom(far)
	cols := [][]float64{col}
	mind := r
	for len(A) < d {
		a := floats.MaxIdx(mind)
		A = append(A, a)
		col, r := rFrom(a)
		cols = append(cols, col)
		for i := range n {
			mind[i] = min(mind[i], r[i])
		}
	}
	G := mat.NewSymDense(d, nil)
	for x, a := range A {
		for y := x; y < d; y++ {
			G.SetSym(x, y, cols[y][a])
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(G) {
		t.Fatal("L⁺[A,A] not positive definite")
	}
	var U mat.TriDense
	ch.UTo(&U)
	pt := blas64.General{Rows: d, Cols: n, Stride: n, Data: make([]float64, d*n)}
	for x := range d {
		copy(pt.Data[x*n:(x+1)*n], cols[x])
	}
	blas64.Trsm(blas.Left, blas.Trans, 1, U.RawTriangular(), pt)
	ground := make([]bool, n)
	for _, a := range A {
		ground[a] = true
	}
	fa, err := newSpChol(g, ndOrder(g, notIn(ground), 64), ground, math.MaxInt)
	if err != nil {
		t.Fatal(err)
	}
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	pp := &pairPoints{n: n, dim: d, p: make([]float64, n*d), rho2: make([]float64, n), h: fa.solveNodes(ones)}
	for _, x := range pp.h {
		pp.H += x
	}
	for i := range n {
		nrm := 0.0
		for x := range d {
			p := pt.Data[x*n+i]
			pp.p[i*d+x] = p
			nrm += p * p
		}
		pp.rho2[i] = max(0, diag[i]-nrm)
	}
	prepSec := time.Since(t0).Seconds()
	t0 = time.Now()
	bt := newBallTree(pp, pp.p, 16)
	qt := bt
	treeSec := time.Since(t0).Seconds()
	t.Logf("k=%d n=%d m=%d |A|=%d: R̂*=%.5g; diagonal %.2f s (nnz(L) %d), anchors+P+h %.2f s, tree %.2f s (%d balls); peak %.0f MB",
		k, n, g.NumEdges(), d, rstar, diagSec, f.nnz(), prepSec, treeSec, len(bt.lo), maxRSSMB())
	var exact []float64
	if brute {
		t0 = time.Now()
		exact = make([]float64, n)
		for i := range n {
			m := 0.0
			for j := range n {
				m = max(m, pp.bound(i, j))
			}
			exact[i] = m
		}
		t.Logf("  plain scan %.1f s", time.Since(t0).Seconds())
	}
	rho := make([]float64, n)
	for i, v := range pp.rho2 {
		rho[i] = math.Sqrt(v)
	}
	for _, tau := range []float64{rstar / coverMargin, coverMargin * rstar} {
		t0 = time.Now()
		_, cp, cpairs := clusterBound(pt, n, d, rho, pp.h, pp.H, tau, 1024)
		ckept := 0
		for _, b := range cp {
			if b > tau {
				ckept++
			}
		}
		t.Logf("  1 024 clusters (second measurement's clusterBound): bound above τ at %d nodes, pairs whose cluster bound passes %.3g %% of n²; %.2f s",
			ckept, 100*cpairs, time.Since(t0).Seconds())
		t0 = time.Now()
		pairs, balls, kept := 0, 0, 0
		for i := range n {
			in := bt.above(i, tau, &pairs, &balls)
			if in {
				kept++
			}
			if exact != nil && in != (exact[i] > tau) {
				t.Errorf("k=%d τ=%.5g node %d: query %v, scan max %.6g", k, tau, i, in, exact[i])
			}
		}
		nn := float64(n) * float64(n)
		t1 := time.Now()
		kd, dpairs, dballs := dualAbove(qt, bt, tau)
		dkept := 0
		for i, in := range kd {
			if in {
				dkept++
			}
			if exact != nil && in != (exact[i] > tau) {
				t.Errorf("k=%d τ=%.5g node %d: dual query %v, scan max %.6g", k, tau, i, in, exact[i])
			}
		}
		t.Logf("  dual tree: kept %d; pairs scored %d (%.3g %% of n²), ball pairs %d (%.3g %% of n²); %.2f s",
			dkept, dpairs, 100*float64(dpairs)/nn, dballs, 100*float64(dballs)/nn, time.Since(t1).Seconds())
		t.Logf("  τ=%.5g (%.4f R̂*): kept %d; pairs scored %d (%.3g %% of n²), balls %d (%.3g %% of n²); %.2f s",
			tau, tau/rstar, kept, pairs, 100*float64(pairs)/nn, balls, 100*float64(balls)/nn, time.Since(t0).Seconds())
	}
}

// dualAbove is the dual-tree form of above for every node at once: a
// pair of balls (query ball over u, reference ball over v) is dropped when
// (‖c_q − c_r‖ + r_q + r_r)² + ρ²max_q + ρ²max_r + 2·hmax_q·hmax_r/H ≤ tau; two leaves score
// their pairs, each query node stopping at its first pair above tau.
func dualAbove(qt, rt *ballTree, tau float64) (kept []bool, pairs, balls int) {
	pp := qt.pp
	kept = make([]bool, pp.n)
	bound := func(q, r int) float64 {
		balls++
		d := math.Sqrt(dist2(qt.c[q], rt.c[r])) + qt.r[q] + rt.r[r]
		return d*d + qt.r2max[q] + rt.r2max[r] + 2*qt.hmax[q]*rt.hmax[r]/pp.H
	}
	var rec func(q, r int, b float64)
	rec = func(q, r int, b float64) {
		if b <= tau {
			return
		}
		ql, rl := qt.left[q] < 0, rt.left[r] < 0
		if ql && rl {
			for _, i := range qt.idx[qt.lo[q]:qt.hi[q]] {
				if kept[i] {
					continue
				}
				for _, j := range rt.idx[rt.lo[r]:rt.hi[r]] {
					pairs++
					if pp.bound(i, j) > tau {
						kept[i] = true
						break
					}
				}
			}
			return
		}
		if rl || (!ql && qt.hi[q]-qt.lo[q] >= rt.hi[r]-rt.lo[r]) {
			a, c := qt.left[q], qt.right[q]
			rec(a, r, bound(a, r))
			rec(c, r, bound(c, r))
			return
		}
		a, c := rt.left[r], rt.right[r]
		ba, bc := bound(q, a), bound(q, c)
		if bc > ba {
			a, c, ba, bc = c, a, bc, ba
		}
		rec(q, a, ba)
		rec(q, c, bc)
	}
	rec(0, 0, bound(0, 0))
	return kept, pairs, balls
}
