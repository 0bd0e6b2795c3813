package sketch

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/linalg"
)

// The pair certificate (`sketch-22`, definitions §3.7.2, docs/sketch.md
// "Step 4, `sketch-22`"). On a graph whose nested-dissection factor is
// sparse (a random geometric graph, a ring of cliques: the shapes where
// the per-node bound of bounds.go keeps nearly every node) each node's
// eccentricity is bounded from exact quantities instead of the diagonal
// estimate: with y_i = L⁺^{1/2}e_i, p_i the coordinates of its projection
// on the span of the anchors' y_a and ρ_i² = L⁺_ii − ‖p_i‖²,
//
//	R_ij ≤ B_ij = ‖p_i − p_j‖² + ρ_i² + ρ_j² + 2h_ih_j/1ᵀh,
//
// h = L_U⁻¹1 (U the nodes that are no anchor, the anchors grounded): R_ij
// is the same less 2S_ij, S the covariance of the field x ~ N(0, L⁺) given
// x_A, and S_ij ≥ −h_ih_j/1ᵀh (L_U⁻¹ ≥ 0 entrywise). L⁺_ii is exact
// (selected inversion on the factor), the anchors' columns are solves
// with it, and max_j B_ij comes from one level of farthest-point clusters
// (pairMaxima). An addition only lowers resistances, so the bounds stay
// bounds; a removal of (a, b) raises R_ij by exactly c(x_i − x_j)², x =
// L⁺(e_a − e_b) of the graph before it, c = 1/(1 − R_ab), which the
// certificate solves exactly with its factor (the edits since the build
// carried by Sherman–Morrison) and bounds by (W_i + W_j)², W_i² = Σ c(x_i
// − s)² over the removals (s the centre of x's range).

// pairCert is the certificate of one build: the bound B_i at the build
// plus the margin, the removals' W_i² since, and what edits need.
type pairCert struct {
	bound  []float64 // max_j B_ij at the build, plus the margin
	w2     []float64 // Σ over the removals since the build of c·(x_i − s)²
	w2max  float64
	f      *spChol   // the factor of the graph at the build, grounded at one node
	xs     []float64 // the edits' vectors since the build, one after another (n each)
	cs     []float64 // their Sherman–Morrison coefficients (carry's)
	chain  int       // the most edits carried before a rebuild
	lb     float64   // the largest exact R among the pairs the anchors saw
	pair   [2]int    // that pair
	pp     *pairPoints
	margin float64 // certMargin times the largest B_i
	// The nodes of largest W (at most certWide), whose pairs nodeBound
	// scores exactly, and the largest W outside them; set by spread.
	wide  []int
	wrest float64
}

// certAnchors is the number of anchors of the certificate (farthest-point
// sampling in exact R), certClusters the clusters of its per-node maxima:
// docs/sketch.md's second and third measurements (64 anchors hold the
// bound within 2 % of R* where 512 follow the true top exactly; 256
// clusters are too few, 1 024 leave at most 0.09 % of the pairs).
const (
	certAnchors  = 64
	certClusters = 1024
	// certMaxNNZ caps the factor whatever the fill factor says: with
	// its values and selected inverse about 20 bytes a nonzero (0.8 GB).
	certMaxNNZ = 40_000_000
	// certChainBytes caps the edits' vectors a certificate carries
	// (chain·n numbers) between builds; at most 512 edits.
	certChainBytes = 512 << 20
	certChainMax   = 512
	// certMargin is the certificate's relative margin: the bound is
	// exact algebra but for the solves with the factor and rounding
	// (S_ij + h_ih_j/1ᵀh reached −2.9·10⁻⁹ of R* in the measurements'
	// float64 sums), so 10⁻⁸ of the largest bound is added to every bound.
	certMargin = 1e-8
)

// certNNZ is the cap on the factor's nonzeros for a graph of n nodes and
// m edges: fill·(n + m), at most certMaxNNZ.
func certNNZ(n, m int, fill float64) int {
	return int(min(fill*float64(n+m), certMaxNNZ))
}

// certChain is the number of edits a certificate carries between builds
// on n nodes.
func certChain(n int) int {
	return max(16, min(certChainMax, certChainBytes/(8*max(1, n))))
}

