package linalg

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// ErrZeroPivot is returned (wrapped) by SymbolicLU.Factor when a pivot of the
// LU factorization without pivoting is zero, negligible or not finite.
var ErrZeroPivot = errors.New("linalg: sparse LU without pivoting met a zero pivot")

// SymbolicLU is the elimination order and fill pattern of a sparse LU
// factorization without pivoting, for every n×n matrix whose nonzero pattern
// is contained in the one it was built from. It is built once per pattern and
// then factors any number of matrices with that pattern (for instance A + pI
// for several shifts p) with SymbolicLU.Factor.
//
// The order is minimum degree on the symmetrized pattern (A + Aᵀ), ties by
// the smallest index, computed exactly on an elimination graph stored as
// bitsets: O(n²/64) memory and O(n² + Σ_k d_k·n/64) time, d_k the degree of
// the k-th pivot when it is eliminated. That suits the strongly connected
// components of ohm's graphs (a few thousand nodes); the factors themselves
// are sparse.
//
// A SymbolicLU is immutable and safe for concurrent use.
type SymbolicLU struct {
	n     int
	perm  []int // perm[k]: original index of the k-th pivot
	iperm []int // iperm[perm[k]] = k
	// Rows of the factors in pivot order: U row k holds columns ustr[up[k]:up[k+1]]
	// (all > k, ascending), L row i holds columns lstr[lp[i]:lp[i+1]] (all < i,
	// ascending). The pattern is structurally symmetric: j is in U row k iff
	// k is in L row j.
	up, lp     []int
	ustr, lstr []int32
}

// AnalyzeLU returns the symbolic factorization for n×n matrices whose
// off-diagonal nonzeros in row i lie in cols(i) (original indices; entries
// outside [0, n) panic, the diagonal is always part of the pattern, repeats
// are allowed). Cost as described on SymbolicLU.
func AnalyzeLU(n int, cols func(i int) []int) *SymbolicLU {
	w := (n + 63) / 64
	adj := luPattern(n, w, cols)
	s := &SymbolicLU{n: n, perm: make([]int, 0, n), iperm: make([]int, n), up: make([]int, 1, n+1)}
	s.minimumDegree(adj, w)
	s.pivotOrder()
	return s
}

// luPattern returns the symmetrized off-diagonal pattern of cols (A +
// Aᵀ) as bitsets: row i is adj[i·w : i·w+w], column j its bit j.
func luPattern(n, w int, cols func(i int) []int) []uint64 {
	adj := make([]uint64, n*w)
	set := func(i, j int) { adj[i*w+j/64] |= 1 << (j % 64) }
	for i := range n {
		for _, j := range cols(i) {
			if j < 0 || j >= n {
				panic(fmt.Sprintf("linalg: AnalyzeLU: column %d of row %d outside [0, %d)", j, i, n))
			}
			if j != i {
				set(i, j)
				set(j, i)
			}
		}
	}
	return adj
}

// minimumDegree eliminates the nodes of the elimination graph adj (bitset
// rows of w words, updated in place) in minimum-degree order, ties by the
// smallest index: it sets perm and iperm, and U's rows (up, ustr) with
// the columns in original ids, unsorted.
func (s *SymbolicLU) minimumDegree(adj []uint64, w int) {
	n := s.n
	deg := make([]int, n)
	for i := range n {
		for _, x := range adj[i*w : i*w+w] {
			deg[i] += bits.OnesCount64(x)
		}
	}
	done := make([]bool, n)
	var nb []int
	for range n {
		v := -1
		for i := range n {
			if !done[i] && (v < 0 || deg[i] < deg[v]) {
				v = i
			}
		}
		done[v] = true
		s.iperm[v] = len(s.perm)
		s.perm = append(s.perm, v)
		rv := adj[v*w : v*w+w]
		nb = nb[:0]
		for q, x := range rv {
			for x != 0 {
				nb = append(nb, q*64+bits.TrailingZeros64(x))
				x &= x - 1
			}
		}
		// Eliminating v joins its neighbours into a clique.
		for _, u := range nb {
			ru := adj[u*w : u*w+w]
			c := 0
			for q := range ru {
				ru[q] |= rv[q]
			}
			ru[u/64] &^= 1 << (u % 64)
			ru[v/64] &^= 1 << (v % 64)
			for _, x := range ru {
				c += bits.OnesCount64(x)
			}
			deg[u] = c
		}
		for _, u := range nb {
			s.ustr = append(s.ustr, int32(u)) // original ids for now
		}
		s.up = append(s.up, len(s.ustr))
	}
}

