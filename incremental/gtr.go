package incremental

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/linalg"
)

// GTR mode (Options.GTR): the engine scores the pairs as the greedy total
// resistance rewiring of Black et al. (ICML 2023) does — adding the edge
// {i,j} inside a component lowers the total effective resistance
// n·tr(L⁺) by n·B_ij/(1 + R_ij), with the biharmonic distance
// B_ij = S_ii + S_jj − 2S_ij of S = (L⁺)² — and admits only non-edges inside
// one component (GTR's edge and component masks). S is kept exactly beside
// L⁺ under additions: with b = e_u − e_v, x = L⁺b, c = 1/(1 + R_uv),
// L⁺' = L⁺ − c·x xᵀ, so
//
//	S' = (L⁺')² = S − c·(y xᵀ + x yᵀ) + c²·(xᵀx)·x xᵀ,  y = L⁺x = S b,
//
// a rank-2 update that the fused pass applies to S beside the rank-one
// update of L⁺, scoring every pair with the new values in the same sweep:
// O(n²) per addition, 2·n(n+1)/2 floats. The initial S costs one product
// L⁺·L⁺ per component (O(Σ n_C³)). Removals and additions across components
// are refused (GTR never makes them).

// gtrState is S = (L⁺)² and the pending rank-2 update.
type gtrState struct {
	sq   packed
	y    []float64             // S b of the pending addition
	dS   []float64             // diagonal of S after the pending update
	xx   float64               // xᵀx of the pending addition
	c    float64               // 1/(1 + R_uv) of the pending addition (0: none)
	cf   []float64             // the component labels as float64s (gtrRowsFMA's mask)
	scan bool                  // the pass only scans
	P, S []float64             // initGTR's dense copies of a component's L⁺ and S
	work linalg.PinvSquareWork // refreshGTR's scratch
}

// reuse is a state for n nodes in st's memory (Options.Reuse). O(n).
func (st *gtrState) reuse(n int) *gtrState {
	r := &gtrState{sq: reusePacked(st.sq, n), y: reuseFloats(st.y, n), dS: reuseFloats(st.dS, n),
		cf: reuseFloats(st.cf, n), P: st.P, S: st.S, work: st.work}
	return r
}

// errGTREdit is returned for edits GTR mode does not make.
var errGTREdit = errors.New("GTR mode only adds edges inside one component") // reason: an EditError wraps it and says "incremental:"

// initGTR computes S = (L⁺)² per component from L⁺ (blocks[c] the L⁺ of
// component groups[c], upper triangle, as linalg.ComponentPinv returns it;
// nil for a single node, whose S is 0), by linalg.SquareSym: the bits of
// the BLAS syrk S = P Pᵀ on a dense copy of P. O(Σ n_C³).
func (e *Undirected) initGTR(groups [][]int, blocks []*mat.SymDense) {
	if e.gtr == nil {
		e.gtr = &gtrState{sq: newPacked(e.n), y: make([]float64, e.n), dS: make([]float64, e.n), cf: make([]float64, e.n)}
	}
	for i, c := range e.comp {
		e.gtr.cf[i] = float64(c)
	}
	clear(e.gtr.sq.data) // entries between components (and of isolated nodes) are 0
	P, S := e.gtr.P, e.gtr.S
	defer func() {
		if cap(P) <= keptScratch {
			e.gtr.P, e.gtr.S = P, S // kept for the next Refresh, or the next engine
		}
	}()
	for c, B := range blocks {
		if B == nil {
			continue
		}
		nodes, raw := groups[c], B.RawSymmetric()
		nc := len(nodes)
		ld := linalg.SquareStride(nc)
		if cap(P) < nc*ld {
			P, S = make([]float64, nc*ld), make([]float64, nc*ld)
		}
		P, S = P[:nc*ld], S[:nc*ld]
		for a := range nc {
			brow := raw.Data[a*raw.Stride : a*raw.Stride+nc]
			prow := P[a*ld : (a+1)*ld]
			copy(prow[a:nc], brow[a:])
			clear(prow[nc:]) // SquareSym's zero columns
			for b := a + 1; b < nc; b++ {
				P[b*ld+a] = brow[b]
			}
		}
		linalg.SquareSym(nc, P, S, ld)
		contiguous := nodes[nc-1]-nodes[0] == nc-1 // nodes ascend: the rows of S are rows of sq
		for a, i := range nodes {
			row, srow := e.gtr.sq.row(i), S[a*ld+a:a*ld+nc]
			if contiguous {
				copy(row, srow)
				continue
			}
			for b, v := range srow {
				row[nodes[a+b]-i] = v
			}
		}
	}
}

