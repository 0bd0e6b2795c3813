//go:build amd64 && !amd64.v3 && !noasm

package rewire

// fosrRowsSSE2 is the sums of powerStep over fosrAdj's rows
// (fosrrows_amd64.s): y and the squared norm, with the Go loop's
// roundings. Pointers, not slices: fosrRows checks the bounds.
//
//go:noescape
func fosrRowsSSE2(x, isd, y, w *float64, nb, start, end *int, n int) float64

// fosrRowsKernel reports whether fosrRows runs fosrRowsSSE2: on amd64
// built for a baseline below x86-64-v3 (from v3 on, the Go compiler may
// fuse the loop's multiply–adds, and the kernel, which never fuses, would
// round differently from the Go loop of another build).
const fosrRowsKernel = true
