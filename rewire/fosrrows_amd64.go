//go:build amd64 && !amd64.v3 && !noasm

package rewire

// fosrRowsSSE2 is neighbourSums over the graph's lists and self-loop
// flags (fosrrows_amd64.s): y and the squared norm, with the Go loop's
// roundings. Pointers, not slices: neighbourSums checks the lengths.
//
//go:noescape
func fosrRowsSSE2(x, isd, y, w *float64, lists *[]int, loop *bool, n int) float64

// fosrRowsKernel reports whether neighbourSums runs fosrRowsSSE2: on amd64
// built for a baseline below x86-64-v3 (from v3 on, the Go compiler may
// fuse the loop's multiply–adds, and the kernel, which never fuses, would
// round differently from the Go loop of another build).
const fosrRowsKernel = true
