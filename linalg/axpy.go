package linalg

import "github.com/ohmgnn/ohm/linalg/internal/axpy"

// AddScaledRows adds f_j·x_j to y for j = 0, 1, …, len(f)−1 in turn, x_j =
// x[j·stride : j·stride+len(y)]: entry by entry y_i ← fl(y_i + fl(f_j·x_ji)),
// in the order of j, so the bits are those of floats.AddScaled(y, f_j, x_j)
// called for each j in turn, but in one pass over y, which stays in
// registers while the terms are added (in AVX where the CPU has it:
// internal/axpy/axpy_amd64.s, a rounded multiply then a rounded add, never
// fused). It is the update of many columns by a batch of rank-one terms (the
// sketch engine's anchors). O(len(f)·len(y)).
//
// The kernel is in package internal/axpy because linalg has cgo files in the
// openblas build and Go does not build a package with both cgo and Go
// assembly.
func AddScaledRows(y, f, x []float64, stride int) {
	axpy.AddScaledRows(y, f, x, stride)
}
