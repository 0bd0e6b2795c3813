//go:build amd64 && !noasm

package rewire

import "golang.org/x/sys/cpu"

// The FoSR kernels (fosrkernel_amd64.s): the element-wise loops of
// powerStep and choose four entries an instruction, every product,
// quotient and difference rounded as the Go loops round them (a quotient
// or a product whose result is divided is never fused). Pointers, not
// slices: the callers (fosrkernel.go) check the lengths.

//go:noescape
func divAVX2(dst, a, b *float64, n int)

//go:noescape
func scaleDivAVX2(dst, a *float64, n int, d float64)

//go:noescape
func centerAVX2(x, w, sd, isd *float64, n int, dot, sum float64)

//go:noescape
func extremesAVX2(y, x, sd1 *float64, n int, st *extremeLanes)

//go:noescape
func rootsAVX2(deg, sd, isd, sd1 *float64, n int)

// fosrKernel reports whether the AVX2 kernels run (amd64 with AVX2).
var fosrKernel = cpu.X86.HasAVX2 && cpu.X86.HasAVX
