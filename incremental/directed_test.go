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

// dirCycleArcs adds a directed cycle through nodes (in that order) and extra
// random arcs among them to g, making them strongly connected.
func dirCycleArcs(r *rand.Rand, g *linalg.Graph, nodes []int, extra int) {
	k := len(nodes)
	if k < 2 {
		return
	}
	for a := range k {
		g.AddEdge(nodes[a], nodes[(a+1)%k])
	}
	for range extra {
		u, v := nodes[r.IntN(k)], nodes[r.IntN(k)]
		if u != v {
			g.AddEdge(u, v)
		}
	}
}

// dirStrong returns a random strongly connected digraph on n nodes: a cycle
// through a random order of the nodes plus about extra random arcs.
func dirStrong(r *rand.Rand, n, extra int) *linalg.Graph {
	g := linalg.NewGraph(n, true)
	dirCycleArcs(r, g, r.Perm(n), extra)
	return g
}

// outRows returns each node's out-neighbours in g, self-loops left out:
// the rows the fast engine's solvers take.
func outRows(g *linalg.Graph) [][]int {
	rows := make([][]int, g.N())
	for i := range rows {
		for _, j := range g.Out(i) {
			if j != i {
				rows[i] = append(rows[i], j)
			}
		}
	}
	return rows
}

// dirBlocks returns a digraph whose nodes (ids shuffled, so that SCCs
// interleave) form strongly connected blocks of the given sizes, one-way arcs
// from earlier to later blocks only (so the blocks stay the SCCs), `sources`
// single nodes with arcs into the blocks, `isolated` nodes without arcs, and
// a few self-loops. It also returns the blocks' members.
func dirBlocks(r *rand.Rand, sizes []int, sources, isolated int) (*linalg.Graph, [][]int) {
	n := sources + isolated
	for _, s := range sizes {
		n += s
	}
	perm := r.Perm(n)
	g := linalg.NewGraph(n, true)
	var blocks [][]int
	at := 0
	for _, s := range sizes {
		b := perm[at : at+s]
		at += s
		dirCycleArcs(r, g, b, 2*s)
		blocks = append(blocks, b)
	}
	for bi := range blocks {
		for bj := bi + 1; bj < len(blocks); bj++ {
			for range 3 {
				g.AddEdge(blocks[bi][r.IntN(len(blocks[bi]))], blocks[bj][r.IntN(len(blocks[bj]))])
			}
		}
	}
	for k := range sources {
		u := perm[at+k]
		for range 3 {
			b := blocks[r.IntN(len(blocks))]
			g.AddEdge(u, b[r.IntN(len(b))])
		}
	}
	for k := range 4 {
		g.AddEdge(perm[k], perm[k])
	}
	g.AddEdge(perm[n-1], perm[n-1]) // an isolated node with a self-loop
	return g, blocks
}

// dirMatrix returns the engine's X as a dense n×n matrix.
func dirMatrix(e *Directed) *mat.Dense {
	X := mat.NewDense(max(e.N(), 1), max(e.N(), 1), nil)
	for i := range e.N() {
		for j := range e.N() {
			X.Set(i, j, e.X(i, j))
		}
	}
	return X
}

// dirBruteMax applies definitions §3.1's tie rule to every ordered pair i ≠ j in one
// SCC, with the scores R of the engine.
func dirBruteMax(e *Directed) (Pair, bool) {
	best := math.Inf(-1)
	for i := range e.N() {
		for j := range e.N() {
			if r, ok := e.R(i, j); ok && i != j {
				best = math.Max(best, r)
			}
		}
	}
	if math.IsInf(best, -1) {
		return Pair{}, false
	}
	th := best - 1e-9*math.Max(1, math.Abs(best))
	for i := range e.N() {
		for j := range e.N() {
			if r, ok := e.R(i, j); ok && i != j && r >= th {
				return Pair{U: i, V: j, Score: r}, true
			}
		}
	}
	panic("unreachable")
}

