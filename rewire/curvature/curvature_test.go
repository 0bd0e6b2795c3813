package curvature

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/incremental/exact"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset/testgraph"
)

// starGraph: centre 0 and leaves 1..n.
func starGraph(t *testing.T, n int) *linalg.Graph {
	var es [][2]int
	for i := 1; i <= n; i++ {
		es = append(es, [2]int{0, i})
	}
	return testgraph.MustGraph(t, n+1, false, es...)
}

// doubleStar: centres 0 and 1 joined, each with d−1 leaves of its own (both
// of degree d).
func doubleStar(t *testing.T, d int) *linalg.Graph {
	es := [][2]int{{0, 1}}
	for k := range d - 1 {
		es = append(es, [2]int{0, 2 + k}, [2]int{1, 1 + d + k})
	}
	return testgraph.MustGraph(t, 2*d, false, es...)
}

func kappaOfEdge(t *testing.T, g *linalg.Graph, alpha float64, u, v int) float64 {
	t.Helper()
	ks, err := Curvatures(g, alpha, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ks {
		if e.U == u && e.V == v {
			return e.Kappa
		}
	}
	t.Fatalf("no edge (%d,%d)", u, v)
	return 0
}

// TestCurvatureClosedForms checks κ against closed forms for α = 0 and
// α = 1/2 (the derivations are in the comments; "line" means that the four
// support points sit on a geodesic a–x–y–b, where W1 is the sum of the
// absolute cumulative net masses, as on the real line).
func TestCurvatureClosedForms(t *testing.T) {
	type tc struct {
		name  string
		g     *linalg.Graph
		u, v  int
		alpha float64
		want  float64
	}
	var cases []tc
	// Complete graph K_n, edge {x,y}: every support point is at distance 1
	// from every other, and μx − μy is α − (1−α)/(n−1) at x, its opposite
	// at y and 0 elsewhere; so W1 = |α − (1−α)/(n−1)| and
	//   α = 0:   κ = 1 − 1/(n−1) = (n−2)/(n−1),
	//   α = 1/2: κ = 1 − (1/2)(n−2)/(n−1) = n/(2(n−1)).
	for _, n := range []int{2, 3, 4, 7, 12} {
		cases = append(cases,
			tc{fmt.Sprintf("K%d", n), testgraph.Complete(t, n), 0, 1, 0, float64(n-2) / float64(n-1)},
			tc{fmt.Sprintf("K%d", n), testgraph.Complete(t, n), 0, 1, 0.5, float64(n) / float64(2*(n-1))})
	}
	// Cycle C_n, n ≥ 6, edge {x,y} with outer neighbours a ~ x and b ~ y:
	// d(a,b) = min(3, n−3) = 3, so a–x–y–b is a line. With β = (1−α)/2 the
	// net masses μx − μy along it are β, α−β, β−α, −β; the cumulative sums
	// are β, α, β (all ≥ 0), so W1 = 2β + α = 1 and κ = 0 for every α.
	for _, n := range []int{6, 7, 10} {
		for _, a := range []float64{0, 0.5} {
			cases = append(cases, tc{fmt.Sprintf("C%d", n), testgraph.Cycle(t, n, false), 2, 3, a, 0})
		}
	}
	// Path P_n. Interior edge (both ends of degree 2): the line a–x–y–b of
	// the cycle, κ = 0. End edge x = 0 (leaf), y = 1, b = 2 (n ≥ 3), the line
	// x–y–b: net masses α − (1−α)/2, (1−α) − α, −(1−α)/2; cumulative
	// (3α−1)/2 and (1−α)/2, so W1 = |3α−1|/2 + (1−α)/2:
	//   α = 0: W1 = 1, κ = 0;  α = 1/2: W1 = 1/2, κ = 1/2.
	// P_2 (one edge): μx − μy = (2α−1)(δx − δy), W1 = |2α−1|:
	//   α = 0: κ = 0;  α = 1/2: κ = 1.
	cases = append(cases,
		tc{"P2", testgraph.Path(t, 2), 0, 1, 0, 0}, tc{"P2", testgraph.Path(t, 2), 0, 1, 0.5, 1},
		tc{"P3 end", testgraph.Path(t, 3), 0, 1, 0, 0}, tc{"P3 end", testgraph.Path(t, 3), 0, 1, 0.5, 0.5},
		tc{"P5 end", testgraph.Path(t, 5), 3, 4, 0, 0}, tc{"P5 end", testgraph.Path(t, 5), 3, 4, 0.5, 0.5},
		tc{"P5 interior", testgraph.Path(t, 5), 1, 2, 0, 0}, tc{"P5 interior", testgraph.Path(t, 5), 1, 2, 0.5, 0},
	)
	// Star with centre c and n leaves, edge {c, ℓ}:
	//   α = 0: μc is uniform on the leaves and μℓ = δc; every leaf is at
	//     distance 1 from c, W1 = 1, κ = 0.
	//   α = 1/2: μc − μℓ is 0 at c, 1/(2n) − 1/2 at ℓ and 1/(2n) at each
	//     other leaf, at distance 2 from ℓ: W1 = 2·(n−1)/(2n), κ = 1/n.
	for _, n := range []int{2, 3, 5, 9} {
		cases = append(cases,
			tc{fmt.Sprintf("star%d", n), starGraph(t, n), 0, 2, 0, 0},
			tc{fmt.Sprintf("star%d", n), starGraph(t, n), 0, 2, 0.5, 1 / float64(n)})
	}
	// Double star (a tree): centres x, y of degree d joined, each with d−1
	// leaves; leaves a of x, b of y; d(a,b) = 3.
	//   α = 0: μx = 1/d on {y} ∪ leaves(x), μy = 1/d on {x} ∪ leaves(y). Only
	//     one leaf of x can go to x (cost 1); y goes to one leaf of y (1); the
	//     other d−2 leaves cross (3): W1 = (2 + 3(d−2))/d, κ = (4 − 2d)/d
	//     (= −2(1 − 2/d), Jost–Liu's tree formula).
	//   α = 1/2: net masses (d−1)/(2d) on x and on leaves(x), −(d−1)/(2d) on y
	//     and on leaves(y); moving x→y and leaves(x)→leaves(y) costs
	//     (d−1)/(2d)·(1+3) = 2(d−1)/d, and f = 0, 1, 2, 3 on leaves(x), x, y,
	//     leaves(y) (1-Lipschitz) certifies it: κ = (2 − d)/d.
	for _, d := range []int{2, 3, 4, 6} {
		cases = append(cases,
			tc{fmt.Sprintf("double-star%d", d), doubleStar(t, d), 0, 1, 0, float64(4-2*d) / float64(d)},
			tc{fmt.Sprintf("double-star%d", d), doubleStar(t, d), 0, 1, 0.5, float64(2-d) / float64(d)})
	}
	for _, c := range cases {
		got := kappaOfEdge(t, c.g, c.alpha, c.u, c.v)
		if math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s (%d,%d) α=%v: κ = %.15g, want %.15g", c.name, c.u, c.v, c.alpha, got, c.want)
		}
	}
}

