package incremental

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPairsAboveRowMax: after fast updates (X's lower triangle left stale)
// and their scans, pairsAbove with the rows skipped by the last scan's row
// maxima finds exactly the pairs, in order, of a pass over every row, for
// thresholds from the maximum down to below most pairs; and the row maxima
// are those of the scores.
func TestPairsAboveRowMax(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 2))
	g := dirStrong(r, 300, 900)
	e, err := NewDirected(g, Options{FastDirected: true})
	if err != nil {
		t.Fatal(err)
	}
	mirror := g.Clone()
	checked := 0
	fastRandomEdits(t, r, e, mirror, 30, false, func(k int) {
		for _, s := range e.big {
			c := &e.sccs[s]
			if !c.rowMaxOK {
				continue
			}
			checked++
			n := len(c.members)
			for a := range n {
				m := -1e300
				for b := a + 1; b < n; b++ {
					m = max(m, c.r(a, b))
				}
				if a < n-1 && c.rowMax[a] != m {
					t.Fatalf("edit %d: rowMax[%d] = %v, want %v", k, a, c.rowMax[a], m)
				}
			}
			best := c.track.Best()
			for _, lo := range []float64{best, best * (1 - 1e-9), best * 0.9, best * 0.5, 0} {
				var got, want []Pair
				c.pairsAbove(nil, lo, func(p Pair) { got = append(got, p) })
				c.rowMaxOK = false
				c.pairsAbove(nil, lo, func(p Pair) { want = append(want, p) })
				c.rowMaxOK = true
				if !slices.Equal(got, want) || len(want) == 0 {
					t.Fatalf("edit %d, lo %v: %d pairs with the row maxima, %d without", k, lo, len(got), len(want))
				}
			}
		}
	})
	if checked == 0 {
		t.Fatal("no scan left valid row maxima")
	}
}
