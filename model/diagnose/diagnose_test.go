package diagnose

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/linalg"
)

func randDense(r, c int, rng *rand.Rand) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			m.Set(i, j, rng.NormFloat64())
		}
	}
	return m
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// randOrth returns a random d×d orthogonal matrix (Q of a QR).
func randOrth(d int, rng *rand.Rand) *mat.Dense {
	var qr mat.QR
	qr.Factorize(randDense(d, d, rng))
	var q mat.Dense
	qr.QTo(&q)
	return &q
}

func TestLinearCKA(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randDense(50, 4, rng)
	y := randDense(50, 3, rng)
	if c := LinearCKA(x, x); !near(c, 1, 1e-12) {
		t.Fatalf("CKA(x, x) = %v, want 1", c)
	}
	base := LinearCKA(x, y)
	if !(base > 0 && base < 1) {
		t.Fatalf("CKA(x, y) = %v outside (0, 1)", base)
	}
	var xq, yq, xs mat.Dense
	xq.Mul(x, randOrth(4, rng))
	yq.Mul(y, randOrth(3, rng))
	xs.Scale(-7.5, x)
	for name, c := range map[string]float64{
		"rotated x":       LinearCKA(&xq, y),
		"rotated y":       LinearCKA(x, &yq),
		"scaled x":        LinearCKA(&xs, y),
		"scaled y first":  LinearCKA(y, &xs),
		"swapped":         LinearCKA(y, x),
		"rotated, scaled": LinearCKA(&xq, &xs),
	} {
		want := base
		if name == "rotated, scaled" {
			want = 1 // xq and xs are x up to rotation and scaling
		}
		if !near(c, want, 1e-12) {
			t.Fatalf("%s: CKA %v, want %v", name, c, want)
		}
	}
	// Translation (centering) invariance.
	xt := mat.DenseCopyOf(x)
	for i := range 50 {
		xt.Set(i, 0, xt.At(i, 0)+3)
	}
	if c := LinearCKA(xt, y); !near(c, base, 1e-12) {
		t.Fatalf("translated: CKA %v, want %v", c, base)
	}
	// One column each: CKA is the squared Pearson correlation.
	a, b := mat.NewDense(5, 1, []float64{1, 2, 3, 4, 5}), mat.NewDense(5, 1, []float64{2, 1, 4, 3, 6})
	// centered a = (−2, −1, 0, 1, 2), b = (−1.2, −2.2, 0.8, −0.2, 2.8):
	// aᵀb = 2.4 + 2.2 + 0 − 0.2 + 5.6 = 10, ‖a‖² = 10, ‖b‖² = 14.8.
	if c, want := LinearCKA(a, b), 10.0*10/(10*14.8); !near(c, want, 1e-12) {
		t.Fatalf("1-D CKA %v, want r² = %v", c, want)
	}
	// Constructed: x = [e1 e2] orthonormal centered columns, y = [e1] → ‖yᵀx‖² = 1,
	// ‖xᵀx‖ = √2, ‖yᵀy‖ = 1: CKA = 1/√2.
	e := mat.NewDense(4, 2, []float64{1, 1, -1, 1, 1, -1, -1, -1})
	if c := LinearCKA(e, mat.DenseCopyOf(e.Slice(0, 4, 0, 1))); !near(c, 1/math.Sqrt2, 1e-12) {
		t.Fatalf("subspace CKA %v, want 1/√2", c)
	}
	// Independent random matrices: E[CKA] ≈ (p·q + ...)/n-ish, small for n ≫ p, q.
	big1, big2 := randDense(4000, 3, rng), randDense(4000, 3, rng)
	if c := LinearCKA(big1, big2); c > 0.01 {
		t.Fatalf("independent random: CKA %v, want ≈ p·q/(n·√(p·q)) = %.4f", c, 3.0/4000)
	}
	// Constant representation: 0 by definition.
	if c := LinearCKA(mat.NewDense(5, 2, nil), x.Slice(0, 5, 0, 4).(*mat.Dense)); c != 0 {
		t.Fatalf("constant: CKA %v, want 0", c)
	}
}