// buildPairCert builds the certificate of the connected graph g, or
// returns nil when the nested-dissection factor of g (or of g grounded at
// the anchors) would pass fill·(n + m) nonzeros. Its cost: the order
// O(m log n), the factor and selected inversion O(Σ_j |struct(j)|²), 64
// solves with the factor O(64·nnz(L)), P O(n·64²), the grounded factor
// for h, and the cluster pass O(n·certClusters·64) (pairMaxima).
func buildPairCert(g *linalg.Graph, fill float64, workers int) (*pairCert, error) {
	n := g.N()
	capNNZ := certNNZ(n, g.NumEdges(), fill)
	order := ndOrder(g, allTrue(n), 64)
	ground := make([]bool, n)
	ground[order[n-1]] = true
	f, err := newSpChol(g, order[:n-1], ground, capNNZ)
	if errors.Is(err, errFill) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	f.selInv()
	diag := f.diagFromSelInv()
	f.z = nil // the selected inverse is read once
	pc := &pairCert{f: f, bound: make([]float64, n), w2: make([]float64, n), chain: certChain(n)}
	A, cols := pc.spreadAnchors(diag)
	pt, ok := projection(A, cols, n)
	if !ok {
		return nil, nil
	}
	isA := make([]bool, n)
	for _, a := range A {
		isA[a] = true
	}
	fa, err := newSpChol(g, ndOrder(g, notIn(isA), 64), isA, capNNZ)
	if errors.Is(err, errFill) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	pp := &pairPoints{n: n, dim: len(A), p: make([]float64, n*len(A)), rho2: make([]float64, n), h: fa.solveNodes(ones)}
	for _, x := range pp.h {
		pp.H += x
	}
	for i := range n {
		nrm := 0.0
		for x := range pp.dim {
			p := pt.Data[x*n+i]
			pp.p[i*pp.dim+x] = p
			nrm += p * p
		}
		pp.rho2[i] = max(0, diag[i]-nrm)
	}
	pc.pp = pp
	pc.bound = pairMaxima(pp, pc.lb/coverMargin, certClusters, workers)
	top := slices.Max(pc.bound)
	pc.margin = certMargin * top
	for i := range pc.bound {
		pc.bound[i] += pc.margin
	}
	return pc, nil
}

// spreadAnchors chooses the certificate's anchors by farthest-point
// sampling in exact R from the end of a double sweep (from the node of
// largest L⁺_ii, three sweeps), each anchor's column one solve with the
// factor, and sets lb and pair, the largest R the anchors saw. It returns
// the anchors and their columns (anchor q's at cols[q]). O(certAnchors)
// solves.
func (pc *pairCert) spreadAnchors(diag []float64) ([]int, [][]float64) {
	n := len(diag)
	from := func(a int) ([]float64, []float64) {
		col := pc.f.pinvColumn(a)
		r := make([]float64, n)
		for i := range n {
			r[i] = diag[a] + diag[i] - 2*col[i]
			if r[i] > pc.lb {
				pc.lb, pc.pair = r[i], [2]int{min(a, i), max(a, i)}
			}
		}
		return col, r
	}
	far := floats.MaxIdx(diag)
	for range 3 {
		_, r := from(far)
		far = floats.MaxIdx(r)
	}
	A := []int{far}
	col, mind := from(far)
	cols := [][]float64{col}
	for len(A) < min(certAnchors, n-1) {
		a := floats.MaxIdx(mind)
		if mind[a] <= 0 {
			break
		}
		col, r := from(a)
		A, cols = append(A, a), append(cols, col)
		for i := range n {
			mind[i] = min(mind[i], r[i])
		}
	}
	return A, cols
}

