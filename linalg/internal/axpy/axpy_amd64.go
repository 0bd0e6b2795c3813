package axpy

import "golang.org/x/sys/cpu"

// useAVXRows selects the AVX kernel of AddScaledRows; tests switch it off
// to compare.
var useAVXRows = cpu.X86.HasAVX

// addScaledRows32 is AddScaledRows on the first 32·groups entries of y, in
// AVX (axpy_amd64.s): eight registers of four entries each take the terms
// f_j·x_j in the order of j. The caller guarantees the bounds.
//
//go:noescape
func addScaledRows32(y *float64, groups int, f *float64, m int, x *float64, stride int)
