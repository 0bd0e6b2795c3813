package rewire

// divTo sets dst[k] = a[k] / b[k] for every k of dst (a and b at least as
// long). O(n), four quotients an instruction with fosrKernel.
func divTo(dst, a, b []float64) {
	n := len(dst)
	a, b = a[:n], b[:n]
	if fosrKernel && n > 0 {
		divAVX2(&dst[0], &a[0], &b[0], n)
		return
	}
	for k := range dst {
		dst[k] = a[k] / b[k]
	}
}

// scaleDivTo sets dst[k] = a[k] / d for every k of dst. O(n).
func scaleDivTo(dst, a []float64, d float64) {
	n := len(dst)
	a = a[:n]
	if fosrKernel && n > 0 {
		scaleDivAVX2(&dst[0], &a[0], n, d)
		return
	}
	for k := range dst {
		dst[k] = a[k] / d
	}
}

// center sets x[k] = x[k] − (dot·sd[k])/sum and w[k] = x[k]·isd[k] for
// every k of x (FoSR's projection off √d and the scaling by 1/√d of a
// power step). O(n).
func center(x, w, sd, isd []float64, dot, sum float64) {
	n := len(x)
	w, sd, isd = w[:n], sd[:n], isd[:n]
	if fosrKernel && n > 0 {
		centerAVX2(&x[0], &w[0], &sd[0], &isd[0], n, dot, sum)
		return
	}
	for k := range x {
		xk := x[k] - dot*sd[k]/sum
		x[k], w[k] = xk, xk*isd[k]
	}
}
