package report

import (
	"math"
	"slices"
)

// maxExactN bounds the pairs WilcoxonExact handles: its distribution table
// has O(n³) entries (n ≤ 64: about 10⁵). Wilcoxon uses the normal
// approximation (WilcoxonNormal) above it.
const maxExactN = 64

// WilcoxonMethod says how Wilcoxon computed its p-value.
type WilcoxonMethod int

const (
	// WilcoxonExactMethod: the exact distribution (WilcoxonExact), n ≤ 64.
	WilcoxonExactMethod WilcoxonMethod = iota
	// WilcoxonNormalMethod: the normal approximation with the tie and
	// continuity corrections (WilcoxonNormal), n > 64.
	WilcoxonNormalMethod
)

func (m WilcoxonMethod) String() string {
	if m == WilcoxonNormalMethod {
		return "normal approximation"
	}
	return "exact"
}

// Wilcoxon returns the two-sided p-value of the Wilcoxon signed-rank test
// of the paired samples x and y (definitions §6), the number n of non-zero
// differences, and the method used: exact (WilcoxonExact) for n ≤ 64, the
// normal approximation with tie and continuity corrections
// (WilcoxonNormal) above. O(n³) up to 64 pairs, O(n log n) above. It panics
// if len(x) ≠ len(y).
func Wilcoxon(x, y []float64) (p float64, n int, m WilcoxonMethod) {
	if len(nonZeroDiffs(x, y)) > maxExactN {
		p, n = WilcoxonNormal(x, y)
		return p, n, WilcoxonNormalMethod
	}
	p, n = WilcoxonExact(x, y)
	return p, n, WilcoxonExactMethod
}

// WilcoxonNormal returns the two-sided p-value of the Wilcoxon signed-rank
// test of the paired samples x and y by the normal approximation, and the
// number n of non-zero differences, as scipy.stats.wilcoxon computes it
// with method="approx", correction=True and zero_method="wilcox": zero
// differences dropped, tied |d| given their average rank, T = min(W⁺, W⁻),
//
//	z = (T − μ + ½·sign(μ − T)) / σ,  μ = n(n+1)/4,
//	σ² = (n(n+1)(2n+1) − ½·Σ t(t² − 1)) / 24,
//
// the sum over the groups of t tied |d|, and p = 2·Φ(−|z|). With no
// non-zero difference p is 1. O(n log n). It panics if len(x) ≠ len(y).
func WilcoxonNormal(x, y []float64) (p float64, n int) {
	d := nonZeroDiffs(x, y)
	n = len(d)
	if n == 0 {
		return 1, 0
	}
	rank2, ties := doubledRanks(d)
	w2, total2 := 0, 0
	for i, r := range rank2 {
		total2 += r
		if d[i] > 0 {
			w2 += r
		}
	}
	t := 0.5 * float64(min(w2, total2-w2))
	nf := float64(n)
	mu := nf * (nf + 1) / 4
	v := nf * (nf + 1) * (2*nf + 1)
	for _, c := range ties {
		v -= 0.5 * float64(c) * (float64(c)*float64(c) - 1)
	}
	sigma := math.Sqrt(v / 24)
	cc := 0.0
	switch {
	case t > mu:
		cc = 0.5
	case t < mu:
		cc = -0.5
	}
	z := (t - mu - cc) / sigma
	return math.Erfc(math.Abs(z) / math.Sqrt2), n
}

// nonZeroDiffs returns the differences x_i − y_i that are not zero. It
// panics if len(x) ≠ len(y).
func nonZeroDiffs(x, y []float64) []float64 {
	if len(x) != len(y) {
		panic("report: Wilcoxon test of samples of different lengths")
	}
	var d []float64
	for i := range x {
		if v := x[i] - y[i]; v != 0 {
			d = append(d, v)
		}
	}
	return d
}

// doubledRanks returns twice the ranks of |d| (1-based, ties averaged) and
// the sizes of the groups of tied |d| with more than one member.
func doubledRanks(d []float64) (rank2, ties []int) {
	n := len(d)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmpFloat(math.Abs(d[a]), math.Abs(d[b])) })
	rank2 = make([]int, n)
	for i := 0; i < n; {
		j := i
		for j+1 < n && math.Abs(d[order[j+1]]) == math.Abs(d[order[i]]) {
			j++
		}
		for k := i; k <= j; k++ {
			rank2[order[k]] = i + j + 2 // 2 × the average of ranks i+1 … j+1
		}
		if j > i {
			ties = append(ties, j-i+1)
		}
		i = j + 1
	}
	return rank2, ties
}

// WilcoxonExact returns the two-sided p-value of the Wilcoxon signed-rank
// test of the paired samples x and y (the null hypothesis: the differences
// d = x − y are symmetric about zero), and the number n of non-zero
// differences it used.
//
// Zero differences are dropped (Wilcoxon's convention); tied |d| get their
// average rank. The p-value is exact under the null given those ranks: every
// one of the 2ⁿ sign assignments is equally likely, and p is the fraction
// whose statistic W⁺ (the sum of the ranks of positive differences) lies at
// least as far from n(n+1)/4 as the observed one. With no non-zero
// difference p is 1. Ranks are counted in halves, so the distribution is a
// table of integers, built in O(n³) time. It panics if len(x) ≠ len(y) or
// n > 64: Wilcoxon chooses it or WilcoxonNormal.
func WilcoxonExact(x, y []float64) (p float64, n int) {
	d := nonZeroDiffs(x, y)
	n = len(d)
	if n == 0 {
		return 1, 0
	}
	if n > maxExactN {
		panic("report: WilcoxonExact of more than 64 pairs (Wilcoxon chooses the normal approximation there)")
	}
	rank2, _ := doubledRanks(d)
	w2, total2 := 0, 0
	for i, r := range rank2 {
		total2 += r
		if d[i] > 0 {
			w2 += r
		}
	}
	// count[s] = number of sign assignments whose doubled W⁺ is s.
	count := make([]float64, total2+1)
	count[0] = 1
	hi := 0
	for _, r := range rank2 {
		for s := hi; s >= 0; s-- {
			if count[s] != 0 {
				count[s+r] += count[s]
			}
		}
		hi += r
	}
	// |2·W⁺ − total| compared in doubled units: |2·w2 − total2| (×2 again).
	dev := abs(2*w2 - total2)
	var tail float64
	for s, c := range count {
		if abs(2*s-total2) >= dev {
			tail += c
		}
	}
	return math.Min(1, tail/math.Exp2(float64(n))), n
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
