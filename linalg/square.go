package linalg

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// SquareSym sets the upper triangle of s to P·P, for P symmetric n×n
// stored whole (both triangles equal), P and s n·ld floats with row stride
// ld ≥ SquareStride(n); the columns n..ld−1 of P must hold zeros. Every entry
// is the one gonum's Dsyrk leaves when it adds P Pᵀ to a zeroed triangle
// (as mat.SymDense.SymOuterK(1, P) does), bit for bit: in the pure-Go build
// on AVX2 by the kernel of AddToSym, eight columns of a tile of 64 a step,
// each dot product summed in DotUnitary's order; otherwise by the backend's
// Dsyrk. Entries of s below the diagonal in the first columns of a tile
// may be written too (with their mirror images' values). O(n³).
func SquareSym(n int, p, s []float64, ld int) {
	if n == 0 {
		return
	}
	if ld < SquareStride(n) || len(p) < n*ld || len(s) < n*ld {
		panic("linalg: SquareSym: short slices or stride")
	}
	if !symKernel {
		for i := range n {
			clear(s[i*ld+i : i*ld+n])
		}
		blas64.Syrk(blas.NoTrans, 1, blas64.General{Rows: n, Cols: n, Stride: ld, Data: p}, 1,
			blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: ld, Data: s})
		return
	}
	const tile = 64
	// Each tile of 64 columns of P is packed as its groups of eight
	// columns, each group n rows of 8 contiguous floats, so that the kernel
	// streams it (P's own columns are strided).
	pp := packPool.Get().(*[]float64)
	defer packPool.Put(pp)
	if cap(*pp) < n*tile {
		*pp = make([]float64, n*tile)
	}
	pk := (*pp)[:n*tile] // every entry read is written first
	for jt := 0; jt < n; jt += tile {
		je := min(jt+tile, ld) // a multiple of 8: ld is
		for g := jt; g < je; g += 8 {
			dst := pk[(g-jt)*n : (g-jt+8)*n]
			for l := range n {
				copy(dst[l*8:l*8+8], p[l*ld+g:l*ld+g+8])
			}
		}
		for i := 0; i < min(je, n); i++ {
			t := p[i*ld : i*ld+n]
			for g := max(jt, i&^7); g < je; g += 8 {
				c := s[i*ld+g : i*ld+g+8]
				clear(c)
				dotChunk(t, pk[(g-jt)*n:(g-jt+8)*n], 8, c, n)
			}
		}
	}
}

// packPool keeps SquareSym's packed panels from one call to the next.
var packPool = sync.Pool{New: func() any { return new([]float64) }}

// SquareStride is the least row stride SquareSym takes for n×n matrices:
// n rounded up to a multiple of 8. O(1).
func SquareStride(n int) int { return (n + 7) &^ 7 }
