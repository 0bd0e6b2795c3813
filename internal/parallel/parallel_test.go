package parallel

import (
	"errors"
	"strings"
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

// TestPanicReachesCaller: a panic in any worker of every fan-out is raised
// again on the caller's goroutine as a *PanicError holding the value and
// the worker's stack, after the other workers are done; Go returns it as
// an error.
func TestPanicReachesCaller(t *testing.T) {
	fanouts := map[string]func(){
		"Rows":    func() { Rows(3, 9, func(t, lo, hi int) { boomIf(t == 1) }) },
		"Ranges":  func() { Ranges([]int{0, 2, 5}, func(t, lo, hi int) { boomIf(t == 1) }) },
		"Workers": func() { Workers(2, func(t int) { boomIf(t == 0) }) },
		"Each":    func() { Each(2, 10, func(t, k int) { boomIf(k == 7) }) },
		"nested":  func() { Rows(2, 2, func(t, lo, hi int) { Each(2, 4, func(_, k int) { boomIf(t == 1 && k == 3) }) }) },
	}
	for name, f := range fanouts {
		p := catch(f)
		if p == nil || p.Value != "boom" || !strings.Contains(string(p.Stack), "boomIf") {
			t.Errorf("%s: recovered %#v, want a *PanicError of \"boom\" with boomIf on its stack", name, p)
		}
	}
	err := Go(func() error { boomIf(true); return nil })()
	var p *PanicError
	if !errors.As(err, &p) || p.Value != "boom" || !strings.HasPrefix(err.Error(), "internal error (please report it): boom\n") {
		t.Errorf("Go: %v, want a *PanicError of \"boom\"", err)
	}
	want := errors.New("plain")
	if err := Go(func() error { return want })(); err != want {
		t.Errorf("Go passes %v through as %v", want, err)
	}
}

func boomIf(b bool) {
	if b {
		panic("boom")
	}
}

func catch(f func()) (p *PanicError) {
	defer func() { p, _ = recover().(*PanicError) }()
	f()
	return nil
}
