package exact

import (
	"math"
	"slices"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

// TestPathAndCycle: on the path 0–1–2–3–4 the farthest pair is its ends,
// R = 4, and the distances are |i − j|; once 0–4 closes the cycle, R_02 =
// 2·3/5 and d(0, 4) = 1.
func TestPathAndCycle(t *testing.T) {
	g := linalg.NewGraph(5, false)
	for i := 1; i < 5; i++ {
		g.AddEdge(i-1, i)
	}
	e, err := New(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := e.MaxPair(); !ok || p.U != 0 || p.V != 4 || math.Abs(p.Score-4) > 1e-12 {
		t.Fatalf("MaxPair %v %v, want (0, 4) at 4", p, ok)
	}
	if d := AllPairsBFS(g); !slices.Equal(d[0], []int{0, 1, 2, 3, 4}) {
		t.Fatalf("distances from 0: %v", d[0])
	}
	if after, ok := e.ResistanceAfterAdd(0, 2, 0, 4); !ok || math.Abs(after-1.2) > 1e-12 {
		t.Fatalf("R_02 after adding 0–4: %v %v, want 1.2", after, ok)
	}
	e.Begin()
	if err := e.Add(0, 4); err != nil {
		t.Fatal(err)
	}
	if err := e.Commit(); err != nil {
		t.Fatal(err)
	}
	if r, ok := e.Resistance(0, 2); !ok || math.Abs(r-1.2) > 1e-12 {
		t.Fatalf("R_02 on the cycle %v %v, want 1.2", r, ok)
	}
	if d := AllPairsBFS(e.Graph()); d[0][4] != 1 {
		t.Fatalf("d(0, 4) on the cycle %d, want 1", d[0][4])
	}
}