func TestMeanAbsCosine(t *testing.T) {
	// One-hot-by-class embeddings, 3 classes, 12 nodes.
	labels := make([]int, 12)
	h := mat.NewDense(12, 3, nil)
	nodes := make([]int, 12)
	for i := range labels {
		labels[i] = i % 3
		h.Set(i, i%3, float64(1+i)) // any positive length
		nodes[i] = i
	}
	same, diff := MeanAbsCosine(h, labels, nodes, 0, 0)
	if same != 1 || diff != 0 {
		t.Fatalf("one-hot: same %v diff %v, want 1, 0", same, diff)
	}
	// Sampled (maxPairs < 66 pairs) gives the same on this construction.
	same, diff = MeanAbsCosine(h, labels, nodes, 10, 7)
	if same != 1 || diff != 0 {
		t.Fatalf("one-hot sampled: same %v diff %v", same, diff)
	}
	// Known values: rows (1,0), (−1,0), (1,1), (0,0); labels 0,0,1,1.
	h2 := mat.NewDense(4, 2, []float64{1, 0, -1, 0, 1, 1, 0, 0})
	// same pairs: (0,1) |−1| = 1, (2,3) zero row → 0: mean 0.5.
	// diff pairs: (0,2) 1/√2, (0,3) 0, (1,2) 1/√2, (1,3) 0: mean 1/(2√2).
	same, diff = MeanAbsCosine(h2, []int{0, 0, 1, 1}, []int{0, 1, 2, 3}, 0, 0)
	if !near(same, 0.5, 1e-15) || !near(diff, 1/(2*math.Sqrt2), 1e-15) {
		t.Fatalf("known: same %v diff %v, want 0.5, %v", same, diff, 1/(2*math.Sqrt2))
	}
	// A subset of nodes: only (0,1) and (0,2)... nodes 0,2: one diff pair.
	same, diff = MeanAbsCosine(h2, []int{0, 0, 1, 1}, []int{0, 2}, 0, 0)
	if same != 0 || !near(diff, 1/math.Sqrt2, 1e-15) {
		t.Fatalf("subset: same %v diff %v", same, diff)
	}
	// Sampling is reproducible from the seed and close to the exact mean.
	rng := rand.New(rand.NewPCG(3, 3))
	r := randDense(300, 5, rng)
	lab := make([]int, 300)
	all := make([]int, 300)
	for i := range lab {
		lab[i], all[i] = rng.IntN(4), i
	}
	es, ed := MeanAbsCosine(r, lab, all, 0, 0)
	s1, d1 := MeanAbsCosine(r, lab, all, 20000, 9)
	s2, d2 := MeanAbsCosine(r, lab, all, 20000, 9)
	if s1 != s2 || d1 != d2 {
		t.Fatal("sampling not reproducible")
	}
	if !near(s1, es, 0.02) || !near(d1, ed, 0.02) {
		t.Fatalf("sampled %v/%v, exact %v/%v", s1, d1, es, ed)
	}
}

// probeData returns n points per class of dimension d: class c is centred at
// sep·e_c plus Gaussian noise of standard deviation noise.
func probeData(classes, n, d int, sep, noise float64, rng *rand.Rand) (*mat.Dense, []int) {
	x := mat.NewDense(classes*n, d, nil)
	y := make([]int, classes*n)
	for i := range y {
		c := i % classes
		y[i] = c
		for j := range d {
			v := noise * rng.NormFloat64()
			if j == c {
				v += sep
			}
			x.Set(i, j, v)
		}
	}
	return x, y
}