// dirBruteMinEdge applies the tie rule to the arcs inside SCCs that accept
// keeps (all of them ranked at once, rejection being a fixed predicate here).
func dirBruteMinEdge(e *Directed, accept func(u, v int) bool) (Pair, bool) {
	best := math.Inf(1)
	for _, a := range e.Graph().Edges() {
		if r, ok := e.R(a.U, a.V); ok && accept(a.U, a.V) {
			best = math.Min(best, r)
		}
	}
	if math.IsInf(best, 1) {
		return Pair{}, false
	}
	th := best + 1e-9*math.Max(1, math.Abs(best))
	for _, a := range e.Graph().Edges() {
		if r, ok := e.R(a.U, a.V); ok && accept(a.U, a.V) && r <= th {
			return Pair{U: a.U, V: a.V, Score: r}, true
		}
	}
	panic("unreachable")
}

// qFormX computes X for a strongly connected digraph by the paper's
// definition (definitions §2.2), independently of the engine and of
// linalg.SolveLyapunov: Q the Helmert matrix (orthonormal rows spanning 1⊥),
// L̄ = Q L Qᵀ, Σ from the Kronecker system (L̄⊗I + I⊗L̄) vec Σ = vec I,
// X = 2QᵀΣQ.
func qFormX(t *testing.T, g *linalg.Graph) *mat.Dense {
	n := g.N()
	m := n - 1
	L := mat.NewDense(n, n, nil)
	for i := range n {
		for _, j := range g.Out(i) {
			L.Set(i, i, L.At(i, i)+1)
			L.Set(i, j, L.At(i, j)-1)
		}
	}
	Q := mat.NewDense(m, n, nil)
	for k := 1; k <= m; k++ {
		s := 1 / math.Sqrt(float64(k*(k+1)))
		for c := range k {
			Q.Set(k-1, c, s)
		}
		Q.Set(k-1, k, -float64(k)*s)
	}
	var QL, Lbar mat.Dense
	QL.Mul(Q, L)
	Lbar.Mul(&QL, Q.T())
	K := mat.NewDense(m*m, m*m, nil)
	rhs := mat.NewVecDense(m*m, nil)
	for i := range m {
		rhs.SetVec(i*m+i, 1)
		for j := range m {
			for k := range m {
				// row-major vec: (L̄Σ)_ij = Σ_k L̄_ik Σ_kj, (ΣL̄ᵀ)_ij = Σ_k Σ_ik L̄_jk
				K.Set(i*m+j, k*m+j, K.At(i*m+j, k*m+j)+Lbar.At(i, k))
				K.Set(i*m+j, i*m+k, K.At(i*m+j, i*m+k)+Lbar.At(j, k))
			}
		}
	}
	var sv mat.VecDense
	if err := sv.SolveVec(K, rhs); err != nil {
		t.Fatalf("Kronecker solve: %v", err)
	}
	Sigma := mat.NewDense(m, m, sv.RawVector().Data)
	var SQ, X mat.Dense
	SQ.Mul(Sigma, Q)
	X.Mul(Q.T(), &SQ)
	X.Scale(2, &X)
	return &X
}

