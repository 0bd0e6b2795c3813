package diagnose

import (
	"fmt"
	"math/bits"

	"github.com/ohmgnn/ohm/linalg"
)

// MaxOverlapMethods bounds the number of methods EdgeOverlap compares: it
// lists all 2^k − 1 combinations.
const MaxOverlapMethods = 16

// EdgeOverlap compares the added-edge sets added[m] of the methods (in the
// order given; names must be distinct; a method missing from added has the
// empty set, entries of added not in methods are ignored) on one dataset and
// budget (definitions §5, as an UpSet plot shows them):
//
//   - Sizes[i] is the number of distinct edges of methods[i];
//   - Exclusive lists every non-empty combination of methods — 2^k − 1
//     entries, by number of methods and then lexicographically by position
//     in methods, zero counts included — with the number of edges added by
//     exactly those methods and by no other (the counts sum to the size of
//     the union);
//   - Jaccard[i][j] = |A_i ∩ A_j| / |A_i ∪ A_j|, defined as 1 when both sets
//     are empty (they are equal).
//
// Edges are compared as ordered pairs (U, V), duplicates within one set
// counted once. rewire's edit log writes an undirected edge with U < V and a
// directed one as the arc U→V, so pairs taken from it compare undirected edges
// as unordered pairs and directed edges as arcs (u→v and v→u differ). Callers
// holding undirected edges in either order must order them U < V first.
//
// It panics for more than MaxOverlapMethods methods or a repeated name.
// Cost: O(total edges + 2^k + k²) time, O(distinct edges) memory.
func EdgeOverlap(dataset string, budget float64, methods []string, added map[string][]linalg.Edge) Overlap {
	k := len(methods)
	if k > MaxOverlapMethods {
		panic(fmt.Sprintf("diagnose: EdgeOverlap of %d methods (at most %d)", k, MaxOverlapMethods))
	}
	o := Overlap{Dataset: dataset, Budget: budget, Methods: append([]string{}, methods...),
		Sizes: make([]int, k), Exclusive: []Intersection{}, Jaccard: make([][]float64, k)}
	member := map[linalg.Edge]uint32{} // edge → bit i set iff methods[i] added it
	for i, m := range methods {
		for _, prev := range methods[:i] {
			if prev == m {
				panic(fmt.Sprintf("diagnose: EdgeOverlap: method %q given twice", m))
			}
		}
		for _, e := range added[m] {
			if member[e]&(1<<i) == 0 {
				member[e] |= 1 << i
				o.Sizes[i]++
			}
		}
	}
	count := make([]int, 1<<k)
	for _, mask := range member {
		count[mask]++
	}
	// Combinations by size, then lexicographically by method position.
	for size := 1; size <= k; size++ {
		for _, mask := range combinations(k, size) {
			var names []string
			for i := range k {
				if mask&(1<<i) != 0 {
					names = append(names, methods[i])
				}
			}
			o.Exclusive = append(o.Exclusive, Intersection{Methods: names, Count: count[mask]})
		}
	}
	// |A_i ∩ A_j| = Σ count[mask] over masks holding both bits.
	inter := make([][]int, k)
	for i := range k {
		inter[i] = make([]int, k)
	}
	for mask, c := range count {
		if c == 0 {
			continue
		}
		for i := range k {
			if mask&(1<<i) == 0 {
				continue
			}
			for j := range k {
				if mask&(1<<j) != 0 {
					inter[i][j] += c
				}
			}
		}
	}
	for i := range k {
		o.Jaccard[i] = make([]float64, k)
		for j := range k {
			union := o.Sizes[i] + o.Sizes[j] - inter[i][j]
			if union == 0 {
				o.Jaccard[i][j] = 1
			} else {
				o.Jaccard[i][j] = float64(inter[i][j]) / float64(union)
			}
		}
	}
	return o
}

// combinations returns the size-element subsets of {0..k-1} as bit masks, in
// lexicographic order of their sorted elements.
func combinations(k, size int) []uint32 {
	var out []uint32
	var rec func(start int, mask uint32)
	rec = func(start int, mask uint32) {
		if bits.OnesCount32(mask) == size {
			out = append(out, mask)
			return
		}
		for i := start; i < k; i++ {
			rec(i+1, mask|1<<i)
		}
	}
	rec(0, 0)
	return out
}
