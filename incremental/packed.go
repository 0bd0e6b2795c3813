package incremental

import (
	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/linalg"
)

// packed is a symmetric n×n matrix stored as its upper triangle, row by row:
// row i holds columns i..n-1 contiguously, so a row-major scan of the pairs
// i ≤ j reads memory in order. It takes n(n+1)/2 float64s.
type packed struct {
	n     int
	start []int // start[i] is the index of (i, i)
	data  []float64
}

func newPacked(n int) packed {
	p := packed{n: n, start: make([]int, n+1)}
	for i := range n {
		p.start[i+1] = p.start[i] + n - i
	}
	p.data = make([]float64, p.start[n])
	return p
}

// at returns entry (i, j) for any order of i and j.
func (p *packed) at(i, j int) float64 {
	if i > j {
		i, j = j, i
	}
	return p.data[p.start[i]+j-i]
}

// set sets entries (i, j) and (j, i).
func (p *packed) set(i, j int, v float64) {
	if i > j {
		i, j = j, i
	}
	p.data[p.start[i]+j-i] = v
}

// row returns the stored part of row i: columns i..n-1.
func (p *packed) row(i int) []float64 { return p.data[p.start[i]:p.start[i+1]] }

// column writes column j (= row j, by symmetry) into dst. O(n).
func (p *packed) column(dst []float64, j int) {
	for k := 0; k < j; k++ {
		dst[k] = p.data[p.start[k]+j-k]
	}
	copy(dst[j:], p.row(j))
}

// Pair is a node pair with its score (a resistance, or a resistance per
// hop) and, for per-hop scores, its resistance as the ranking's second key.
type Pair = rank.Pair

// minEdge returns the first edge {u,v} (directed: arc u→v) of g with
// scored(u, v), in definitions §3.1's ascending ranking by r(u, v), that accept
// (nil: any) takes, and false when there is none. O(m) per rejection.
func minEdge(g *linalg.Graph, r func(u, v int) float64, scored, accept func(u, v int) bool) (Pair, bool) {
	var es []Pair
	for _, ed := range g.Edges() {
		if scored(ed.U, ed.V) {
			es = append(es, Pair{U: ed.U, V: ed.V, Score: r(ed.U, ed.V)})
		}
	}
	return rank.FirstAccepted(es, rank.Ascending, rank.ScoreOnly, accept)
}
