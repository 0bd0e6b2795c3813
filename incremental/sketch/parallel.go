package sketch

import "sync"

// parallelRows runs body(t, lo, hi) for t in [0, w) on w goroutines, the
// rows [0, n) split into w contiguous ranges, and waits for them all.
func parallelRows(w, n int, body func(t, lo, hi int)) {
	var wg sync.WaitGroup
	for t := range w {
		lo, hi := n*t/w, n*(t+1)/w
		wg.Go(func() { body(t, lo, hi) })
	}
	wg.Wait()
}