// TestCurvatureDirectedUsesUnderlying: a directed graph's κ are those of its
// underlying undirected graph (a directed 6-cycle: 0 everywhere).
func TestCurvatureDirectedUsesUnderlying(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		g := randomGraph(r, 12, 0.25, true)
		a, err := Curvatures(g, 0.5, 2)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Curvatures(g.Undirected(), 0.5, 1)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("directed %v\nundirected %v", a, b)
		}
	}
	for _, e := range must(Curvatures(testgraph.Cycle(t, 6, true), 0, 1)) {
		if e.Kappa != 0 {
			t.Fatalf("directed C6: %+v", e)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// randomGraph is G(n, p), with reciprocal arcs half of the time when
// directed.
func randomGraph(r *rand.Rand, n int, p float64, directed bool) *linalg.Graph {
	g := linalg.NewGraph(n, directed)
	for i := range n {
		for j := range n {
			if i == j || (!directed && j < i) || r.Float64() >= p {
				continue
			}
			g.AddEdge(i, j)
			if directed && r.IntN(2) == 0 {
				g.AddEdge(j, i)
			}
		}
	}
	return g
}

// oracleKappa computes κ(x,y) the naive way: BFS distances of the whole
// graph, the full supports (no cancellation) and gonum's simplex.
func oracleKappa(t *testing.T, g *linalg.Graph, dist [][]int, alpha float64, x, y int) float64 {
	supp := func(z int) ([]int, []float64) {
		nb := g.Out(z)
		ps := append([]int{z}, nb...)
		ms := []float64{alpha}
		for range nb {
			ms = append(ms, (1-alpha)/float64(len(nb)))
		}
		return ps, ms
	}
	pa, ma := supp(x)
	pb, mb := supp(y)
	cost := make([]int32, 0, len(pa)*len(pb))
	for _, p := range pa {
		for _, q := range pb {
			cost = append(cost, int32(dist[p][q]))
		}
	}
	return 1 - lpTransport(t, ma, mb, cost)
}

// TestCurvatureAgainstOracle: κ of every edge of random graphs (sparse to
// dense, several α, 1 and 3 workers) equals the naive BFS + simplex oracle.
func TestCurvatureAgainstOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	checked := 0
	for trial := range 40 {
		n := 6 + r.IntN(9)
		p := []float64{0.15, 0.3, 0.6}[trial%3]
		g := randomGraph(r, n, p, false)
		dist := exact.AllPairsBFS(g)
		for _, alpha := range []float64{0, 0.5, 0.3, 0.9} {
			ks, err := Curvatures(g, alpha, 1+2*(trial%2))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ks {
				want := oracleKappa(t, g, dist, alpha, e.U, e.V)
				if math.Abs(e.Kappa-want) > 1e-9 {
					t.Fatalf("trial %d α=%v edge (%d,%d): κ %.15g, oracle %.15g", trial, alpha, e.U, e.V, e.Kappa, want)
				}
				checked++
			}
		}
	}
	t.Logf("%d edges checked", checked)
}

// TestCurvatureExactArithmetic: for α = 0 and 1/2 the scaled masses are
// integers or half-integers, so κ·deg(x)·deg(y) is an integer or a
// half-integer up to the final division's rounding.
func TestCurvatureExactArithmetic(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		g := randomGraph(r, 14, 0.3, false)
		for _, alpha := range []float64{0, 0.5} {
			for _, e := range must(Curvatures(g, alpha, 1)) {
				s := float64(g.Degree(e.U) * g.Degree(e.V))
				w := (1 - e.Kappa) * s * 2
				if math.Abs(w-math.Round(w)) > 1e-9 {
					t.Fatalf("α=%v edge %+v: 2·W1·dx·dy = %v", alpha, e, w)
				}
			}
		}
	}
}

