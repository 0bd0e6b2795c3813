package sketch

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// TestSketchKeptBlockExact: after additions and removals among kept nodes,
// nodes kept later (one solve on the current graph: the round's solver
// with its updates) and a new round that reuses the entries of the nodes
// it keeps again all give M = L⁺[K, K] of the current graph, against a
// dense pseudoinverse of it, on a graph with two components; so do the
// anchors' full columns and the diagonal estimates of the anchors, which
// the edits update once their vectors are solved (flushBounds: a batch of
// edits solved on the graph before them, then carried forward), and the
// lazy bounds agree with the full ones where MaxPair reads them
// (checkLiveBounds). With two workers (the edits' vectors solved in
// blocks side by side, the anchors' columns updated in parts) every
// number is the same as with one.
func TestSketchKeptBlockExact(t *testing.T) {
	one, two := keptBlockRun(t, 1), keptBlockRun(t, 2)
	if !slices.Equal(one.acol, two.acol) || !slices.Equal(one.dhat, two.dhat) || !slices.Equal(one.m, two.m) {
		t.Error("two workers gave other anchor columns, diagonal estimates or M than one")
	}
}

func keptBlockRun(t *testing.T, workers int) *Engine {
	t.Helper()
	gg, _ := graphgen.SBM(400, 2, 0.05, 0, 3)
	g, err := linalg.FromEdges(gg.N, false, gg.Edges)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(g, Options{Round: 1000, Candidates: 12, Seed: 2, BoundTol: 1e-10, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	check := func(label string) {
		t.Helper()
		if err := e.flushBounds(); err != nil { // the bounds of the edits that wait
			t.Fatal(err)
		}
		comp, _ := tarjan.Components(e.g)
		P, err := linalg.Pinv(e.g, comp)
		if err != nil {
			t.Fatal(err)
		}
		K := len(e.kept)
		worst := 0.0
		for p, i := range e.kept {
			for q, j := range e.kept {
				worst = math.Max(worst, math.Abs(e.row(p)[q]-P.At(i, j)))
			}
		}
		t.Logf("%s: %d kept, worst |M − L⁺| %.2g", label, K, worst)
		if worst > 1e-6 {
			t.Fatalf("%s: M differs from L⁺ by %.3g", label, worst)
		}
		n := e.g.N()
		worst = 0
		for q, a := range e.anchors {
			for i := range n {
				worst = math.Max(worst, math.Abs(e.acol[q*n+i]-P.At(a, i)))
			}
			worst = math.Max(worst, math.Abs(e.dhat[a]-P.At(a, a)))
		}
		t.Logf("%s: %d anchors, worst |column − L⁺| %.2g", label, len(e.anchors), worst)
		if worst > 1e-6 {
			t.Fatalf("%s: anchor columns differ from L⁺ by %.3g", label, worst)
		}
		checkLiveBounds(t, e, label)
		checkBestPair(t, e, label)
	}
	edit := func() {
		e.Begin()
		added := false
		for x, a := range e.kept {
			for _, b := range e.kept[x+1:] {
				if !added && a != b && !e.g.HasEdge(a, b) && e.comp[a] == e.comp[b] {
					if err := e.Add(a, b); err != nil {
						t.Fatal(err)
					}
					added = true
				}
			}
		}
		bridges := tarjan.Bridges(e.g)
		for _, p := range e.edges {
			if e.g.HasEdge(p.U, p.V) && !bridges.Has(p.U, p.V) && !e.added[[2]int{p.U, p.V}] {
				if err := e.Remove(p.U, p.V); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
		if err := e.Commit(); err != nil {
			t.Fatal(err)
		}
		checkBestPair(t, e, fmt.Sprintf("edits waiting %d", len(e.waiting))) // rowMin bounds, not minima
	}
	for range 6 {
		edit()
	}
	check("after 6 iterations")
	var ws []int
	for i := range e.g.N() {
		if e.index[i] < 0 && len(ws) < 9 {
			ws = append(ws, i)
		}
	}
	if err := e.grow(ws); err != nil {
		t.Fatal(err)
	}
	check("grown by 9")
	for range 4 {
		edit()
	}
	check("4 more iterations")
	if err := e.refresh(nil); err != nil {
		t.Fatal(err)
	}
	check("new round")
	return e
}

// checkBestPair: the pruned search (bestCandidatePair) picks the pair the
// plain scan of every pair of kept nodes picks, with and without skipped
// pairs (the first three of the ranking, one by one) and with and without
// WithinComponents, and the bounds on the rows' minima that the edits
// keep are below M's.
func checkBestPair(t *testing.T, e *Engine, label string) {
	t.Helper()
	K := len(e.kept)
	for p := range K {
		if low := slices.Min(e.row(p)); e.rowMin[p] > low {
			t.Fatalf("%s: row %d: kept bound on the minimum %.15g above M's %.15g", label, p, e.rowMin[p], low)
		}
	}
	plain := func() (incremental.Pair, bool) {
		var tr rank.Max
		tr.Exclude = e.skip
		tr.Reset()
		for x, a := range e.cand {
			for _, b := range e.cand[x+1:] {
				u, v := e.kept[a], e.kept[b]
				if !e.opt.WithinComponents || e.comp[u] == e.comp[v] {
					tr.Offer(incremental.Pair{U: u, V: v, Score: e.r(a, b)})
				}
			}
		}
		return tr.Result()
	}
	defer func(w bool) { e.opt.WithinComponents, e.skip = w, nil }(e.opt.WithinComponents)
	for _, within := range []bool{false, true} {
		e.opt.WithinComponents, e.skip = within, nil
		for range 4 {
			want, wok := plain()
			got, gok := e.bestCandidatePair()
			if wok != gok || !rank.Same(got, want) || got.Score != want.Score {
				t.Fatalf("%s (within %v, %d skipped): pruned search %v (%v), plain scan %v (%v)",
					label, within, len(e.skip), got, gok, want, wok)
			}
			if !wok {
				break
			}
			e.skip = append(e.skip, want)
		}
	}
	t.Logf("%s: the pruned search scanned %d of %d kept nodes", label, len(e.eligible), len(e.cand))
}

// checkLiveBounds: the bounds a round computes lazily (liveBounds) are
// never below the full ones (bounds), and the cover and the growBatch
// nodes not kept of largest bound, all that MaxPair reads, are the same;
// δ kept by the edits is the scan of the anchors' columns.
func checkLiveBounds(t *testing.T, e *Engine, label string) {
	t.Helper()
	n := e.g.N()
	delta := 0.0
	for _, v := range e.acol {
		delta = max(delta, -v)
	}
	if math.Abs(delta-e.delta) > 1e-12 {
		t.Fatalf("%s: δ %.15g, the columns' scan %.15g", label, e.delta, delta)
	}
	full, live := make([]float64, n), make([]float64, n)
	if err := e.bounds(full); err != nil {
		t.Fatal(err)
	}
	if err := e.liveBounds(live); err != nil {
		t.Fatal(err)
	}
	var out []int
	for i := range n {
		if live[i] < full[i]-1e-12 {
			t.Fatalf("%s: node %d: live bound %.15g below the full one %.15g", label, i, live[i], full[i])
		}
		if e.index[i] < 0 {
			out = append(out, i)
		}
	}
	top := func(b []float64) []int {
		o := slices.Clone(out)
		slices.SortStableFunc(o, func(x, y int) int { return cmp.Compare(b[y], b[x]) })
		return o[:min(len(o), growBatch)]
	}
	ft, lt := top(full), top(live)
	for r := range ft {
		if ft[r] != lt[r] || full[ft[r]] != live[lt[r]] {
			t.Fatalf("%s: rank %d of the bounds outside K: full node %d (%.15g), live node %d (%.15g)",
				label, r, ft[r], full[ft[r]], lt[r], live[lt[r]])
		}
	}
	t.Logf("%s: %d nodes outside K, live bounds agree on the top %d", label, len(out), len(ft))
}
