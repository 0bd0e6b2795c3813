package sketch

import (
	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/linalg"
)

// M's Sherman–Morrison updates are deferred. Every iteration adds
// Σ_j c_j u_j u_jᵀ to M (Commit); written into M at once, that is a pass
// over all |K|² entries per iteration (141 MB read and written at
// |K| = 4 200) for two multiply–adds an entry, which the memory bus, not
// the cores, paces. The iterations' vectors wait instead (deferredM) and
// flushM writes them all in one pass every boundBatch edits, each entry
// in registers while its terms are added. An entry read in between
// (at, rowInto) replays its waiting terms, and the diagonal and the rows'
// lower bounds are kept current at once (O(|K|) an edit): every entry gets
// the same roundings in the same order as an update written at once,
// fl(M_pq + fl(fl(c_j·u_j[p])·u_j[q])) term after term, a row whose
// factors of an iteration are all zero left alone for that iteration, so
// the decisions keep their bits.

// deferredM holds the updates not yet written into M: the vectors
// u_j (|K| numbers each) one after another, their coefficients c_j, and
// where each iteration's batch ends (in vectors).
type deferredM struct {
	us   []float64
	cs   []float64
	ends []int
}

// deferCap is the most vectors that wait (but for one iteration's batch
// larger than it): flushM writes them sooner when they would exceed it
// (flushBounds writes them every boundBatch edits).
const deferCap = 2 * boundBatch

// factor is c_j·u_j[p], the factor of waiting vector j in row p.
func (e *Engine) factor(j, p int) float64 {
	d := &e.deferred
	return d.cs[j] * d.us[j*len(e.kept)+p]
}

// rowFactors sets fs[j−lo] = c_j·u_j[p] for the waiting vectors j in
// [lo, hi) and reports whether all of them are zero.
func (e *Engine) rowFactors(p, lo, hi int, fs []float64) bool {
	zero := true
	for j := lo; j < hi; j++ {
		f := e.factor(j, p)
		fs[j-lo] = f
		zero = zero && f == 0
	}
	return zero
}

// rowZero reports whether every factor of row p is zero for the waiting
// vectors in [lo, hi) (a batch that leaves the row alone).
func (e *Engine) rowZero(p, lo, hi int) bool {
	for j := lo; j < hi; j++ {
		if e.factor(j, p) != 0 {
			return false
		}
	}
	return true
}

// addTerms returns v with the terms of the waiting vectors in [lo, hi)
// added for entry (p, q), one rounded product and one rounded sum at a
// time: what linalg.AddScaledRows does to that entry.
func (e *Engine) addTerms(v float64, p, q, lo, hi int) float64 {
	K, d := len(e.kept), &e.deferred
	for j := lo; j < hi; j++ {
		v += float64(e.factor(j, p) * d.us[j*K+q])
	}
	return v
}

// at is the current M_pq: M's entry with the waiting terms of row p added.
// O(waiting vectors).
func (e *Engine) at(p, q int) float64 {
	v := e.m[p*e.stride+q]
	lo := 0
	for _, hi := range e.deferred.ends {
		if !e.rowZero(p, lo, hi) {
			v = e.addTerms(v, p, q, lo, hi)
		}
		lo = hi
	}
	return v
}

// addWaiting adds the waiting terms of row p to row, M's row p or a copy
// of it: one linalg.AddScaledRows call per run of batches whose factors
// are not all zero. fs is scratch of a factor per waiting vector.
// O(|K|·waiting vectors).
func (e *Engine) addWaiting(p int, row, fs []float64) {
	K, d := len(e.kept), &e.deferred
	lo, run := 0, 0 // run: the first vector of the current run
	for _, hi := range d.ends {
		if e.rowFactors(p, lo, hi, fs[lo:hi]) {
			if run < lo {
				linalg.AddScaledRows(row, fs[run:lo], d.us[run*K:], K)
			}
			run = hi
		}
		lo = hi
	}
	if run < lo {
		linalg.AddScaledRows(row, fs[run:lo], d.us[run*K:], K)
	}
}

// rowInto copies the current row p of M into dst (|K| numbers).
func (e *Engine) rowInto(p int, dst []float64) {
	copy(dst, e.row(p))
	e.addWaiting(p, dst, make([]float64, len(e.deferred.cs)))
}

// flushM writes the waiting updates into M and makes rowMin every
// written row's minimum again (each row read while it is in cache), the
// rows split among up to Workers goroutines (each entry's arithmetic the
// same whatever the split). O(|K|²·waiting vectors), one pass over M.
func (e *Engine) flushM() {
	d := &e.deferred
	if len(d.cs) == 0 {
		return
	}
	K := len(e.kept)
	parallel.Rows(e.rowWorkers(), K, func(_, lo, hi int) {
		fs := make([]float64, len(d.cs))
		for p := lo; p < hi; p++ {
			row := e.row(p)
			e.addWaiting(p, row, fs)
			e.rowMin[p] = minimum(row)
		}
	})
	e.dropWaiting()
}

// dropWaiting forgets the waiting updates (after flushM, or when M is
// made again).
func (e *Engine) dropWaiting() {
	d := &e.deferred
	d.us, d.cs, d.ends = d.us[:0], d.cs[:0], d.ends[:0]
}

// setDiag sets the current diagonal of M from a freshly made M (nothing
// waiting).
func (e *Engine) setDiag() {
	K := len(e.kept)
	e.diag = e.diag[:0]
	for p := range K {
		e.diag = append(e.diag, e.m[p*e.stride+p])
	}
}
