package laplace

import "golang.org/x/sys/cpu"

// useAVX selects the AVX kernels (here and block16_amd64.go); tests switch
// it off to compare them with the Go loops.
var useAVX = cpu.X86.HasAVX

// adjacentSum8AVX sets t_i = Σ u_j over j = nb_p, p in [start_i,
// start_{i+1}), for the n rows of 8 (node-major), the terms added
// in order to +0, bit for bit the Go loop of walkSeries.applyBlock.
// O(n + nnz).
//
//go:noescape
func adjacentSum8AVX(t, u *float64, start *int, nb *int32, n int)
