package sketch

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ohmgnn/ohm/incremental"
)

// TestLightest: the removal candidates are the prefix of a stable sort by
// score, ties (many here: scores from a small set) taken in edge order,
// and every edge when there are fewer than asked.
func TestLightest(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 20 {
		es := make([]incremental.Pair, 50+trial*7)
		for j := range es {
			es[j] = incremental.Pair{U: j, V: j + 1, Score: float64(r.IntN(6))}
		}
		sorted := slices.Clone(es)
		slices.SortStableFunc(sorted, func(a, b incremental.Pair) int { return cmp.Compare(a.Score, b.Score) })
		for _, k := range []int{0, 1, 13, len(es) / 2, len(es), len(es) + 5} {
			want := slices.Clone(sorted[:min(k, len(es))])
			slices.SortFunc(want, func(a, b incremental.Pair) int { return a.U - b.U })
			got := slices.Clone(lightest(es, k))
			slices.SortFunc(got, func(a, b incremental.Pair) int { return a.U - b.U })
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d, %d of %d: got %v, want %v", trial, k, len(es), got, want)
			}
		}
	}
}

// TestSplitPool: the removal candidates take the fewest of M's columns
// (splitPool): a tree of candidates with no kept end stays edge vectors,
// a component with a kept node or a cycle joins the nodes; on random
// small pools the columns are the least over every choice of ends to keep
// (a brute force over the subsets), and an edge vector's ends are never
// kept.
func TestSplitPool(t *testing.T) {
	e := func(u, v int) incremental.Pair { return incremental.Pair{U: u, V: v} }
	for _, c := range []struct {
		name string
		pool []incremental.Pair
		kept []int
		own  []incremental.Pair // the edge vectors
	}{
		{"two disjoint edges", []incremental.Pair{e(1, 2), e(3, 4)}, nil, []incremental.Pair{e(1, 2), e(3, 4)}},
		{"a star", []incremental.Pair{e(1, 2), e(1, 3), e(1, 4)}, nil, []incremental.Pair{e(1, 2), e(1, 3), e(1, 4)}},
		{"a star, its centre kept", []incremental.Pair{e(1, 2), e(1, 3), e(1, 4)}, []int{1}, nil},
		{"a path with a kept end", []incremental.Pair{e(1, 2), e(2, 3)}, []int{3}, nil},
		{"a triangle and an edge", []incremental.Pair{e(1, 2), e(2, 3), e(1, 3), e(5, 6)}, nil, []incremental.Pair{e(5, 6)}},
		{"both ends kept", []incremental.Pair{e(1, 2)}, []int{1, 2}, nil},
	} {
		keep := map[int]bool{}
		for _, i := range c.kept {
			keep[i] = true
		}
		if got := splitPool(c.pool, keep); !slices.Equal(got, c.own) {
			t.Errorf("%s: edge vectors %v, want %v", c.name, got, c.own)
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 300 {
		nodes := 3 + r.IntN(8)
		var pool []incremental.Pair
		seen := map[[2]int]bool{}
		for range 1 + r.IntN(2*nodes) {
			u, v := r.IntN(nodes), r.IntN(nodes)
			if u == v || seen[[2]int{min(u, v), max(u, v)}] {
				continue
			}
			seen[[2]int{min(u, v), max(u, v)}] = true
			pool = append(pool, e(min(u, v), max(u, v)))
		}
		keep := map[int]bool{}
		for i := range nodes {
			if r.IntN(6) == 0 {
				keep[i] = true
			}
		}
		before := len(keep)
		best := len(pool) + nodes // the brute force: every set S of nodes to keep
		for S := 0; S < 1<<nodes; S++ {
			in := func(i int) bool { return keep[i] || S&(1<<i) != 0 }
			cost := 0
			for i := range nodes {
				if S&(1<<i) != 0 && !keep[i] {
					cost++
				}
			}
			for _, f := range pool {
				if !in(f.U) || !in(f.V) {
					cost++
				}
			}
			best = min(best, cost)
		}
		own := splitPool(pool, keep)
		for _, f := range own {
			if keep[f.U] || keep[f.V] {
				t.Fatalf("trial %d: edge vector %v has a kept end", trial, f)
			}
		}
		covered := 0
		for _, f := range pool {
			if keep[f.U] && keep[f.V] {
				covered++
			}
		}
		if covered+len(own) != len(pool) {
			t.Fatalf("trial %d: %d candidates covered by nodes and %d edge vectors of %d", trial, covered, len(own), len(pool))
		}
		if got := len(keep) - before + len(own); got != best {
			t.Fatalf("trial %d: pool %v, kept %d: %d columns, the least is %d", trial, pool, before, got, best)
		}
	}
}
