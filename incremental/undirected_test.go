package incremental

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
)

// randomGraph returns an undirected graph on n nodes with about m random
// edges, a few self-loops and, when parts > 1, that many separate blocks.
func randomGraph(r *rand.Rand, n, m, parts int) *linalg.Graph {
	g := linalg.NewGraph(n, false)
	block := (n + parts - 1) / parts
	for try := 0; g.NumEdges() < m && try < 100*m; try++ {
		u := r.IntN(n)
		lo := u / block * block
		v := lo + r.IntN(min(block, n-lo))
		g.AddEdge(u, v)
	}
	g.AddEdge(0, 0)
	return g
}

// engineMatrix returns the engine's L⁺ as a dense matrix.
func engineMatrix(e *Undirected) *mat.SymDense {
	P := mat.NewSymDense(e.n, nil)
	for i := range e.n {
		for j := i; j < e.n; j++ {
			P.SetSym(i, j, e.p.at(i, j))
		}
	}
	return P
}

// relMaxDiff returns max|a − b| / max|b| over all entries.
func relMaxDiff(a, b mat.Matrix) float64 {
	r, c := b.Dims()
	d, m := 0.0, 1e-300
	for i := range r {
		for j := range c {
			d = math.Max(d, math.Abs(a.At(i, j)-b.At(i, j)))
			m = math.Max(m, math.Abs(b.At(i, j)))
		}
	}
	return d / m
}

// bruteMax is the tie rule of definitions §3.1 applied to the scores of a fresh L⁺.
func bruteMax(P *mat.SymDense, comp []int, within bool) (Pair, bool) {
	n := P.SymmetricDim()
	best := math.Inf(-1)
	for pass := 0; pass < 2; pass++ {
		th := best - 1e-9*math.Max(1, math.Abs(best))
		for i := range n {
			for j := i + 1; j < n; j++ {
				if within && comp[i] != comp[j] {
					continue
				}
				s := P.At(i, i) + P.At(j, j) - 2*P.At(i, j)
				if pass == 0 {
					best = math.Max(best, s)
				} else if s >= th {
					return Pair{U: i, V: j, Score: s}, true
				}
			}
		}
		if math.IsInf(best, -1) {
			return Pair{}, false
		}
	}
	panic("unreachable")
}

