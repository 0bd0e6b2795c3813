package gnn

// gather16AVX is the 16-column block of gather in AVX (gather_amd64.s):
// dst[0:16] = Σ_q v[q]·src[idx[q]·ss : …+16], summed from zero in q order
// with separate multiplies and adds, bit for bit the scalar loop. The
// caller checks the bounds.
//
//go:noescape
func gather16AVX(dst *float64, idx *int, v *float64, n int, src *float64, ss int)

//go:noescape
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv0() (eax, edx uint32)

// hasAVX reports whether the CPU has AVX and the OS saves its registers.
func hasAVX() bool {
	_, _, ecx, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx&osxsave == 0 || ecx&avx == 0 {
		return false
	}
	eax, _ := xgetbv0()
	return eax&6 == 6 // XMM and YMM state enabled
}

// useAVX selects the AVX block of gather; tests switch it off to compare.
var useAVX = hasAVX()

// axpyAVX sets d[k] += a·s[k] for k < n (n a multiple of 4) in AVX
// (gather_amd64.s), bit for bit the scalar loop. The caller checks the
// bounds.
//
//go:noescape
func axpyAVX(d *float64, a float64, s *float64, n int)

// adamAVX is Adam.Step's loop on n entries (n a multiple of 4) in AVX
// (gather_amd64.s), bit for bit the Go loop; c holds {wd, β1, 1−β1, β2,
// 1−β2, inv2, ε, step}. The caller checks the bounds.
//
//go:noescape
func adamAVX(th, grad, m, v *float64, n int, c *[8]float64)

// scatterAVX adds v[q]·s[0:w] to dst[idx[q]·stride : …+w] for q = 0 … n−1 in
// order (w a multiple of 4) in AVX (gather_amd64.s), bit for bit axpy term
// by term. The caller checks the bounds.
//
//go:noescape
func scatterAVX(dst *float64, stride int, idx *int, v *float64, n int, s *float64, w int)

// gather8AVX is gather16AVX for at most 8 columns: it reads the lanes whose
// mask entry is −1 (masks8[w] for w columns) and leaves the others zero.
//
//go:noescape
func gather8AVX(dst *float64, idx *int, v *float64, n int, src *float64, ss int, mask *[8]int64)