func TestLinearProbe(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	// Linearly separable: accuracy 1.
	tr, ytr := probeData(3, 30, 5, 10, 0.5, rng)
	te, yte := probeData(3, 50, 5, 10, 0.5, rng)
	acc, err := LinearProbe(tr, te, ytr, yte, 3, 1.0/90)
	if err != nil || acc != 1 {
		t.Fatalf("separable: acc %v err %v, want 1", acc, err)
	}
	// Also without regularisation (separable: the weights grow; still 1).
	if acc, err := LinearProbe(tr, te, ytr, yte, 3, 0); err != nil || acc != 1 {
		t.Fatalf("separable, l2 0: acc %v err %v", acc, err)
	}
	// Label-independent constant embedding: predicts the training majority
	// class (1 here), so test accuracy = share of class 1 in the test set.
	ytr2 := []int{1, 1, 1, 0, 2, 1, 0}
	ctr := mat.NewDense(len(ytr2), 4, nil)
	for i := range len(ytr2) {
		for j := range 4 {
			ctr.Set(i, j, 0.25)
		}
	}
	yte2 := []int{0, 1, 2, 1, 0, 0, 2, 2, 1, 0}
	cte := mat.NewDense(len(yte2), 4, nil)
	for i := range len(yte2) {
		for j := range 4 {
			cte.Set(i, j, 0.25)
		}
	}
	acc, err = LinearProbe(ctr, cte, ytr2, yte2, 3, 1e-2)
	if err != nil || acc != 0.3 {
		t.Fatalf("constant: acc %v err %v, want 0.3 (majority class 1)", acc, err)
	}
	// Pure noise: near chance.
	ntr, ntrY := randDense(300, 4, rng), make([]int, 300)
	nte, nteY := randDense(3000, 4, rng), make([]int, 3000)
	for i := range ntrY {
		ntrY[i] = rng.IntN(2)
	}
	for i := range nteY {
		nteY[i] = rng.IntN(2)
	}
	if acc, err := LinearProbe(ntr, nte, ntrY, nteY, 2, 1.0/300); err != nil || math.Abs(acc-0.5) > 0.05 {
		t.Fatalf("noise: acc %v err %v, want ≈ 0.5", acc, err)
	}
	// Errors.
	if _, err := LinearProbe(tr, te, ytr, yte, 2, 0.1); err == nil {
		t.Fatal("label outside classes accepted")
	}
	if _, err := LinearProbe(tr, te, ytr[:3], yte, 3, 0.1); err == nil {
		t.Fatal("label count mismatch accepted")
	}
	if _, err := LinearProbe(tr, te, ytr, yte, 3, -1); err == nil {
		t.Fatal("negative l2 accepted")
	}
}

// TestProbeObjectiveGradient: the hand-written gradient matches central
// differences.
func TestProbeObjectiveGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	x, y := probeData(3, 6, 4, 1, 1, rng)
	xs, _ := standardise(x, x)
	o := &softmaxObjective{x: xs, y: y, d: 4, c: 3, l2: 0.3, logits: make([]float64, 3)}
	th := make([]float64, 4*3+3)
	for i := range th {
		th[i] = rng.NormFloat64()
	}
	g := make([]float64, len(th))
	o.eval(th, g)
	for i := range th {
		old := th[i]
		th[i] = old + 1e-6
		fp := o.eval(th, nil)
		th[i] = old - 1e-6
		fm := o.eval(th, nil)
		th[i] = old
		if num := (fp - fm) / 2e-6; !near(num, g[i], 1e-6) {
			t.Fatalf("gradient %d: %v, numerical %v", i, g[i], num)
		}
	}
}

