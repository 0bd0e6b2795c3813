package bench

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// The exact solves take seconds to minutes, so these benchmarks are written
// for -benchtime 1x (b.Loop stops after one run anyway once that run exceeds
// the bench time). Each names the BLAS/LAPACK backend in its last label
// ("gonum" or "openblas", see linalg.Backend; build with -tags openblas for the
// second) and reports the time of one run as s/op next to ns/op:
//
//	OHM_DATA=../shared/data go test -run '^$' -bench 'Exact|Directed' -benchtime 1x ./bench
//	OHM_DATA=../shared/data go test -tags openblas -run '^$' -bench 'Exact|Directed' -benchtime 1x ./bench

// exactBackend is the short backend label used in benchmark names: the first
// word of linalg.Backend() ("gonum" or "openblas").
func exactBackend() string { return strings.Fields(linalg.Backend())[0] }

// exactLoad returns the directed form of a Planetoid dataset (name "cora" or
// "citeseer", raw files under dir), or skips without $OHM_DATA.
func exactLoad(b *testing.B, name, dir string) *linalg.Graph {
	b.Helper()
	root := datatest.Root(b, filepath.Join(dir, "raw", "ind."+name+".x"))
	d, err := (&dataset.Locator{DataDir: root}).Load(name, dataset.SynthOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return d.Graph
}

// exactReportTime reports the mean time of one operation in seconds (s/op),
// easier to read than ns/op for operations that take seconds.
func exactReportTime(b *testing.B, t0 time.Time) {
	b.ReportMetric(time.Since(t0).Seconds()/float64(b.N), "s/op")
}

// BenchmarkExactPinv measures the exact pseudoinverse L⁺ of the undirected
// Laplacian, block by connected component through the Cholesky factor of
// L_C + J/n_C (linalg.Pinv), on Cora (n = 2708, largest component 2485) and
// CiteSeer (n = 3327, largest component 2120). This is the recomputation the
// incremental engine avoids; its cost is all dense BLAS/LAPACK (Dpotrf,
// Dpotri), so it shows the backend directly. Besides the time it reports n and
// the largest component's size (ncomp).
func BenchmarkExactPinv(b *testing.B) {
	for _, tc := range []struct{ name, dir string }{
		{"cora", "Cora"},
		{"citeseer", "CiteSeer"},
	} {
		b.Run(tc.name+"/"+exactBackend(), func(b *testing.B) {
			u := exactLoad(b, tc.name, tc.dir).Undirected()
			comp, _ := tarjan.Components(u)
			largest := 0
			for _, nodes := range linalg.Groups(comp) {
				largest = max(largest, len(nodes))
			}
			b.Logf("backend %s: %s n=%d, largest component %d", linalg.Backend(), tc.name, u.N(), largest)
			var P *mat.SymDense
			t0 := time.Now()
			for b.Loop() {
				var err error
				if P, err = linalg.Pinv(u, comp); err != nil {
					b.Fatal(err)
				}
			}
			exactReportTime(b, t0)
			b.ReportMetric(float64(u.N()), "n")
			b.ReportMetric(float64(largest), "ncomp")
			// Sanity (untimed): the rows of L⁺ sum to zero within a component.
			if s := exactRowSum(P, comp, 0); math.Abs(s) > 1e-8 {
				b.Fatalf("row 0 of L⁺ sums to %g within its component, want 0", s)
			}
		})
	}
}

// exactRowSum returns Σ_j P_ij over the j in i's component.
func exactRowSum(P mat.Symmetric, comp []int, i int) float64 {
	var s float64
	for j, c := range comp {
		if c == comp[i] {
			s += P.At(i, j)
		}
	}
	return s
}

// BenchmarkDirectedSolve measures the dense per-SCC solve of the directed
// resistance (definitions §2.2): with the out-Laplacian L of a strongly connected
// digraph on n nodes, Π = I − J/n and M = Π L + J/n, the Lyapunov equation
// M Y + Y Mᵀ = Π by linalg.SolveLyapunov (Bartels–Stewart; the real Schur form
// dominates). Inputs are induced subgraphs of the largest SCC of Cora's
// directed form (its arcs are symmetric; 2485 nodes): the first k nodes in BFS
// order from the SCC's first node, k = 100, 300, 1000, which are connected and
// so strongly connected, and the whole SCC. The whole SCC takes minutes in pure
// Go (≈ 5 min), so it runs only with OHM_BENCH_LARGE=1. Matrix assembly is not
// timed.
func BenchmarkDirectedSolve(b *testing.B) {
	g := exactLoad(b, "cora", "Cora")
	scc, _ := tarjan.SCC(g)
	var big []int
	for _, nodes := range linalg.Groups(scc) {
		if len(nodes) > len(big) {
			big = nodes
		}
	}
	sub := exactInduced(g, big)
	order := exactBFS(sub, 0)
	for _, k := range []int{100, 300, 1000, sub.N()} {
		b.Run(fmt.Sprintf("n=%d/%s", k, exactBackend()), func(b *testing.B) {
			if k == sub.N() && os.Getenv("OHM_BENCH_LARGE") != "1" {
				b.Skipf("the whole SCC (n=%d) takes minutes in pure Go: set OHM_BENCH_LARGE=1 to run it", k)
			}
			h := sub
			if k < sub.N() {
				h = exactInduced(sub, order[:k])
			}
			if _, c := tarjan.SCC(h); c != 1 {
				b.Fatalf("induced subgraph on %d nodes has %d SCCs, want 1", k, c)
			}
			M, Pi := exactLyapunovInput(h)
			b.Logf("backend %s: n=%d, %d arcs", linalg.Backend(), k, h.NumEdges())
			var Y *mat.SymDense
			t0 := time.Now()
			for b.Loop() {
				var err error
				if Y, err = linalg.SolveLyapunov(M, Pi); err != nil {
					b.Fatal(err)
				}
			}
			exactReportTime(b, t0)
			b.ReportMetric(float64(k), "n")
			// Sanity (untimed): Y·1 = 0 (definitions §2.2).
			var s float64
			for j := range k {
				s += Y.At(0, j)
			}
			if math.Abs(s) > 1e-8 {
				b.Fatalf("row 0 of Y sums to %g, want 0", s)
			}
		})
	}
}

// exactInduced returns the subgraph of g induced by nodes, relabelled so that
// nodes[a] becomes a. Self-loops are dropped (no Laplacian sees them).
func exactInduced(g *linalg.Graph, nodes []int) *linalg.Graph {
	pos := make(map[int]int, len(nodes))
	for a, i := range nodes {
		pos[i] = a
	}
	h := linalg.NewGraph(len(nodes), g.Directed())
	for a, i := range nodes {
		for _, j := range g.Out(i) {
			if b, ok := pos[j]; ok {
				h.AddEdge(a, b)
			}
		}
	}
	return h
}

// exactBFS returns the nodes reachable from s along out-arcs in BFS order
// (neighbours in ascending order).
func exactBFS(g *linalg.Graph, s int) []int {
	seen := make([]bool, g.N())
	seen[s] = true
	order := []int{s}
	for q := 0; q < len(order); q++ {
		for _, v := range g.Out(order[q]) {
			if !seen[v] {
				seen[v] = true
				order = append(order, v)
			}
		}
	}
	return order
}

// exactLyapunovInput returns M = Π L + J/n and Π = I − J/n for the digraph g
// with out-Laplacian L = D_out − A (definitions §2.2), densely:
// (Π L)_ij = L_ij − c_j/n, with c_j the j-th column sum of L.
func exactLyapunovInput(g *linalg.Graph) (*mat.Dense, *mat.SymDense) {
	n := g.N()
	L := make([]float64, n*n)
	for i := range n {
		out := g.Out(i)
		L[i*n+i] = float64(len(out))
		for _, j := range out {
			L[i*n+j] = -1
		}
	}
	col := make([]float64, n)
	for i := range n {
		for j, v := range L[i*n : (i+1)*n] {
			col[j] += v
		}
	}
	inv := 1 / float64(n)
	for i := range n {
		for j := range n {
			L[i*n+j] += (1 - col[j]) * inv
		}
	}
	pi := make([]float64, n*n)
	for i := range pi {
		pi[i] = -inv
	}
	for i := range n {
		pi[i*n+i] += 1
	}
	return mat.NewDense(n, n, L), mat.NewSymDense(n, pi)
}