// TestDirectedSymmetricIsPinv: for a symmetric digraph X = L⁺ of the
// underlying undirected graph, and the resistances agree (definitions §2.2).
func TestDirectedSymmetricIsPinv(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 1))
	for _, tc := range []struct{ n, extra, parts int }{
		{2, 0, 1}, {3, 1, 1}, {7, 5, 1}, {20, 15, 1}, {40, 80, 1}, {60, 60, 1}, {60, 120, 3},
	} {
		t.Run(fmt.Sprintf("n%d_m%d_parts%d", tc.n, tc.extra, tc.parts), func(t *testing.T) {
			u := linalg.NewGraph(tc.n, false)
			block := (tc.n + tc.parts - 1) / tc.parts
			for v := 1; v < tc.n; v++ { // a random tree on each block
				if lo := v / block * block; v > lo {
					u.AddEdge(v, lo+r.IntN(v-lo))
				}
			}
			for range tc.extra {
				a := r.IntN(tc.n)
				lo := a / block * block
				if b := lo + r.IntN(min(block, tc.n-lo)); a != b {
					u.AddEdge(a, b)
				}
			}
			u.AddEdge(0, 0)
			g := linalg.NewGraph(tc.n, true)
			for _, ed := range u.Edges() {
				g.AddEdge(ed.U, ed.V)
				g.AddEdge(ed.V, ed.U)
			}
			e, err := NewDirected(g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			ue, err := NewUndirected(g.Undirected(), Options{WithinComponents: true})
			if err != nil {
				t.Fatal(err)
			}
			P := mat.NewDense(tc.n, tc.n, nil)
			for i := range tc.n {
				for j := range tc.n {
					P.Set(i, j, ue.Pinv(i, j))
				}
			}
			d := relMaxDiff(dirMatrix(e), P)
			if d > 1e-10 {
				t.Fatalf("X differs from L⁺ by %.3g (relative)", d)
			}
			t.Logf("relative difference from L⁺ %.2g", d)
			for i := range tc.n {
				for j := range tc.n {
					rd, ok := e.R(i, j)
					if ok != (ue.Component(i) == ue.Component(j)) {
						t.Fatalf("R(%d,%d) ok = %v", i, j, ok)
					}
					if ok && math.Abs(rd-ue.R(i, j)) > 1e-10*math.Max(1, ue.R(i, j)) {
						t.Fatalf("R(%d,%d) = %v, undirected %v", i, j, rd, ue.R(i, j))
					}
				}
			}
			if p, _ := e.MaxPair(); tc.parts == 1 {
				if q, _ := ue.MaxPair(); p.U != q.U || p.V != q.V {
					// Scores may differ in the last bits; decisions must agree.
					t.Fatalf("MaxPair %v, undirected %v", p, q)
				}
			}
		})
	}
}

// TestDirectedQForm: the engine's X (Q-free form) equals the paper's
// definition computed with an explicit Q and a Kronecker solve.
func TestDirectedQForm(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 2))
	for _, n := range []int{2, 3, 5, 10, 30} {
		for trial := range 3 {
			t.Run(fmt.Sprintf("n%d_%d", n, trial), func(t *testing.T) {
				g := dirStrong(r, n, trial*n)
				e, err := NewDirected(g, Options{})
				if err != nil {
					t.Fatal(err)
				}
				d := relMaxDiff(dirMatrix(e), qFormX(t, g))
				if d > 1e-10 {
					t.Fatalf("X differs from the Q form by %.3g (relative)", d)
				}
				t.Logf("relative difference %.2g, drift %.2g", d, e.Drift())
				if d := e.Drift(); d > 1e-13 {
					t.Errorf("drift %.3g", d)
				}
			})
		}
	}
}