func TestEdgeOverlap(t *testing.T) {
	e := func(u, v int) linalg.Edge { return linalg.Edge{U: u, V: v} }
	added := map[string][]linalg.Edge{
		"a":     {e(0, 1), e(0, 2), e(1, 3), e(4, 5), e(0, 1)}, // duplicate counted once
		"b":     {e(0, 1), e(0, 2), e(2, 3)},
		"c":     {e(0, 1), e(4, 5), e(6, 7), e(7, 8)},
		"other": {e(9, 9)}, // not compared
	}
	o := EdgeOverlap("toy", 0.1, []string{"a", "b", "c"}, added)
	if o.Dataset != "toy" || o.Budget != 0.1 {
		t.Fatalf("header %+v", o)
	}
	if !slices.Equal(o.Sizes, []int{4, 3, 4}) {
		t.Fatalf("sizes %v", o.Sizes)
	}
	want := []Intersection{
		{[]string{"a"}, 1},           // (1,3)
		{[]string{"b"}, 1},           // (2,3)
		{[]string{"c"}, 2},           // (6,7), (7,8)
		{[]string{"a", "b"}, 1},      // (0,2)
		{[]string{"a", "c"}, 1},      // (4,5)
		{[]string{"b", "c"}, 0},      //
		{[]string{"a", "b", "c"}, 1}, // (0,1)
	}
	if !reflect.DeepEqual(o.Exclusive, want) {
		t.Fatalf("exclusive %+v,\nwant %+v", o.Exclusive, want)
	}
	// a∩b = {01, 02}: 2/5; a∩c = {01, 45}: 2/6; b∩c = {01}: 1/6.
	wj := [][]float64{{1, 2.0 / 5, 2.0 / 6}, {2.0 / 5, 1, 1.0 / 6}, {2.0 / 6, 1.0 / 6, 1}}
	for i := range wj {
		for j := range wj {
			if !near(o.Jaccard[i][j], wj[i][j], 1e-15) {
				t.Fatalf("jaccard %v, want %v", o.Jaccard, wj)
			}
		}
	}
	// Directed: arcs differ by direction; a missing method is the empty set.
	o = EdgeOverlap("toy", 0.1, []string{"x", "y", "z"}, map[string][]linalg.Edge{
		"x": {e(1, 2)}, "y": {e(2, 1)}})
	if !slices.Equal(o.Sizes, []int{1, 1, 0}) || o.Exclusive[0].Count != 1 || o.Exclusive[1].Count != 1 ||
		o.Jaccard[0][1] != 0 || o.Jaccard[2][2] != 1 || len(o.Exclusive) != 7 {
		t.Fatalf("directed: %+v", o)
	}
	// Normalised undirected pairs do meet.
	o = EdgeOverlap("toy", 0.1, []string{"x", "y"}, map[string][]linalg.Edge{
		"x": normalizeUndirected([]linalg.Edge{e(1, 2)}), "y": normalizeUndirected([]linalg.Edge{e(2, 1)})})
	if o.Exclusive[2].Count != 1 || o.Jaccard[0][1] != 1 {
		t.Fatalf("undirected: %+v", o)
	}
	// JSON round trip of the whole Diagnostics.
	b, err := json.Marshal(Diagnostics{Overlap: []Overlap{o}})
	if err != nil {
		t.Fatal(err)
	}
	var back Diagnostics
	if err := json.Unmarshal(b, &back); err != nil || back.Overlap[0].Exclusive[2].Count != 1 {
		t.Fatalf("round trip: %v %+v", err, back)
	}
}

// TestProbeConverges: gonum's L-BFGS reaches a stationary point of the (strictly
// convex) probe objective on overlapping classes.
func TestProbeConverges(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	x, y := probeData(4, 40, 6, 1, 1, rng)
	xs, _ := standardise(x, x)
	o := &softmaxObjective{x: xs, y: y, d: 6, c: 4, l2: 1.0 / 160, logits: make([]float64, 4)}
	th, f, err := minimize(o.eval, make([]float64, 6*4+4), 1e-8, 1000)
	if err != nil {
		t.Fatal(err)
	}
	g := make([]float64, len(th))
	o.eval(th, g)
	if normInf(g) > 1e-6 || !(f < math.Log(4)) {
		t.Fatalf("‖∇f‖∞ = %v, f = %v", normInf(g), f)
	}
}

// normalizeUndirected returns a copy of edges with every pair ordered U ≤ V,
// for comparing undirected edges given in either order.
func normalizeUndirected(edges []linalg.Edge) []linalg.Edge {
	out := make([]linalg.Edge, len(edges))
	for i, e := range edges {
		if e.U > e.V {
			e.U, e.V = e.V, e.U
		}
		out[i] = e
	}
	return out
}
