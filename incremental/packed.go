package incremental

import "math"

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

// tieTol is SPEC §3's tolerance: two scores are equal when they differ by at
// most 1e-9·max(1, |best|).
func tieTol(best float64) float64 { return 1e-9 * math.Max(1, math.Abs(best)) }

// Pair is a node pair with its score (a resistance, or a resistance per hop).
type Pair struct {
	U, V  int
	Score float64
}

// maxTracker finds the first pair in row-major order whose score is within
// tieTol of the maximum, in one streaming pass over pairs given in row-major
// order. It keeps only the running maxima ("records") that are still within
// the tolerance of the current maximum; the first record at or above the
// final threshold is the answer, and a later-merged tracker never holds an
// earlier pair. Amortised O(1) per pair, no allocation after warm-up.
type maxTracker struct {
	best    float64
	records []Pair
}

func (t *maxTracker) reset() {
	t.best = math.Inf(-1)
	t.records = t.records[:0]
}

// offer records a new running maximum s at (i, j). Callers pre-filter in
// their hot loop, possibly on a rearranged sum; a value not above the current
// maximum after rounding is ignored, so records stay strictly increasing.
func (t *maxTracker) offer(i, j int, s float64) {
	if !(s > t.best) {
		return
	}
	t.best = s
	th := s - tieTol(s)
	k := 0
	for k < len(t.records) && t.records[k].Score < th {
		k++
	}
	if k > 0 {
		t.records = append(t.records[:0], t.records[k:]...)
	}
	t.records = append(t.records, Pair{i, j, s})
}

// mergeMax returns the tie-ruled maximum over trackers that saw consecutive,
// ordered ranges of pairs, and false when none saw a pair.
func mergeMax(ts []maxTracker) (Pair, bool) {
	best := math.Inf(-1)
	for i := range ts {
		best = math.Max(best, ts[i].best)
	}
	if math.IsInf(best, -1) {
		return Pair{}, false
	}
	th := best - tieTol(best)
	for i := range ts {
		for _, r := range ts[i].records {
			if r.Score >= th {
				return r, true
			}
		}
	}
	panic("incremental: maximum lost by the trackers")
}
