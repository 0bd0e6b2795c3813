package incremental

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

// TestUndirectedReuse: an engine that takes a dead engine's memory
// (Options.Reuse, of a larger or a smaller graph, GTR or not) and copies
// its graph into an arena (Options.Graphs) holds the bits of a fresh
// engine's L⁺ and S, and makes the same choices through a few additions.
func TestUndirectedReuse(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 8))
	var arena linalg.CloneArena
	adds := 0
	defer func() {
		if adds < 20 {
			t.Errorf("%d additions in all: the test compares too little", adds)
		}
	}()
	for _, gtr := range []bool{false, true} {
		var last *Undirected
		for k, n := range []int{30, 80, 12, 80, 45, 3, 60} {
			g := randomGraph(r, n, 2*n, 1+k%3)
			label := fmt.Sprintf("gtr=%v graph %d (n=%d)", gtr, k, n)
			opt := Options{Workers: 1, GTR: gtr, WithinComponents: gtr}
			fresh, err := NewUndirected(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			opt.Reuse, opt.Graphs = last, &arena
			reused, err := NewUndirected(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			if reused.opt.Reuse != nil || reused.opt.Graphs != nil {
				t.Fatalf("%s: the engine keeps the old engine or the arena", label)
			}
			for step := 0; ; step++ {
				sameEngine(t, fmt.Sprintf("%s step %d", label, step), reused, fresh)
				p, ok := fresh.MaxPair()
				if !ok || step == 4 || fresh.Graph().HasEdge(p.U, p.V) {
					break
				}
				if err := fresh.Add(p.U, p.V); err != nil {
					t.Fatal(err)
				}
				if err := reused.Add(p.U, p.V); err != nil {
					t.Fatal(err)
				}
				adds++
			}
			last = reused
		}
	}
}

// sameEngine fails unless a and b hold the same graph, the same bits of
// L⁺ and S (GTR) and the same best pair.
func sameEngine(t *testing.T, label string, a, b *Undirected) {
	t.Helper()
	if !a.Graph().Equal(b.Graph()) {
		t.Fatalf("%s: graphs differ", label)
	}
	for i := range a.n {
		for j := i; j < a.n; j++ {
			if math.Float64bits(a.Pinv(i, j)) != math.Float64bits(b.Pinv(i, j)) ||
				math.Float64bits(a.SquaredPinv(i, j)) != math.Float64bits(b.SquaredPinv(i, j)) {
				t.Fatalf("%s: entry (%d, %d): L⁺ %v, %v; S %v, %v", label, i, j, a.Pinv(i, j), b.Pinv(i, j), a.SquaredPinv(i, j), b.SquaredPinv(i, j))
			}
		}
	}
	pa, oka := a.MaxPair()
	pb, okb := b.MaxPair()
	if pa != pb || oka != okb {
		t.Fatalf("%s: best pair %v %v, fresh %v %v", label, pa, oka, pb, okb)
	}
}
