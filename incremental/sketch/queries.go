package sketch

import (
	"slices"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/rank"
)

// Top returns the k first pairs of definitions §3.1's descending ranking among the
// addition candidates (exact resistances): the pairs `ohm resistance
// --top` lists on graphs beyond the dense engines. O(|S|² log).
func (e *Engine) Top(k int) []incremental.Pair {
	if e.exact != nil {
		x := e.exact
		return incremental.Top(x.N(), k, false, func(i, j int) (float64, bool) {
			if e.opt.WithinComponents && x.Component(i) != x.Component(j) {
				return 0, false
			}
			return x.R(i, j), true
		})
	}
	var ps []incremental.Pair
	for x, a := range e.cand {
		for _, b := range e.cand[x+1:] {
			u, v := e.kept[a], e.kept[b]
			if !e.opt.WithinComponents || e.comp[u] == e.comp[v] {
				ps = append(ps, incremental.Pair{U: u, V: v, Score: e.r(a, b)})
			}
		}
	}
	var out []incremental.Pair
	rank.Each(ps, rank.Descending, rank.ScoreOnly, func(p incremental.Pair) bool {
		out = append(out, p)
		return len(out) < k
	})
	return out
}

// SolveResistance is the exact R_uv of the graph the current round started
// on, by one Laplacian solve (across components, L⁺_uu + L⁺_vv: two).
// O(m) per solver iteration.
func (e *Engine) SolveResistance(u, v int) (float64, error) {
	if e.exact != nil {
		return e.exact.R(u, v), nil
	}
	n := e.g.N()
	if e.comp[u] == e.comp[v] {
		b := make([]float64, n)
		b[u], b[v] = 1, -1
		x, _, err := e.solver.Solve(b, e.opt.Tol, 10*n+100)
		return x[u] - x[v], err
	}
	r := 0.0
	for _, w := range [2]int{u, v} {
		b := make([]float64, n)
		b[w] = 1
		x, _, err := e.solver.Solve(b, e.opt.Tol, 10*n+100)
		if err != nil {
			return 0, err
		}
		r += x[w]
	}
	return r, nil
}

// Skip sets the pairs MaxPair leaves out.
func (e *Engine) Skip(pairs []incremental.Pair) {
	if e.exact != nil {
		e.exact.Skip(pairs)
		return
	}
	e.skip = slices.Clone(pairs)
}

// MinEdge is the first edge with both ends kept, in ascending exact
// resistance of G(t) (definitions §3.1's rule), that accept takes; edges added in
// the open batch are not candidates. O(|edges of K|·log).
func (e *Engine) MinEdge(accept func(u, v int) bool) (incremental.Pair, bool) {
	if e.exact != nil {
		return e.exact.MinEdge(accept)
	}
	if e.err != nil {
		return incremental.Pair{}, false
	}
	var es []incremental.Pair
	for _, p := range e.edges {
		if e.added[[2]int{p.U, p.V}] || !e.g.HasEdge(p.U, p.V) {
			continue
		}
		p.Score = e.r(e.index[p.U], e.index[p.V])
		es = append(es, p)
	}
	return rank.FirstAccepted(es, rank.Ascending, rank.ScoreOnly, accept)
}

// Resistance is R_ij: exact when both are kept, else the estimate of a
// fresh two-sided solve would be needed, which the engine does not make:
// false.
func (e *Engine) Resistance(i, j int) (float64, bool) {
	if e.exact != nil {
		return e.exact.Resistance(i, j)
	}
	a, b := e.index[i], e.index[j]
	if a < 0 || b < 0 {
		return 0, false
	}
	return e.r(a, b), true
}

// ResistanceAfterAdd is R_ab once the edge {x,y} alone is added, when all
// four are kept (else false). O(1).
func (e *Engine) ResistanceAfterAdd(a, b, x, y int) (float64, bool) {
	if e.exact != nil {
		return e.exact.ResistanceAfterAdd(a, b, x, y)
	}
	ia, ib, ix, iy := e.index[a], e.index[b], e.index[x], e.index[y]
	if ia < 0 || ib < 0 || ix < 0 || iy < 0 {
		return 0, false
	}
	rab := e.r(ia, ib)
	if e.comp[x] != e.comp[y] {
		return rab, true // joining components: no value from L⁺ of G(t); definitions §2.1 keeps R_ab
	}
	ua := e.at(int(ix), int(ia)) - e.at(int(iy), int(ia))
	ub := e.at(int(ix), int(ib)) - e.at(int(iy), int(ib))
	return rab - (ua-ub)*(ua-ub)/(1+e.r(ix, iy)), true
}

// SameBlock reports whether i and j are in one component.
func (e *Engine) SameBlock(i, j int) bool {
	if e.exact != nil {
		return e.exact.SameBlock(i, j)
	}
	return e.comp[i] == e.comp[j]
}
