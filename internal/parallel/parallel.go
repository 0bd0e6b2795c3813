// Package parallel holds the fan-outs the engines and kernels share: rows
// split into contiguous ranges, one goroutine each (Rows), and items taken
// from a queue by a fixed number of goroutines (Each).
package parallel

import (
	"sync"
	"sync/atomic"
)

// Rows runs body(t, lo, hi) for t in [0, w) on w goroutines, the rows
// [0, n) split into w contiguous ranges (range t is [n·t/w, n·(t+1)/w)),
// and waits for them all.
func Rows(w, n int, body func(t, lo, hi int)) {
	var wg sync.WaitGroup
	for t := range w {
		lo, hi := n*t/w, n*(t+1)/w
		wg.Go(func() { body(t, lo, hi) })
	}
	wg.Wait()
}

// Each runs body(t, k) for every item k in [0, n) on max(1, min(w, n))
// goroutines, t in [0, that) naming the goroutine (for its own scratch):
// each takes the next item not yet taken, in increasing order, whenever
// it is free, so that items of uneven cost balance. It waits for them all.
func Each(w, n int, body func(t, k int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for t := range max(1, min(w, n)) {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= n {
					return
				}
				body(t, k)
			}
		})
	}
	wg.Wait()
}
