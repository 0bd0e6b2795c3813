package sketch

// A measurement, not a test of the engine: how many nodes a bound on the
// pair would keep, against the engine's per-node bound (docs/sketch.md,
// "Step 4, second measurement: a bound on the pair"). It runs only with
// OHM_PAIRBOUND set; see TestPairBoundMeasure.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
)

// TestPairBoundMeasure measures, for a graph (OHM_PAIRBOUND=G.npz) after
// the first k iterations of an edit log (OHM_PAIRBOUND_LOG, jsonl of
// `ohm rewire --log`; OHM_PAIRBOUND_K, default 0), the nodes each bound
// keeps: the engine's per-node bound at a round start on that graph, and
// pair bounds from the anchors' exact columns (p_i the coordinates of the
// projection of y_i = L⁺^{1/2}e_i on the anchors' span, ρ_i² = L⁺_ii −
// ‖p_i‖²) for |A| in OHM_PAIRBOUND_A (default 64,128,256,512): the
// Cauchy–Schwarz form ‖p_i − p_j‖² + (ρ_i + ρ_j)² and the Pythagorean form
// with its mean correction (pairBoundRow), with the exact diagonal, the
// engine's D̂ + 3σ, L⁺_ii·(1 + ε), a local ρ̃ (localRho) and Hutchinson on
// the residual operator (hutchinsonS); each exact per node (max over j,
// O(n²·|A|)) and through m clusters (clusterBound, O(n·m·|A|)). The
// anchors (OHM_PAIRBOUND_ANCHORS, default "engine,fps") are the engine's
// 64 exact anchors extended by farthest-point sampling in R, and
// farthest-point sampling from the farthest pair's end. It needs the
// dense L⁺ (8n² bytes, with the incremental engine's state about 5 GB at
// 10⁴ nodes). The rigorous bounds are checked against the exact
// eccentricities (the test fails if one falls below). docs/sketch.md,
// "Step 4, second measurement: a bound on the pair".
func TestPairBoundMeasure(t *testing.T) {
	g, path := measuredGraph(t, "OHM_PAIRBOUND", "a measurement: OHM_PAIRBOUND=G.npz [OHM_PAIRBOUND_LOG=log.jsonl OHM_PAIRBOUND_K=0,10,100 OHM_PAIRBOUND_A=64,128,256,512] runs it")
	ks := envInts(t, "OHM_PAIRBOUND_K", "0")
	as := envInts(t, "OHM_PAIRBOUND_A", "64,128,256,512")
	edits := readEditLog(t, os.Getenv("OHM_PAIRBOUND_LOG"))
	start := time.Now()
	ex, err := incremental.NewUndirected(g, incremental.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: n=%d m=%d, dense L⁺ in %.1f s", path, g.N(), g.NumEdges(), time.Since(start).Seconds())
	next := 0
	for _, k := range ks {
		for next < len(edits) && edits[next].Iteration <= k {
			ex.Begin()
			it := edits[next].Iteration
			for ; next < len(edits) && edits[next].Iteration == it; next++ {
				ed := edits[next]
				if ed.Op == "add" {
					err = ex.Add(ed.U, ed.V)
				} else {
					err = ex.Remove(ed.U, ed.V)
				}
				if err != nil {
					t.Fatalf("iteration %d: %v", it, err)
				}
			}
			if err := ex.Commit(); err != nil {
				t.Fatal(err)
			}
		}
		measurePairBound(t, ex, k, as)
	}
}

type loggedEdit struct {
	Iteration int    `json:"iteration"`
	Op        string `json:"op"`
	U         int    `json:"u"`
	V         int    `json:"v"`
}

func readEditLog(t *testing.T, path string) []loggedEdit {
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []loggedEdit
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var ed loggedEdit
		if err := json.Unmarshal(sc.Bytes(), &ed); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, ed)
	}
	return out
}

