package linalg

import (
	"fmt"
	"math"
)

// PinvSquareWork is the scratch of ComponentPinvSquare, kept from one call
// to the next by its owner (the zero value is ready; not for concurrent
// use).
type PinvSquareWork struct {
	a, t, p    []float64
	coef, diag []float64
}

// grow returns buf cut to n floats, all zero (a new slice when buf is
// shorter). O(n).
func grow(buf *[]float64, n int) []float64 {
	if cap(*buf) < n {
		*buf = make([]float64, n)
		return *buf
	}
	*buf = (*buf)[:n]
	clear(*buf)
	return *buf
}

// reuse returns buf cut to n floats, as they are (a new slice when buf is
// shorter). O(1).
func reuse(buf *[]float64, n int) []float64 {
	if cap(*buf) < n {
		*buf = make([]float64, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// Release drops scratch of more than keep floats per buffer (the memory of
// a large component), keeping that of small ones for the next call. O(1).
func (w *PinvSquareWork) Release(keep int) {
	for _, b := range []*[]float64{&w.a, &w.t, &w.p, &w.coef} {
		if cap(*b) > keep {
			*b = nil
		}
	}
}

// ComponentPinvSquare returns L_C⁺ and S = (L_C⁺)² of the connected
// component C of g whose nodes (ascending) are given, indexed by position
// in nodes: lp whole (both triangles), s its upper triangle (diagonal
// included; below it, s holds anything), both with row stride
// ld = SquareStride(len(nodes)) in w's memory (valid until w's next use).
//
// With AVX2 and FMA (the pure-Go build on amd64) it uses its own fused
// multiply–add arithmetic (definitions §3.5): the Cholesky factor U of
// M = L_C + J/n_C (blocked, right-looking), X = U⁻¹, L_C⁺ = X Xᵀ − J/n_C and
// S = L_C⁺·L_C⁺, every product by 4×8 register blocks (the last two by
// 8×8 with AVX-512, the same bits); the entries then
// differ from ComponentPinv's and SquareSym's in their last bits. Elsewhere
// it is ComponentPinv and SquareSym, their bits. About n_C³ multiply–adds
// (n_C³/6 each for U, X and X Xᵀ, n_C³/2 for S); 3·ld² floats of scratch.
func ComponentPinvSquare(w *PinvSquareWork, g *Graph, nodes []int) (lp, s []float64, ld int, err error) {
	nc := len(nodes)
	ld = SquareStride(nc)
	if !fmaKernel {
		return componentPinvSquareRef(w, g, nodes)
	}
	// The buffers are not cleared: past row and column n_C they hold
	// whatever they held, which only ever reaches entries past n_C.
	a := reuse(&w.a, ld*ld)
	fillComponentMatrix(g, nodes, a, ld)
	if !cholUpperFMA(nc, a, ld, w) {
		return nil, nil, 0, fmt.Errorf("linalg: Cholesky of L+J/n failed on a component of %d nodes (component labels wrong?)", nc)
	}
	invUpperFMA(nc, a, ld, w)
	// L⁺ + J/n = X Xᵀ, (X Xᵀ)_ic = Σ_{k ≥ max(i, c)} X_ik X_ck, by the rows of
	// X and of its transpose (zeros outside the triangles), each 4×8 block
	// stored whole by one product.
	xt := reuse(&w.t, ld*ld)
	for k := range nc {
		row := xt[k*ld : k*ld+nc]
		for c := range k + 1 {
			row[c] = a[c*ld+k]
		}
		clear(row[k+1:])
	}
	// With AVX-512 the blocks are 8×8 (the rows of two 4×8 blocks at once:
	// the block of the right operand read half as often): the same sums in
	// the same order, the same bits; X's zeros below its diagonal make the
	// longer sums of a diagonal block's last four rows add exact zeros.
	step, block := 4, fmaBlock4x8US
	if fma8x8 {
		step, block = 8, fmaBlock8x8US
	}
	p := reuse(&w.p, ld*ld)
	for c0 := 0; c0 < nc; c0 += 8 {
		for i0 := 0; i0 < min(c0+8, nc); i0 += step {
			k0 := max(i0, c0)
			block(&a[i0*ld+k0], ld, &xt[k0*ld+c0], ld, nc-k0, &p[i0*ld+c0], ld)
		}
	}
	inv := 1 / float64(nc)
	for i := range nc {
		row := p[i*ld : i*ld+nc]
		for c := i; c < nc; c++ {
			v := row[c] - inv
			row[c], p[c*ld+i] = v, v
		}
	}
	// S = L⁺·L⁺: S_ic = Σ_k L⁺_ik L⁺_kc, upper triangle, in X's memory.
	// Column blocks outermost: the block of P they read stays in cache.
	s = a
	if fma8x8 {
		squareChunked(nc, p, s, ld)
		return p, s, ld, nil
	}
	for c0 := 0; c0 < nc; c0 += 8 {
		for i0 := 0; i0 < min(c0+8, nc); i0 += step {
			block(&p[i0*ld], ld, &p[c0], ld, nc, &s[i0*ld+c0], ld)
		}
	}
	return p, s, ld, nil
}

// squareKC is the length of squareChunked's pieces of the sums: the
// pieces of the right operand's column block (squareKC·8 floats) and of
// eight rows of the left (as many) stay in L1.
const squareKC = 128

// squareChunked is ComponentPinvSquare's S = P·P (upper triangle, n×n,
// row stride ld) by fmaBlock8x8US and fmaBlock8x8U, each sum by pieces of
// squareKC terms, the piece outermost: the same sums in the same order as
// one fmaBlock8x8US over all n terms, the same bits. About n³/2
// multiply–adds.
func squareChunked(n int, p, s []float64, ld int) {
	for k0 := 0; k0 < n; k0 += squareKC {
		kk := min(squareKC, n-k0)
		for c0 := 0; c0 < n; c0 += 8 {
			for i0 := 0; i0 < min(c0+8, n); i0 += 8 {
				if k0 == 0 {
					fmaBlock8x8US(&p[i0*ld], ld, &p[c0], ld, kk, &s[i0*ld+c0], ld)
				} else {
					fmaBlock8x8U(&p[i0*ld+k0], ld, &p[k0*ld+c0], ld, kk, &s[i0*ld+c0], ld)
				}
			}
		}
	}
}

// componentPinvSquareRef is ComponentPinvSquare by ComponentPinvIn and
// SquareSym (without the FMA kernel). O(n_C³).
func componentPinvSquareRef(w *PinvSquareWork, g *Graph, nodes []int) (lp, s []float64, ld int, err error) {
	nc := len(nodes)
	ld = SquareStride(nc)
	B, err := ComponentPinvIn(grow(&w.a, nc*nc), g, nodes)
	if err != nil {
		return nil, nil, 0, err
	}
	raw := B.RawSymmetric()
	p := grow(&w.p, ld*ld)
	for i := range nc {
		brow := raw.Data[i*raw.Stride : i*raw.Stride+nc]
		copy(p[i*ld+i:i*ld+nc], brow[i:])
		for c := i + 1; c < nc; c++ {
			p[c*ld+i] = brow[c]
		}
	}
	s = grow(&w.t, ld*ld)
	SquareSym(nc, p, s, ld)
	return p, s, ld, nil
}

// fillComponentMatrix writes L_C + J/n_C of the component of g on nodes
// into the first n_C rows and columns of a (row stride ld).
// O(n_C² + arcs).
func fillComponentMatrix(g *Graph, nodes []int, a []float64, ld int) {
	nc := len(nodes)
	consecutive := nodes[nc-1]-nodes[0] == nc-1
	var pos map[int]int
	if !consecutive {
		pos = make(map[int]int, nc)
		for i, v := range nodes {
			pos[v] = i
		}
	}
	inv := 1 / float64(nc)
	for i := range nc {
		row := a[i*ld : i*ld+nc]
		for c := range row {
			row[c] = inv
		}
	}
	for i, v := range nodes {
		nb := g.Out(v)
		a[i*ld+i] += float64(len(nb))
		for _, u := range nb {
			c, ok := u-nodes[0], u >= nodes[0] && u <= nodes[nc-1]
			if !consecutive {
				c, ok = pos[u]
			}
			if !ok {
				panic(fmt.Sprintf("linalg: node %d's neighbour %d is outside its component", v, u))
			}
			a[i*ld+c] -= 1
		}
	}
}

// pivotFloor bounds cholUpperFMA's pivots below, relative to M's diagonal:
// a pivot of M = L_C + J/n_C is at least its least eigenvalue,
// min(1, 4/(n·diam)) ≥ 4/n², and a diagonal entry at most n, so a
// connected component of fewer than 10⁵ nodes (far beyond the dense
// engine's memory) passes, while the rounding residue of a singular M (the
// nodes of several components) does not.
const pivotFloor = 1e-15

// cholPanel is the number of rows of cholUpperFMA's panels.
const cholPanel = 16

// cholUpperFMA overwrites the upper triangle of the symmetric n×n a (row
// stride ld, a multiple of 8; rows and columns n..ld−1 are read and
// written, but never reach the others) with U, M = UᵀU, by panels of
// cholPanel rows, each by groups of four: a group
// factored row by row, the rest of its panel less the group's rank-4
// product, then, the panel done, the trailing matrix less the panel's
// rank-cholPanel product, both products by rankUpdate. It reports false
// when M is not positive definite: when a pivot is not above pivotFloor
// times its diagonal entry. About n³/6 multiply–adds.
func cholUpperFMA(n int, a []float64, ld int, w *PinvSquareWork) bool {
	diag := grow(&w.diag, n)
	for k := range n {
		diag[k] = a[k*ld+k]
	}
	for j0 := 0; j0 < n; j0 += cholPanel {
		j1 := min(j0+cholPanel, n)
		for g0 := j0; g0 < j1; g0 += 4 {
			g1 := min(g0+4, j1)
			for k := g0; k < g1; k++ {
				d := a[k*ld+k]
				if !(d > pivotFloor*diag[k]) || math.IsInf(d, 1) {
					return false
				}
				d = math.Sqrt(d)
				a[k*ld+k] = d
				rk := a[k*ld+k+1 : k*ld+n]
				r := 1 / d
				for c := range rk {
					rk[c] *= r
				}
				for i := k + 1; i < g1; i++ {
					u := a[k*ld+i]
					ri := a[i*ld+i : i*ld+n]
					uk := a[k*ld+i : k*ld+n]
					for c := range ri {
						ri[c] -= u * uk[c]
					}
				}
			}
			rankUpdate(n, a, ld, g0, g1, j1, w)
		}
		rankUpdate(n, a, ld, j0, j1, n, w)
	}
	return true
}

// rankUpdate subtracts Σ_{l ∈ [l0, l1)} U_li U_lc from the entries (i, c),
// l1 ≤ i < r1 (r1 ≤ n), c ≥ i, of a, by fmaBlock4x8U on 4×8 blocks (the
// entries below the diagonal in a block's first columns too, where
// l1 is a multiple of 8 or r1 = l1 + 4·q). O((r1 − l1)·n·(l1 − l0)).
func rankUpdate(n int, a []float64, ld, l0, l1, r1 int, w *PinvSquareWork) {
	if r1 <= l1 {
		return
	}
	kb := l1 - l0
	rows := (r1 - l1 + 3) &^ 3
	neg := grow(&w.coef, rows*kb) // −U_li by row i, zero past r1
	for l := l0; l < l1; l++ {
		for i, v := range a[l*ld+l1 : l*ld+r1] {
			neg[i*kb+l-l0] = -v
		}
	}
	for i0 := l1; i0 < r1; i0 += 4 {
		cf := &neg[(i0-l1)*kb]
		for c0 := i0 &^ 7; c0 < n; c0 += 8 {
			fmaBlock4x8U(cf, kb, &a[l0*ld+c0], ld, kb, &a[i0*ld+c0], ld)
		}
	}
}

// invUpperFMA overwrites the upper triangle U of a (n×n, row stride ld, a
// multiple of 8; rows and columns n..ld−1 as in cholUpperFMA) with X =
// U⁻¹ and zeroes what lies below it: rows by groups of four from the last,
// each row i
// being (e_i − Σ_{k>i} U_ik X_k)/U_ii, the terms of the rows below the
// group by fmaBlock4x8U, those within it one by one. About n³/6
// multiply–adds.
func invUpperFMA(n int, a []float64, ld int, w *PinvSquareWork) {
	var in [4][4]float64 // the group's U_ik, i ≤ k within the group
	for i0 := (n - 1) &^ 3; i0 >= 0; i0 -= 4 {
		i1 := min(i0+4, n)
		kw := n - i1
		neg := grow(&w.coef, 4*max(kw, 1))
		for r := range i1 - i0 {
			row := a[(i0+r)*ld : (i0+r)*ld+ld]
			for k, v := range row[i1:n] {
				neg[r*kw+k] = -v
			}
			for k := i0 + r; k < i1; k++ {
				in[r][k-i0] = row[k]
			}
			clear(row[:n]) // the accumulators of −Σ_{k ≥ i1} U_ik X_k
		}
		if kw > 0 {
			for c0 := i1 &^ 7; c0 < n; c0 += 8 {
				if k1 := min(c0+8, n); k1 > i1 {
					fmaBlock4x8U(&neg[0], kw, &a[i1*ld+c0], ld, k1-i1, &a[i0*ld+c0], ld)
				}
			}
		}
		for r := i1 - i0 - 1; r >= 0; r-- {
			i := i0 + r
			row := a[i*ld : i*ld+n]
			for k := i + 1; k < i1; k++ {
				if u := in[r][k-i0]; u != 0 {
					xk := a[k*ld : k*ld+n]
					for c := k; c < n; c++ {
						row[c] -= u * xk[c]
					}
				}
			}
			d := 1 / in[r][r]
			for c := i + 1; c < n; c++ {
				row[c] *= d
			}
			row[i] = d
		}
	}
}
