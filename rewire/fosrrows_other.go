//go:build !amd64 || amd64.v3 || noasm

package rewire

// fosrRowsKernel is false where fosrRowsSSE2 is not built: the Go loop of
// neighbourSums runs.
const fosrRowsKernel = false

func fosrRowsSSE2(x, isd, y, w *float64, lists *[]int, loop *bool, n int) float64 {
	panic("rewire: fosrRowsSSE2 not built")
}
