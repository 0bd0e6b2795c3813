package rewire

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// referenceFoSR transcribes the authors' algorithm directly, on arc lists
// and the dense n×n product matrix: it returns the added pairs (u < v).
func referenceFoSR(g *linalg.Graph, x0 []float64, iterations, powerIters int) [][2]int {
	n := g.N()
	var src, dst []int
	for _, a := range g.Arcs() {
		src, dst = append(src, a.U), append(dst, a.V)
	}
	deg := make([]float64, n)
	for _, u := range src {
		deg[u]++
	}
	x := append([]float64(nil), x0...)
	step := func() {
		dot, sum := 0.0, 0.0
		for i := range n {
			dot += x[i] * math.Sqrt(deg[i])
			sum += deg[i]
		}
		for i := range n {
			x[i] -= dot * math.Sqrt(deg[i]) / sum
		}
		ax := make([]float64, n)
		for k := range src {
			ax[src[k]] += x[dst[k]] / math.Sqrt(deg[dst[k]])
		}
		y := make([]float64, n)
		norm := 0.0
		for i := range n {
			y[i] = x[i] + ax[i]/math.Sqrt(deg[i])
			norm += y[i] * y[i]
		}
		for i := range n {
			x[i] = y[i] / math.Sqrt(norm)
		}
	}
	for range powerIters {
		step()
	}
	var added [][2]int
	for range iterations {
		prod := make([]float64, n*n)
		for i := range n {
			for j := range n {
				prod[i*n+j] = x[i] / math.Sqrt(deg[i]+1) * (x[j] / math.Sqrt(deg[j]+1))
			}
		}
		for k := range src {
			prod[src[k]*n+dst[k]] = math.Inf(1)
		}
		for i := range n {
			prod[i*n+i] = math.Inf(1)
		}
		arg := 0
		for k, p := range prod {
			if p < prod[arg] {
				arg = k
			}
		}
		i, j := arg%n, arg/n
		src, dst = append(src, i, j), append(dst, j, i)
		deg[i]++
		deg[j]++
		added = append(added, [2]int{min(i, j), max(i, j)})
		step()
	}
	return added
}

// TestFoSRMatchesReference: from the same start vector, FoSR adds the same
// edges, in the same order, as the direct transcription with the dense
// product, on random graphs of a few hundred nodes (without isolated nodes,
// where the reference divides by zero).
func TestFoSRMatchesReference(t *testing.T) {
	for seed := range uint64(3) {
		r := rand.New(rand.NewPCG(seed, 7))
		n := 150 + 50*int(seed)
		g := linalg.NewGraph(n, false)
		for i := 1; i < n; i++ { // a random tree: no isolated node
			g.AddEdge(i, r.IntN(i))
		}
		for range n / 2 {
			g.AddEdge(r.IntN(n), r.IntN(n))
		}
		g.AddEdge(3, 3) // a self-loop counts in the degrees, as in edge_index
		x0 := make([]float64, n)
		for i := range x0 {
			x0[i] = 2*r.Float64() - 1
		}
		res, err := Run(g, Config{Method: FoSR, Budget: 40.0 / float64(g.E0()), FoSR: &FoSROptions{X0: x0}})
		if err != nil {
			t.Fatal(err)
		}
		want := referenceFoSR(g, x0, res.Budget, FoSRInitialPowerIterations)
		if len(res.Log) != len(want) {
			t.Fatalf("seed %d: %d additions, reference %d", seed, len(res.Log), len(want))
		}
		for k, e := range res.Log {
			if e.Op != "add" || e.U != want[k][0] || e.V != want[k][1] {
				t.Fatalf("seed %d: addition %d is %d-%d, reference %v", seed, k, e.U, e.V, want[k])
			}
		}
	}
}

