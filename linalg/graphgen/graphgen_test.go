package graphgen

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/linalg"
)

// checkSimple asserts u < v < n and no duplicates.
func checkSimple(t *testing.T, name string, g *Graph) {
	t.Helper()
	seen := map[linalg.Edge]bool{}
	for _, e := range g.Edges {
		if e.U >= e.V || e.U < 0 || e.V >= g.N || seen[e] {
			t.Fatalf("%s: bad or repeated edge %v", name, e)
		}
		seen[e] = true
	}
}

// edgesInside counts the edges between two nodes of one block.
func edgesInside(g *Graph) int {
	in := 0
	for _, e := range g.Edges {
		if g.Labels[e.U] == g.Labels[e.V] {
			in++
		}
	}
	return in
}

func TestSBM(t *testing.T) {
	g, err := SBM(2000, 4, 0.02, 0.002, 1)
	if err != nil {
		t.Fatal(err)
	}
	checkSimple(t, "sbm", g)
	in := edgesInside(g)
	// Expected 4·C(500,2)·0.02 = 9980 inside, 6·500²·0.002 = 3000 across;
	// 5 standard deviations of the binomials.
	if math.Abs(float64(in)-9980) > 5*math.Sqrt(9980) || math.Abs(float64(len(g.Edges)-in)-3000) > 5*math.Sqrt(3000) {
		t.Fatalf("sbm: %d edges inside, %d across", in, len(g.Edges)-in)
	}
	h, _ := SBM(2000, 4, 0.02, 0.002, 1)
	o, _ := SBM(2000, 4, 0.02, 0.002, 2)
	if !slices.Equal(g.Edges, h.Edges) || slices.Equal(g.Edges, o.Edges) {
		t.Fatal("sbm: not reproducible from its seed, or the seed does nothing")
	}
	if _, err := SBM(10, 0, 0.1, 0.1, 0); err == nil {
		t.Fatal("0 blocks accepted")
	}
}

func TestRGGAgainstAllPairs(t *testing.T) {
	g, err := RGG(600, 0.07, 3)
	if err != nil {
		t.Fatal(err)
	}
	checkSimple(t, "rgg", g)
	// The same points (same generator and stream), all pairs compared
	// directly: the grid must find exactly these.
	r := rand.New(rand.NewPCG(3, 0x266))
	xs, ys := make([]float64, 600), make([]float64, 600)
	for i := range 600 {
		xs[i], ys[i] = r.Float64(), r.Float64()
	}
	var want []linalg.Edge
	for i := range 600 {
		for j := i + 1; j < 600; j++ {
			if dx, dy := xs[i]-xs[j], ys[i]-ys[j]; dx*dx+dy*dy < 0.07*0.07 {
				want = append(want, linalg.Edge{U: i, V: j})
			}
		}
	}
	if !slices.Equal(g.Edges, want) {
		t.Fatalf("rgg: %d edges, all pairs give %d", len(g.Edges), len(want))
	}
	if len(g.Edges) < 2000 || len(g.Edges) > 5000 { // ≈ C(600,2)·π·0.07² ≈ 2765 less the border
		t.Fatalf("rgg: %d edges", len(g.Edges))
	}
}

func TestBA(t *testing.T) {
	g, err := BA(1000, 3, 7)
	if err != nil {
		t.Fatal(err)
	}
	checkSimple(t, "ba", g)
	if len(g.Edges) != 6+(1000-4)*3 {
		t.Fatalf("ba: %d edges", len(g.Edges))
	}
	deg := make([]int, g.N)
	for _, e := range g.Edges {
		deg[e.U]++
		deg[e.V]++
	}
	if slices.Min(deg) < 3 || slices.Max(deg) < 30 { // hubs appear
		t.Fatalf("ba: degrees %d..%d", slices.Min(deg), slices.Max(deg))
	}
}

func TestRingOfCliques(t *testing.T) {
	g, err := RingOfCliques(8, 10)
	if err != nil {
		t.Fatal(err)
	}
	checkSimple(t, "ring", g)
	if len(g.Edges) != 8*45+8 || g.Labels[79] != 7 {
		t.Fatalf("ring: %d edges", len(g.Edges))
	}
}

// TestSBMByDegree: the mean degree and the share of edges inside blocks
// come out as asked (within sampling error on 20 000 nodes), and a
// homophily outside [0, 1] is an error.
func TestSBMByDegree(t *testing.T) {
	for _, tc := range []struct{ deg, h float64 }{{20, 0.8}, {6, 0.3}, {10, 1}} {
		g, err := SBMByDegree(20000, 10, tc.deg, tc.h, 3)
		if err != nil {
			t.Fatal(err)
		}
		checkSimple(t, "sbm", g)
		inside := edgesInside(g)
		deg := 2 * float64(len(g.Edges)) / float64(g.N)
		share := float64(inside) / float64(len(g.Edges))
		if math.Abs(deg-tc.deg) > 0.02*tc.deg || math.Abs(share-tc.h) > 0.01 {
			t.Errorf("degree %v, homophily %v: got mean degree %.3f, share inside %.4f", tc.deg, tc.h, deg, share)
		}
	}
	if _, err := SBMByDegree(100, 2, 5, 1.5, 1); err == nil {
		t.Error("homophily 1.5: want an error")
	}
}

// TestGeneratorsRefuseBeyondMemory: every generator refuses, before it
// allocates, a graph beyond the budget (a *sysmem.Error naming the model),
// sizes beyond int32 node ids too (their memory is refused first).
func TestGeneratorsRefuseBeyondMemory(t *testing.T) {
	t.Setenv("OHM_MEMORY", "64M")
	for _, tc := range []struct {
		name string
		gen  func() (*Graph, error)
		msg  string
	}{
		{"sbm", func() (*Graph, error) { return SBMByDegree(10_000_000, 4, 10, 0.8, 1) }, "sbm: a graph of 10000000 nodes and about 5e+07 edges needs"},
		{"rgg", func() (*Graph, error) { return RGGByDegree(10_000_000, 10, 1) }, "rgg: a graph of 10000000 nodes and about 5e+07 edges needs"},
		{"ba", func() (*Graph, error) { return BA(10_000_000, 5, 1) }, "ba: a graph of 10000000 nodes"},
		{"ring", func() (*Graph, error) { return RingOfCliques(1000, 2000) }, "ring of cliques: a graph of 2000000 nodes and about 1.999e+09 edges needs"},
		{"sbm 10¹⁰", func() (*Graph, error) { return SBMByDegree(10_000_000_000, 4, 10, 0.8, 1) }, "sbm: a graph of 10000000000 nodes and about 5e+10 edges needs"},
		{"ring 10¹⁰", func() (*Graph, error) { return RingOfCliques(100_000, 100_000) }, "ring of cliques: a graph of 10000000000 nodes and about 5e+14 edges needs"},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		g, err := tc.gen()
		runtime.ReadMemStats(&after)
		if g != nil || err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v", tc.name, err)
		}
		var me *sysmem.Error
		if strings.Contains(tc.msg, "needs") && !errors.As(err, &me) {
			t.Errorf("%s: not a *sysmem.Error: %v", tc.name, err)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
			t.Errorf("%s: %d bytes allocated before the refusal", tc.name, got)
		}
	}
}