// TestDirectedMultiSCC: several SCCs with one-way arcs between them,
// sources, isolated nodes and self-loops.
func TestDirectedMultiSCC(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 3))
	for trial, sizes := range [][]int{{5}, {2, 3}, {10, 4, 7}, {30, 2, 15, 8}, {25, 25, 25}} {
		t.Run(fmt.Sprint(sizes), func(t *testing.T) {
			g, blocks := dirBlocks(r, sizes, trial, 3)
			want, _ := tarjan.SCC(g)
			for _, w := range []int{1, 3} {
				e, err := NewDirected(g, Options{Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				if !e.Graph().Equal(g) || e.N() != g.N() {
					t.Fatal("graph not copied")
				}
				for i := range g.N() {
					if e.SCC(i) != want[i] {
						t.Fatalf("SCC(%d) = %d, want %d", i, e.SCC(i), want[i])
					}
				}
				for i := range g.N() {
					for j := range g.N() {
						rv, ok := e.R(i, j)
						if ok != (want[i] == want[j]) {
							t.Fatalf("R(%d,%d) ok = %v", i, j, ok)
						}
						if !ok && (rv != 0 || e.X(i, j) != 0) {
							t.Fatalf("R, X across SCCs not 0")
						}
					}
				}
				// Each block alone, relabelled, gives the same X and R.
				for _, b := range blocks {
					sorted := slices.Sorted(slices.Values(b))
					h := linalg.NewGraph(len(sorted), true)
					for a, i := range sorted {
						for _, j := range g.Out(i) {
							if k, ok := slices.BinarySearch(sorted, j); ok {
								h.AddEdge(a, k)
							}
						}
					}
					he, err := NewDirected(h, Options{})
					if err != nil {
						t.Fatal(err)
					}
					for a, i := range sorted {
						for c, j := range sorted {
							if d := math.Abs(e.X(i, j) - he.X(a, c)); d > 1e-12*math.Max(1, math.Abs(he.X(a, c))) {
								t.Fatalf("X(%d,%d) = %v, alone %v", i, j, e.X(i, j), he.X(a, c))
							}
						}
					}
				}
				got, ok := e.MaxPair()
				bp, bok := dirBruteMax(e)
				if got != bp || ok != bok {
					t.Fatalf("MaxPair %v %v, brute force %v %v", got, ok, bp, bok)
				}
				accept := func(u, v int) bool { return (u+v)%3 != 0 }
				for _, acc := range []func(u, v int) bool{nil, accept} {
					me, mok := e.MinEdge(acc)
					if acc == nil {
						acc = func(int, int) bool { return true }
					}
					be, bok := dirBruteMinEdge(e, acc)
					if me != be || mok != bok {
						t.Fatalf("MinEdge %v %v, brute force %v %v", me, mok, be, bok)
					}
					if e.SCC(me.U) != e.SCC(me.V) {
						t.Fatal("MinEdge returned an arc between SCCs")
					}
				}
			}
		})
	}
}

// TestDirectedRandomEdits: 200 valid edits on a digraph with a few SCCs; X
// stays equal to a fresh engine's, the partition never changes, and MaxPair
// follows the tie rule after every edit.
func TestDirectedRandomEdits(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 4))
	g, _ := dirBlocks(r, []int{80, 60, 40, 12, 3, 2}, 10, 10)
	e, err := NewDirected(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := g.N()
	comp0, _ := tarjan.SCC(g)
	groups := linalg.Groups(comp0)
	var big [][]int
	for _, m := range groups {
		if len(m) >= 2 {
			big = append(big, m)
		}
	}
	mirror := g.Clone()
	adds, removes, refused := 0, 0, 0
	for edits := 0; edits < 200; {
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
			adds++
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
				refused++
				continue
			}
			if err != nil {
				t.Fatalf("remove %d→%d: %v", a.U, a.V, err)
			}
			mirror.RemoveEdge(a.U, a.V)
			removes++
		}
		edits++
		if !e.Graph().Equal(mirror) {
			t.Fatalf("edit %d: graph differs from the mirror", edits)
		}
		got, ok := e.MaxPair()
		if bp, bok := dirBruteMax(e); got != bp || ok != bok {
			t.Fatalf("edit %d: MaxPair %v, brute force %v", edits, got, bp)
		}
		if edits%20 == 0 {
			fresh, err := NewDirected(mirror, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if d := relMaxDiff(dirMatrix(e), dirMatrix(fresh)); d > 1e-8 {
				t.Fatalf("edit %d: X off by %.3g (relative)", edits, d)
			}
			comp, _ := tarjan.SCC(mirror)
			for i := range n {
				if comp[i] != comp0[i] || e.SCC(i) != comp0[i] {
					t.Fatalf("edit %d: the SCC partition changed", edits)
				}
			}
			if fp, _ := fresh.MaxPair(); fp != got {
				t.Fatalf("edit %d: MaxPair %v, fresh %v", edits, got, fp)
			}
			if d := e.Drift(); d > 1e-12 {
				t.Fatalf("edit %d: drift %.3g", edits, d)
			}
		}
	}
	t.Logf("%d additions, %d removals, %d refused removals", adds, removes, refused)
}

