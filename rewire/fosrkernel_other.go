//go:build !amd64 || noasm

package rewire

// fosrKernel is false where the AVX2 kernels are not built: the Go loops
// of fosrkernel.go run.
var fosrKernel = false

func divAVX2(dst, a, b *float64, n int)              { panic("rewire: divAVX2 without AVX2") }
func scaleDivAVX2(dst, a *float64, n int, d float64) { panic("rewire: scaleDivAVX2 without AVX2") }
func centerAVX2(x, w, sd, isd *float64, n int, dot, sum float64) {
	panic("rewire: centerAVX2 without AVX2")
}
func extremesAVX2(y, x, sd1 *float64, n int, st *extremeLanes) {
	panic("rewire: extremesAVX2 without AVX2")
}
func rootsAVX2(deg, sd, isd, sd1 *float64, n int) { panic("rewire: rootsAVX2 without AVX2") }
