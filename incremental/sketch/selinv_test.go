package sketch

// The exact diagonal by a sparse factor: its test against the dense L⁺
// and its measurement (OHM_SELINV); docs/sketch.md, "Step 4, third
// measurement: the exact diagonal and a pruned query".

import (
	"math"
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// smallGraphs are connected test graphs: a path, a ring of cliques, and
// random geometric, SBM and BA graphs with a path added to connect them.
func smallGraphs(t *testing.T) map[string]*linalg.Graph {
	out := map[string]*linalg.Graph{}
	path := linalg.NewGraph(30, false)
	for i := range 29 {
		path.AddEdge(i, i+1)
	}
	out["path"] = path
	ring, err := graphgen.RingOfCliques(6, 5)
	if err != nil {
		t.Fatal(err)
	}
	out["ring"], _ = ring.Undirected()
	for name, mk := range map[string]func() (*graphgen.Graph, error){
		"rgg": func() (*graphgen.Graph, error) { return graphgen.RGGByDegree(300, 6, 1) },
		"sbm": func() (*graphgen.Graph, error) { return graphgen.SBMByDegree(200, 4, 5, 0.8, 2) },
		"ba":  func() (*graphgen.Graph, error) { return graphgen.BA(150, 2, 3) },
	} {
		gg, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		g, err := gg.Undirected()
		if err != nil {
			t.Fatal(err)
		}
		for i := range g.N() - 1 {
			g.AddEdge(i, i+1)
		}
		out[name] = g
	}
	return out
}

func denseLaplacian(g *linalg.Graph) *mat.Dense {
	n := g.N()
	L := mat.NewDense(n, n, nil)
	for u := range n {
		for _, v := range g.Neighbours(u) {
			L.Set(u, v, -1)
		}
		L.Set(u, u, float64(g.Degree(u)))
	}
	return L
}

func relClose(a, b float64) bool { return math.Abs(a-b) <= 1e-10*max(math.Abs(a), math.Abs(b), 1e-300) }

// TestSparseCholAgainstDense checks the selected inverse (every entry on
// the factor's pattern) against the dense inverse of the grounded
// Laplacian, the diagonal of L⁺ against linalg.Pinv, L⁺'s columns, and a
// solve grounded at several nodes, to 1e-10 relative.
func TestSparseCholAgainstDense(t *testing.T) {
	for name, g := range smallGraphs(t) {
		n := g.N()
		P, err := linalg.Pinv(g, make([]int, n))
		if err != nil {
			t.Fatal(err)
		}
		order := ndOrder(g, allTrue(n), 8)
		if len(order) != n {
			t.Fatalf("%s: order of %d nodes for %d", name, len(order), n)
		}
		diag, f, err := pinvDiag(g, order, math.MaxInt)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if !relClose(diag[i], P.At(i, i)) {
				t.Fatalf("%s: L⁺_%d%d = %v, dense %v", name, i, i, diag[i], P.At(i, i))
			}
		}
		// Every selected entry against the dense grounded inverse.
		L := denseLaplacian(g)
		idx := f.perm
		Lg := mat.NewDense(len(idx), len(idx), nil)
		for a, u := range idx {
			for b, v := range idx {
				Lg.Set(a, b, L.At(u, v))
			}
		}
		var Z mat.Dense
		if err := Z.Inverse(Lg); err != nil {
			t.Fatal(err)
		}
		for j := range f.n {
			if !relClose(f.zd[j], Z.At(j, j)) {
				t.Fatalf("%s: Z_%d%d = %v, dense %v", name, j, j, f.zd[j], Z.At(j, j))
			}
			for q := f.colp[j]; q < f.colp[j+1]; q++ {
				i := int(f.rows[q])
				if d := math.Abs(f.z[q] - Z.At(i, j)); d > 1e-10*math.Abs(Z.At(j, j)) {
					t.Fatalf("%s: Z_%d%d = %v, dense %v", name, i, j, f.z[q], Z.At(i, j))
				}
			}
		}
		for _, a := range []int{0, n / 2, n - 1} {
			col := f.pinvColumn(a)
			for i := range n {
				if math.Abs(col[i]-P.At(i, a)) > 1e-10*P.At(a, a) {
					t.Fatalf("%s: L⁺_%d,%d = %v, dense %v", name, i, a, col[i], P.At(i, a))
				}
			}
		}
		// Grounded at several nodes: L_U h = 1.
		ground := make([]bool, n)
		for _, a := range []int{1, n / 3, n - 2} {
			ground[a] = true
		}
		ord := ndOrder(g, notIn(ground), 8)
		fa, err := newSpChol(g, ord, ground, math.MaxInt)
		if err != nil {
			t.Fatal(err)
		}
		ones := make([]float64, n)
		for i := range ones {
			ones[i] = 1
		}
		h := fa.solveNodes(ones)
		Lh := make([]float64, n)
		for u := range n {
			if ground[u] {
				continue
			}
			Lh[u] = float64(g.Degree(u)) * h[u]
			for _, v := range g.Neighbours(u) {
				Lh[u] -= h[v]
			}
			if math.Abs(Lh[u]-1) > 1e-9 {
				t.Fatalf("%s: (L_U h)_%d = %v, want 1", name, u, Lh[u])
			}
		}
	}
}