// TestDirectedRefusals: bad edits return typed errors and leave the engine
// unchanged.
func TestDirectedRefusals(t *testing.T) {
	// SCC A: the cycle 0→1→2→0 (every arc splits it); SCC B: the complete
	// digraph on {3,4,5} with a self-loop on 4; the arc 2→3 between them;
	// node 6 isolated.
	g, _ := linalg.FromEdges(7, true, []linalg.Edge{
		{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 0}, {U: 2, V: 3},
		{U: 3, V: 4}, {U: 4, V: 3}, {U: 3, V: 5}, {U: 5, V: 3}, {U: 4, V: 5}, {U: 5, V: 4}, {U: 4, V: 4},
	})
	e, err := NewDirected(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	before := dirMatrix(e)
	bp, _ := e.MaxPair()
	for _, tc := range []struct {
		op   string
		u, v int
		want error
	}{
		{"remove", 2, 3, ErrAcrossSCC},
		{"remove", 0, 1, ErrSplitsSCC},
		{"remove", 1, 2, ErrSplitsSCC},
		{"remove", 2, 0, ErrSplitsSCC},
		{"remove", 0, 2, ErrNoEdge},
		{"remove", 3, 2, ErrNoEdge},
		{"add", 0, 1, ErrEdgeExists},
		{"add", 2, 3, ErrEdgeExists},
		{"add", 4, 4, ErrSelfLoop},
		{"remove", 4, 4, ErrSelfLoop},
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
		if !errors.Is(err, tc.want) || !errors.As(err, &ee) || ee.U != tc.u || ee.V != tc.v || ee.Op != tc.op {
			t.Errorf("%s(%d,%d): %v, want %v", tc.op, tc.u, tc.v, err, tc.want)
		}
	}
	if relMaxDiff(dirMatrix(e), before) != 0 || !e.Graph().Equal(g) {
		t.Fatal("a refused edit changed the engine")
	}
	if p, _ := e.MaxPair(); p != bp {
		t.Fatal("a refused edit changed the maximum")
	}
	// A valid removal and addition inside B still work afterwards.
	if err := e.Remove(4, 5); err != nil {
		t.Fatal(err)
	}
	if err := e.Add(4, 5); err != nil {
		t.Fatal(err)
	}
	if relMaxDiff(dirMatrix(e), before) > 1e-12 {
		t.Fatal("remove then add did not restore X")
	}
}

// TestDirectedRAfterAdd: the predicted resistance equals the one after
// actually adding the arc.
func TestDirectedRAfterAdd(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 5))
	checked := 0
	for trial := 0; trial < 60; trial++ {
		g, _ := dirBlocks(r, []int{3 + r.IntN(12), 2 + r.IntN(6)}, 1, 1)
		e, err := NewDirected(g, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		n := g.N()
		x, y := r.IntN(n), r.IntN(n)
		a, b := r.IntN(n), r.IntN(n)
		pred, ok := e.RAfterAdd(a, b, x, y)
		cur, curOK := e.R(a, b)
		switch {
		case e.SCC(x) != e.SCC(y) || e.SCC(a) != e.SCC(b):
			if ok {
				t.Fatalf("RAfterAdd(%d,%d | %d→%d) ok across SCCs", a, b, x, y)
			}
			continue
		case !ok:
			t.Fatalf("RAfterAdd(%d,%d | %d→%d) not ok", a, b, x, y)
		case x == y || g.HasEdge(x, y) || e.SCC(a) != e.SCC(x):
			if pred != cur || !curOK {
				t.Fatalf("RAfterAdd(%d,%d | %d→%d) = %v, want the current %v", a, b, x, y, pred, cur)
			}
			continue
		}
		if err := e.Add(x, y); err != nil {
			t.Fatal(err)
		}
		got, _ := e.R(a, b)
		if math.Abs(got-pred) > 1e-12*math.Max(1, got) {
			t.Fatalf("trial %d: RAfterAdd(%d,%d | %d→%d) = %v, after adding %v", trial, a, b, x, y, pred, got)
		}
		checked++
	}
	// Targeted cases in one SCC, so that the exact path is well exercised.
	for trial := 0; trial < 40; trial++ {
		n := 2 + r.IntN(25)
		g := dirStrong(r, n, r.IntN(2*n))
		e, err := NewDirected(g, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		x, y := r.IntN(n), r.IntN(n)
		if x == y || g.HasEdge(x, y) {
			continue
		}
		a, b := r.IntN(n), r.IntN(n)
		pred, ok := e.RAfterAdd(a, b, x, y)
		if !ok {
			t.Fatal("not ok inside one SCC")
		}
		if err := e.Add(x, y); err != nil {
			t.Fatal(err)
		}
		if got, _ := e.R(a, b); math.Abs(got-pred) > 1e-12*math.Max(1, got) {
			t.Fatalf("RAfterAdd(%d,%d | %d→%d) = %v, after adding %v", a, b, x, y, pred, got)
		}
		checked++
	}
	if checked < 30 {
		t.Fatalf("only %d cases checked", checked)
	}
}

// TestDirectedTieRule: on a directed cycle all arcs tie and R depends only
// on j − i mod n (with R(d) = R(n − d)); on a complete digraph all pairs tie.
// Rounding noise must not decide: the first pair in row-major order wins.
func TestDirectedTieRule(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n        int
		complete bool
	}{
		{"cycle7", 7, false}, {"cycle8", 8, false}, {"cycle13", 13, false}, {"complete6", 6, true}, {"complete9", 9, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := linalg.NewGraph(tc.n, true)
			for i := range tc.n {
				if tc.complete {
					for j := range tc.n {
						if i != j {
							g.AddEdge(i, j)
						}
					}
				} else {
					g.AddEdge(i, (i+1)%tc.n)
				}
			}
			// The right j from the reference X: the first d whose score ties
			// with the maximum of row 0.
			ref := qFormX(t, g)
			rd := func(j int) float64 { return ref.At(0, 0) + ref.At(j, j) - 2*ref.At(0, j) }
			best := 0.0
			for j := 1; j < tc.n; j++ {
				best = math.Max(best, rd(j))
			}
			wantJ := 1
			for rd(wantJ) < best-1e-9*math.Max(1, best) {
				wantJ++
			}
			if tc.complete && wantJ != 1 {
				t.Fatalf("complete digraph: reference j = %d", wantJ)
			}
			if !tc.complete && wantJ != tc.n/2 {
				// R grows with the distance along the cycle up to n/2.
				t.Fatalf("cycle: reference j = %d, expected n/2", wantJ)
			}
			for _, w := range []int{1, 2} {
				e, err := NewDirected(g, Options{Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				p, ok := e.MaxPair()
				if !ok || p.U != 0 || p.V != wantJ || math.Abs(p.Score-best) > 1e-10*best {
					t.Fatalf("MaxPair %v, want (0, %d) with %v", p, wantJ, best)
				}
				m, _ := e.MinEdge(nil)
				if m.U != 0 || m.V != 1 {
					t.Fatalf("MinEdge %v, want (0, 1)", m)
				}
				m, _ = e.MinEdge(func(u, v int) bool { return u != 0 || v != 1 })
				want := linalg.Edge{U: 1, V: 2}
				if tc.complete {
					want = linalg.Edge{U: 0, V: 2}
				}
				if m.U != want.U || m.V != want.V {
					t.Fatalf("MinEdge after rejecting (0,1): %v, want %v", m, want)
				}
				if _, ok := e.MinEdge(func(int, int) bool { return false }); ok {
					t.Fatal("MinEdge with every arc rejected")
				}
			}
		})
	}
}

// TestDirectedTieAcrossSCCs: two isomorphic SCCs, relabelled differently, so
// that their maxima tie up to rounding noise; the winner is the first tied
// pair in global row-major order, whichever SCC's copy came out larger.
func TestDirectedTieAcrossSCCs(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 7))
	noisy := 0
	for trial := range 40 {
		k := 4 + r.IntN(12)
		h := dirStrong(r, k, r.IntN(2*k))
		perm := r.Perm(2 * k)
		g := linalg.NewGraph(2*k, true)
		for _, a := range h.Edges() {
			g.AddEdge(perm[a.U], perm[a.V])
			g.AddEdge(perm[k+a.U], perm[k+a.V])
		}
		g.AddEdge(perm[0], perm[k]) // one way only: the copies stay two SCCs
		e, err := NewDirected(g, Options{Workers: 1 + trial%2})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := e.MaxPair()
		if bp, _ := dirBruteMax(e); got != bp {
			t.Fatalf("trial %d: MaxPair %v, brute force %v", trial, got, bp)
		}
		if m0, m1 := e.sccs[e.big[0]].track.Best(), e.sccs[e.big[1]].track.Best(); m0 != m1 {
			noisy++
		}
	}
	if noisy == 0 {
		t.Log("no trial had maxima differing by rounding noise")
	}
}