// pivotOrder maps U's columns to pivot order and sorts them, and builds L
// (lp, lstr) by transposition.
func (s *SymbolicLU) pivotOrder() {
	n := s.n
	cnt := make([]int, n+1)
	for k := range n {
		row := s.ustr[s.up[k]:s.up[k+1]]
		for q, u := range row {
			row[q] = int32(s.iperm[u])
			cnt[row[q]+1]++
		}
		slices.Sort(row)
	}
	s.lp = make([]int, n+1)
	for i := range n {
		s.lp[i+1] = s.lp[i] + cnt[i+1]
	}
	s.lstr = make([]int32, len(s.ustr))
	next := slices.Clone(s.lp[:n])
	for k := range n { // ascending k keeps every L row sorted
		for _, j := range s.ustr[s.up[k]:s.up[k+1]] {
			s.lstr[next[j]] = int32(k)
			next[j]++
		}
	}
}

// N returns the order of the matrices.
func (s *SymbolicLU) N() int { return s.n }

// NNZ returns the number of stored entries of L + U (unit diagonal of L not
// counted): the memory of a factorization in float64s, and about half the
// multiply–adds of one solve.
func (s *SymbolicLU) NNZ() int { return s.n + 2*len(s.ustr) }

// Flops returns the number of multiply–adds of one numeric factorization,
// Σ_k |U row k|·|L column k|.
func (s *SymbolicLU) Flops() int {
	f := 0
	for k := range s.n {
		d := s.up[k+1] - s.up[k]
		f += d * d
	}
	return f
}

// SparseLU is a numeric factorization P (A + pI) Pᵀ = L U without pivoting,
// with the pattern and order of a SymbolicLU: L unit lower triangular, U upper
// triangular, both sparse. It is safe for concurrent Solve calls.
type SparseLU struct {
	sym    *SymbolicLU
	ux, lx []float64 // values on the SymbolicLU's U and L patterns
	dinv   []float64 // 1 / U_kk
}

// Factor returns the LU factorization of A + shift·I, where row i of A holds
// the values vals(i)[q] in the columns cols(i)[q] (original indices; repeated
// columns add up; every column must lie in the pattern the SymbolicLU was built
// from, else it panics). No pivoting is done, which is stable for the matrices
// it is meant for: row or column diagonally dominant ones, such as a
// Laplacian plus a positive shift (an M-matrix). The error wraps ErrZeroPivot
// when a pivot is zero, below 1e-14 of its row's size, or not finite.
// Cost: Flops() multiply–adds plus O(nnz), with an n-float work vector.
func (s *SymbolicLU) Factor(cols func(i int) []int, vals func(i int) []float64, shift float64) (*SparseLU, error) {
	n := s.n
	f := &SparseLU{sym: s, ux: make([]float64, len(s.ustr)), lx: make([]float64, len(s.lstr)), dinv: make([]float64, n)}
	w := make([]float64, n)
	for i := range n {
		orig := s.perm[i]
		w[i] = shift
		scale := math.Abs(shift)
		vs := vals(orig)
		for q, j := range cols(orig) {
			w[s.iperm[j]] += vs[q]
			scale = math.Max(scale, math.Abs(vs[q]))
		}
		lrow := s.lstr[s.lp[i]:s.lp[i+1]]
		for _, k := range lrow {
			l := w[k] * f.dinv[k]
			w[k] = l
			if l == 0 {
				continue
			}
			ks, ke := s.up[k], s.up[k+1]
			for q, j := range s.ustr[ks:ke] {
				w[j] -= l * f.ux[ks+q]
			}
		}
		for q, k := range lrow {
			f.lx[s.lp[i]+q] = w[k]
			w[k] = 0
		}
		d := w[i]
		w[i] = 0
		if !(math.Abs(d) > 1e-14*scale) || math.IsInf(d, 0) {
			return nil, fmt.Errorf("%w: pivot %g at step %d (row %d)", ErrZeroPivot, d, i, orig)
		}
		f.dinv[i] = 1 / d
		us := s.up[i]
		for q, j := range s.ustr[us:s.up[i+1]] {
			f.ux[us+q] = w[j]
			w[j] = 0
		}
	}
	return f, nil
}