// gtrReference makes Refresh in GTR mode compute L⁺ and S as before issue
// 48's own arithmetic (linalg.ComponentPinv and linalg.SquareSym, gonum's
// bits) instead of linalg.ComponentPinvSquare: the yardstick of the tests
// that the decisions did not change.
var gtrReference = false

// refreshGTR is Refresh in GTR mode: L⁺ and S of each component by
// linalg.ComponentPinvSquare, written into the packed triangles,
// O(Σ n_C³); then the scan. An error leaves the engine unusable.
func (e *Undirected) refreshGTR(comp []int, count int, groups [][]int) error {
	if e.gtr == nil {
		e.gtr = &gtrState{sq: newPacked(e.n), y: make([]float64, e.n), dS: make([]float64, e.n), cf: make([]float64, e.n)}
	}
	st := e.gtr
	e.comp = comp
	e.size = make([]int, count)
	for i, c := range comp {
		e.size[c]++
		st.cf[i] = float64(c)
	}
	if count > 1 || e.n < 2 { // one component of n ≥ 2 nodes writes every entry below
		clear(e.p.data) // entries between components (and of isolated nodes) are 0
		clear(st.sq.data)
	}
	defer st.work.Release(keptScratch / 2) // 3 buffers up to 4 MB (724 nodes): 12 MB
	for _, nodes := range groups {
		nc := len(nodes)
		if nc < 2 {
			continue
		}
		lp, s, ld, err := linalg.ComponentPinvSquare(&st.work, e.g, nodes)
		if err != nil {
			return fmt.Errorf("incremental: refresh: %w", err)
		}
		contiguous := nodes[nc-1]-nodes[0] == nc-1 // nodes ascend: the rows are rows of the packed triangles
		for a, i := range nodes {
			rowL, rowS := e.p.row(i), st.sq.row(i)
			lrow, srow := lp[a*ld+a:a*ld+nc], s[a*ld+a:a*ld+nc]
			if contiguous {
				copy(rowL, lrow)
				copy(rowS, srow)
				continue
			}
			for b := range lrow {
				rowL[nodes[a+b]-i], rowS[nodes[a+b]-i] = lrow[b], srow[b]
			}
		}
	}
	e.scan()
	return nil
}

// prepareGTR derives the rank-2 update of S from the pending rank-one update
// of L⁺ (xs[0], alphas[0] = c), before the pass. O(n).
func (e *Undirected) prepareGTR(u, v int) {
	st := e.gtr
	x := e.xs[0]
	st.sq.column(st.y, u)
	st.sq.column(st.dS, v) // dS as scratch
	for i := range st.y {
		st.y[i] -= st.dS[i]
	}
	c := e.alphas[0]
	xx := 0.0
	for _, xi := range x {
		xx += xi * xi
	}
	st.c, st.xx = c, xx
	for i := range e.n {
		st.dS[i] = st.sq.at(i, i) - 2*c*x[i]*st.y[i] + c*c*xx*x[i]*x[i]
	}
}

