package sketch

import (
	"fmt"
	"math"
	"slices"

	"github.com/ohmgnn/ohm/incremental"
	"gonum.org/v1/gonum/floats"
)

// Begin opens a batch of edits.
func (e *Engine) Begin() {
	if e.exact != nil {
		e.exact.Begin()
		return
	}
	e.pending = e.pending[:0]
	clear(e.added)
}

// Add adds {u, v} to the graph; both ends must be kept.
func (e *Engine) Add(u, v int) error {
	if e.exact != nil {
		return e.exact.Add(u, v)
	}
	if e.err != nil { // a failed round (a stop, Options.Stop) left the state half made
		return e.err
	}
	if err := e.check("add", u, v); err != nil {
		return err
	}
	if e.g.HasEdge(u, v) {
		return &incremental.EditError{Op: "add", U: u, V: v, Reason: incremental.ErrEdgeExists}
	}
	e.g.AddEdge(u, v)
	if e.added == nil {
		e.added = map[[2]int]bool{}
	}
	e.added[[2]int{min(u, v), max(u, v)}] = true
	e.pending = append(e.pending, pendingEdit{add: true, u: u, v: v})
	return nil
}

// Remove removes {u, v} from the graph; both ends must be kept and the
// edge must not be a bridge of the current graph (its resistance below 1).
func (e *Engine) Remove(u, v int) error {
	if e.exact != nil {
		return e.exact.Remove(u, v)
	}
	if e.err != nil {
		return e.err
	}
	if err := e.check("remove", u, v); err != nil {
		return err
	}
	if !e.g.HasEdge(u, v) {
		return &incremental.EditError{Op: "remove", U: u, V: v, Reason: incremental.ErrNoEdge}
	}
	e.g.RemoveEdge(u, v)
	e.pending = append(e.pending, pendingEdit{u: u, v: v})
	return nil
}

func (e *Engine) check(op string, u, v int) error {
	n := e.g.N()
	if u < 0 || v < 0 || u >= n || v >= n {
		return &incremental.EditError{Op: op, U: u, V: v, Reason: incremental.ErrNodeRange}
	}
	if u == v {
		return &incremental.EditError{Op: op, U: u, V: v, Reason: incremental.ErrSelfLoop}
	}
	if e.index[u] < 0 || e.index[v] < 0 {
		return &incremental.EditError{Op: op, U: u, V: v, Reason: fmt.Errorf("the sketch engine edits kept nodes only (%d, %d not both kept)", u, v)} // reason: the EditError says "incremental:"
	}
	return nil
}