// TestUndirectedRandomEdits: 2,000 random valid edits (adds inside
// components, adds joining components, non-bridge removals) on a 300-node
// graph; the incremental L⁺ stays within 1e-8 relative (max-norm) of a fresh
// computation, checked every 100 edits, and the maximum pair agrees.
func TestUndirectedRandomEdits(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	g := randomGraph(r, 300, 700, 6)
	e, err := NewUndirected(g, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	var adds, joins, removes int
	for k := 1; k <= 2000; {
		u, v := r.IntN(300), r.IntN(300)
		if u == v {
			continue
		}
		if e.g.HasEdge(u, v) {
			if r.IntN(2) == 0 || e.search.IsBridge(e.g, u, v) {
				continue
			}
			if err := e.Remove(u, v); err != nil {
				t.Fatal(err)
			}
			removes++
		} else {
			// Keep the graph from becoming dense: more removals than adds
			// once it has 1,200 edges.
			if e.g.NumEdges() > 1200 && r.IntN(4) != 0 {
				continue
			}
			if e.comp[u] != e.comp[v] {
				joins++
			} else {
				adds++
			}
			if err := e.Add(u, v); err != nil {
				t.Fatal(err)
			}
		}
		if k%100 == 0 {
			want, err := e.Exact()
			if err != nil {
				t.Fatal(err)
			}
			if d := relMaxDiff(engineMatrix(e), want); d > 1e-8 {
				t.Fatalf("after %d edits: relative max-norm error %g", k, d)
			}
			comp, _ := tarjan.Components(e.g)
			wp, _ := bruteMax(want, comp, false)
			if gp, _ := e.MaxPair(); gp.U != wp.U || gp.V != wp.V {
				t.Fatalf("after %d edits: max pair %v, exact %v", k, gp, wp)
			}
		}
		k++
	}
	if joins == 0 || adds < 100 || removes < 100 {
		t.Fatalf("edit mix: %d adds, %d joins, %d removes", adds, joins, removes)
	}
	t.Logf("%d adds, %d joins, %d removes, final drift %.2e", adds, joins, removes, e.Drift())
}

// TestUndirectedMaxPairEveryEdit checks MaxPair (both admissibility rules)
// and R against a fresh L⁺ after every edit of small graphs.
func TestUndirectedMaxPairEveryEdit(t *testing.T) {
	for seed := range uint64(12) {
		r := rand.New(rand.NewPCG(seed, 3))
		n := 3 + r.IntN(25)
		for _, within := range []bool{false, true} {
			g := randomGraph(r, n, n, 1+r.IntN(3))
			e, err := NewUndirected(g, Options{Workers: 1 + int(seed%3), WithinComponents: within})
			if err != nil {
				t.Fatal(err)
			}
			for step := 0; step < 40; step++ {
				u, v := r.IntN(n), r.IntN(n)
				if u == v {
					continue
				}
				var err error
				if e.g.HasEdge(u, v) {
					err = e.Remove(u, v)
					if errors.Is(err, ErrBridge) {
						continue
					}
				} else {
					err = e.Add(u, v)
				}
				if err != nil {
					t.Fatal(err)
				}
				P, _ := e.Exact()
				comp, _ := tarjan.Components(e.g)
				want, wok := bruteMax(P, comp, within)
				got, gok := e.MaxPair()
				if gok != wok || got.U != want.U || got.V != want.V || math.Abs(got.Score-want.Score) > 1e-9 {
					t.Fatalf("seed %d within %v step %d: max %v %v, want %v %v", seed, within, step, got, gok, want, wok)
				}
				for i := range n {
					for j := range n {
						if w := linalg.Resistance(P, i, j); math.Abs(e.R(i, j)-w) > 1e-9*math.Max(1, w) {
							t.Fatalf("R(%d,%d) = %v, want %v", i, j, e.R(i, j), w)
						}
					}
				}
			}
		}
	}
}

// TestTieRule: on a complete graph every pair ties; on an even cycle the
// antipodal pairs tie; the first in row-major order must win.
func TestTieRule(t *testing.T) {
	k := linalg.NewGraph(9, false)
	for i := range 9 {
		for j := i + 1; j < 9; j++ {
			k.AddEdge(i, j)
		}
	}
	c := linalg.NewGraph(10, false)
	for i := range 10 {
		c.AddEdge(i, (i+1)%10)
	}
	for _, tc := range []struct {
		g    *linalg.Graph
		want Pair
	}{
		{k, Pair{U: 0, V: 1, Score: 2.0 / 9}},
		{c, Pair{U: 0, V: 5, Score: 2.5}},
	} {
		for _, w := range []int{1, 2, 4} {
			e, err := NewUndirected(tc.g, Options{Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := e.MaxPair()
			if got.U != tc.want.U || got.V != tc.want.V || math.Abs(got.Score-tc.want.Score) > 1e-12 {
				t.Errorf("workers %d: max %v, want %v", w, got, tc.want)
			}
		}
	}
	// MinEdge on the cycle: all edges tie at R = 0.9; the first is (0,1),
	// and rejecting it gives (1,2).
	e, _ := NewUndirected(c, Options{})
	if p, _ := e.MinEdge(nil); p.U != 0 || p.V != 1 || math.Abs(p.Score-0.9) > 1e-12 {
		t.Errorf("MinEdge %v", p)
	}
	if p, _ := e.MinEdge(func(u, v int) bool { return u != 0 }); p.U != 1 || p.V != 2 {
		t.Errorf("MinEdge with rejection %v", p)
	}
}

func TestRAfterAdd(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 200; trial++ {
		g := randomGraph(r, 20, 18, 3)
		e, err := NewUndirected(g, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		x, y := r.IntN(20), r.IntN(20)
		if x == y || g.HasEdge(x, y) {
			continue
		}
		a, b := r.IntN(20), r.IntN(20)
		pred := e.RAfterAdd(a, b, x, y)
		if err := e.Add(x, y); err != nil {
			t.Fatal(err)
		}
		if got := e.R(a, b); math.Abs(got-pred) > 1e-9*math.Max(1, got) {
			t.Fatalf("trial %d: RAfterAdd(%d,%d | %d,%d) = %v, after adding %v", trial, a, b, x, y, pred, got)
		}
	}
}

// TestRefusals: bad edits return typed errors and leave the engine unchanged.
func TestRefusals(t *testing.T) {
	// Two triangles joined by the bridge {2,3}, and an isolated node 6.
	g, _ := linalg.FromEdges(7, false, []linalg.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 0, V: 2}, {U: 2, V: 3}, {U: 3, V: 4}, {U: 4, V: 5}, {U: 3, V: 5}})
	e, err := NewUndirected(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	before := engineMatrix(e)
	bp, _ := e.MaxPair()
	for _, tc := range []struct {
		op   string
		u, v int
		want error
	}{
		{"remove", 2, 3, ErrBridge},
		{"remove", 0, 4, ErrNoEdge},
		{"add", 0, 1, ErrEdgeExists},
		{"add", 1, 0, ErrEdgeExists},
		{"add", 4, 4, ErrSelfLoop},
		{"add", 0, 7, ErrNodeRange},
		{"remove", -1, 2, ErrNodeRange},
	} {
		var err error
		if tc.op == "add" {
			err = e.Add(tc.u, tc.v)
		} else {
			err = e.Remove(tc.u, tc.v)
		}
		var ee *EditError
		if !errors.Is(err, tc.want) || !errors.As(err, &ee) || ee.U != tc.u || ee.Op != tc.op {
			t.Errorf("%s(%d,%d): %v, want %v", tc.op, tc.u, tc.v, err, tc.want)
		}
	}
	if relMaxDiff(engineMatrix(e), before) != 0 || e.g.NumEdges() != 7 {
		t.Fatal("a refused edit changed the engine")
	}
	if p, _ := e.MaxPair(); p != bp {
		t.Fatal("a refused edit changed the maximum")
	}
}

// TestWorkersIdentical: the fused pass gives bit-identical L⁺ and decisions
// for any number of workers.
func TestWorkersIdentical(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	g := randomGraph(r, 150, 400, 2)
	var ref *Undirected
	for _, w := range []int{1, 2, 3, 8} {
		e, err := NewUndirected(g, Options{Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		rr := rand.New(rand.NewPCG(6, 6))
		for k := 0; k < 300; k++ {
			u, v := rr.IntN(150), rr.IntN(150)
			if u == v {
				continue
			}
			if e.g.HasEdge(u, v) {
				_ = e.Remove(u, v)
			} else if err := e.Add(u, v); err != nil {
				t.Fatal(err)
			}
		}
		if ref == nil {
			ref = e
			continue
		}
		if !slices.Equal(e.p.data, ref.p.data) || e.best != ref.best {
			t.Fatalf("workers %d differ from workers 1", w)
		}
	}
}

func TestNoAllocationPerStep(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	g := randomGraph(r, 200, 600, 1)
	for _, w := range []int{1, 2} {
		e, _ := NewUndirected(g, Options{Workers: w})
		var pairs [][2]int
		for u := range 200 {
			for v := u + 1; v < 200 && len(pairs) < 50; v++ {
				if !g.HasEdge(u, v) {
					pairs = append(pairs, [2]int{u, v})
				}
			}
		}
		k := 0
		allocs := testing.AllocsPerRun(40, func() {
			p := pairs[k%len(pairs)]
			k++
			if e.g.HasEdge(p[0], p[1]) {
				e.Remove(p[0], p[1])
			} else {
				e.Add(p[0], p[1])
			}
		})
		if allocs > 0 {
			t.Errorf("workers %d: %.1f allocations per edit", w, allocs)
		}
	}
}

// TestDriftDetectsCorruption: Drift is tiny on an exact L⁺, large after one
// entry is corrupted, and an edit that crosses the check interval repairs it.
func TestDriftDetectsCorruption(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	g := randomGraph(r, 40, 120, 1)
	e, err := NewUndirected(g, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if d := e.Drift(); d > 1e-12 {
		t.Fatalf("drift of a fresh L⁺: %g", d)
	}
	for i := range e.n {
		e.p.set(i, (i+1)%e.n, e.p.at(i, (i+1)%e.n)+1e-6)
	}
	if d := e.Drift(); d < 1e-7 {
		t.Fatalf("drift after corruption: %g", d)
	}
	// Edits up to the next multiple of 64 trigger the check and a refresh.
	for e.edits%64 != 0 || e.edits == 0 {
		u, v := r.IntN(40), r.IntN(40)
		if u == v || e.g.HasEdge(u, v) {
			continue
		}
		if err := e.Add(u, v); err != nil {
			t.Fatal(err)
		}
	}
	want, _ := e.Exact()
	if d := relMaxDiff(engineMatrix(e), want); d > 1e-12 {
		t.Fatalf("after the drift check: error %g", d)
	}
}

// TestBatch: random batches of up to four edits (adds inside components,
// joins, non-bridge removals; a fourth edit forces an early flush) leave L⁺,
// the maximum and the per-hop scores equal to a fresh computation.
func TestBatch(t *testing.T) {
	for _, hop := range []bool{false, true} {
		r := rand.New(rand.NewPCG(21, 4))
		g := randomGraph(r, 120, 200, 4)
		e, err := NewUndirected(g, Options{Workers: 2, PerHop: hop})
		if err != nil {
			t.Fatal(err)
		}
		for b := 0; b < 60; b++ {
			e.Begin()
			for k := 1 + r.IntN(4); k > 0; {
				u, v := r.IntN(120), r.IntN(120)
				if u == v {
					continue
				}
				var err error
				if e.g.HasEdge(u, v) {
					if err = e.Remove(u, v); errors.Is(err, ErrBridge) {
						continue
					}
				} else {
					err = e.Add(u, v)
				}
				if err != nil {
					t.Fatal(err)
				}
				k--
			}
			if err := e.Commit(); err != nil {
				t.Fatal(err)
			}
			want, _ := e.Exact()
			if d := relMaxDiff(engineMatrix(e), want); d > 1e-9 {
				t.Fatalf("hop %v batch %d: error %g", hop, b, d)
			}
			fresh, _ := NewUndirected(e.g, Options{Workers: 1, PerHop: hop})
			if got, _ := e.MaxPair(); got.U != fresh.best.U || got.V != fresh.best.V || math.Abs(got.Score-fresh.best.Score) > 1e-9 {
				t.Fatalf("hop %v batch %d: max %v, fresh %v", hop, b, got, fresh.best)
			}
		}
	}
}
