package rank_test

import (
	"fmt"

	"github.com/ohmgnn/ohm/incremental/rank"
)

// First applies the tie rule of definitions §3.1: scores within Tol are
// equal, and then the per-hop second key (with ScoreThenKey), then the
// node order decides.
func ExampleFirst() {
	ps := []rank.Pair{
		{U: 2, V: 5, Score: 1.5, Key: 3},
		{U: 0, V: 4, Score: 1.5 + 1e-12, Key: 2},
		{U: 1, V: 3, Score: 1.2, Key: 9},
	}
	fmt.Println(ps[rank.First(ps, rank.Descending, rank.ScoreOnly)])
	fmt.Println(ps[rank.First(ps, rank.Descending, rank.ScoreThenKey)])
	fmt.Println(ps[rank.First(ps, rank.Ascending, rank.ScoreOnly)])

	// Output:
	// {0 4 1.500000000001 2}
	// {2 5 1.5 3}
	// {1 3 1.2 9}
}
