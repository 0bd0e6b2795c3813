package sketch

import (
	"math"
	"testing"

	"github.com/ohmgnn/ohm/incremental"

	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// TestHandOffNeedsMemory: the hand-off happens only when the dense
// state fits in memory (definitions §3.7.1). On a ring of 100 cliques of
// 10, whose first decision keeps more than half the nodes, an OHM_MEMORY
// budget set after the engine started (1 kB, less than the process
// holds) keeps the run on the sketch: its cover keeps every node and
// HandedOff says no; without the budget the engine hands off at its first
// decision. Both find the maximum R (the ring's many tied pairs may break
// differently: the sketch's solves err by about 10⁻⁸, more than the tie
// window).
func TestHandOffNeedsMemory(t *testing.T) {
	gg, err := graphgen.RingOfCliques(100, 10)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gg.Undirected()
	if err != nil {
		t.Fatal(err)
	}
	var pairs [2]incremental.Pair
	for x, tight := range []bool{true, false} {
		e, err := New(g, Options{Seed: 1, Removes: true})
		if err != nil {
			t.Fatal(err)
		}
		if tight {
			t.Setenv("OHM_MEMORY", "1k")
		}
		p, ok := e.MaxPair()
		if !ok {
			t.Fatalf("tight %v: no pair: %v", tight, e.Err())
		}
		at, kept, handed := e.HandedOff()
		t.Logf("tight %v: pair %v, kept %d, handed off %v at %d (%d kept)", tight, p, e.Kept(), handed, at, kept)
		pairs[x] = p
		if handed == tight || (handed && (at != 1 || kept <= g.N()/2 || e.Kept() != g.N())) {
			t.Errorf("tight %v: handed off %v at %d with %d kept, Kept %d", tight, handed, at, kept, e.Kept())
		}
		if tight {
			t.Setenv("OHM_MEMORY", "")
		}
	}
	if a, b := pairs[0], pairs[1]; math.Abs(a.Score-b.Score) > 1e-6*b.Score {
		t.Errorf("the sketch chose %v, the exact engine %v: other maxima", a, b)
	}
}