// measuredGraph is the graph a measurement runs on and its path: the .npz
// file that the environment variable env names, loaded; the test is
// skipped with usage when env is unset.
func measuredGraph(t *testing.T, env, usage string) (*linalg.Graph, string) {
	t.Helper()
	path := os.Getenv(env)
	if path == "" {
		t.Skip(usage)
	}
	g, err := graphio.Load(path, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	return g, path
}

// envFloats reads the comma-separated numbers of the environment variable
// name, or of def when it is unset.
func envFloats(t *testing.T, name, def string) []float64 {
	s := os.Getenv(name)
	if s == "" {
		s = def
	}
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, v)
	}
	return out
}

// envInts is envFloats for whole numbers (3e7 is one).
func envInts(t *testing.T, name, def string) []int {
	var out []int
	for _, v := range envFloats(t, name, def) {
		if v != math.Trunc(v) {
			t.Fatalf("%s: %g is not a whole number", name, v)
		}
		out = append(out, int(v))
	}
	return out
}

// keptCounts counts the nodes whose bound b reaches 0.98·R* (the brief's
// threshold) and those whose 0.98·b exceeds R* (the cover test's: with the
// farthest pair kept, a node stays out only when 0.98·b ≤ R*).
func keptCounts(b []float64, rstar float64) (loose, cover int) {
	for _, x := range b {
		if x >= coverMargin*rstar {
			loose++
		}
		if coverMargin*x > rstar {
			cover++
		}
	}
	return loose, cover
}

// measurePairBound is one graph's row block of the table.
func measurePairBound(t *testing.T, ex *incremental.Undirected, k int, as []int) {
	n := ex.N()
	L := make([]float64, n*n)
	for i := range n {
		for j := range n {
			L[i*n+j] = ex.Pinv(i, j)
		}
	}
	ecc := make([]float64, n)
	rstar := 0.0
	for i := range n {
		row, lii := L[i*n:(i+1)*n], L[i*n+i]
		for j, v := range row {
			if j != i {
				ecc[i] = max(ecc[i], lii+L[j*n+j]-2*v)
			}
		}
		rstar = max(rstar, ecc[i])
	}
	trueLoose, _ := keptCounts(ecc, rstar)

	// The engine's per-node bound at a round start on this graph (seed 0).
	t0 := time.Now()
	e := &Engine{g: ex.Graph().Clone(), opt: Options{Workers: 1}.withDefaults(), index: make([]int32, n)}
	sk, err := e.startRound()
	if err != nil {
		t.Fatal(err)
	}
	rs := e.estimateEccentricities(sk)
	if err := e.solveAnchors(rs); err != nil {
		t.Fatal(err)
	}
	if err := e.estimateDiagonal(rs); err != nil {
		t.Fatal(err)
	}
	if err := e.findSmall(); err != nil {
		t.Fatal(err)
	}
	e.setAnchors(rs.X, rs.cols)
	e.scale = 1
	eb := make([]float64, n)
	if err := e.bounds(eb); err != nil {
		t.Fatal(err)
	}
	engSec := time.Since(t0).Seconds()
	el, ec := keptCounts(eb, rstar)
	var dhatErr float64 // largest (L⁺_ii − D̂_i)/σ_i
	for i := range n {
		if e.sd[i] > 0 {
			dhatErr = max(dhatErr, (L[i*n+i]-e.dhat[i])/e.sd[i])
		}
	}
	t.Logf("k=%d R*=%.5g true ecc ≥0.98R*: %d | engine bound (round start %.1f s, %d solves): ≥0.98R* %d, >R*/0.98 %d; max (L⁺_ii−D̂_i)/σ_i %.2f",
		k, rstar, trueLoose, engSec, e.solves, el, ec, dhatErr)

	upper := make([]float64, n) // D̂_i + 3σ_i, an upper bound of L⁺_ii
	for i := range n {
		upper[i] = e.dhat[i] + confidence*e.sd[i]
	}
	kinds := os.Getenv("OHM_PAIRBOUND_ANCHORS")
	if kinds == "" {
		kinds = "engine,fps"
	}
	for _, kind := range strings.Split(kinds, ",") {
		var anchors []int
		switch kind {
		case "engine": // the engine's exact anchors, then farthest points
			anchors = slices.Clone(rs.X)
		case "fps": // farthest points from the farthest pair's end
			far := 0
			for i := range n {
				if ecc[i] > ecc[far] {
					far = i
				}
			}
			anchors = []int{far}
		default:
			t.Fatalf("OHM_PAIRBOUND_ANCHORS: %q", kind)
		}
		anchors = farthestPoints(L, n, anchors, slices.Max(as))
		t.Logf(" anchors %s:", kind)
		for _, d := range as {
			pairBoundRow(t, ex.Graph(), L, n, anchors[:d], ecc, rstar, upper)
		}
	}
}

