package incremental

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/linalg"
)

// TestMNormBound: √(‖L‖₁‖L‖∞) + 1 bounds the spectral norm of
// M = ΠL + J/n, computed by a dense SVD, on random strongly connected
// digraphs, and is within a factor 3 of it.
func TestMNormBound(t *testing.T) {
	r := rand.New(rand.NewPCG(64, 1))
	for _, tc := range []struct{ n, extra int }{{2, 0}, {5, 3}, {30, 10}, {60, 400}, {120, 200}} {
		g := dirStrong(r, tc.n, tc.extra)
		rows := outRows(g)
		var svd mat.SVD
		if !svd.Factorize(denseM(rows, 0), mat.SVDNone) {
			t.Fatal("SVD failed")
		}
		norm := svd.Values(nil)[0]
		b := mNormBound(rows)
		if b < norm*(1-1e-12) || b > 3*norm {
			t.Errorf("n %d, %d extra arcs: bound %.6g, ‖M‖₂ %.6g", tc.n, tc.extra, b, norm)
		}
	}
}

// TestFastDirectedCarriedBound: through random edits (single and batched,
// several SCCs), the residual bound each SCC carries between dense checks
// is at least its true residual, measured densely after every edit; the
// dense checks are fewer than the updates, none finds the residual above
// the bound carried to it, and MaxPair stays the brute-force one. With a
// dense check after every update the engine's X and decisions are the same
// bits: the carried bound only skips the measurement.
func TestFastDirectedCarriedBound(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sizes []int
		batch bool
		edits int
	}{
		{"one-scc", []int{300}, false, 120},
		{"blocks-batch", []int{120, 60, 8}, true, 90},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := func(every int, check func(e *Directed, k int)) *Directed {
				defer func(k int) { denseCheckEvery = k }(denseCheckEvery)
				denseCheckEvery = every
				r := rand.New(rand.NewPCG(65, uint64(len(tc.name))))
				g, _ := dirBlocks(r, tc.sizes, 2, 1)
				e, err := NewDirected(g, Options{FastDirected: true})
				if err != nil {
					t.Fatal(err)
				}
				fastRandomEdits(t, r, e, g.Clone(), tc.edits, tc.batch, func(k int) { check(e, k) })
				return e
			}
			var xs [][]float64
			var pairs []Pair
			carried := 0
			e := run(8, func(e *Directed, k int) {
				for _, s := range e.big {
					f := e.sccs[s].fast
					if f.rho == 0 || f.stale {
						continue
					}
					rho, err := e.fastResidual(s)
					if err != nil {
						t.Fatal(err)
					}
					if f.since > 0 {
						carried++
					}
					if rho > f.rho*(1+1e-12) {
						t.Fatalf("edit %d, SCC %d: true residual %.3g above the bound %.3g carried over %d updates", k, s, rho, f.rho, f.since)
					}
				}
				p, _ := e.MaxPair()
				if bp, _ := dirBruteMax(e); p != bp {
					t.Fatalf("edit %d: MaxPair %v, brute force %v", k, p, bp)
				}
				xs = append(xs, mat.Col(nil, 0, dirMatrix(e)))
				pairs = append(pairs, p)
			})
			st := e.FastStats()
			t.Logf("%d carried bounds checked; stats %+v", carried, st)
			if carried == 0 || st.DenseChecks >= st.Updates || st.BoundMisses != 0 || st.Fallbacks != 0 {
				t.Fatalf("stats %+v", st)
			}
			k := 0
			run(1, func(e *Directed, _ int) {
				p, _ := e.MaxPair()
				x := mat.Col(nil, 0, dirMatrix(e))
				for i := range x {
					if math.Float64bits(x[i]) != math.Float64bits(xs[k][i]) {
						t.Fatalf("edit %d: X differs with a dense check after every update", k+1)
					}
				}
				if p != pairs[k] {
					t.Fatalf("edit %d: MaxPair %v, with the carried bound %v", k+1, p, pairs[k])
				}
				k++
			})
		})
	}
}