// gtrPass is worker t's share of the fused pass in GTR mode: rows of L⁺ and
// S updated (when an addition is pending) and every admissible pair scored
// B_ij/(1 + R_ij) (gtrScore) in row-major order; edges are left out when
// they reach the running maximum (O(1) look-up), other components in the
// sweep. With gtrKernel, gtrRowsFMA updates the rows and tests their
// scores against the running maximum without dividing (gtrFilter), row
// after row until one has a pair that may exceed it: that row is scored
// again one pair at a time, to be offered in order, and gtrRowsFMA goes on
// from the next.
func (e *Undirected) gtrPass(t int) {
	tr := &e.track[t]
	tr.Reset()
	st := e.gtr
	n := e.n
	x, y := e.xs[0], st.y
	c, c2xx := st.c, st.c*st.c*st.xx
	if e.k == 0 {
		c, c2xx = 0, 0
	}
	mode := 0
	if c != 0 {
		mode |= 1
	}
	if len(e.size) > 1 {
		mode |= 2 // several components: mask the others' pairs
	}
	lo, hi := e.bounds[t], e.bounds[t+1]
	if gtrKernel {
		for i := lo; i < hi; {
			_ = e.p.data[e.p.start[hi]-1] // the rows lo..hi−1, and the vectors' entries i..n−1
			_ = st.sq.data[st.sq.start[hi]-1]
			_, _, _, _, _ = x[n-1], y[n-1], e.d[n-1], st.dS[n-1], st.cf[n-1]
			i += gtrRowsFMA(&e.p.data[e.p.start[i]], &st.sq.data[st.sq.start[i]], &x[i], &y[i], &e.d[i], &st.dS[i], &st.cf[i],
				n-i, hi-i, c, c2xx, gtrFilter(tr.Floor()), mode)
			if i < hi {
				e.gtrOffer(tr, i, e.p.row(i), st.sq.row(i))
				i++
			}
		}
		return
	}
	for i := lo; i < hi; i++ {
		rowL, rowS := e.p.row(i), st.sq.row(i)
		rowL[0], rowS[0] = e.d[i], st.dS[i]
		if c != 0 {
			m := len(rowL)
			xr, yr := x[i:n][:m], y[i:n][:m]
			aL := c * x[i]
			aSx, aSy := c*y[i]-c2xx*x[i], c*x[i]
			for k := 1; k < m; k++ {
				rowL[k] = math.FMA(-aL, xr[k], rowL[k])
				rowS[k] = math.FMA(-aSy, yr[k], math.FMA(-aSx, xr[k], rowS[k]))
			}
		}
		e.gtrOffer(tr, i, rowL, rowS)
	}
}

// gtrOffer offers tr the admissible pairs (i, i+k) of the updated rows of
// L⁺ and S whose scores (gtrScore) exceed its running maximum, in order,
// dividing only for the pairs that pass gtrFilter's test. O(n − i).
func (e *Undirected) gtrOffer(tr *rank.Max, i int, rowL, rowS []float64) {
	m := len(rowL)
	dL, dS := e.d[i:e.n][:m], e.gtr.dS[i:e.n][:m]
	rowS = rowS[:m]
	cs := e.comp[i:e.n][:m]
	ci := cs[0]
	dL1, dS0 := dL[0]+1, dS[0]
	floor := tr.Floor()
	thr := gtrFilter(floor)
	for k := 1; k < m; k++ {
		if cs[k] != ci {
			continue
		}
		b, d := gtrScore(rowL[k], rowS[k], dL[k]+dL1, dS[k]+dS0)
		if !(math.FMA(-thr, d, b) > 0) {
			continue // gtrFilter: the score does not exceed floor
		}
		if s := b / d; s > floor && !e.g.HasEdge(i, i+k) {
			tr.Offer(rank.Pair{U: i, V: i + k, Score: s})
			floor = tr.Floor()
			thr = gtrFilter(floor)
		}
	}
}

// gtrScore returns the two parts of the score b/D = B_ij/(1 + R_ij) of a
// pair from L⁺_ij (l), S_ij (s), dL = L⁺_ii + L⁺_jj + 1 and dS = S_ii +
// S_jj: b = dS − 2s and D = dL − 2l, each by one fused multiply–add, as
// gtrRowsFMA computes them. O(1).
func gtrScore(l, s, dL, dS float64) (b, d float64) {
	return math.FMA(-2, s, dS), math.FMA(-2, l, dL)
}

// gtrFilter is the threshold t of gtrRowsFMA's test b > t·D for the running
// maximum floor: a little below floor, so that every pair whose score b/D
// (gtrScore's b/D), rounded, exceeds floor passes (D = 1 + R > 0); −Inf (every
// pair passes) unless floor > 0. O(1).
func gtrFilter(floor float64) float64 {
	if !(floor > 0) {
		return math.Inf(-1)
	}
	return floor * (1 - 1e-12)
}

// Biharmonic returns S_ii + S_jj − 2S_ij in GTR mode (0 otherwise). O(1).
func (e *Undirected) Biharmonic(i, j int) float64 {
	if e.gtr == nil {
		return 0
	}
	s := &e.gtr.sq
	return s.at(i, i) + s.at(j, j) - 2*s.at(i, j)
}

// SquaredPinv returns entry (i, j) of S = (L⁺)² in GTR mode (0 otherwise).
func (e *Undirected) SquaredPinv(i, j int) float64 {
	if e.gtr == nil {
		return 0
	}
	return e.gtr.sq.at(i, j)
}
