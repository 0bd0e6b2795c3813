//go:build amd64 && !amd64.v3 && !noasm

package incremental

import "golang.org/x/sys/cpu"

// gtrRowAVX2 is gtrPass's row kernel (gtrkernel_amd64.s): the update of n
// entries (n a multiple of 4) of a row of L⁺ and of S, rounded as the
// scalar loop rounds it, and the greatest score among them of the pairs
// inside component ci (NaN scores left out; 0 when only pairs of other
// components were seen, −Inf for n = 0). Pointers, not slices: the caller
// checks the bounds.
//
//go:noescape
func gtrRowAVX2(l, s, x, y, dl, ds, cf *float64, n int, aL, aSx, aSy, dL0, dS0, ci float64, upd int) float64

// gtrKernel reports whether gtrPass uses gtrRowAVX2: on amd64 with AVX2,
// built for a baseline below x86-64-v3 (from v3 on, the Go compiler may
// fuse the scalar loop's multiply–adds, and the kernel, which never fuses,
// would round differently from the scalar tail).
var gtrKernel = cpu.X86.HasAVX2 && cpu.X86.HasAVX
