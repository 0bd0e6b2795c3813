package report

import (
	"math"
	"slices"
)

// maxExactN bounds the pairs WilcoxonExact handles: its distribution table
// has O(n³) entries (n ≤ 64: about 10⁵).
const maxExactN = 64

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
// n > 64.
func WilcoxonExact(x, y []float64) (p float64, n int) {
	if len(x) != len(y) {
		panic("report: WilcoxonExact on samples of different lengths")
	}
	var d []float64
	for i := range x {
		if v := x[i] - y[i]; v != 0 {
			d = append(d, v)
		}
	}
	n = len(d)
	if n == 0 {
		return 1, 0
	}
	if n > maxExactN {
		panic("report: WilcoxonExact on more than 64 pairs")
	}
	// Ranks of |d| (1-based, ties averaged), doubled to integers.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmpFloat(math.Abs(d[a]), math.Abs(d[b])) })
	rank2 := make([]int, n)
	for i := 0; i < n; {
		j := i
		for j+1 < n && math.Abs(d[order[j+1]]) == math.Abs(d[order[i]]) {
			j++
		}
		for k := i; k <= j; k++ {
			rank2[order[k]] = i + j + 2 // 2 × the average of ranks i+1 … j+1
		}
		i = j + 1
	}
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