// TestDirectedDrift: Drift sees a perturbed X, and Refresh repairs it.
func TestDirectedDrift(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 8))
	g, _ := dirBlocks(r, []int{20, 9}, 2, 2)
	e, err := NewDirected(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	before := dirMatrix(e)
	if d := e.Drift(); d > 1e-13 {
		t.Fatalf("drift %.3g after a fresh solve", d)
	}
	c := &e.sccs[e.big[len(e.big)-1]]
	raw := c.x.RawSymmetric()
	raw.Data[0*raw.Stride+1] += 1e-6
	raw.Data[1*raw.Stride+0] += 1e-6
	if d := e.Drift(); d < 1e-8 {
		t.Fatalf("drift %.3g after a perturbation of 1e-6", d)
	}
	if err := e.Refresh(); err != nil {
		t.Fatal(err)
	}
	if d := e.Drift(); d > 1e-13 || relMaxDiff(dirMatrix(e), before) != 0 {
		t.Fatalf("Refresh did not repair X (drift %.3g)", d)
	}
}

// TestDirectedNoPairs: graphs without an SCC of two nodes.
func TestDirectedNoPairs(t *testing.T) {
	for _, g := range []*linalg.Graph{
		linalg.NewGraph(0, true),
		linalg.NewGraph(3, true),
		func() *linalg.Graph {
			g, _ := linalg.FromEdges(4, true, []linalg.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 0, V: 3}, {U: 2, V: 2}})
			return g
		}(),
	} {
		e, err := NewDirected(g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := e.MaxPair(); ok {
			t.Error("MaxPair on a DAG")
		}
		if _, ok := e.MinEdge(nil); ok {
			t.Error("MinEdge on a DAG")
		}
		if e.Drift() != 0 {
			t.Error("drift on a DAG")
		}
		for i := range g.N() {
			if r, ok := e.R(i, i); r != 0 || !ok {
				t.Error("R(i, i)")
			}
		}
		if g.N() == 4 {
			if err := e.Remove(0, 1); !errors.Is(err, ErrAcrossSCC) {
				t.Errorf("remove across: %v", err)
			}
		}
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("NewDirected of an undirected graph did not panic")
			}
		}()
		_, _ = NewDirected(linalg.NewGraph(2, false), Options{})
	}()
}

