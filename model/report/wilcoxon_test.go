package report

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestWilcoxonExact against p-values counted by hand from the 2ⁿ sign
// assignments.
func TestWilcoxonExact(t *testing.T) {
	for _, tc := range []struct {
		name string
		x, y []float64
		p    float64
		n    int
	}{
		// All 5 differences positive: only W⁺ = 15 and W⁺ = 0 are as
		// extreme, 2 of 32 assignments.
		{"all up, n=5", []float64{2, 3, 4, 5, 6}, []float64{1, 1, 1, 1, 1}, 2.0 / 32, 5},
		{"all up, n=6", []float64{1, 2, 3, 4, 5, 6}, []float64{0, 0, 0, 0, 0, 0}, 2.0 / 64, 6},
		// d = 0, 1, −1, 2, 2, 3: the zero dropped, |d| ranks 1.5, 1.5, 3.5,
		// 3.5, 5, W⁺ = 13.5 of 15, |W⁺ − 7.5| = 6. As far: W⁺ ≤ 1.5 ({},
		// {1.5}, {1.5'}) or W⁺ ≥ 13.5 (their complements): 6 of 32.
		{"ties and a zero", []float64{5, 1, 0, 2, 2, 3}, []float64{5, 0, 1, 0, 0, 0}, 6.0 / 32, 5},
		// d = 1, −2, 3: ranks 1, 2, 3, W⁺ = 4, |4 − 3| = 1: W⁺ ∈ {0,1,2,4,5,6}
		// ({} {1} {2} {1,3} {2,3} {1,2,3}) — all but W⁺ = 3 ({3}, {1,2}): 6 of 8.
		{"mixed, n=3", []float64{1, 0, 3}, []float64{0, 2, 0}, 6.0 / 8, 3},
		{"no difference", []float64{0.5, 0.5}, []float64{0.5, 0.5}, 1, 0},
		// n = 10 all positive: 2 of 1024.
		{"all up, n=10", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, make([]float64, 10), 2.0 / 1024, 10},
		// d = −1, −2, 3, …, 10: W⁺ = 52 of 55, |52 − 27.5| = 24.5. As far:
		// W⁺ ≤ 3 ({}, {1}, {2}, {3}, {1,2}) or W⁺ ≥ 52 (their complements):
		// 10 of 1024.
		{"two down, n=10", []float64{-1, -2, 3, 4, 5, 6, 7, 8, 9, 10}, make([]float64, 10), 10.0 / 1024, 10},
	} {
		p, n := WilcoxonExact(tc.x, tc.y)
		if n != tc.n || math.Abs(p-tc.p) > 1e-15 {
			t.Errorf("%s: p %v n %d, want p %v n %d", tc.name, p, n, tc.p, tc.n)
		}
		// Swapping the samples mirrors W⁺ and keeps the two-sided p.
		if q, _ := WilcoxonExact(tc.y, tc.x); q != p {
			t.Errorf("%s: swapped p %v ≠ %v", tc.name, q, p)
		}
	}
}

// TestWilcoxonScipy against scipy.stats.wilcoxon's p-values
// (testdata/wilcoxon_scipy.json, written by testdata/wilcoxon_scipy.py):
// the normal approximation with tie and continuity corrections on every
// case (accuracies with ties and zero differences, 10 to 250 pairs), the
// exact p on the cases without ties or zeros (10 to 100 pairs), and
// Wilcoxon choosing exact up to 64 non-zero differences and the
// approximation above.
func TestWilcoxonScipy(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "wilcoxon_scipy.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Cases []struct {
			Name   string
			X, Y   []float64
			N      int
			Approx float64
			Exact  *float64
		}
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	close := func(got, want float64) bool { return math.Abs(got-want) <= 1e-12*want+1e-300 }
	approx, exact, above := 0, 0, 0
	for _, c := range ref.Cases {
		p, n := WilcoxonNormal(c.X, c.Y)
		if n != c.N || !close(p, c.Approx) {
			t.Errorf("%s: normal p %v n %d, scipy p %v n %d", c.Name, p, n, c.Approx, c.N)
		}
		approx++
		if c.Exact != nil && c.N <= maxExactN {
			if p, _ := WilcoxonExact(c.X, c.Y); !close(p, *c.Exact) {
				t.Errorf("%s: exact p %v, scipy %v", c.Name, p, *c.Exact)
			}
			exact++
		}
		p, n, m := Wilcoxon(c.X, c.Y)
		switch {
		case c.N > maxExactN:
			above++
			if m != WilcoxonNormalMethod || !close(p, c.Approx) {
				t.Errorf("%s: Wilcoxon %v by %v, want the normal approximation %v", c.Name, p, m, c.Approx)
			}
		case m != WilcoxonExactMethod || (c.Exact != nil && !close(p, *c.Exact)):
			t.Errorf("%s: Wilcoxon %v by %v with %d pairs, want exact", c.Name, p, m, n)
		}
	}
	if exact < 4 || above < 4 {
		t.Fatalf("%d cases, %d exact, %d above %d pairs: the reference lost its cases", approx, exact, above, maxExactN)
	}
}

// TestSignificanceMark: the marks by p, and † after a mark whose p is the
// normal approximation's.
func TestSignificanceMark(t *testing.T) {
	for _, c := range []struct {
		s    significance
		want string
	}{
		{significance{p: 0.2, n: 10}, ""},
		{significance{p: 0.03, n: 10}, "*"},
		{significance{p: 0.002, n: 10}, "**"},
		{significance{p: 0.2, n: 80, m: WilcoxonNormalMethod}, ""},
		{significance{p: 0.03, n: 80, m: WilcoxonNormalMethod}, "*†"},
		{significance{p: 1e-5, n: 80, m: WilcoxonNormalMethod}, "**†"},
	} {
		if got := c.s.mark(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}