// TestMinRAfterAddCoarse: MinRAfterAdd's coarse first pass changes nothing
// it returns: on random digraphs (and on a symmetric one, whose candidates
// tie exactly), the pair and the bits of its score are those of every
// candidate solved to the full target (fastRAfterAdd) under the tie rule,
// while most candidates stay coarse.
func TestMinRAfterAddCoarse(t *testing.T) {
	r := rand.New(rand.NewPCG(66, 2))
	sym := linalg.NewGraph(80, true)
	for v := 1; v < 80; v++ {
		u := r.IntN(min(v, 6))
		sym.AddEdge(u, v)
		sym.AddEdge(v, u)
	}
	for _, tc := range []struct {
		name string
		g    *linalg.Graph
	}{{"random", dirStrong(r, 150, 300)}, {"symmetric-ties", sym}} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := NewDirected(tc.g, Options{FastDirected: true})
			if err != nil {
				t.Fatal(err)
			}
			fastRandomEdits(t, r, e, tc.g.Clone(), 6, false, func(int) {})
			n, calls := e.N(), 0
			for range 12 {
				a, b, x := r.IntN(n), r.IntN(n), r.IntN(n)
				var ys []int
				for y := range n {
					if y != x && !e.Graph().HasEdge(x, y) && len(ys) < 24 {
						ys = append(ys, y)
					}
				}
				if len(ys) == 0 || a == b {
					continue
				}
				calls++
				got, _ := e.MinRAfterAdd(a, b, x, ys)
				cand := make([]Pair, len(ys))
				for q, y := range ys {
					rr, _, err := e.fastRAfterAdd(e.SCC(x), a, b, x, y)
					if err != nil {
						t.Fatal(err)
					}
					cand[q] = Pair{U: x, V: y, Score: rr}
				}
				want := cand[rank.First(cand, rank.Ascending, false)]
				if got.V != want.V || math.Float64bits(got.Score) != math.Float64bits(want.Score) {
					t.Fatalf("MinRAfterAdd(%d,%d,%d) = %v, every candidate solved fully %v", a, b, x, got, want)
				}
			}
			st := e.FastStats()
			t.Logf("%d calls; stats %+v", calls, st)
			if calls == 0 || st.CandidateCoarse == 0 || st.CandidateExact != 0 {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}

// TestFastDirectedCarriedBoundMerge: after an arc from a later block to an
// earlier one merges two SCCs (solved exactly), the merged SCC starts a new
// window: its next update is checked densely, and through further random
// edits every carried bound is at least the true residual and MaxPair is
// the brute-force one.
func TestFastDirectedCarriedBoundMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(67, 5))
	g, blocks := dirBlocks(r, []int{50, 30, 6}, 2, 1)
	e, err := NewDirected(g, Options{FastDirected: true})
	if err != nil {
		t.Fatal(err)
	}
	mirror := g.Clone()
	u, v := blocks[1][0], blocks[0][0]
	if err := e.Add(u, v); err != nil {
		t.Fatal(err)
	}
	mirror.AddEdge(u, v)
	if e.Merges() != 1 {
		t.Fatalf("%d merges", e.Merges())
	}
	s := e.SCC(u)
	f := e.sccs[s].fast
	if f == nil {
		t.Fatal("the merged SCC has no fast state")
	}
	if !f.checkNext || f.rho != 0 {
		t.Fatalf("merged SCC: rho %v, next update checked densely %v", f.rho, f.checkNext)
	}
	checks0 := e.FastStats().DenseChecks
	fastRandomEdits(t, r, e, mirror, 60, false, func(k int) {
		for _, s := range e.big {
			f := e.sccs[s].fast
			if f.rho == 0 || f.stale {
				continue
			}
			rho, err := e.fastResidual(s)
			if err != nil {
				t.Fatal(err)
			}
			if rho > f.rho*(1+1e-12) {
				t.Fatalf("edit %d, SCC %d: true residual %.3g above the bound %.3g carried over %d updates", k, s, rho, f.rho, f.since)
			}
		}
		if p, _ := e.MaxPair(); p != must(dirBruteMax(e)) {
			t.Fatalf("edit %d: MaxPair %v, brute force %v", k, p, must(dirBruteMax(e)))
		}
	})
	st := e.FastStats()
	if st.DenseChecks == checks0 || st.DenseChecks >= st.Updates || st.BoundMisses != 0 || st.Fallbacks != 0 {
		t.Fatalf("stats %+v", st)
	}
}

func must(p Pair, _ bool) Pair { return p }