// BenchmarkDirectedSolve measures one exact re-solve of one SCC, the cost of
// one edit (and of one RAfterAdd).
func BenchmarkDirectedSolve(b *testing.B) {
	for _, n := range []int{100, 300} {
		b.Run(fmt.Sprintf("n%d", n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(26, uint64(n)))
			g := dirStrong(r, n, 3*n)
			e, err := NewDirected(g, Options{})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := e.solveSCC(0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBelowPerHop: belowPerHop never says "below" for a quotient that
// reaches the threshold, over random scores near thresholds of every scale
// and the hop counts of a scan, and says it for most scores well below.
func TestBelowPerHop(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	below := 0
	const trials = 200000
	for range trials {
		lo := math.Ldexp(1+rng.Float64(), rng.IntN(40)-20)
		h := float64(1 + rng.IntN(30))
		// r near lo·h: a few ulps either side, or anywhere below.
		r := lo * h * (1 + float64(rng.IntN(17)-8)*0x1p-53)
		if rng.IntN(2) == 0 {
			r = lo * h * rng.Float64()
		}
		if belowPerHop(r, h, lo) {
			below++
			if r/h >= lo {
				t.Fatalf("belowPerHop(%v, %v, %v) but r/h = %v ≥ lo", r, h, lo, r/h)
			}
		}
	}
	if below < trials/4 {
		t.Errorf("only %d of %d pairs recognised below", below, trials)
	}
	if belowPerHop(-1, 1, 0) || belowPerHop(-1, 1, math.Inf(-1)) {
		t.Error("belowPerHop without a positive threshold")
	}
}
