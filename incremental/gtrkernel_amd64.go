//go:build amd64 && !amd64.v3 && !noasm

package incremental

import "golang.org/x/sys/cpu"

// gtrRowsFMA is gtrPass's kernel (gtrkernel_amd64.s) on rows rows of the
// packed L⁺ and S from a row i of n entries (l and s at its diagonal
// entry; x, y, dl, ds and cf at entry i): each row's diagonal entries set
// to dl and ds; with mode&1 the entries after them updated by fused
// multiply–adds (l −= aL·x, s −= aSx·x, s −= aSy·y, aL = aSy = c·x_i, aSx
// = c·y_i − c2xx·x_i); then whether some pair (of row i's component when
// mode&2) has b > t·D, with D and b as gtrScore computes them, the
// comparison exact (NaNs never pass). It returns the offset of the first
// row with such a pair (updated), or rows. Pointers, not slices: the
// caller checks the bounds.
//
//go:noescape
func gtrRowsFMA(l, s, x, y, dl, ds, cf *float64, n, rows int, c, c2xx, t float64, mode int) int

// gtrKernel reports whether gtrPass uses gtrRowsFMA: on amd64 with AVX2 and
// FMA.
var gtrKernel = cpu.X86.HasAVX2 && cpu.X86.HasAVX && cpu.X86.HasFMA
