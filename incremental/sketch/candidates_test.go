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