// farthestPoints extends the anchors to d nodes by farthest-point sampling
// in R (each next node the farthest from those chosen). O(n·d).
func farthestPoints(L []float64, n int, anchors []int, d int) []int {
	mind := make([]float64, n)
	for i := range mind {
		mind[i] = math.Inf(1)
	}
	upd := func(a int) {
		for i := range n {
			mind[i] = min(mind[i], L[i*n+i]+L[a*n+a]-2*L[a*n+i])
		}
	}
	for _, a := range anchors {
		upd(a)
	}
	for len(anchors) < d {
		far := 0
		for i := range n {
			if mind[i] > mind[far] {
				far = i
			}
		}
		anchors = append(anchors, far)
		upd(far)
	}
	return anchors
}

// pairBoundRow computes the pair bounds' per-node maxima for one anchor
// set and logs what they keep:
//
//   - CS: ‖p_i − p_j‖² + (ρ_i + ρ_j)² (Cauchy–Schwarz on the residuals
//     r_i = (I−P)y_i), with the exact ρ_i² = L⁺_ii − ‖p_i‖² and with
//     D̂_i + 3σ_i for L⁺_ii;
//   - Pyth: ‖p_i − p_j‖² + ρ_i² + ρ_j² + 2h_i h_j/1ᵀh: R_ij is the same
//     less 2⟨r_i, r_j⟩ = 2S_ij (S = L⁺ − L⁺[:,A] G⁻¹ L⁺[A,:], the field's
//     covariance given the anchors), and S_ij ≥ −h_i h_j/1ᵀh
//     (meanCorrection); with the exact ρ_i² and with the local ρ̃_i²
//     (localRho, no diagonal);
//   - the cluster bounds of both forms with the exact ρ.
func pairBoundRow(t *testing.T, g *linalg.Graph, L []float64, n int, A []int, ecc []float64, rstar float64, upper []float64) {
	d := len(A)
	t0 := time.Now()
	G := mat.NewSymDense(d, nil)
	for x, a := range A {
		for y, b := range A[x:] {
			G.SetSym(x, x+y, L[a*n+b])
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(G) {
		t.Fatalf("|A|=%d: L⁺[A,A] not positive definite", d)
	}
	var U mat.TriDense
	ch.UTo(&U)
	// Pt (d×n): column i is p_i = U⁻ᵀ c_i, c_i = L⁺[A, i] (G = UᵀU).
	pt := blas64.General{Rows: d, Cols: n, Stride: n, Data: make([]float64, d*n)}
	for x, a := range A {
		copy(pt.Data[x*n:(x+1)*n], L[a*n:(a+1)*n])
	}
	u := U.RawTriangular()
	blas64.Trsm(blas.Left, blas.Trans, 1, u, pt)
	norm := make([]float64, n)
	for x := range d {
		for i, v := range pt.Data[x*n : (x+1)*n] {
			norm[i] += v * v
		}
	}
	rho, rhoHat := make([]float64, n), make([]float64, n)
	for i := range n {
		rho[i] = math.Sqrt(max(0, L[i*n+i]-norm[i]))
		rhoHat[i] = math.Sqrt(max(0, upper[i]-norm[i]))
	}
	projSec := time.Since(t0).Seconds()
	t0 = time.Now()
	loc, ballMax := localRho(g, A)
	locSec := time.Since(t0).Seconds()
	locViol, locExcess := 0, []float64{}
	for i := range n {
		if loc[i] < rho[i]*rho[i]*(1-1e-9)-1e-12 {
			locViol++
		}
		locExcess = append(locExcess, loc[i]-rho[i]*rho[i])
	}
	slices.Sort(locExcess)
	if locViol > 0 {
		t.Errorf("|A|=%d: the local ρ̃² is below the exact ρ² at %d nodes", d, locViol)
	}

	// ρ_i² = S_ii estimated by Hutchinson on S itself (128 random-sign
	// probes, S z = L⁺z − Pᵀ(P z)), plus three standard errors: the
	// residual operator is local, so its estimate is far tighter than
	// L⁺_ii's.
	rhoHut, hutMiss := hutchinsonS(L, n, pt, d, 128)

	// Exact per-node maxima over j ≠ i, in blocks of rows of PᵀP.
	t1 := time.Now()
	B, Bhat, Bpy, Bloc := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	// The Pythagorean form with an upper bound of L⁺_ii in place of the
	// exact one: the engine's D̂ + 3σ, and L⁺_ii·(1 + ε) for ε = 10⁻³, 10⁻².
	pyHat, pyE3, pyE2, pyHut := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	h, sumh := meanCorrection(g, A)
	hmax := slices.Max(h)
	minS, minSc := math.Inf(1), math.Inf(1) // S_ij, and S_ij + h_i h_j/1ᵀh (≥ 0)
	const blk = 512
	q := blas64.General{Rows: blk, Cols: n, Stride: n, Data: make([]float64, blk*n)}
	for r0 := 0; r0 < n; r0 += blk {
		r1 := min(n, r0+blk)
		q.Rows = r1 - r0
		a := blas64.General{Rows: d, Cols: r1 - r0, Stride: n, Data: pt.Data[r0:]}
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, a, pt, 0, q)
		for i := r0; i < r1; i++ {
			row := q.Data[(i-r0)*n : (i-r0+1)*n]
			lrow := L[i*n : (i+1)*n]
			bi, bh, bp, bl := math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)
			for j, pij := range row {
				if j == i {
					continue
				}
				proj := norm[i] + norm[j] - 2*pij
				s, sh := rho[i]+rho[j], rhoHat[i]+rhoHat[j]
				bi, bh = max(bi, proj+s*s), max(bh, proj+sh*sh)
				c := 2 * h[i] * h[j] / sumh
				bp = max(bp, proj+rho[i]*rho[i]+rho[j]*rho[j]+c)
				bl = max(bl, proj+loc[i]+loc[j]+c)
				pyHat[i] = max(pyHat[i], proj+rhoHat[i]*rhoHat[i]+rhoHat[j]*rhoHat[j]+c)
				e := L[i*n+i] + L[j*n+j]
				pyE3[i] = max(pyE3[i], proj+rho[i]*rho[i]+rho[j]*rho[j]+c+1e-3*e)
				pyE2[i] = max(pyE2[i], proj+rho[i]*rho[i]+rho[j]*rho[j]+c+1e-2*e)
				pyHut[i] = max(pyHut[i], proj+rhoHut[i]+rhoHut[j]+c)
				minS = min(minS, lrow[j]-pij)
				minSc = min(minSc, lrow[j]-pij+c/2)
			}
			B[i], Bhat[i], Bpy[i], Bloc[i] = bi, bh, bp, bl
		}
	}
	exactSec := time.Since(t1).Seconds()
	for name, b := range map[string][]float64{"CS exact": B, "Pyth exact": Bpy, "Pyth ρ̃": Bloc} {
		viol := 0
		for i := range n {
			if b[i] < ecc[i]*(1-1e-9) {
				viol++
			}
		}
		if viol > 0 {
			t.Errorf("|A|=%d: the pair bound %s is below the exact eccentricity at %d nodes", d, name, viol)
		}
	}
	bl, bc := keptCounts(B, rstar)
	hl, hc := keptCounts(Bhat, rstar)
	pl, pc := keptCounts(Bpy, rstar)
	ll, lc := keptCounts(Bloc, rstar)
	_, yh := keptCounts(pyHat, rstar)
	_, y3 := keptCounts(pyE3, rstar)
	_, y2 := keptCounts(pyE2, rstar)
	_, yhut := keptCounts(pyHut, rstar)
	var rhoSq []float64
	for i := range n {
		rhoSq = append(rhoSq, rho[i]*rho[i])
	}
	slices.Sort(rhoSq)
	line := fmt.Sprintf("  |A|=%d: ρ² median %.4g max %.4g; ρ̃²−ρ² median %.3g max %.3g (ball ≤ %d, %.1f s); min S_ij %.3g, S_ij + h_ih_j/1ᵀh %.3g, 2h_max²/1ᵀh %.3g\n"+
		"    kept (≥0.98R*, >R*/0.98): CS exact %d, %d; CS D̂+3σ %d, %d; Pyth exact %d, %d; Pyth ρ̃ %d, %d; P %.1f s, exact maxima %.1f s\n"+
		"    kept (>R*/0.98), Pyth with L⁺_ii ≤ D̂+3σ: %d, ≤ (1+10⁻³)L⁺_ii: %d, ≤ (1+10⁻²)L⁺_ii: %d; ρ² by Hutchinson on S + 3σ: %d (below ρ² at %d nodes)",
		d, rhoSq[n/2], rhoSq[n-1], locExcess[n/2], locExcess[n-1], ballMax, locSec, minS, minSc, 2*hmax*hmax/sumh, bl, bc, hl, hc, pl, pc, ll, lc, projSec, exactSec, yh, y3, y2, yhut, hutMiss)
	for _, m := range []int{1, 256, 1024} {
		t2 := time.Now()
		cb, cp, pairs := clusterBound(pt, n, d, rho, h, sumh, rstar/coverMargin, m)
		cl, cc := keptCounts(cb, rstar)
		xl, xc := keptCounts(cp, rstar)
		line += fmt.Sprintf("\n    clusters m=%d (exact ρ): CS %d, %d; Pyth %d, %d, pairs left past R*/0.98 %.4f of n² (%.1f s)", m, cl, cc, xl, xc, pairs, time.Since(t2).Seconds())
	}
	t.Log(line)
}

