//go:build amd64 && !amd64.v3 && !noasm

package incremental

import "golang.org/x/sys/cpu"

// gtrRowAVX2 is gtrPass's row kernel (gtrkernel_amd64.s): the update of n
// entries of a row of L⁺ and of S, rounded as the scalar loop rounds it,
// and whether some pair of component ci has b > t·(1 + r) (b and r as
// gtrPass computes them: its score is b/(1 + r)); NaNs never pass.
// Pointers, not slices: the caller checks the bounds.
//
//go:noescape
func gtrRowAVX2(l, s, x, y, dl, ds, cf *float64, n int, aL, aSx, aSy, dL0, dS0, ci, t float64, upd int) bool

// gtrKernel reports whether gtrPass uses gtrRowAVX2: on amd64 with AVX2,
// built for a baseline below x86-64-v3 (from v3 on, the Go compiler may
// fuse the scalar loop's multiply–adds, and the kernel, which never fuses,
// would round differently from the scalar tail).
var gtrKernel = cpu.X86.HasAVX2 && cpu.X86.HasAVX
