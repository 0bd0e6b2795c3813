package incremental

import (
	"math"
	"testing"

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
// the edits update (the live bounds).
func TestSketchKeptBlockExact(t *testing.T) {
	gg, _ := graphgen.SBM(160, 2, 0.12, 0, 3)
	g, err := linalg.FromEdges(gg.N, false, gg.Edges)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewSketch(g, SketchOptions{Round: 1000, Candidates: 12, Seed: 2, BoundTol: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	check := func(label string) {
		t.Helper()
		comp, _ := tarjan.Components(e.g)
		P, err := linalg.Pinv(e.g, comp)
		if err != nil {
			t.Fatal(err)
		}
		K := len(e.kept)
		worst := 0.0
		for p, i := range e.kept {
			for q, j := range e.kept {
				worst = math.Max(worst, math.Abs(e.m[p*K+q]-P.At(i, j)))
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
}
