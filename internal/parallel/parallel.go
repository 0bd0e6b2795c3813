// Package parallel holds the fan-outs the engines, kernels and drivers
// share: rows split into contiguous ranges, one goroutine each (Rows, or
// Ranges for ranges of the caller's choosing), items taken from a queue by
// a fixed number of goroutines (Each), w copies of one loop (Workers), and
// the recovery of a panic in a worker (Go and the functions above), so
// that a bug in a goroutine reaches the caller — as a re-panic on the
// caller's goroutine, or as a *PanicError from Go — instead of killing the
// process with the runtime's exit status.
package parallel

import (
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// PanicError is a panic recovered in a worker goroutine: its value and the
// worker's stack. A bug, never bad input: commands report it as an
// internal error (exit status 1).
type PanicError struct {
	Value any
	Stack []byte
}

func (p *PanicError) Error() string {
	return fmt.Sprintf("internal error (please report it): %v\n%s", p.Value, p.Stack)
}

// Go returns f that turns a panic into a *PanicError returned as its error:
// what an errgroup.Group's workers run (eg.Go(parallel.Go(f))). O(1).
func Go(f func() error) func() error {
	return func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = Recovered(r)
			}
		}()
		return f()
	}
}

// Recovered is the *PanicError of r, a value recover returned on the
// current goroutine (its stack taken now), or r itself when it is one
// already: for workers that recover their own panics to raise them again
// on their caller's goroutine. O(stack).
func Recovered(r any) *PanicError {
	if p, ok := r.(*PanicError); ok {
		return p // re-panicked by a nested fan-out: keep the worker's stack
	}
	return &PanicError{Value: r, Stack: debug.Stack()}
}

// group runs goroutines and keeps the first panic among them, to panic
// with again on the caller's goroutine once all are done.
type group struct {
	wg    sync.WaitGroup
	mu    sync.Mutex
	first *PanicError
}

func (g *group) go_(f func()) {
	g.wg.Go(func() {
		defer func() {
			if r := recover(); r != nil {
				g.mu.Lock()
				if g.first == nil {
					g.first = Recovered(r)
				}
				g.mu.Unlock()
			}
		}()
		f()
	})
}

func (g *group) wait() {
	g.wg.Wait()
	if g.first != nil {
		panic(g.first)
	}
}

// Rows runs body(t, lo, hi) for t in [0, w) on w goroutines, the rows
// [0, n) split into w contiguous ranges (range t is [n·t/w, n·(t+1)/w)),
// and waits for them all. A panic in body is raised again, as a
// *PanicError, on the caller's goroutine after they are done.
func Rows(w, n int, body func(t, lo, hi int)) {
	var g group
	for t := range w {
		lo, hi := n*t/w, n*(t+1)/w
		g.go_(func() { body(t, lo, hi) })
	}
	g.wait()
}

// Ranges runs body(t, bounds[t], bounds[t+1]) for t in [0, len(bounds)−1)
// on one goroutine each and waits for them all: Rows with ranges of the
// caller's choosing (bounds non-decreasing). Panics as Rows.
func Ranges(bounds []int, body func(t, lo, hi int)) {
	var g group
	for t := range len(bounds) - 1 {
		g.go_(func() { body(t, bounds[t], bounds[t+1]) })
	}
	g.wait()
}

// Workers runs body(t) for t in [0, w) on w goroutines (at least one) and
// waits for them all: for workers that share their own queue. Panics as
// Rows.
func Workers(w int, body func(t int)) {
	var g group
	for t := range max(1, w) {
		g.go_(func() { body(t) })
	}
	g.wait()
}

// Each runs body(t, k) for every item k in [0, n) on max(1, min(w, n))
// goroutines, t in [0, that) naming the goroutine (for its own scratch):
// each takes the next item not yet taken, in increasing order, whenever
// it is free, so that items of uneven cost balance. It waits for them all.
// Panics as Rows (the other goroutines finish their items first).
func Each(w, n int, body func(t, k int)) {
	var next atomic.Int64
	Workers(min(w, n), func(t int) {
		for {
			k := int(next.Add(1)) - 1
			if k >= n {
				return
			}
			body(t, k)
		}
	})
}
