package sketch

import "slices"

// r is the exact resistance between kept positions a and b (across
// components, L⁺_aa + L⁺_bb: M_ab is 0 there).
func (e *Engine) r(a, b int32) float64 {
	K := len(e.kept)
	return e.m[int(a)*K+int(a)] + e.m[int(b)*K+int(b)] - 2*e.m[int(a)*K+int(b)]
}

// setRowMin sets rowMin to every row's minimum of M, the rows split
// among up to Workers goroutines. O(|K|²).
func (e *Engine) setRowMin() {
	K := len(e.kept)
	e.rowMin = slices.Grow(e.rowMin[:0], K)[:K]
	parallelRows(e.rowWorkers(), K, func(_, lo, hi int) {
		for p := lo; p < hi; p++ {
			e.rowMin[p] = minimum(e.m[p*K : (p+1)*K])
		}
	})
}

// mii is M's diagonal entry at kept position a, L⁺ of the node.
func (e *Engine) mii(a int32) float64 { return e.m[int(a)*len(e.kept)+int(a)] }

// rowWorkers is how many goroutines share a pass over M's rows: up to
// Workers, one per 256 rows at least.
func (e *Engine) rowWorkers() int { return min(max(1, e.opt.Workers), max(1, len(e.kept)/256)) }

// minimum is the least entry of a non-empty row (a plain comparison:
// the builtin min's NaN rules cost three times as much; M has no NaN).
func minimum(row []float64) float64 {
	low := row[0]
	for _, v := range row[1:] {
		if v < low {
			low = v
		}
	}
	return low
}
