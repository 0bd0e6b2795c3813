//go:build !amd64 || amd64.v3 || noasm

package rewire

// fosrRowsKernel is false where fosrRowsSSE2 is not built: the Go loop of
// fosrRows runs.
const fosrRowsKernel = false

func fosrRowsSSE2(x, isd, y, w *float64, nb, start, end *int, n int) float64 {
	panic("rewire: fosrRowsSSE2 not built")
}