func allTrue(n int) []bool {
	b := make([]bool, n)
	for i := range b {
		b[i] = true
	}
	return b
}

func notIn(s []bool) []bool {
	b := make([]bool, len(s))
	for i, x := range s {
		b[i] = !x
	}
	return b
}

// maxRSSMB is the process's peak resident memory in MB.
func maxRSSMB() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return math.NaN()
	}
	return float64(ru.Maxrss) / 1024
}

// TestSelInvMeasure measures the exact diagonal of L⁺ by the sparse factor
// on a graph (OHM_SELINV=G.npz; OHM_SELINV_CAP caps the factor's nonzeros,
// default 2·10⁸): the order's seconds, the factor's nonzeros (fill) and
// flops, the factor's and the selected inversion's seconds, the peak
// memory; and, against a few exact columns, the diagonal's accuracy.
func TestSelInvMeasure(t *testing.T) {
	g, path := measuredGraph(t, "OHM_SELINV", "a measurement: OHM_SELINV=G.npz [OHM_SELINV_CAP=2e8] runs it")
	capNNZ := envInts(t, "OHM_SELINV_CAP", "2e8")[0]
	n := g.N()
	t0 := time.Now()
	order := ndOrder(g, allTrue(n), 64)
	ordSec := time.Since(t0).Seconds()
	t0 = time.Now()
	ground := make([]bool, n)
	ground[order[n-1]] = true
	f, err := newSpChol(g, order[:n-1], ground, capNNZ)
	if err == errFill {
		t.Logf("%s: n=%d m=%d order %.2f s; factor stopped: nnz(L) past %d after %.1f s (peak %.0f MB)",
			path, n, g.NumEdges(), ordSec, capNNZ, time.Since(t0).Seconds(), maxRSSMB())
		return
	} else if err != nil {
		t.Fatal(err)
	}
	facSec := time.Since(t0).Seconds()
	t0 = time.Now()
	f.selInv()
	diag := f.diagFromSelInv()
	selSec := time.Since(t0).Seconds()
	runtime.GC()
	// Check a few entries against L⁺'s columns (solves): L⁺_aa.
	rng := rand.New(rand.NewPCG(1, 2))
	worst := 0.0
	for range 5 {
		a := rng.IntN(n)
		col := f.pinvColumn(a)
		worst = max(worst, math.Abs(col[a]-diag[a])/col[a])
	}
	mn, mx := math.Inf(1), 0.0
	for _, v := range diag {
		mn, mx = min(mn, v), max(mx, v)
	}
	t.Logf("%s: n=%d m=%d | order %.2f s | nnz(L) %d (%.1f per node, %.2f× nnz(A)) flops %.3g | factor %.2f s | selected inversion + diagonal %.2f s | peak %.0f MB | L⁺_ii in [%.4g, %.4g], vs columns rel. %.1e",
		path, n, g.NumEdges(), ordSec, f.nnz(), float64(f.nnz())/float64(n), float64(f.nnz())/float64(n+g.NumEdges()),
		f.flops(), facSec, selSec, maxRSSMB(), mn, mx, worst)
}
