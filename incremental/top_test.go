package incremental

import (
	"github.com/ohmgnn/ohm/incremental/rank"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTopAgainstSort compares Top with a full sort of all pairs under the
// tie rule (scores quantised so that many tie exactly or within 1e-12).
func TestTopAgainstSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1))
	for trial := range 50 {
		n := 2 + r.IntN(30)
		s := make([][]float64, n)
		for i := range s {
			s[i] = make([]float64, n)
			for j := range s[i] {
				s[i][j] = float64(r.IntN(6)) + 1e-12*r.Float64()
			}
		}
		ordered := trial%2 == 0
		score := func(i, j int) (float64, bool) { return s[i][j], (i+j)%5 != 0 }
		k := 1 + r.IntN(20)
		got := Top(n, k, ordered, score)
		// Reference: the selection procedure over every admissible pair.
		var all []Pair
		for i := range n {
			for j := range n {
				if i != j && (ordered || i < j) {
					if v, ok := score(i, j); ok {
						all = append(all, Pair{U: i, V: j, Score: v})
					}
				}
			}
		}
		var want []Pair
		for len(want) < k && len(all) > 0 {
			best := math.Inf(-1)
			for _, p := range all {
				best = math.Max(best, p.Score)
			}
			for q, p := range all {
				if p.Score >= best-rank.Tol(best) {
					want = append(want, p)
					all = slices.Delete(all, q, q+1)
					break
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (n %d k %d ordered %v):\n got %v\nwant %v", trial, n, k, ordered, got, want)
		}
	}
}
