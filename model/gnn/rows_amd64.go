package gnn

// sumRows16AVX adds the rows of src (n rows, stride ss) to dst in order, on
// the lanes of 16 columns whose mask entry is −1 (rows_amd64.s): the bits
// of axpy(dst, 1, row) row by row. The caller checks the bounds. O(n).
//
//go:noescape
func sumRows16AVX(dst *float64, src *float64, n, ss int, mask *[16]int64)

// addToRows16AVX adds v to each of the n rows of dst (stride ds), on the
// lanes of 16 columns whose mask entry is −1 (rows_amd64.s): the bits of
// axpy(row, 1, v). The caller checks the bounds. O(n).
//
//go:noescape
func addToRows16AVX(dst *float64, ds, n int, v *float64, mask *[16]int64)

// scaleAVX multiplies y[0:n] by f, n a multiple of 4 (rows_amd64.s): the
// bits of y[k] *= f. The caller checks the bounds. O(n).
//
//go:noescape
func scaleAVX(y *float64, f float64, n int)

// sumRows32 is sumRows16AVX in AVX-512 on w ≤ 32 columns
// (rows512_amd64.s), the same bits. The caller checks the bounds. O(n·w).
//
//go:noescape
func sumRows32(dst *float64, src *float64, n, ss, w int)

// addToRows32 is addToRows16AVX in AVX-512 on w ≤ 32 columns
// (rows512_amd64.s), the same bits. The caller checks the bounds. O(n·w).
//
//go:noescape
func addToRows32(dst *float64, ds, n int, v *float64, w int)
