package incremental

// mergeStats holds what the double-centering formula needs about two
// components A ∋ x and B ∋ y about to be joined by the edge {x,y}.
type mergeStats struct {
	nA, nB float64
	tA, tB float64 // traces of L⁺ on A and B
	rr     float64 // grand mean of the merged resistance matrix R'
}

func (e *Undirected) stats(x, y int) mergeStats {
	ca, cb := e.comp[x], e.comp[y]
	var s mergeStats
	s.nA, s.nB = float64(e.size[ca]), float64(e.size[cb])
	for i, c := range e.comp {
		switch c {
		case ca:
			s.tA += e.p.at(i, i)
		case cb:
			s.tB += e.p.at(i, i)
		}
	}
	// Σ_{i∈A} Σ_{j∈C} R'_ij, using that rows of L⁺ sum to 0 on a component
	// (so Σ_{i∈A} R_ix = tA + nA·L⁺_xx), and the mirror for B.
	pxx, pyy := e.p.at(x, x), e.p.at(y, y)
	sumA := 2*s.nA*s.tA + s.nB*(s.tA+s.nA*pxx+s.nA) + s.nA*s.nB*pyy + s.nA*s.tB
	sumB := 2*s.nB*s.tB + s.nA*(s.tB+s.nB*pyy+s.nB) + s.nA*s.nB*pxx + s.nB*s.tA
	nC := s.nA + s.nB
	s.rr = (sumA + sumB) / (nC * nC)
	return s
}

// rowMean returns the mean over the merged component of R'_i·, for i on x's
// side (A) of the joining edge {x,y}:
// (nA·L⁺_ii + tA + nB·(R_ix + 1) + nB·L⁺_yy + tB) / (nA + nB).
func (e *Undirected) rowMean(s *mergeStats, i, x, y int, nA, tA, nB, tB float64) float64 {
	pii := e.p.at(i, i)
	rix := pii + e.p.at(x, x) - 2*e.p.at(i, x)
	return (nA*pii + tA + nB*(rix+1) + nB*e.p.at(y, y) + tB) / (s.nA + s.nB)
}

// mergedDiag returns L⁺_aa after the edge {x,y} joins two components, without
// changing anything: rowMean_a − rr/2 if a is in either of them, else the
// current L⁺_aa. O(n).
func (e *Undirected) mergedDiag(a, x, y int) float64 {
	switch e.comp[a] {
	case e.comp[x]:
		s := e.stats(x, y)
		return e.rowMean(&s, a, x, y, s.nA, s.tA, s.nB, s.tB) - s.rr/2
	case e.comp[y]:
		s := e.stats(x, y)
		return e.rowMean(&s, a, y, x, s.nB, s.tB, s.nA, s.tA) - s.rr/2
	}
	return e.p.at(a, a)
}

// merge rebuilds L⁺ on C = A ∪ B for the edge {u,v}, u ∈ A, v ∈ B (definitions
// §2.1): resistances inside A and inside B are unchanged, R'_ij = R_iu + 1 +
// R_vj across, and L_C⁺ = −½ Π_C R'_C Π_C, i.e.
// L⁺'_ij = −½ (R'_ij − r̄_i − r̄_j + r̿) with r̄ the row means of R' and r̿ their
// mean. The labels of B become A's. O(n_C²), with no allocation beyond the
// engine's scratch.
func (e *Undirected) merge(u, v int) {
	s := e.stats(u, v)
	ca, cb := e.comp[u], e.comp[v]
	// Old diagonal in d, R to the joining endpoint in x, row means in
	// rbar (all indexed by node); members of C listed in order.
	rbar := e.rbar()
	members := e.members[:0]
	for i, c := range e.comp {
		switch c {
		case ca:
			e.x[i] = e.p.at(i, i) + e.p.at(u, u) - 2*e.p.at(i, u)
			rbar[i] = e.rowMean(&s, i, u, v, s.nA, s.tA, s.nB, s.tB)
		case cb:
			e.x[i] = e.p.at(i, i) + e.p.at(v, v) - 2*e.p.at(i, v)
			rbar[i] = e.rowMean(&s, i, v, u, s.nB, s.tB, s.nA, s.tA)
		default:
			continue
		}
		e.d[i] = e.p.at(i, i)
		members = append(members, i)
	}
	e.members = members
	for a, i := range members {
		for _, j := range members[a:] {
			var r float64
			switch {
			case i == j:
			case e.comp[i] == e.comp[j]:
				r = e.d[i] + e.d[j] - 2*e.p.at(i, j)
			default: // one in A, one in B: through the new edge
				r = e.x[i] + 1 + e.x[j]
			}
			e.p.set(i, j, -0.5*(r-rbar[i]-rbar[j]+s.rr))
		}
	}
	for _, i := range members {
		e.comp[i] = ca
	}
	e.size[ca] += e.size[cb]
	e.size[cb] = 0
}

// rbar returns a scratch vector of length n.
func (e *Undirected) rbar() []float64 {
	if e.scratch == nil {
		e.scratch = make([]float64, e.n)
		e.members = make([]int, 0, e.n)
	}
	return e.scratch
}
