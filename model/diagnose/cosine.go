package diagnose

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// DefaultMaxPairs is the number of node pairs above which MeanAbsCosine
// samples instead of enumerating (definitions §5: 10⁶).
const DefaultMaxPairs = 1_000_000

// pairStream is the second PCG word of MeanAbsCosine's sampler ("ohm-cos").
const pairStream = 0x6f686d2d636f73

// MeanAbsCosine returns the mean of |cos(h_i, h_j)| over the unordered pairs
// {i, j} (i ≠ j) of nodes whose labels are equal (same) and different (diff),
// where h_i is row i of h and labels[i] its class.
//
// When nodes has at most maxPairs pairs (maxPairs ≤ 0 means DefaultMaxPairs)
// every pair is used; otherwise maxPairs pairs are drawn uniformly, with
// replacement, from a generator seeded by seed (the same seed gives the same
// sample), and each lands in the same- or different-class mean as its labels
// say. The cosine of a zero row with any row is defined as 0. A class of
// pairs that has no member (e.g. every node in one class) gives 0.
//
// Cost: O(|nodes|·d) to normalise the rows plus O(P·d) for the P pairs used,
// P ≤ max(maxPairs, |nodes|²/2); h is n×d.
func MeanAbsCosine(h *mat.Dense, labels []int, nodes []int, maxPairs int, seed uint64) (same, diff float64) {
	n, d := h.Dims()
	if maxPairs <= 0 {
		maxPairs = DefaultMaxPairs
	}
	k := len(nodes)
	// Unit rows of the chosen nodes (zero rows stay zero, so cos = 0).
	u := make([]float64, k*d)
	y := make([]int, k)
	for a, i := range nodes {
		if i < 0 || i >= n || i >= len(labels) {
			panic(fmt.Sprintf("diagnose: node %d outside the %d rows / %d labels", i, n, len(labels)))
		}
		y[a] = labels[i]
		row := u[a*d : (a+1)*d]
		mat.Row(row, i, h)
		var ss float64
		for _, v := range row {
			ss += v * v
		}
		if ss > 0 {
			s := 1 / math.Sqrt(ss)
			for c := range row {
				row[c] *= s
			}
		}
	}
	var sumSame, sumDiff float64
	var nSame, nDiff int
	add := func(a, b int) {
		ra, rb := u[a*d:(a+1)*d], u[b*d:(b+1)*d]
		var c float64
		for t := range ra {
			c += ra[t] * rb[t]
		}
		c = math.Abs(c)
		if y[a] == y[b] {
			sumSame += c
			nSame++
		} else {
			sumDiff += c
			nDiff++
		}
	}
	if total := float64(k) * float64(k-1) / 2; total <= float64(maxPairs) {
		for a := range k {
			for b := a + 1; b < k; b++ {
				add(a, b)
			}
		}
	} else {
		rng := rand.New(rand.NewPCG(seed, pairStream))
		for range maxPairs {
			a := rng.IntN(k)
			b := rng.IntN(k - 1)
			if b >= a {
				b++
			}
			add(a, b)
		}
	}
	if nSame > 0 {
		same = sumSame / float64(nSame)
	}
	if nDiff > 0 {
		diff = sumDiff / float64(nDiff)
	}
	return same, diff
}
