//go:build !amd64 || amd64.v3 || noasm

package incremental

// gtrKernel is false where gtrRowsFMA is not built: gtrPass runs its scalar
// loop only.
var gtrKernel = false

func gtrRowsFMA(l, s, x, y, dl, ds, cf *float64, n, rows int, c, c2xx, t float64, mode int) int {
	panic("incremental: gtrRowsFMA without AVX2")
}