// localRho bounds ρ_i² = ‖(I−P)y_i‖² from above without the diagonal:
// ρ_i² = min over w of (e_i − w)ᵀL⁺(e_i − w), w on the anchors, is at
// most the energy of any unit flow from i into the anchors (Thomson), so
// at most R(i, anchors shorted) in any subgraph (Rayleigh): here the
// subgraph induced by i's ball (the BFS levels up to the first that holds
// an anchor, and one more while the ball has fewer than 400 nodes, cut at
// 400), solved by
// conjugate gradients with the ball's anchors grounded. 0 for an anchor;
// +∞ (no bound) when the ball passes 400 nodes without an anchor.
// Returns the bounds and the largest ball.
func localRho(g *linalg.Graph, A []int) ([]float64, int) {
	n := g.N()
	isA := make([]bool, n)
	for _, a := range A {
		isA[a] = true
	}
	out := make([]float64, n)
	pos := make([]int, n)
	for i := range pos {
		pos[i] = -1
	}
	biggest := 0
	for i := range n {
		if isA[i] {
			continue
		}
		ball := []int{i}
		pos[i] = 0
		found, extra, lo := false, 0, 0
		for lo < len(ball) && (!found || extra < 1) && (found || len(ball) <= 400) {
			if found {
				extra++
				if len(ball) > 400 {
					break
				}
			}
			hi := len(ball)
			for _, x := range ball[lo:hi] {
				for _, y := range g.Neighbours(x) {
					if found && len(ball) >= 400 {
						break // any connected ball with an anchor bounds ρ_i² (Rayleigh)
					}
					if pos[y] < 0 {
						pos[y] = len(ball)
						ball = append(ball, y)
						found = found || isA[y]
					}
				}
			}
			lo = hi
		}
		biggest = max(biggest, len(ball))
		if found {
			b := make([]float64, len(ball))
			b[0] = 1
			out[i] = groundedSolve(g, ball, pos, isA, b)[0]
		} else {
			out[i] = math.Inf(1) // no anchor reached: no bound
		}
		for _, x := range ball {
			pos[x] = -1
		}
	}
	return out, biggest
}

