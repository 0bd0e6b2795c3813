package laplace

// The conjugate-gradient steps on blocks of c right-hand sides stored
// node-major (v[i·c + q]). Each has a path for c = block on fixed-size
// arrays, which the compiler checks once per node instead of once per
// entry; it does every entry's arithmetic in the same order as the
// general loop, so the bits are the same.

// dots sets out[q] = Σ_i a[i·c+q] b[i·c+q], summed in the order of i.
// O(len(a)).
func dots(out, a, b []float64, c int) {
	if c == block {
		var acc [block]float64
		for i := 0; i+block <= len(a); i += block {
			x, y := (*[block]float64)(a[i:]), (*[block]float64)(b[i:])
			for q := range block {
				acc[q] += x[q] * y[q]
			}
		}
		copy(out, acc[:])
		return
	}
	clear(out)
	for i := 0; i < len(a); i += c {
		for q := range c {
			out[q] += a[i+q] * b[i+q]
		}
	}
}

// dots2 sets out1 = a·b and out2 = e·e per side in one pass. O(len(a)).
func dots2(out1, out2, a, b, e []float64, c int) {
	if c == block {
		var acc1, acc2 [block]float64
		for i := 0; i+block <= len(a); i += block {
			x, y, w := (*[block]float64)(a[i:]), (*[block]float64)(b[i:]), (*[block]float64)(e[i:])
			for q := range block {
				acc1[q] += x[q] * y[q]
				acc2[q] += w[q] * w[q]
			}
		}
		copy(out1, acc1[:])
		copy(out2, acc2[:])
		return
	}
	clear(out1)
	clear(out2)
	for i := 0; i < len(a); i += c {
		for q := range c {
			out1[q] += a[i+q] * b[i+q]
			out2[q] += e[i+q] * e[i+q]
		}
	}
}

// step moves every side q along its direction: x += α_q p, r −= α_q Ap.
// O(len(x)).
func step(x, r, p, ap, alpha []float64, c int) {
	if c == block {
		al := (*[block]float64)(alpha)
		for i := 0; i+block <= len(x); i += block {
			xi, ri := (*[block]float64)(x[i:]), (*[block]float64)(r[i:])
			pi, api := (*[block]float64)(p[i:]), (*[block]float64)(ap[i:])
			for q := range block {
				xi[q] += al[q] * pi[q]
				ri[q] -= al[q] * api[q]
			}
		}
		return
	}
	for i := 0; i < len(x); i += c {
		xi, ri, pi, api := x[i:i+c], r[i:i+c], p[i:i+c], ap[i:i+c]
		for q := range xi {
			xi[q] += alpha[q] * pi[q]
			ri[q] -= alpha[q] * api[q]
		}
	}
}

// direction sets p = z + β_q p for the sides still active (the others keep
// their direction). O(len(p)).
func direction(p, z, beta []float64, active []bool, c int) {
	if c == block {
		be, on := (*[block]float64)(beta), (*[block]bool)(active)
		for i := 0; i+block <= len(p); i += block {
			pi, zi := (*[block]float64)(p[i:]), (*[block]float64)(z[i:])
			for q := range block {
				if on[q] {
					pi[q] = zi[q] + be[q]*pi[q]
				}
			}
		}
		return
	}
	for i := 0; i < len(p); i += c {
		zi, pi := z[i:i+c], p[i:i+c]
		for q := range pi {
			if active[q] {
				pi[q] = zi[q] + beta[q]*pi[q]
			}
		}
	}
}
