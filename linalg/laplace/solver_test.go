package laplace

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// components' labels as linalg.Pinv wants them, by a plain BFS.
func labels(g *linalg.Graph) []int { c, _ := components(g); return c }

// withIsolatedNode is gg with one more node, isolated, its solver and its
// dense pseudoinverse.
func withIsolatedNode(t *testing.T, gg *graphgen.Graph) (*linalg.Graph, *Solver, *mat.SymDense) {
	t.Helper()
	g, err := linalg.FromEdges(gg.N+1, false, gg.Edges)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(g)
	if err != nil {
		t.Fatal(err)
	}
	P, err := linalg.Pinv(g, labels(g))
	if err != nil {
		t.Fatal(err)
	}
	return g, s, P
}

// TestSolveAgainstDensePinv: on random connected and disconnected graphs
// (and an isolated node), the solver's x = L⁺b equals the dense L⁺ times b
// and its residual is at most 1e-8 relative.
func TestSolveAgainstDensePinv(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for trial := range 6 {
		gg, _ := graphgen.SBM(120, 3, 0.15, 0.01*float64(trial%3), uint64(trial)) // trial%3 == 0: 3 components
		g, s, P := withIsolatedNode(t, gg)
		b := make([]float64, g.N())
		for i := range b {
			b[i] = r.NormFloat64()
		}
		x, it, err := s.Solve(b, 1e-10, 1000)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		worst := maxPinvError(P, x, b)
		if worst > 1e-8 {
			t.Fatalf("trial %d: max |x − L⁺b| = %.3g after %d iterations", trial, worst, it)
		}
	}
}

// BenchmarkSolveSBM solves one system on a 10⁵-node, 10⁶-edge SBM, to
// the sketch engine's re-scoring tolerance (1e-8) and to its bounds' (1e-2).
func BenchmarkSolveSBM(b *testing.B) {
	gg, _ := graphgen.SBM(100000, 10, 20.0*0.8/9999, 20.0*0.2/90000, 1)
	g, _ := linalg.FromEdges(gg.N, false, gg.Edges)
	s, err := New(g)
	if err != nil {
		b.Fatal(err)
	}
	rhs := make([]float64, g.N())
	rhs[0], rhs[len(rhs)-1] = 1, -1
	for _, tol := range []float64{1e-8, 1e-2} {
		b.Run(fmt.Sprintf("tol=%g", tol), func(b *testing.B) {
			for range b.N {
				_, it, err := s.Solve(rhs, tol, 2000)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(it), "iterations")
			}
		})
	}
}

// TestSketchResistances: with k = 400 rows the sketch's resistances are
// within the Johnson–Lindenstrauss spread of the exact ones (relative error
// of standard deviation √(2/k) ≈ 7 %): at least 95 % of the pairs within
// 20 %, and none off by more than half.
func TestSketchResistances(t *testing.T) {
	gg, _ := graphgen.SBM(150, 3, 0.12, 0.02, 9)
	g, _ := linalg.FromEdges(gg.N, false, gg.Edges)
	comp := labels(g)
	P, err := linalg.Pinv(g, comp)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(g)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := NewSketch(s, g, 400, 1, 1e-10, 2)
	if err != nil {
		t.Fatal(err)
	}
	within, total, worst := 0, 0, 0.0
	for u := range g.N() {
		for v := u + 1; v < g.N(); v++ {
			if comp[u] != comp[v] {
				continue
			}
			exact := linalg.Resistance(P, u, v)
			rel := math.Abs(sk.R(u, v)-exact) / exact
			worst = math.Max(worst, rel)
			total++
			if rel <= 0.2 {
				within++
			}
		}
	}
	if float64(within) < 0.95*float64(total) || worst > 0.5 {
		t.Fatalf("%d of %d pairs within 20 %%, worst %.2f", within, total, worst)
	}
}