// groundedSolve solves L_ball x = b with the ball's anchors grounded
// (x = 0 there; the edges leaving the ball dropped) by Jacobi-preconditioned
// conjugate gradients to a residual of 1e-13·‖b‖: with b = e_0, x_0 is the
// resistance from ball[0] to its anchors shorted.
func groundedSolve(g *linalg.Graph, ball, pos []int, isA []bool, b []float64) []float64 {
	s := len(ball)
	deg := make([]float64, s)
	for k, x := range ball {
		for _, y := range g.Neighbours(x) {
			if pos[y] >= 0 {
				deg[k]++
			}
		}
	}
	apply := func(v, out []float64) {
		for k, x := range ball {
			if isA[x] {
				out[k] = 0
				continue
			}
			acc := deg[k] * v[k]
			for _, y := range g.Neighbours(x) {
				if p := pos[y]; p >= 0 && !isA[y] {
					acc -= v[p]
				}
			}
			out[k] = acc
		}
	}
	x, r, z, p, ap := make([]float64, s), slices.Clone(b), make([]float64, s), make([]float64, s), make([]float64, s)
	for k, xk := range ball {
		if isA[xk] {
			r[k] = 0
		}
	}
	dot := func(a, b []float64) float64 {
		v := 0.0
		for k := range a {
			v += a[k] * b[k]
		}
		return v
	}
	prec := func() {
		for k, xk := range ball {
			if isA[xk] {
				z[k] = 0
			} else {
				z[k] = r[k] / deg[k]
			}
		}
	}
	prec()
	copy(p, z)
	rz := dot(r, z)
	stop := 1e-13 * math.Sqrt(dot(r, r))
	for it := 0; it < 10*s+100 && math.Sqrt(dot(r, r)) > stop; it++ {
		apply(p, ap)
		alpha := rz / dot(p, ap)
		for k := range x {
			x[k] += alpha * p[k]
			r[k] -= alpha * ap[k]
		}
		prec()
		rz2 := dot(r, z)
		for k := range p {
			p[k] = z[k] + rz2/rz*p[k]
		}
		rz = rz2
	}
	return x
}

