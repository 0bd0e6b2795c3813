package gnn

// csr16AVX sets 16 columns of every row of dst from a CSR matrix
// (csr_amd64.s): dst[i·ds : +16] = Σ_q val[q]·src[ind[q]·ss : +16] over row
// i's stored entries, summed from zero in order, plus addp[i·as : +16] when
// addp is not nil. Bit for bit gather row by row. It returns false, having
// stopped, at a column index outside [0, nc) or a decreasing row pointer;
// the caller checks the rest of the bounds (csrCheck). O(nnz·16 + n).
//
//go:noescape
func csr16AVX(dst *float64, ds int, ptr, ind *int, val *float64, n int, src *float64, ss int, addp *float64, as int, nc int) (ok bool)

// csr8AVX is csr16AVX for the lanes of 8 columns whose mask entry is −1
// (masks8[w] for w ≤ 8 columns); the other lanes are neither read nor
// written.
//
//go:noescape
func csr8AVX(dst *float64, ds int, ptr, ind *int, val *float64, n int, src *float64, ss int, addp *float64, as int, mask *[8]int64, nc int) (ok bool)

// csr32 is csr16AVX in AVX-512 for the first w ≤ 32 columns
// (csr512_amd64.s), the same bits: one pass over P per 32 columns.
//
//go:noescape
func csr32(dst *float64, ds int, ptr, ind *int, val *float64, n int, src *float64, ss int, addp *float64, as int, w int, nc int) (ok bool)
