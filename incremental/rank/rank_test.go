package rank

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteFirst is the rule written out on a copy: extreme, window, key
// window, row-major — the definition, with no streaming or sorting.
func bruteFirst(ps []Pair, o Order, keyed bool) (Pair, bool) {
	if len(ps) == 0 {
		return Pair{}, false
	}
	m := ps[0].Score
	for _, p := range ps {
		if o == Descending && p.Score > m || o == Ascending && p.Score < m {
			m = p.Score
		}
	}
	tol := 1e-9 * max(1, abs(m))
	var w []Pair
	for _, p := range ps {
		if o == Descending && p.Score >= m-tol || o == Ascending && p.Score <= m+tol {
			w = append(w, p)
		}
	}
	if keyed {
		k := w[0].Key
		for _, p := range w {
			k = max(k, p.Key)
		}
		w = slices.DeleteFunc(w, func(p Pair) bool { return p.Key < k-1e-9*max(1, abs(k)) })
	}
	return slices.MinFunc(w, func(a, b Pair) int {
		if a.U != b.U {
			return a.U - b.U
		}
		return a.V - b.V
	}), true
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// randomPairs returns the pairs i<j of n nodes in row-major order with
// scores drawn from few levels, some a hair apart, so that ties within and
// just outside the tolerance are common.
func randomPairs(rng *rand.Rand, n int) []Pair {
	levels := []float64{1, 1 + 5e-10, 1 + 2e-9, 2, 2 - 1e-9, 3, 3 + 3e-9}
	var ps []Pair
	for i := range n {
		for j := i + 1; j < n; j++ {
			ps = append(ps, Pair{U: i, V: j, Score: levels[rng.IntN(len(levels))], Key: levels[rng.IntN(len(levels))]})
		}
	}
	return ps
}

func TestMaxEqualsRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 400 {
		ps := randomPairs(rng, 3+rng.IntN(9))
		keyed := trial%2 == 1
		var excl []Pair
		for _, p := range ps {
			if rng.IntN(6) == 0 {
				excl = append(excl, p)
			}
		}
		var rest []Pair
		for _, p := range ps {
			if !slices.ContainsFunc(excl, func(x Pair) bool { return Same(x, p) }) {
				rest = append(rest, p)
			}
		}
		want, wok := bruteFirst(rest, Descending, keyed)
		// Split the stream over up to three trackers, as the workers do.
		cut1, cut2 := rng.IntN(len(ps)+1), rng.IntN(len(ps)+1)
		if cut1 > cut2 {
			cut1, cut2 = cut2, cut1
		}
		ts := []*Max{{Keyed: keyed, Exclude: excl}, {Keyed: keyed, Exclude: excl}, {Keyed: keyed, Exclude: excl}}
		for _, tr := range ts {
			tr.Reset()
		}
		for k, p := range ps {
			tr := ts[0]
			if k >= cut2 {
				tr = ts[2]
			} else if k >= cut1 {
				tr = ts[1]
			}
			tr.Offer(p)
		}
		got, gok := Merge(ts)
		if gok != wok || (wok && !Same(got, want)) {
			t.Fatalf("trial %d (keyed %v): Max gives %v %v, rule %v %v", trial, keyed, got, gok, want, wok)
		}
		if q := First(rest, Descending, Keys(keyed)); wok && !Same(rest[q], want) {
			t.Fatalf("trial %d: First gives %v, rule %v", trial, rest[q], want)
		}
	}
}

func TestEachIsRepeatedFirst(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		ps := randomPairs(rng, 4+rng.IntN(10))
		o := Order(trial % 2)
		keyed := trial%3 == 0
		rest := slices.Clone(ps)
		var want []Pair
		for len(rest) > 0 {
			p, _ := bruteFirst(rest, o, keyed)
			want = append(want, p)
			rest = slices.DeleteFunc(rest, func(x Pair) bool { return Same(x, p) })
		}
		var got []Pair
		Each(slices.Clone(ps), o, Keys(keyed), func(p Pair) bool { got = append(got, p); return true })
		if len(got) != len(want) {
			t.Fatalf("trial %d: %d pairs visited, want %d", trial, len(got), len(want))
		}
		for k := range got {
			if !Same(got[k], want[k]) {
				t.Fatalf("trial %d (order %d, keyed %v): position %d is %v, rule %v", trial, o, keyed, k, got[k], want[k])
			}
		}
		// Stopping early visits a prefix.
		n := 0
		Each(slices.Clone(ps), o, Keys(keyed), func(Pair) bool { n++; return n < 3 })
		if n != min(3, len(ps)) {
			t.Fatalf("trial %d: stopped after %d visits, want 3", trial, n)
		}
	}
}

// TestFirstAccepted: the first pair of the ranking that accept takes (any
// with nil), and false when it takes none.
func TestFirstAccepted(t *testing.T) {
	ps := []Pair{{U: 0, V: 1, Score: 3}, {U: 0, V: 2, Score: 1}, {U: 1, V: 2, Score: 2}}
	for _, c := range []struct {
		name   string
		accept func(u, v int) bool
		want   Pair
		found  bool
	}{
		{"nil", nil, ps[1], true},
		{"not node 2", func(u, v int) bool { return v != 2 }, ps[0], true},
		{"none", func(u, v int) bool { return false }, Pair{}, false},
	} {
		got, found := FirstAccepted(slices.Clone(ps), Ascending, false, c.accept)
		if got != c.want || found != c.found {
			t.Errorf("%s: %v, %v, want %v, %v", c.name, got, found, c.want, c.found)
		}
	}
}

func TestKeyedTieGoesToLargerKey(t *testing.T) {
	// A per-hop tie at 1: a leaf edge first in row-major order (R = 1) and
	// the end points of a bridge path (R = 4): the key decides.
	ps := []Pair{{0, 1, 1, 1}, {0, 5, 1, 4}, {2, 3, 1 - 1e-10, 4 + 1e-9}}
	var tr Max
	tr.Keyed = true
	tr.Reset()
	for _, p := range ps {
		tr.Offer(p)
	}
	got, _ := tr.Result()
	if got.U != 0 || got.V != 5 {
		t.Fatalf("keyed tie: got %v, want (0,5)", got)
	}
	tr.Keyed = false
	tr.Reset()
	for _, p := range ps {
		tr.Offer(p)
	}
	if got, _ := tr.Result(); got.U != 0 || got.V != 1 {
		t.Fatalf("unkeyed tie: got %v, want (0,1)", got)
	}
}