// projection returns P (|A|×n, row-major): column i is p_i = U⁻ᵀL⁺[A, i],
// L⁺[A, A] = UᵀU (gonum's Cholesky), false when L⁺[A, A] is not positive
// definite. O(n·|A|²).
func projection(A []int, cols [][]float64, n int) (blas64.General, bool) {
	d := len(A)
	G := mat.NewSymDense(d, nil)
	for x, a := range A {
		for y := x; y < d; y++ {
			G.SetSym(x, y, (cols[y][a]+cols[x][A[y]])/2)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(G) {
		return blas64.General{}, false
	}
	var U mat.TriDense
	ch.UTo(&U)
	pt := blas64.General{Rows: d, Cols: n, Stride: n, Data: make([]float64, d*n)}
	for x := range d {
		copy(pt.Data[x*n:(x+1)*n], cols[x])
	}
	blas64.Trsm(blas.Left, blas.Trans, 1, U.RawTriangular(), pt)
	return pt, true
}

// edit records an edit of the graph, in the order the edits are made: x =
// L⁺(e_u − e_v) of the graph before it, one solve with the factor of the
// build and the edits since carried by Sherman–Morrison (carry), joins the
// chain; a removal adds c(x_i − s)² to W_i², s the centre of x's range
// (R_ij rises by c(x_i − x_j)², the same for any s). The x are exact but
// for the factor's rounding. O(nnz(L) + |chain|·n).
func (pc *pairCert) edit(add bool, u, v int) {
	n := len(pc.w2)
	b := make([]float64, n)
	b[u], b[v] = 1, -1
	x := pc.f.solveNodes(b)
	carry(x, pc.xs, pc.cs, u, v)
	r := x[u] - x[v]
	c := -1 / (1 + r)
	if !add {
		c = 1 / (1 - r)
		lo, hi := slices.Min(x), slices.Max(x)
		s := (lo + hi) / 2
		for i, xi := range x {
			pc.w2[i] += c * (xi - s) * (xi - s)
			pc.w2max = max(pc.w2max, pc.w2[i])
		}
	}
	pc.xs = append(pc.xs, x...)
	pc.cs = append(pc.cs, c)
}

// full reports whether the chain of edits is at its cap (a rebuild is
// due before the next edit).
func (pc *pairCert) full() bool { return len(pc.cs) >= pc.chain }

// loose reports whether removals since the build widened the bounds.
func (pc *pairCert) loose() bool { return pc.w2max > 0 }

// certWide is the number of nodes of largest W whose pairs the refined
// bound scores exactly (refinedBound).
const certWide = 64

// spread sets wide, the certWide nodes of largest W_i² (W > 0), and wrest,
// the largest W_i² of the others, after edits. O(n log certWide).
func (pc *pairCert) spread() {
	pc.wide, pc.wrest = pc.wide[:0], 0
	if pc.w2max == 0 {
		return
	}
	byW := func(a, b int) int { return cmp.Compare(pc.w2[b], pc.w2[a]) }
	for i, w := range pc.w2 {
		if w == 0 {
			continue
		}
		if len(pc.wide) == certWide && w <= pc.w2[pc.wide[certWide-1]] {
			pc.wrest = max(pc.wrest, w)
			continue
		}
		at, _ := slices.BinarySearchFunc(pc.wide, i, byW)
		if len(pc.wide) == certWide {
			pc.wrest = max(pc.wrest, pc.w2[pc.wide[certWide-1]])
			pc.wide = pc.wide[:certWide-1]
		}
		pc.wide = slices.Insert(pc.wide, at, i)
	}
}

// nodeBound is the certificate's cheap bound on node i's eccentricity in
// the current graph: B_i + (W_i + W_max)² (R_ij ≤ B_ij + ‖w_i − w_j‖² ≤
// B_ij + (W_i + W_j)², w the removals' coordinates √c(x_i − s)), the
// removals' part with the certificate's relative margin. O(1).
func (pc *pairCert) nodeBound(i int) float64 {
	if pc.w2max == 0 {
		return pc.bound[i]
	}
	w := math.Sqrt(pc.w2[i]) + math.Sqrt(pc.w2max)
	return pc.bound[i] + w*w*(1+certMargin)
}

// refinedBound is nodeBound with the partners of large W apart: B_i + (W_i
// + W_rest)² for the partners outside wide, and B_ij + (W_i + W_j)², B_ij
// scored exactly (with the margin), for those in it. At most nodeBound
// (after spread). O(certWide·|A|).
func (pc *pairCert) refinedBound(i int) float64 {
	if pc.w2max == 0 {
		return pc.bound[i]
	}
	wi := math.Sqrt(pc.w2[i])
	w := wi + math.Sqrt(pc.wrest)
	b := pc.bound[i] + w*w*(1+certMargin)
	for _, j := range pc.wide {
		if j == i {
			continue
		}
		w := wi + math.Sqrt(pc.w2[j])
		b = max(b, pc.pp.bound(i, j)+pc.margin+w*w*(1+certMargin))
	}
	return b
}
