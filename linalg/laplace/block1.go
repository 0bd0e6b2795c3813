package laplace

// The kernels for a single right-hand side: the same arithmetic as apply
// and precondition without the inner loop over the block (about 3× on a
// single side, which the sketch engine solves once per edit).

// apply1 sets y = A x for one right-hand side.
func (s *Solver) apply1(y, x []float64) {
	x = x[:s.n]
	for i := range s.n {
		acc := s.deg[i] * x[i]
		for _, j := range s.adj[s.start[i]:s.start[i+1]] {
			acc -= x[j]
		}
		y[i] = acc
	}
}

// precondition1 solves F Fᵀ z = r for one right-hand side.
func (s *Solver) precondition1(z, r []float64) {
	z = z[:s.n]
	copy(z, r)
	for i := range s.n { // F w = r
		acc := z[i]
		lo, hi := s.start[i], s.mid[i]
		for p, j := range s.adj[lo:hi] {
			acc -= s.fac[lo+p] * z[j]
		}
		z[i] = acc / s.fdiag[i]
	}
	for i := s.n - 1; i >= 0; i-- { // Fᵀ z = w
		acc := z[i]
		lo, hi := s.mid[i], s.start[i+1]
		fac := s.fac[lo:hi]
		adj := s.adj[lo:hi]
		for p := len(adj) - 1; p >= 0; p-- {
			acc -= fac[p] * z[adj[p]]
		}
		z[i] = acc / s.fdiag[i]
	}
}
