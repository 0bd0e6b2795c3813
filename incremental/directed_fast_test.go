package incremental

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
)

// fastRandomEdits applies edits random arc edits (additions and removals
// that keep the SCC partition) to the fast engine e and its mirror graph,
// calling check after each.
func fastRandomEdits(t *testing.T, r *rand.Rand, e *Directed, mirror *linalg.Graph, edits int, batch bool, check func(k int)) {
	t.Helper()
	comp0, _ := tarjan.SCC(mirror)
	var big [][]int
	for _, m := range linalg.Groups(comp0) {
		if len(m) >= 2 {
			big = append(big, m)
		}
	}
	for k := 0; k < edits; {
		if batch {
			e.Begin()
		}
		n := 1
		if batch {
			n = 1 + r.IntN(3)
		}
		done := 0
		for done < n {
			if r.IntN(2) == 0 {
				m := big[r.IntN(len(big))]
				u, v := m[r.IntN(len(m))], m[r.IntN(len(m))]
				if u == v || mirror.HasEdge(u, v) {
					continue
				}
				if err := e.Add(u, v); err != nil {
					t.Fatalf("add %d→%d: %v", u, v, err)
				}
				mirror.AddEdge(u, v)
			} else {
				arcs := mirror.Edges()
				a := arcs[r.IntN(len(arcs))]
				if comp0[a.U] != comp0[a.V] {
					continue
				}
				err := e.Remove(a.U, a.V)
				if tarjan.NewSearcher(mirror.N()).SplitsSCC(mirror, a.U, a.V) {
					if !errors.Is(err, ErrSplitsSCC) {
						t.Fatalf("remove %d→%d splits its SCC, got %v", a.U, a.V, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("remove %d→%d: %v", a.U, a.V, err)
				}
				mirror.RemoveEdge(a.U, a.V)
			}
			done++
		}
		if batch {
			if err := e.Commit(); err != nil {
				t.Fatal(err)
			}
		}
		k += done
		check(k)
	}
}

// TestFastDirectedRandomEdits: after 200 random arc edits on a 400-node
// strongly connected digraph, one at a time (and 100 edits on 200 nodes in
// batches of up to three), the fast engine's X is within 1e-8 relative
// (max-norm) of a fresh exact solve, its MaxPair agrees with a brute-force
// scan and with the fresh engine, and it never needed a fallback.
func TestFastDirectedRandomEdits(t *testing.T) {
	for _, tc := range []struct {
		n, edits int
		batch    bool
	}{{400, 200, false}, {200, 100, true}} {
		t.Run(fmt.Sprintf("n%d_batch=%v", tc.n, tc.batch), func(t *testing.T) {
			r := rand.New(rand.NewPCG(61, 6))
			g := dirStrong(r, tc.n, 3*tc.n)
			e, err := NewDirected(g, Options{FastDirected: true})
			if err != nil {
				t.Fatal(err)
			}
			mirror := g.Clone()
			fastRandomEdits(t, r, e, mirror, tc.edits, tc.batch, func(k int) {
				got, ok := e.MaxPair()
				if bp, bok := dirBruteMax(e); got != bp || ok != bok {
					t.Fatalf("edit %d: MaxPair %v, brute force %v", k, got, bp)
				}
				if k%100 != 0 && k < tc.edits {
					return
				}
				fresh, err := NewDirected(mirror, Options{})
				if err != nil {
					t.Fatal(err)
				}
				d := relMaxDiff(dirMatrix(e), dirMatrix(fresh))
				t.Logf("edit %d: X off by %.3g (relative), drift %.3g, stats %+v", k, d, e.Drift(), e.FastStats())
				if d > 1e-8 {
					t.Fatalf("edit %d: X off by %.3g (relative)", k, d)
				}
				if fp, _ := fresh.MaxPair(); fp.U != got.U || fp.V != got.V {
					t.Fatalf("edit %d: MaxPair %v, fresh %v", k, got, fp)
				}
			})
			if st := e.FastStats(); st.Fallbacks != 0 || st.Updates == 0 {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}

// fastCheckBounds asserts that every resistance of the fast engine e is
// within its certified error bound of the fresh exact engine's, and returns
// the largest ratio error/bound seen.
func fastCheckBounds(t *testing.T, e, fresh *Directed) float64 {
	t.Helper()
	worst := 0.0
	for i := range e.N() {
		for j := i + 1; j < e.N(); j++ {
			r, ok := e.R(i, j)
			if !ok {
				continue
			}
			want, _ := fresh.R(i, j)
			d := math.Abs(r - want)
			b := e.ErrorBound(e.SCC(i), r)
			// The exact engine itself carries rounding of about 1e-14.
			if d > b+1e-13*math.Max(1, want) {
				t.Fatalf("R(%d,%d) = %v, exact %v: error %.3g above the bound %.3g", i, j, r, want, d, b)
			}
			if b > 0 {
				worst = math.Max(worst, d/b)
			}
		}
	}
	return worst
}

// TestFastDirectedScenarios: several SCCs (one-way arcs between them,
// sources, isolated nodes, self-loops), with and without per-hop scores,
// edits one at a time and in batches. After every edit MaxPair and MinEdge
// agree with a fresh exact engine, and every resistance is within the
// certified error bound of the exact one.
func TestFastDirectedScenarios(t *testing.T) {
	for _, tc := range []struct {
		name   string
		sizes  []int
		perHop bool
		batch  bool
		edits  int
	}{
		{"blocks", []int{90, 40, 12, 3, 2}, false, false, 60},
		{"blocks-batch", []int{90, 40, 12, 3, 2}, false, true, 60},
		{"blocks-perhop", []int{70, 30, 5}, true, false, 40},
		{"small-sccs", []int{6, 5, 4, 3, 3, 2}, false, true, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(62, uint64(len(tc.name))))
			g, _ := dirBlocks(r, tc.sizes, 5, 3)
			opt := Options{FastDirected: true, PerHop: tc.perHop}
			e, err := NewDirected(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			mirror := g.Clone()
			worst := 0.0
			fastRandomEdits(t, r, e, mirror, tc.edits, tc.batch, func(k int) {
				fresh, err := NewDirected(mirror, Options{PerHop: tc.perHop})
				if err != nil {
					t.Fatal(err)
				}
				got, ok := e.MaxPair()
				want, wok := fresh.MaxPair()
				if ok != wok || got.U != want.U || got.V != want.V {
					t.Fatalf("edit %d: MaxPair %v, exact %v", k, got, want)
				}
				acc := func(u, v int) bool { return !fresh.search.SplitsSCC(mirror, u, v) }
				gm, _ := e.MinEdge(acc)
				wm, _ := fresh.MinEdge(acc)
				if gm.U != wm.U || gm.V != wm.V {
					t.Fatalf("edit %d: MinEdge %v, exact %v", k, gm, wm)
				}
				worst = math.Max(worst, fastCheckBounds(t, e, fresh))
			})
			st := e.FastStats()
			t.Logf("largest error/bound %.2g; stats %+v", worst, st)
			if st.Fallbacks != 0 || st.Updates == 0 {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}

// TestFastDirectedFallbacks forces the fallbacks: with a residual limit of 0
// every update is replaced by an exact solve; with error bounds inflated
// 1e8 times, the decision checks find ties and near-ties uncertain and solve
// exactly. Decisions and X still match a fresh exact engine, and the
// counters add up.
func TestFastDirectedFallbacks(t *testing.T) {
	for _, tc := range []struct {
		name     string
		residual float64
		safety   float64
		want     func(FastStats) bool
	}{
		{"residual", 0, 2, func(s FastStats) bool { return s.ResidualFallbacks == s.Updates && s.Updates > 0 }},
		{"margins", 1e-10, 1e8, func(s FastStats) bool { return s.MarginFallbacks > 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func(r, s float64) { maxResidual, boundSafety = r, s }(maxResidual, boundSafety)
			maxResidual, boundSafety = tc.residual, tc.safety
			r := rand.New(rand.NewPCG(63, 3))
			// A symmetric digraph on a tree with hubs: many exact ties.
			g := linalg.NewGraph(60, true)
			for v := 1; v < 60; v++ {
				u := r.IntN(min(v, 6))
				g.AddEdge(u, v)
				g.AddEdge(v, u)
			}
			for range 15 {
				if u, v := r.IntN(20), r.IntN(20); u != v {
					g.AddEdge(u, v)
					g.AddEdge(v, u)
				}
			}
			e, err := NewDirected(g, Options{FastDirected: true})
			if err != nil {
				t.Fatal(err)
			}
			mirror := g.Clone()
			fastRandomEdits(t, r, e, mirror, 30, true, func(k int) {
				fresh, err := NewDirected(mirror, Options{})
				if err != nil {
					t.Fatal(err)
				}
				got, _ := e.MaxPair()
				want, _ := fresh.MaxPair()
				if got.U != want.U || got.V != want.V {
					t.Fatalf("edit %d: MaxPair %v, exact %v", k, got, want)
				}
				if d := relMaxDiff(dirMatrix(e), dirMatrix(fresh)); d > 1e-8 {
					t.Fatalf("edit %d: X off by %.3g", k, d)
				}
			})
			st := e.FastStats()
			t.Logf("stats %+v", st)
			if !tc.want(st) || st.Fallbacks != st.ResidualFallbacks+st.MarginFallbacks || e.Fallbacks() != st.Fallbacks+st.CandidateExact {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}

// TestFastDirectedRAfterAdd: the fast RAfterAdd (a low-rank solve, no O(n²)
// work) agrees with the exact mode's re-solve to 1e-10 relative and within
// its certified bound, and MinRAfterAdd picks the candidate the exact values
// pick, also with bounds inflated so that its exact fallback runs.
func TestFastDirectedRAfterAdd(t *testing.T) {
	r := rand.New(rand.NewPCG(64, 4))
	for _, n := range []int{4, 12, 40, 120} {
		t.Run(fmt.Sprintf("n%d", n), func(t *testing.T) {
			g := dirStrong(r, n, 2*n)
			fast, err := NewDirected(g, Options{FastDirected: true})
			if err != nil {
				t.Fatal(err)
			}
			exact, err := NewDirected(g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			// Age the fast engine a little so that its residual is not 0.
			mirror := g.Clone()
			fastRandomEdits(t, r, fast, mirror, 6, false, func(int) {})
			exact, err = NewDirected(mirror, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for range 8 {
				a, b, x := r.IntN(n), r.IntN(n), r.IntN(n)
				var ys []int
				for _, y := range r.Perm(n) {
					if y != x && !mirror.HasEdge(x, y) && len(ys) < 5 {
						ys = append(ys, y)
					}
				}
				slices.Sort(ys)
				if len(ys) == 0 || a == b {
					continue
				}
				s := fast.SCC(x)
				for _, y := range ys {
					got, _, err := fast.fastRAfterAdd(s, a, b, x, y)
					if err != nil {
						t.Fatal(err)
					}
					_, bound, _ := fast.fastRAfterAdd(s, a, b, x, y)
					want, _ := exact.RAfterAdd(a, b, x, y)
					if d := math.Abs(got - want); d > 1e-10*math.Max(1, want) || d > bound+1e-13*math.Max(1, want) {
						t.Fatalf("R(%d,%d | %d→%d) = %v, exact %v (bound %.3g)", a, b, x, y, got, want, bound)
					}
					checked++
				}
				for _, safety := range []float64{2, 1e9} {
					boundSafety = safety
					p, ok := fast.MinRAfterAdd(a, b, x, ys)
					boundSafety = 2
					q, qok := exact.MinRAfterAdd(a, b, x, ys)
					if ok != qok || p.U != q.U || p.V != q.V {
						t.Fatalf("MinRAfterAdd(%d,%d,%d,%v) = %v, exact %v (safety %g)", a, b, x, ys, p, q, safety)
					}
				}
			}
			if checked == 0 {
				t.Fatal("nothing checked")
			}
			if st := fast.FastStats(); st.Candidates == 0 || st.CandidateExact == 0 {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}

// denseM returns M + pI = Π L + J/n + pI for the out-neighbour lists rows.
func denseM(rows [][]int, p float64) *mat.Dense {
	n := len(rows)
	L := mat.NewDense(n, n, nil)
	for i, r := range rows {
		for _, j := range r {
			L.Set(i, j, L.At(i, j)-1)
			L.Set(i, i, L.At(i, i)+1)
		}
	}
	M := mat.NewDense(n, n, nil)
	for b := range n {
		col := 0.0
		for a := range n {
			col += L.At(a, b)
		}
		for a := range n {
			v := L.At(a, b) + (1-col)/float64(n)
			if a == b {
				v += p
			}
			M.Set(a, b, v)
		}
	}
	return M
}

// TestShiftSolver: the shifted solves (sparse LU of the base Laplacian,
// Woodbury for the changed rows, Sherman–Morrison for 1wᵀ and for a
// candidate arc) match dense solves of (M + pI) x = b through rounds of row
// changes, including enough to force a refactorization.
func TestShiftSolver(t *testing.T) {
	r := rand.New(rand.NewPCG(65, 5))
	n := 80
	g := dirStrong(r, n, 3*n)
	rows := make([][]int, n)
	for i := range n {
		rows[i] = slices.Clone(g.Out(i))
	}
	shifts := []float64{1e-3, 0.1, 3}
	sv, err := newShiftSolver(rows, shifts)
	if err != nil {
		t.Fatal(err)
	}
	check := func(round int, cand [2]int) {
		t.Helper()
		cur := make([][]int, n)
		for i := range n {
			cur[i] = slices.Clone(sv.rows[i])
		}
		if cand[0] >= 0 {
			cur[cand[0]] = append(cur[cand[0]], cand[1])
		}
		for j, p := range shifts {
			b := make([]float64, n*2)
			for i := range b {
				b[i] = r.NormFloat64()
			}
			x := slices.Clone(b)
			if err := sv.solve(j, x, 2); err != nil {
				t.Fatal(err)
			}
			var want mat.Dense
			if err := want.Solve(denseM(cur, p), mat.NewDense(n, 2, b)); err != nil {
				t.Fatal(err)
			}
			if d := relMaxDiff(mat.NewDense(n, 2, x), &want); d > 1e-9 {
				t.Fatalf("round %d shift %g cand %v: off by %.3g (%d rows changed)", round, p, cand, d, len(sv.changed))
			}
		}
	}
	check(0, [2]int{-1, -1})
	refactors := 0
	for round := 1; round <= 16; round++ {
		upd := map[int][]int{}
		for range 6 {
			i := r.IntN(n)
			nb := slices.Clone(sv.rows[i])
			if _, ok := upd[i]; ok {
				nb = upd[i]
			}
			if j := r.IntN(n); j != i && !slices.Contains(nb, j) {
				nb = append(nb, j)
				slices.Sort(nb)
			} else if len(nb) > 1 {
				nb = nb[1:]
			}
			upd[i] = nb
		}
		before := len(sv.changed)
		if err := sv.setRows(upd); err != nil {
			t.Fatal(err)
		}
		if len(sv.changed) < before {
			refactors++
		}
		check(round, [2]int{-1, -1})
		x, y := r.IntN(n), r.IntN(n)
		if x != y && !slices.Contains(sv.rows[x], y) {
			sv.setCandidate(x, y)
			check(round, [2]int{x, y})
			sv.setCandidate(-1, 0)
		}
	}
	if refactors == 0 {
		t.Fatal("no refactorization happened")
	}
}
