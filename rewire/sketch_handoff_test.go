package rewire

import (
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
