package parallel

import (
	"sync/atomic"
	"testing"
)

// TestRows: the ranges of w workers cover [0, n) once each, in order of t.
func TestRows(t *testing.T) {
	for _, c := range []struct{ w, n int }{{1, 0}, {1, 7}, {3, 7}, {4, 2}, {8, 1000}} {
		lo, hi := make([]int, c.w), make([]int, c.w)
		var calls atomic.Int32
		Rows(c.w, c.n, func(t, a, b int) {
			calls.Add(1)
			lo[t], hi[t] = a, b
		})
		if int(calls.Load()) != c.w {
			t.Fatalf("w=%d n=%d: %d calls", c.w, c.n, calls.Load())
		}
		next := 0
		for k := range c.w {
			if lo[k] != next || hi[k] < lo[k] {
				t.Fatalf("w=%d n=%d: range %d is [%d, %d), want it to start at %d", c.w, c.n, k, lo[k], hi[k], next)
			}
			next = hi[k]
		}
		if next != c.n {
			t.Errorf("w=%d n=%d: ranges end at %d", c.w, c.n, next)
		}
	}
}

// TestEach: every item runs once, on a goroutine index below min(w, n)
// (at least 1), and Each returns after the last.
func TestEach(t *testing.T) {
	for _, c := range []struct{ w, n int }{{1, 0}, {0, 5}, {3, 7}, {4, 2}, {8, 1000}} {
		runs := make([]atomic.Int32, c.n)
		var bad atomic.Int32
		Each(c.w, c.n, func(g, k int) {
			if g < 0 || g >= max(1, min(c.w, c.n)) {
				bad.Add(1)
			}
			runs[k].Add(1)
		})
		if bad.Load() != 0 {
			t.Errorf("w=%d n=%d: %d calls on a goroutine index out of range", c.w, c.n, bad.Load())
		}
		for k := range runs {
			if r := runs[k].Load(); r != 1 {
				t.Errorf("w=%d n=%d: item %d ran %d times", c.w, c.n, k, r)
			}
		}
	}
}
