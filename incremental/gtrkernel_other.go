//go:build !amd64 || amd64.v3 || noasm

package incremental

// gtrKernel is false where gtrRowFMA is not built: gtrPass runs its scalar
// loop only.
var gtrKernel = false

func gtrRowFMA(l, s, x, y, dl, ds, cf *float64, n int, aL, aSx, aSy, dL1, dS0, ci, t float64, mode int) bool {
	panic("incremental: gtrRowFMA without AVX2")
}