func TestValidateAlpha(t *testing.T) {
	for _, a := range []float64{-0.1, 1.5, math.NaN(), math.Inf(1)} {
		if err := ValidateAlpha(a); err == nil || !strings.Contains(err.Error(), "[0, 1]") {
			t.Errorf("α=%v: %v", a, err)
		}
	}
	for _, a := range []float64{0, 0.5, 1} {
		if err := ValidateAlpha(a); err != nil {
			t.Errorf("α=%v: %v", a, err)
		}
	}
}

// TestCurvatureOracleCornell: κ of Cornell's edges (α = ½ and 0) equals the
// BFS + simplex oracle, for the two thirds of the edges whose transport
// problem has at most 150 variables (gonum's dense simplex needs seconds for
// the edges at the hub of degree 94; the random graphs of
// TestCurvatureAgainstOracle cover dense neighbourhoods).
func TestCurvatureOracleCornell(t *testing.T) {
	g := testgraph.Dataset(t, "cornell", false)
	dist := exact.AllPairsBFS(g)
	checked := 0
	for _, alpha := range []float64{0.5, 0} {
		for _, e := range must(Curvatures(g, alpha, 2)) {
			if (g.Degree(e.U)+1)*(g.Degree(e.V)+1) > 150 {
				continue
			}
			checked++
			if want := oracleKappa(t, g, dist, alpha, e.U, e.V); math.Abs(e.Kappa-want) > 1e-9 {
				t.Fatalf("α=%v edge (%d,%d): κ %.15g, oracle %.15g", alpha, e.U, e.V, e.Kappa, want)
			}
		}
	}
	t.Logf("%d of %d edges checked", checked, 2*g.NumEdges())
}