// TestSolveManyAgainstSolve: blocks of right-hand sides (some zero, some
// on single components) give the single-side solutions, on any number of
// workers, on a graph with three components and an isolated node; use is
// called in the order of the sides; a block that fails ends the call with
// its error (other workers waiting for their turn included).
func TestSolveManyAgainstSolve(t *testing.T) {
	gg, _ := graphgen.SBM(150, 3, 0.15, 0, 3)
	g, s, _ := withIsolatedNode(t, gg)
	const count = 19
	rhs := make([][]float64, count)
	r := rand.New(rand.NewPCG(5, 5))
	for q := range rhs {
		rhs[q] = make([]float64, g.N())
		if q%5 == 3 {
			continue // zero
		}
		for i := range rhs[q] {
			if q%3 == 0 || i < 50 {
				rhs[q][i] = r.NormFloat64()
			}
		}
	}
	for _, workers := range []int{1, 3} {
		got := make([][]float64, count)
		var order []int
		_, err := s.SolveMany(count, func(q int, b []float64) { copy(b, rhs[q]) },
			func(q int, x []float64) {
				got[q] = append([]float64(nil), x...)
				order = append(order, q)
			}, 1e-10, 1000, workers)
		if err != nil {
			t.Fatal(err)
		}
		for q, o := range order {
			if q != o {
				t.Fatalf("workers %d: use called in the order %v", workers, order)
			}
		}
		if _, err := s.SolveMany(count, func(q int, b []float64) { copy(b, rhs[q]) },
			func(int, []float64) {}, 1e-14, 1, workers); err == nil {
			t.Errorf("workers %d: one iteration to 1e-14 gave no error", workers)
		}
		for q := range count {
			want, _, err := s.Solve(rhs[q], 1e-10, 1000)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if math.Abs(got[q][i]-want[i]) > 1e-8 {
					t.Fatalf("workers %d, side %d, node %d: %.12g, single solve %.12g", workers, q, i, got[q][i], want[i])
				}
			}
		}
	}
}

// BenchmarkSolveManySBM solves 32 systems (16 per block) on a 10⁵-node,
// 10⁶-edge SBM; compare ns/op / 32 with BenchmarkSolveSBM. OHM_SOLVE_NODES
// sets another size (mean degree 20, ten blocks, homophily 0.8: `ohm data
// synth --model sbm`'s graph): at 10⁵ nodes a block's vectors (6.4 MB)
// stay in a 32 MB L3 cache, at 10⁶ (64 MB) they do not.
func BenchmarkSolveManySBM(b *testing.B) {
	_, s := benchSBM(b)
	for _, tol := range []float64{1e-8, 1e-2} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("tol=%g/workers=%d", tol, workers), func(b *testing.B) {
				it := 0
				for range b.N {
					var err error
					it, err = s.SolveMany(32, func(q int, x []float64) { x[q], x[len(x)-1-q] = 1, -1 },
						func(int, []float64) {}, tol, 2000, workers)
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(it), "iterations")
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(32*b.N), "ms/side")
			})
		}
	}
}

// BenchmarkNewSketchSBM builds the sketch engine's resistance sketch (k =
// 192 rows solved to 10⁻⁴, two workers) of BenchmarkSolveManySBM's graph
// (OHM_SOLVE_NODES sets its size).
func BenchmarkNewSketchSBM(b *testing.B) {
	g, s := benchSBM(b)
	b.ResetTimer()
	for range b.N {
		if _, err := NewSketch(s, g, 192, 1, 1e-4, 2); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(192*b.N), "ms/row")
}

// benchSBM is the SBM of the solver benchmarks and its solver: 10⁵ nodes,
// or $OHM_SOLVE_NODES, mean degree 20, ten blocks, homophily 0.8 (`ohm
// data synth --model sbm`'s graph).
func benchSBM(b *testing.B) (*linalg.Graph, *Solver) {
	n := 100000
	if v := os.Getenv("OHM_SOLVE_NODES"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 100 {
			b.Fatalf("OHM_SOLVE_NODES=%q: want a whole number of at least 100", v)
		}
	}
	gg, err := graphgen.SBMByDegree(n, 10, 20, 0.8, 1)
	if err != nil {
		b.Fatal(err)
	}
	return solverOf(b, gg)
}

