package rewire

import (
	"fmt"
	"math"
	"testing"

	"github.com/ohmgnn/ohm/incremental/sketch"
	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// TestSketchHandOff: on a planted partition of 2 000 nodes in 20
// communities with rounds of 64 iterations and a hand-off at 15 % of the
// nodes, the sketch engine's cover keeps more and more nodes until they
// pass the fraction, and the exact engine takes over in mid-run
// (definitions §3.7.1; with the default ½ a ring of cliques hands off at
// its first iteration, TestSketchHandOffRing). From that iteration on the edit log is
// the exact engine's: an independent run of the incremental engine on
// the graph the sketch had made by then (the log's prefix replayed on
// G(0)) makes the same edits, its scores within 1e-9. With HandOff
// negative the same run never hands off and makes other decisions after
// that point (the sketch's), which the first check would otherwise not
// tell from the exact engine's.
func TestSketchHandOff(t *testing.T) {
	gg, err := graphgen.SBMByDegree(2000, 20, 10, 0.9, 1)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gg.Undirected()
	if err != nil {
		t.Fatal(err)
	}
	const budget = 0.01
	opt := sketch.Options{Seed: 1, Round: 64, Workers: 2, HandOff: 0.15}
	sk, err := Run(g, Config{Method: ERR, Budget: budget, Engine: Sketch, Sketch: opt})
	if err != nil {
		t.Fatal(err)
	}
	h := sk.HandOffAt
	t.Logf("%d iterations, %d rounds, %d solves, handed off at iteration %d with %d of %d nodes kept",
		sk.Iterations, sk.Rounds, sk.Solves, h, sk.HandOffKept, g.N())
	if h <= 1 || h > sk.Iterations || float64(sk.HandOffKept) <= opt.HandOff*float64(g.N()) {
		t.Fatalf("hand-off at iteration %d with %d kept: want one in mid-run (2..%d) with more than %v of the nodes kept", h, sk.HandOffKept, sk.Iterations, opt.HandOff)
	}
	g0 := sk.Prefix(g, h-1).Graph
	ex, err := Run(g0, Config{Method: ERR, Budget: budget, Engine: Incremental, MaxIterations: sk.Iterations - (h - 1)})
	if err != nil {
		t.Fatal(err)
	}
	var after []Edit
	for _, e := range sk.Log {
		if e.Iteration >= h {
			e.Iteration -= h - 1
			after = append(after, e)
		}
	}
	if err := sameEdits(after, ex.Log); err != nil {
		t.Fatalf("after the hand-off at iteration %d: %v", h, err)
	}

	opt.HandOff = -1
	never, err := Run(g, Config{Method: ERR, Budget: budget, Engine: Sketch, Sketch: opt})
	if err != nil {
		t.Fatal(err)
	}
	if never.HandOffAt != 0 {
		t.Fatalf("HandOff −1 handed off at iteration %d", never.HandOffAt)
	}
	var neverAfter []Edit
	for _, e := range never.Log {
		if e.Iteration >= h {
			e.Iteration -= h - 1
			neverAfter = append(neverAfter, e)
		}
	}
	if err := sameEdits(never.Log[:len(sk.Log)-len(after)], sk.Log[:len(sk.Log)-len(after)]); err != nil {
		t.Errorf("before iteration %d the run without hand-off differs: %v", h, err)
	}
	if sameEdits(neverAfter, ex.Log) == nil {
		t.Errorf("the sketch alone made the exact engine's decisions after iteration %d: the test cannot tell them apart", h)
	}
}

// sameEdits reports the first edit where a and b differ: iteration, op or
// ends, or a score off by more than 1e-9 relative.
func sameEdits(a, b []Edit) error {
	if len(a) != len(b) {
		return fmt.Errorf("%d edits against %d", len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Iteration != y.Iteration || x.Op != y.Op || x.U != y.U || x.V != y.V || math.Abs(x.Score-y.Score) > 1e-9*math.Max(1, math.Abs(y.Score)) {
			return fmt.Errorf("edit %d: %+v against %+v", i, x, y)
		}
	}
	return nil
}

// TestSketchHandOffRing: on a ring of 100 cliques of 10 with the default
// options the cover keeps more than half the nodes before the first
// decision (every node's bound is near the farthest pair's, docs/sketch.md
// step 4), so the exact engine makes every decision: the whole edit log is
// the incremental engine's, scores within 1e-9.
func TestSketchHandOffRing(t *testing.T) {
	gg, err := graphgen.RingOfCliques(100, 10)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gg.Undirected()
	if err != nil {
		t.Fatal(err)
	}
	sk, err := Run(g, Config{Method: ERR, Budget: 0.02, Engine: Sketch, Sketch: sketch.Options{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := Run(g, Config{Method: ERR, Budget: 0.02, Engine: Incremental})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d iterations, handed off at %d with %d of %d kept", sk.Iterations, sk.HandOffAt, sk.HandOffKept, g.N())
	if sk.HandOffAt != 1 {
		t.Fatalf("handed off at iteration %d, want 1", sk.HandOffAt)
	}
	if err := sameEdits(sk.Log, ex.Log); err != nil {
		t.Fatal(err)
	}
}
