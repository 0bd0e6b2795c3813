package laplace

// The kernels for a full block of 8 right-hand sides: the same arithmetic
// as apply and precondition, on fixed-size arrays so the compiler drops the
// bounds checks of the inner loops (about 2× on a full block), or in AVX
// where the CPU has it (block8_amd64.s: the same operations in the same
// order, a rounded multiply and then a rounded subtract, so the bits are
// those of the Go loops; TestBlock8AVX compares them).

// apply8 sets y = A x for a block of 8 (node-major).
func (s *Solver) apply8(y, x []float64) {
	if useAVX && s.n > 0 {
		_ = y[s.n*block-1]
		_ = x[s.n*block-1]
		apply8AVX(&y[0], &x[0], &s.deg[0], &s.start[0], s.adjPtr(), s.n)
		return
	}
	for i := range s.n {
		yi := (*[block]float64)(y[i*block:])
		xi := (*[block]float64)(x[i*block:])
		d := s.deg[i]
		var acc [block]float64
		for q := range acc {
			acc[q] = d * xi[q]
		}
		for _, j := range s.adj[s.start[i]:s.start[i+1]] {
			xj := (*[block]float64)(x[int(j)*block:])
			for q := range acc {
				acc[q] -= xj[q]
			}
		}
		*yi = acc
	}
}

// precondition8 solves F Fᵀ z = r for a block of 8.
func (s *Solver) precondition8(z, r []float64) {
	copy(z, r)
	if useAVX && s.n > 0 {
		_ = z[s.n*block-1]
		forward8AVX(&z[0], &s.start[0], &s.mid[0], s.adjPtr(), s.facPtr(), &s.finv[0], s.n)
		backward8AVX(&z[0], &s.start[0], &s.mid[0], s.adjPtr(), s.facPtr(), &s.finv[0], s.n)
		return
	}
	for i := range s.n { // F w = r
		zi := (*[block]float64)(z[i*block:])
		acc := *zi
		for p := s.start[i]; p < s.mid[i]; p++ {
			f := s.fac[p]
			zj := (*[block]float64)(z[int(s.adj[p])*block:])
			for q := range acc {
				acc[q] -= f * zj[q]
			}
		}
		inv := s.finv[i]
		for q := range acc {
			acc[q] *= inv
		}
		*zi = acc
	}
	for i := s.n - 1; i >= 0; i-- { // Fᵀ z = w
		zi := (*[block]float64)(z[i*block:])
		acc := *zi
		for p := s.start[i+1] - 1; p >= s.mid[i]; p-- {
			f := s.fac[p]
			zj := (*[block]float64)(z[int(s.adj[p])*block:])
			for q := range acc {
				acc[q] -= f * zj[q]
			}
		}
		inv := s.finv[i]
		for q := range acc {
			acc[q] *= inv
		}
		*zi = acc
	}
}

// adjPtr and facPtr point at the first entry of the pattern and the
// factor, or are nil when they are empty (no edges): the kernels then read
// neither.
func (s *Solver) adjPtr() *int32 {
	if len(s.adj) == 0 {
		return nil
	}
	return &s.adj[0]
}

func (s *Solver) facPtr() *float64 {
	if len(s.fac) == 0 {
		return nil
	}
	return &s.fac[0]
}