// TestFoSRSearch: the sorted search equals the dense argmin, with ties and
// with the best pairs already edges.
func TestFoSRSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	var kept productSearch // buffers reused from trial to trial, as in a run
	quick := 0             // trials the extreme pair answered
	defer func() {
		t.Logf("the extreme pair answered %d of 300 trials", quick)
		if quick < 50 || quick > 250 {
			t.Errorf("the extreme pair answered %d of 300 trials: the test misses a path (50 to 250 expected)", quick)
		}
	}()
	for trial := range 300 {
		n := 5 + r.IntN(40)
		g := linalg.NewGraph(n, false)
		y := make([]float64, n)
		for i := range y {
			if trial%2 == 0 {
				y[i] = float64(r.IntN(7)-3) / 3 // few values: exact ties
			} else {
				y[i] = 2*r.Float64() - 1 // the extreme pair, unless it is an edge
			}
		}
		for range r.IntN(n * 2) {
			u, v := r.IntN(n), r.IntN(n)
			if u != v {
				g.AddEdge(u, v)
			}
		}
		if eu, ev, ep, eok := extremePair(g, y); eok {
			quick++
			if du, dv, dp, _ := denseMinProduct(g, y); eu != du || ev != dv || ep != dp {
				t.Fatalf("trial %d: extreme pair %d-%d (%v), dense %d-%d (%v)", trial, eu, ev, ep, du, dv, dp)
			}
		}
		u, v, p, ok := minProductNonEdge(g, y)
		if ku, kv, kp, kok := kept.min(g, y); ku != u || kv != v || kp != p || kok != ok {
			t.Fatalf("trial %d: reused buffers %d-%d (%v), fresh %d-%d (%v)", trial, ku, kv, kp, u, v, p)
		}
		du, dv, dp, dok := denseMinProduct(g, y)
		f := &fosr{g: g}
		if mu, mv, mp, mok := f.denseMarked(y); mu != du || mv != dv || mp != dp || mok != dok {
			t.Fatalf("trial %d: marked scan %d-%d (%v), dense %d-%d (%v)", trial, mu, mv, mp, du, dv, dp)
		}
		if ok && (!dok || u != du || v != dv || p != dp) {
			t.Fatalf("trial %d: sorted search %d-%d (%v), dense %d-%d (%v)", trial, u, v, p, du, dv, dp)
		}
		if !ok && dok && dp < 0 {
			t.Fatalf("trial %d: sorted search found no negative product, dense %d-%d (%v)", trial, du, dv, dp)
		}
	}
}

// BenchmarkFoSRSearch measures one FoSR search for the non-edge of least
// y_u·y_v on a generated 3 000-node SBM (mean degree 10): "sorted" is
// ohm's O(n log n + m) search over the sorted y, "dense" the reference
// code's scan of every pair (its n×n product without the allocation),
// O(n²). Report ns/op of both: the ratio is the search's speed-up.
func BenchmarkFoSRSearch(b *testing.B) {
	gg, err := graphgen.SBM(3000, 3, 10.0/1000, 0.5/2000, 1)
	if err != nil {
		b.Fatal(err)
	}
	g, err := linalg.FromEdges(gg.N, false, gg.Edges)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2, 2))
	y := make([]float64, g.N())
	for i := range y {
		y[i] = r.NormFloat64()
	}
	for _, bc := range []struct {
		name   string
		search func(*linalg.Graph, []float64) (int, int, float64, bool)
	}{{"sorted", minProductNonEdge}, {"dense", denseMinProduct}} {
		b.Run(bc.name, func(b *testing.B) {
			for range b.N {
				if _, _, _, ok := bc.search(g, y); !ok {
					b.Fatal("no pair")
				}
			}
		})
	}
}

// TestFoSRVanishedStartVector: a start vector parallel to √d vanishes in
// the first power step; the error is a *ConfigError about the start vector
// (or, for a drawn one, the seed), naming no command-line flag.
func TestFoSRVanishedStartVector(t *testing.T) {
	// A 4-regular circulant: √d = 2 is exact, so x0 = 1 is parallel to √d
	// to the last bit.
	g := linalg.NewGraph(8, false)
	for i := range 8 {
		g.AddEdge(i, (i+1)%8)
		g.AddEdge(i, (i+2)%8)
	}
	x0 := make([]float64, g.N())
	for i := range x0 {
		x0[i] = 1
	}
	for _, tc := range []struct {
		x0    []float64
		field Field
	}{{x0, FieldStartVector}, {make([]float64, g.N()), FieldStartVector}} {
		_, err := Run(g, Config{Method: FoSR, Budget: 0.5, FoSR: &FoSROptions{X0: tc.x0}})
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(err.Error(), "power iteration vanished") {
			t.Fatalf("x0 %v: error %v, want a *ConfigError about the %s", tc.x0, err, tc.field)
		}
		if strings.Contains(err.Error(), "--") {
			t.Errorf("a library error names a flag: %v", err)
		}
	}
	o := &fosrOperator{opt: FoSROptions{Seed: 7}}
	var ce *ConfigError
	if err := o.startError(ErrFoSRVanished); !errors.As(err, &ce) || ce.Field != FieldSeed || ce.Value != uint64(7) {
		t.Errorf("drawn start vector: %v, want a *ConfigError about seed 7", err)
	}
}
