//go:build !amd64

package gnn

// useAVX is false off amd64: gather keeps to its Go loops.
var useAVX = false

func gather16AVX(dst *float64, idx *int, v *float64, n int, src *float64, ss int) {
	panic("gnn: gather16AVX off amd64")
}

func axpyAVX(d *float64, a float64, s *float64, n int) {
	panic("gnn: axpyAVX off amd64")
}

func adamAVX(th, grad, m, v *float64, n int, c *[8]float64) {
	panic("gnn: adamAVX off amd64")
}

func scatterAVX(dst *float64, stride int, idx *int, v *float64, n int, s *float64, w int) {
	panic("gnn: scatterAVX off amd64")
}

func gather8AVX(dst *float64, idx *int, v *float64, n int, src *float64, ss int, mask *[8]int64) {
	panic("gnn: gather8AVX off amd64")
}

func csr16AVX(dst *float64, ds int, ptr, ind *int, val *float64, n int, src *float64, ss int, addp *float64, as int, nc int) bool {
	panic("gnn: csr16AVX off amd64")
}

func csr8AVX(dst *float64, ds int, ptr, ind *int, val *float64, n int, src *float64, ss int, addp *float64, as int, mask *[8]int64, nc int) bool {
	panic("gnn: csr8AVX off amd64")
}

func denseNN16AVX(dst *float64, ds int, a *float64, as int, n, k int, b *float64, bs int) {
	panic("gnn: denseNN16AVX off amd64")
}

func denseNN16x2AVX(dst *float64, ds int, a *float64, as int, n, k int, b *float64, bs int) {
	panic("gnn: denseNN16x2AVX off amd64")
}

func denseTN16x2AVX(dst *float64, ds int, a *float64, as int, rows *int, nr, k int, gr *float64, gs int) {
	panic("gnn: denseTN16x2AVX off amd64")
}

func denseTN16x2FAVX(dst *float64, ds int, a *float64, as int, rows *int, nr, k int, gr *float64, gs int) {
	panic("gnn: denseTN16x2FAVX off amd64")
}

func denseNN16x2FAVX(dst *float64, ds int, a *float64, as int, n, k int, b *float64, bs int) {
	panic("gnn: denseNN16x2FAVX off amd64")
}

func denseNN8AVX(dst *float64, ds int, a *float64, as int, n, k int, b *float64, bs int, mask *[8]int64) {
	panic("gnn: denseNN8AVX off amd64")
}

func denseTN16AVX(dst *float64, ds int, a *float64, as int, rows *int, nr, k int, gr *float64, gs int) {
	panic("gnn: denseTN16AVX off amd64")
}

func denseTN8AVX(dst *float64, ds int, a *float64, as int, rows *int, nr, k int, gr *float64, gs int, mask *[8]int64) {
	panic("gnn: denseTN8AVX off amd64")
}

func sumRows16AVX(dst *float64, src *float64, n, ss int, mask *[16]int64) {
	panic("gnn: sumRows16AVX off amd64")
}

func addToRows16AVX(dst *float64, ds, n int, v *float64, mask *[16]int64) {
	panic("gnn: addToRows16AVX off amd64")
}

func scaleAVX(y *float64, f float64, n int) {
	panic("gnn: scaleAVX off amd64")
}

// useAVX512 is false off amd64.
var useAVX512 = false

func denseNN64x2FZ(dst *float64, ds int, a *float64, as int, n, k int, b *float64, bs int) {
	panic("gnn: denseNN64x2FZ off amd64")
}

func denseTN32x4FZ(dst *float64, ds int, a *float64, as int, rows *int, nr, k int, gr *float64, gs int) {
	panic("gnn: denseTN32x4FZ off amd64")
}

func finiteAVX(v *float64, n int) bool {
	panic("gnn: finiteAVX off amd64")
}

func bnSqDev32(dst, src *float64, n, ss int, mean *float64, w int) {
	panic("gnn: bnSqDev32 off amd64")
}

func bnNorm32(x, xh, y *float64, n, ss int, mean, inv, gamma, beta *float64, relu bool, w int) {
	panic("gnn: bnNorm32 off amd64")
}

func bnSumDot32(sum, dot, d, h *float64, n, ss, w int) {
	panic("gnn: bnSumDot32 off amd64")
}

func bnGrad32(dx, d, h *float64, n, ss int, a, sum, dot *float64, fn float64, w int) {
	panic("gnn: bnGrad32 off amd64")
}

func reluGrad512(d, pre *float64, n int) {
	panic("gnn: reluGrad512 off amd64")
}

func reluDropGrad512(d, pre, mask *float64, n int) {
	panic("gnn: reluDropGrad512 off amd64")
}

func reluDrop512(h, mask, z *float64, words *uint64, n int, thr uint64, scale float64) {
	panic("gnn: reluDrop512 off amd64")
}

func sumRows32(dst *float64, src *float64, n, ss, w int) {
	panic("gnn: sumRows32 off amd64")
}

func addToRows32(dst *float64, ds, n int, v *float64, w int) {
	panic("gnn: addToRows32 off amd64")
}

func csr32(dst *float64, ds int, ptr, ind *int, val *float64, n int, src *float64, ss int, addp *float64, as int, w int, nc int) bool {
	panic("gnn: csr32 off amd64")
}

func denseNNList64(dst *float64, ds int, a *float64, as int, n int, b *float64, bs int, idx, cnt *int32) {
	panic("gnn: denseNNList64 off amd64")
}

func nonZeroIdx512(a *float64, n, k int, idx, cnt *int32) int {
	panic("gnn: nonZeroIdx512 off amd64")
}
