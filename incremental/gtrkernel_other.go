//go:build !amd64 || amd64.v3 || noasm

package incremental

// gtrKernel is false where gtrRowAVX2 is not built: gtrPass runs its scalar
// loop only.
var gtrKernel = false

func gtrRowAVX2(l, s, x, y, dl, ds, cf *float64, n int, aL, aSx, aSy, dL0, dS0, ci, t float64, upd int) bool {
	panic("incremental: gtrRowAVX2 without AVX2")
}