// meanCorrection is h = L_U⁻¹1 (U the nodes that are no anchor, the
// anchors grounded) and 1ᵀh: S = L_U⁻¹ − hhᵀ/1ᵀh on U (the field
// conditioned on the anchors and on its mean), and L_U⁻¹ ≥ 0 entrywise,
// so S_ij ≥ −h_i h_j / 1ᵀh. One solve.
func meanCorrection(g *linalg.Graph, A []int) ([]float64, float64) {
	n := g.N()
	isA := make([]bool, n)
	for _, a := range A {
		isA[a] = true
	}
	all, pos, b := make([]int, n), make([]int, n), make([]float64, n)
	for i := range n {
		all[i], pos[i], b[i] = i, i, 1
	}
	h := groundedSolve(g, all, pos, isA, b)
	sum := 0.0
	for _, v := range h {
		sum += v
	}
	return h, sum
}

// clusterBound bounds max_j ‖p_i − p_j‖² + (ρ_i + ρ_j)² per node through m
// clusters of the points p_j (farthest-point centres c_k, radius r_k,
// largest ρ in the cluster ρ_k): (‖p_i − c_k‖ + r_k)² + (ρ_i + ρ_k)²,
// the max over k, and the Pythagorean form with ρ_i² + ρ_k² + 2h_i h_k/1ᵀh
// (pyth, h_k the cluster's largest h: meanCorrection), and the share of
// the n² pairs (i, j) whose cluster's Pythagorean bound exceeds tau: those
// an exact evaluation after the clusters' pruning would score.
// O(n·m·d), as products with the centres (the squared
// distances ‖p‖² + ‖c‖² − 2p·c). (A node's own cluster includes it: the
// bound may count j = i, which only raises it.)
func clusterBound(pt blas64.General, n, d int, rho, h []float64, sumh, tau float64, m int) (cs, pyth []float64, pairs float64) {
	m = min(m, n)
	// P (n×d), the points as rows, and their squared norms.
	p := blas64.General{Rows: n, Cols: d, Stride: d, Data: make([]float64, n*d)}
	norm := make([]float64, n)
	for c := range d {
		for i, v := range pt.Data[c*n : (c+1)*n] {
			p.Data[i*d+c] = v
			norm[i] += v * v
		}
	}
	// Gonzalez: centres one by one (nodes), each the point farthest from
	// those chosen; owner[i] its nearest centre so far.
	centres := make([]int, 0, m)
	mind := make([]float64, n)
	owner := make([]int, n)
	for i := range mind {
		mind[i] = math.Inf(1)
	}
	dot := blas64.Vector{N: n, Inc: 1, Data: make([]float64, n)}
	next := 0
	for len(centres) < m {
		c := next
		centres = append(centres, c)
		k := len(centres) - 1
		blas64.Gemv(blas.NoTrans, 1, p, blas64.Vector{N: d, Inc: 1, Data: p.Data[c*d : (c+1)*d]}, 0, dot)
		far := 0
		for i := range n {
			if v := max(0, norm[i]+norm[c]-2*dot.Data[i]); v < mind[i] {
				mind[i], owner[i] = v, k
			}
			if mind[i] > mind[far] {
				far = i
			}
		}
		next = far
	}
	r, rk, hk, size := make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m)
	for i := range n {
		k := owner[i]
		size[k]++
		r[k] = max(r[k], math.Sqrt(mind[i]))
		rk[k] = max(rk[k], rho[i])
		hk[k] = max(hk[k], h[i])
	}
	// C (m×d) and the products P·Cᵀ (n×m).
	cm := blas64.General{Rows: m, Cols: d, Stride: d, Data: make([]float64, m*d)}
	for k, c := range centres {
		copy(cm.Data[k*d:(k+1)*d], p.Data[c*d:(c+1)*d])
	}
	pc := blas64.General{Rows: n, Cols: m, Stride: m, Data: make([]float64, n*m)}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, p, cm, 0, pc)
	cs, pyth = make([]float64, n), make([]float64, n)
	for i := range n {
		b, bp := 0.0, 0.0
		for k, c := range centres {
			a := math.Sqrt(max(0, norm[i]+norm[c]-2*pc.Data[i*m+k])) + r[k]
			s := rho[i] + rk[k]
			b = max(b, a*a+s*s)
			bk := a*a + rho[i]*rho[i] + rk[k]*rk[k] + 2*h[i]*hk[k]/sumh
			bp = max(bp, bk)
			if bk > tau {
				pairs += size[k]
			}
		}
		cs[i], pyth[i] = b, bp
	}
	return cs, pyth, pairs / (float64(n) * float64(n))
}

