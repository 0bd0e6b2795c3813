//go:build amd64 && !amd64.v3 && !noasm

package incremental

import "golang.org/x/sys/cpu"

// gtrRowFMA is gtrPass's row kernel (gtrkernel_amd64.s) on n entries of a
// row of L⁺ and of S: with mode&1, their update by fused multiply–adds
// (l −= aL·x, s −= aSx·x, s −= aSy·y); then whether some pair (of
// component ci when mode&2) has b > t·D, with D and b as gtrScore computes
// them (dL1 = dL0 + 1), the comparison exact (NaNs never pass). Pointers,
// not slices: the caller checks the bounds.
//
//go:noescape
func gtrRowFMA(l, s, x, y, dl, ds, cf *float64, n int, aL, aSx, aSy, dL1, dS0, ci, t float64, mode int) bool

// gtrKernel reports whether gtrPass uses gtrRowFMA: on amd64 with AVX2 and
// FMA.
var gtrKernel = cpu.X86.HasAVX2 && cpu.X86.HasAVX && cpu.X86.HasFMA
