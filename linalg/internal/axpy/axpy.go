// Package axpy holds linalg's AddScaledRows and its AVX kernel
// (axpy_amd64.s). The Go assembly lives here, not in linalg, because Go
// does not build a package that has both cgo files and Go assembly, and
// linalg has cgo files in the openblas build (backend_openblas.go).
package axpy

import "fmt"

// AddScaledRows is linalg.AddScaledRows: it adds f_j·x_j to y for j = 0,
// 1, …, len(f)−1 in turn, x_j = x[j·stride : j·stride+len(y)]: entry by
// entry y_i ← fl(y_i + fl(f_j·x_ji)), in the order of j, so the bits are
// those of floats.AddScaled(y, f_j, x_j) called for each j in turn, but in
// one pass over y, which stays in registers while the terms are added (in
// AVX where the CPU has it: axpy_amd64.s, a rounded multiply then a rounded
// add, never fused). O(len(f)·len(y)).
func AddScaledRows(y, f, x []float64, stride int) {
	m, n := len(f), len(y)
	if m == 0 || n == 0 {
		return
	}
	if stride < n || len(x) < (m-1)*stride+n {
		panic(fmt.Sprintf("linalg: AddScaledRows of %d rows of %d with stride %d over %d numbers", m, n, stride, len(x)))
	}
	head := 0
	if useAVXRows {
		head = n &^ 31
		if head > 0 {
			addScaledRows32(&y[0], head/32, &f[0], m, &x[0], stride)
		}
	}
	for j, fj := range f {
		xj := x[j*stride+head : j*stride+n]
		yt := y[head:n]
		for i, v := range xj {
			yt[i] += fj * v
		}
	}
}
