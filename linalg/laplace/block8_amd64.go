package laplace

import "golang.org/x/sys/cpu"

// useAVX selects the AVX block kernels; tests switch it off to compare.
var useAVX = cpu.X86.HasAVX

// apply8AVX sets y_i = deg_i·x_i − Σ_{p in [start_i, start_{i+1})} x_{adj_p}
// for the n rows of 8 (node-major) in AVX (block8_amd64.s), bit for bit
// the Go loop of apply8. The caller guarantees the bounds. O(n + nnz).
//
//go:noescape
func apply8AVX(y, x, deg *float64, start *int, adj *int32, n int)

// forward8AVX solves F w = z in place for a block of 8: row i, ascending,
// becomes (z_i − Σ_{p in [start_i, mid_i)} fac_p·z_{adj_p})·finv_i, bit for
// bit the first sweep of precondition8. O(n + nnz/2).
//
//go:noescape
func forward8AVX(z *float64, start, mid *int, adj *int32, fac, finv *float64, n int)

// backward8AVX solves Fᵀ z = w in place for a block of 8, row by row from
// the last: z_i = (z_i − Σ fac_p·z_{adj_p})·finv_i over the upper part p =
// start_{i+1}−1 down to mid_i (Fᵀ), bit for bit the second sweep of
// precondition8. O(n + nnz/2).
//
//go:noescape
func backward8AVX(z *float64, start, mid *int, adj *int32, fac, finv *float64, n int)

// adjacentSum8AVX sets t_i = Σ u_j over j = nb_p, p in [start_i,
// start_{i+1}), for the n rows of 8 (node-major), the terms added
// in order to +0, bit for bit the Go loop of walkSeries.applyBlock.
// O(n + nnz).
//
//go:noescape
func adjacentSum8AVX(t, u *float64, start *int, nb *int32, n int)