// Commit applies the batch's Sherman–Morrison updates to M, each edit's
// vector read from M's columns and brought past the edits before it (the
// updates wait, and M takes them in one pass every boundBatch edits:
// updateM, deferred.go; O(|K|) an edit, O(|K|²) a pass), and hands each edit to
// the round's solver (laplace.Solver.Update). The
// bounds follow the edits in batches (flushBounds): each edit waits, with
// its coefficient, until boundBatch edits wait or the engine needs
// bounds of the current graph, and their full vectors x = L⁺(e_u − e_v)
// are then solved side by side, on the graph before the first of them.
// An addition across components makes the round stale (the next MaxPair
// starts a new one).
func (e *Engine) Commit() error {
	e.iterations++
	if e.exact != nil {
		return e.exact.Commit()
	}
	if e.err != nil {
		return e.err
	}
	K := len(e.kept)
	// The iteration's vectors u_j = L⁺(e_a − e_b) on K, of the graph just
	// before edit j, one after another (us), and their coefficients: M
	// takes them all in one pass (updateM).
	us := make([]float64, 0, len(e.pending)*K)
	var cs []float64
	rowB := make([]float64, K)
	for _, ed := range e.pending {
		if e.stale || e.comp[ed.u] != e.comp[ed.v] {
			e.stale = true
			continue
		}
		a, b := int(e.index[ed.u]), int(e.index[ed.v])
		j := len(cs)
		us = us[:(j+1)*K]
		u := us[j*K:]
		e.rowInto(a, u[:K])
		e.rowInto(b, rowB)
		floats.Sub(u[:K], rowB)
		// M is still that of the graph before the iteration.
		carry(u, us, cs, a, b)
		rho := u[a] - u[b]
		var c float64
		if ed.add {
			c = -1 / (1 + rho)
			e.edges = append(e.edges, incremental.Pair{U: min(ed.u, ed.v), V: max(ed.u, ed.v)})
		} else {
			e.edges = slices.DeleteFunc(e.edges, func(p incremental.Pair) bool { return p.U == min(ed.u, ed.v) && p.V == max(ed.u, ed.v) })
			if !(rho < 1-1e-9) {
				return fmt.Errorf("sketch: remove (%d, %d): resistance %.12g: %w", ed.u, ed.v, rho, incremental.ErrBridge)
			}
			c = 1 / (1 - rho)
		}
		cs = append(cs, c)
		if len(e.waiting) == 0 {
			e.waitFrom = e.solver.Updates()
		}
		e.waiting = append(e.waiting, waitingEdit{u: ed.u, v: ed.v, c: c})
		w := 1.0
		if !ed.add {
			w = -1
		}
		e.solver.Update(ed.u, ed.v, w)
		if c := e.small[ed.u]; c >= 0 {
			e.smallDirty[c] = true
		}
	}
	e.updateM(cs, us)
	e.pending = e.pending[:0]
	e.left--
	if K > 0 && math.IsNaN(e.diag[0]) {
		return fmt.Errorf("sketch: the kept block became NaN")
	}
	if len(e.waiting) >= boundBatch && !e.stale {
		e.err = e.flushBounds()
		return e.err
	}
	return nil
}

// updateM adds Σ_j c_j u_j u_jᵀ to M (the iteration's Sherman–Morrison
// updates, u_j = us[j·K:(j+1)·K], each of the graph after the ones before
// it): the vectors wait (deferred.go), at most deferCap of them, and the
// diagonal takes them at once, as does each row's rowMin, lowered by the
// most the updates can lower an entry of the row (rounding is monotone):
// rowMin stays a lower bound on the row's minimum (flushM, every
// boundBatch edits at the latest, makes it exact again). O(|K|) an edit.
func (e *Engine) updateM(cs, us []float64) {
	if len(cs) == 0 {
		return
	}
	K, d := len(e.kept), &e.deferred
	if len(d.cs)+len(cs) > deferCap {
		e.flushM()
	}
	lows, highs := make([]float64, len(cs)), make([]float64, len(cs))
	for j := range cs {
		lows[j], highs[j] = floats.Min(us[j*K:(j+1)*K]), floats.Max(us[j*K:(j+1)*K])
	}
	lo := len(d.cs)
	d.us = append(d.us, us[:len(cs)*K]...)
	d.cs = append(d.cs, cs...)
	d.ends = append(d.ends, len(d.cs))
	hi := len(d.cs)
	for p := range K {
		if e.rowZero(p, lo, hi) {
			continue
		}
		e.diag[p] = e.addTerms(e.diag[p], p, p, lo, hi) // as flushM will write it
		// Every entry fl(M_pq + fl(f·u_q)) is at least fl(rowMin_p +
		// d), d the least of fl(f·u_q), term after term.
		for j := lo; j < hi; j++ {
			f := e.factor(j, p)
			e.rowMin[p] += min(0, f*lows[j-lo], f*highs[j-lo])
		}
	}
}

// carry brings x = L⁺(e_a − e_b) of a graph to the graph after edits
// with Sherman–Morrison coefficients cs and vectors prev (one after
// another, len(x) numbers each, each of the graph after the ones before
// it): x += c_i x_i (x_i[a] − x_i[b]) in the order of i. Commit carries
// M's columns past an iteration's edits (flushBounds carries the full
// vectors past a batch's with carryBatch, the same numbers).
// O(len(cs)·len(x)).
func carry(x, prev, cs []float64, a, b int) {
	n := len(x)
	for i, c := range cs {
		xi := prev[i*n : (i+1)*n]
		if f := c * (xi[a] - xi[b]); f != 0 {
			floats.AddScaled(x, f, xi)
		}
	}
}
