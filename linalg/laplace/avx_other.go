//go:build !amd64

package laplace

// useAVX is false off amd64: the kernels keep to their Go loops (the AVX
// ones below are never called).
var useAVX = false

func adjacentSum8AVX(t, u *float64, start *int, nb *int32, n int) {
	panic("laplace: adjacentSum8AVX off amd64")
}

func apply16F32(y, x, deg *float32, start *int, adj *int32, n int) {
	panic("laplace: apply16F32 off amd64")
}

func forward16F32(z *float32, start, mid *int, adj *int32, fac, finv *float32, n int) {
	panic("laplace: forward16F32 off amd64")
}

func backward16F32(z *float32, start, mid *int, adj *int32, fac, finv *float32, n int) {
	panic("laplace: backward16F32 off amd64")
}

func laplacian16AVX(y, x, deg *float64, start *int, adj *int32, n int) {
	panic("laplace: laplacian16AVX off amd64")
}

func lower16F32(r *float64, d *float32, sc, deg *float64, start *int, adj *int32, n int) {
	panic("laplace: lower16F32 off amd64")
}

func step16F32(d, r, p, ap, alpha *float32, n int) { panic("laplace: step16F32 off amd64") }

func direction16F32(p, z, a, beta *float32, n int) { panic("laplace: direction16F32 off amd64") }

func dot16F32(out *float64, a, b *float32, n int) { panic("laplace: dot16F32 off amd64") }

func dots216F32(out1, out2 *float64, a, b *float32, n int) { panic("laplace: dots216F32 off amd64") }

func sum16F32(out *float64, a *float32, n int) { panic("laplace: sum16F32 off amd64") }

func shift16F32(a, m *float32, n int) { panic("laplace: shift16F32 off amd64") }

func sqdist4AVX(out *[4]float64, a, b0, b1, b2, b3 *float64, k int) {
	panic("laplace: sqdist4AVX off amd64")
}
