package incremental

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestArcOrder checks that arcOrder hands out the arcs in the order of a
// full sort by arcLess, ties in score (many) and a NaN included, whether
// read in order or with jumps ahead.
func TestArcOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	for _, m := range []int{0, 1, 2, 3, 17, 64, 1000} {
		arcs := make([]scoredArc, m)
		for i := range arcs {
			arcs[i] = scoredArc{p: Pair{U: i, Score: float64(rng.IntN(m/3 + 1))}, idx: i}
		}
		if m > 5 {
			arcs[m/2].p.Score = math.NaN()
		}
		want := slices.Clone(arcs)
		slices.SortFunc(want, func(a, b scoredArc) int {
			if arcLess(&a, &b) {
				return -1
			}
			if arcLess(&b, &a) {
				return 1
			}
			return 0
		})
		for _, jump := range []int{1, 7} {
			ord := newArcOrder(slices.Clone(arcs))
			for k := 0; k < m; k += jump {
				a, ok := ord.at(k)
				if !ok || a.idx != want[k].idx {
					t.Fatalf("m=%d jump=%d: at(%d) = %v, %v; want idx %d", m, jump, k, a, ok, want[k].idx)
				}
			}
			for k := range m {
				if a, _ := ord.at(k); a.idx != want[k].idx {
					t.Fatalf("m=%d: second read at(%d) idx %d, want %d", m, k, a.idx, want[k].idx)
				}
			}
			if _, ok := ord.at(m); ok {
				t.Fatalf("m=%d: at(m) found an arc", m)
			}
		}
	}
}
