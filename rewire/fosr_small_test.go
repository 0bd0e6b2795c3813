package rewire

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

// BenchmarkFoSRSearchSmall compares the two searches of choose on graphs
// of TU sizes (a ring with chords, mean degree about 4, y drawn in
// [−1, 1)): "sorted" the heaps of productSearch, "dense" the marked scan of
// the pairs i < j. smallFoSR is where they cross.
func BenchmarkFoSRSearchSmall(b *testing.B) {
	for _, n := range []int{8, 16, 32, 64, 128} {
		r := rand.New(rand.NewPCG(uint64(n), 3))
		g := linalg.NewGraph(n, false)
		for u := 1; u < n; u++ {
			g.AddEdge(u-1, u)
		}
		for range n {
			if u, v := r.IntN(n), r.IntN(n); u != v {
				g.AddEdge(u, v)
			}
		}
		y := make([]float64, n)
		for i := range y {
			y[i] = 2*r.Float64() - 1
		}
		f := &fosr{g: g}
		b.Run(fmt.Sprintf("sorted/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				f.search.min(g, y)
			}
		})
		b.Run(fmt.Sprintf("dense/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				f.denseMarked(y)
			}
		})
	}
}