// Solve overwrites the n×k row-major matrix b (b[i*k+c] is entry (i, c))
// with the solution x of (A + pI) x = b, for the k right-hand sides at once.
// work must hold at least n·k floats (it is overwritten). Cost about
// 2·NNZ()·k multiply–adds.
func (f *SparseLU) Solve(b []float64, k int, work []float64) {
	s := f.sym
	n := s.n
	y := work[:n*k]
	for i, o := range s.perm {
		copy(y[i*k:i*k+k], b[o*k:o*k+k])
	}
	if k == 1 {
		for i := range n {
			v := y[i]
			ls := s.lp[i]
			for q, j := range s.lstr[ls:s.lp[i+1]] {
				v -= f.lx[ls+q] * y[j]
			}
			y[i] = v
		}
		for i := n - 1; i >= 0; i-- {
			v := y[i]
			us := s.up[i]
			for q, j := range s.ustr[us:s.up[i+1]] {
				v -= f.ux[us+q] * y[j]
			}
			y[i] = v * f.dinv[i]
		}
	} else if k == 2 {
		f.solve2(y)
	} else if k == 4 {
		f.solve4(y)
	} else {
		for i := range n {
			yi := y[i*k : i*k+k]
			ls := s.lp[i]
			for q, j := range s.lstr[ls:s.lp[i+1]] {
				l := f.lx[ls+q]
				yj := y[int(j)*k : int(j)*k+k]
				for c := range yi {
					yi[c] -= l * yj[c]
				}
			}
		}
		for i := n - 1; i >= 0; i-- {
			yi := y[i*k : i*k+k]
			us := s.up[i]
			for q, j := range s.ustr[us:s.up[i+1]] {
				u := f.ux[us+q]
				yj := y[int(j)*k : int(j)*k+k]
				for c := range yi {
					yi[c] -= u * yj[c]
				}
			}
			d := f.dinv[i]
			for c := range yi {
				yi[c] *= d
			}
		}
	}
	for i, o := range s.perm {
		copy(b[o*k:o*k+k], y[i*k:i*k+k])
	}
}

// solve2 is Solve's forward and backward substitution for two right-hand
// sides (y n×2 row-major, permuted), the row's two sums kept in registers:
// the operations of the general loop, in its order.
func (f *SparseLU) solve2(y []float64) {
	s := f.sym
	n := s.n
	_ = y[2*n-1]
	for i := range n {
		a, b := y[2*i], y[2*i+1]
		ls := s.lp[i]
		lx := f.lx[ls:s.lp[i+1]]
		for q, j32 := range s.lstr[ls:s.lp[i+1]] {
			l, j := lx[q], int(j32)
			a -= l * y[2*j]
			b -= l * y[2*j+1]
		}
		y[2*i], y[2*i+1] = a, b
	}
	for i := n - 1; i >= 0; i-- {
		a, b := y[2*i], y[2*i+1]
		us := s.up[i]
		ux := f.ux[us:s.up[i+1]]
		for q, j32 := range s.ustr[us:s.up[i+1]] {
			u, j := ux[q], int(j32)
			a -= u * y[2*j]
			b -= u * y[2*j+1]
		}
		d := f.dinv[i]
		y[2*i], y[2*i+1] = a*d, b*d
	}
}

// solve4 is solve2 for four right-hand sides.
func (f *SparseLU) solve4(y []float64) {
	s := f.sym
	n := s.n
	_ = y[4*n-1]
	for i := range n {
		a, b, c, d := y[4*i], y[4*i+1], y[4*i+2], y[4*i+3]
		ls := s.lp[i]
		lx := f.lx[ls:s.lp[i+1]]
		for q, j32 := range s.lstr[ls:s.lp[i+1]] {
			l, j := lx[q], int(j32)
			yj := y[4*j : 4*j+4]
			a -= l * yj[0]
			b -= l * yj[1]
			c -= l * yj[2]
			d -= l * yj[3]
		}
		y[4*i], y[4*i+1], y[4*i+2], y[4*i+3] = a, b, c, d
	}
	for i := n - 1; i >= 0; i-- {
		a, b, c, d := y[4*i], y[4*i+1], y[4*i+2], y[4*i+3]
		us := s.up[i]
		ux := f.ux[us:s.up[i+1]]
		for q, j32 := range s.ustr[us:s.up[i+1]] {
			u, j := ux[q], int(j32)
			yj := y[4*j : 4*j+4]
			a -= u * yj[0]
			b -= u * yj[1]
			c -= u * yj[2]
			d -= u * yj[3]
		}
		g := f.dinv[i]
		y[4*i], y[4*i+1], y[4*i+2], y[4*i+3] = a*g, b*g, c*g, d*g
	}
}