// hutchinsonS estimates S_ii = L⁺_ii − ‖p_i‖² by Hutchinson's method on S =
// L⁺ − PᵀP with probes random-sign vectors (seed 1), and returns the mean
// plus three standard errors per node, and the nodes where that falls
// below the exact S_ii. O(n²·probes) with the dense L⁺.
func hutchinsonS(L []float64, n int, pt blas64.General, d, probes int) ([]float64, int) {
	rng := rand.New(rand.NewPCG(1, 2))
	z := blas64.General{Rows: n, Cols: probes, Stride: probes, Data: make([]float64, n*probes)}
	for k := range z.Data {
		z.Data[k] = float64(2*rng.IntN(2) - 1)
	}
	lz := blas64.General{Rows: n, Cols: probes, Stride: probes, Data: make([]float64, n*probes)}
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blas64.General{Rows: n, Cols: n, Stride: n, Data: L}, z, 0, lz)
	pz := blas64.General{Rows: d, Cols: probes, Stride: probes, Data: make([]float64, d*probes)}
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, pt, z, 0, pz)
	blas64.Gemm(blas.Trans, blas.NoTrans, -1, pt, pz, 1, lz) // lz = S z
	out, miss := make([]float64, n), 0
	for i := range n {
		sum, sq := 0.0, 0.0
		for q := range probes {
			v := z.Data[i*probes+q] * lz.Data[i*probes+q]
			sum += v
			sq += v * v
		}
		mean := sum / float64(probes)
		se := math.Sqrt(max(0, sq/float64(probes)-mean*mean) / float64(probes-1))
		out[i] = max(0, mean+confidence*se)
		exact := 0.0
		for x := range d {
			exact += pt.Data[x*n+i] * pt.Data[x*n+i]
		}
		if out[i] < L[i*n+i]-exact {
			miss++
		}
	}
	return out, miss
}
