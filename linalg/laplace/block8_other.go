//go:build !amd64

package laplace

// useAVX is false off amd64: the block kernels keep to their Go loops.
var useAVX = false

func apply8AVX(y, x, deg *float64, start *int, adj *int32, n int) {
	panic("laplace: apply8AVX off amd64")
}

func forward8AVX(z *float64, start, mid *int, adj *int32, fac, finv *float64, n int) {
	panic("laplace: forward8AVX off amd64")
}

func backward8AVX(z *float64, start, mid *int, adj *int32, fac, finv *float64, n int) {
	panic("laplace: backward8AVX off amd64")
}

func adjacentSum8AVX(t, u *float64, start *int, nb *int32, n int) {
	panic("laplace: adjacentSum8AVX off amd64")
}