// BenchmarkNewSolverSBM builds the solver (components and IC(0) factor) of
// a 10⁵-node, 10⁶-edge SBM.
func BenchmarkNewSolverSBM(b *testing.B) {
	gg, _ := graphgen.SBM(100000, 10, 20.0*0.8/9999, 20.0*0.2/90000, 1)
	g, _ := linalg.FromEdges(gg.N, false, gg.Edges)
	b.ResetTimer()
	for range b.N {
		if _, err := New(g); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSolveAfterUpdates: after edges are added and removed through Update
// (within components, no bridge removed: the graph stays 2-edge-connected
// where it was), the solver's L⁺b is the dense pseudoinverse of the edited
// graph times b, for single and blocked right-hand sides, and the residual
// against the edited Laplacian is at most 1e-8 relative.
func TestSolveAfterUpdates(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for trial := range 4 {
		gg, _ := graphgen.SBM(150, 3, 0.2, 0.02*float64(trial%2), uint64(trial)) // trial%2 == 0: 3 components
		g, s, _ := withIsolatedNode(t, gg)
		cur := g.Clone()
		comp := labels(g)
		n := g.N()
		for edits := 0; edits < 60; {
			u, v := r.IntN(n-1), r.IntN(n-1)
			if u == v || comp[u] != comp[v] {
				continue
			}
			if cur.HasEdge(u, v) {
				cur.RemoveEdge(u, v)
				if c2, _ := components(cur); c2[u] != c2[v] {
					cur.AddEdge(u, v)
					continue
				}
				if _, k := components(cur); k != s.count {
					cur.AddEdge(u, v)
					continue
				}
				s.Update(u, v, -1)
			} else {
				cur.AddEdge(u, v)
				s.Update(u, v, 1)
			}
			edits++
		}
		P, err := linalg.Pinv(cur, labels(cur))
		if err != nil {
			t.Fatal(err)
		}
		bs := make([][]float64, 9)
		for q := range bs {
			bs[q] = make([]float64, n)
			for i := range bs[q] {
				bs[q][i] = r.NormFloat64()
			}
		}
		check := func(q int, x []float64) {
			want := mat.NewVecDense(n, nil)
			want.MulVec(P, mat.NewVecDense(n, bs[q]))
			worst := 0.0
			for i := range n {
				worst = math.Max(worst, math.Abs(x[i]-want.AtVec(i)))
			}
			if worst > 1e-7 {
				t.Errorf("trial %d, side %d: max |x − L⁺b| = %.3g", trial, q, worst)
			}
		}
		x, _, err := s.Solve(bs[0], 1e-10, 5000)
		if err != nil {
			t.Fatal(err)
		}
		check(0, x)
		if _, err := s.SolveMany(len(bs), func(q int, b []float64) { copy(b, bs[q]) }, check, 1e-10, 5000, 2); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSpares: a vector put back is handed out again for its own length
// only, one get at a time; other lengths get fresh vectors.
func TestSpares(t *testing.T) {
	var p spares[float32]
	a, b := p.get(16), p.get(4)
	a[0], b[0] = 1, 2
	p.put(a, b)
	if c := p.get(16); &c[0] != &a[0] || c[0] != 1 {
		t.Errorf("get(16) after put: a fresh vector, not the one put back")
	}
	if c := p.get(16); &c[0] == &a[0] || len(c) != 16 {
		t.Errorf("a second get(16) handed out the same vector again")
	}
	if c := p.get(8); len(c) != 8 || c[0] != 0 {
		t.Errorf("get(8) gave %v", c)
	}
	if c := p.get(4); &c[0] != &b[0] {
		t.Errorf("get(4): a fresh vector, not the one put back")
	}
}

// maxPinvError returns max_i |x_i − (P b)_i|: how far x is from the
// solution P b given by a dense pseudoinverse P.
func maxPinvError(P mat.Matrix, x, b []float64) float64 {
	worst := 0.0
	for i := range x {
		want := 0.0
		for j := range b {
			want += P.At(i, j) * b[j]
		}
		worst = math.Max(worst, math.Abs(x[i]-want))
	}
	return worst
}
