package sketch

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg/laplace"
)

// refresh starts a round on the current graph: solver, sketch, candidates,
// and the exact block M. extra nodes are kept as addition candidates too.
func (e *Engine) refresh(extra []int) error {
	g := e.g
	n := g.N()
	workers := max(1, e.opt.Workers)
	solver, err := laplace.New(g)
	if err != nil {
		return err
	}
	k := e.opt.Rows
	e.solver = solver
	e.waiting = e.waiting[:0] // the new round's bounds are of the current graph
	sk, err := laplace.NewSketch(solver, g, k, e.opt.Seed+uint64(e.round), 1e-4, workers)
	if err != nil {
		return err
	}
	e.solves += k
	e.round++
	e.comp = e.comp[:0]
	for i := range n {
		e.comp = append(e.comp, int32(solver.Component(i)))
	}
	E := e.opt.Round
	// Anchors: the 32 nodes of largest sketched L⁺_ii and the extremes of
	// the embedding along each of its k coordinates (random directions).
	diag := make([]float64, n)
	order := make([]int, n)
	for i := range n {
		diag[i] = sk.Diag(i)
		order[i] = i
	}
	byDesc := func(score []float64) func(a, b int) int {
		return func(a, b int) int {
			if c := cmp.Compare(score[b], score[a]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		}
	}
	slices.SortFunc(order, byDesc(diag))
	anchors := slices.Clone(order[:min(n, 32)])
	for q := range k {
		lo, hi := 0, 0
		for i := 1; i < n; i++ {
			z := sk.Point(i)[q]
			if z < sk.Point(lo)[q] {
				lo = i
			}
			if z > sk.Point(hi)[q] {
				hi = i
			}
		}
		anchors = append(anchors, lo, hi)
	}
	slices.Sort(anchors)
	anchors = slices.Compact(anchors)
	// Eccentricity estimate ρ_i = max over anchors a of R̂_ia (across
	// components L̂⁺_ii + L̂⁺_aa, as the paper scores such pairs): the
	// farthest pair's ends are far from some anchor. Two passes: the 128
	// nodes of largest ρ join the anchors and ρ is taken again (a node
	// whose farthest partner is no anchor is found by the partner).
	// O(n·|anchors|·k).
	ecc := make([]float64, n)
	sortByEcc := func() {
		for i := range n {
			order[i] = i
		}
		slices.SortFunc(order, byDesc(ecc))
	}
	// ecc[i] takes the max with the partners' (ρ over a union of anchor
	// sets is the max of the sets' ρ: the second pass reads only the new
	// anchors).
	eccentricity := func(partners []int) {
		parallelRows(workers, n, func(_, lo, hi int) {
			rs := make([]float64, len(partners))
			for i := lo; i < hi; i++ {
				sk.Rs(i, partners, rs)
				ecc[i] = max(ecc[i], e.farthest(i, partners,
					func(q, _ int) float64 { return rs[q] },
					func(_, a int) float64 { return diag[i] + diag[a] }))
			}
		})
		sortByEcc()
	}
	eccentricity(anchors)
	var more []int
	for _, i := range order[:min(n, 128)] {
		if _, found := slices.BinarySearch(anchors, i); !found {
			more = append(more, i)
		}
	}
	slices.Sort(more)
	eccentricity(more)
	// Sharper bounds. The estimates above err by about √(2/k) ≈ 10 % of R,
	// more than the spread of the eccentricities on expanders. The
	// exactAnchors nodes X of largest ρ are solved exactly (their full
	// columns, |X|·n numbers, are kept for the round and follow its
	// edits), L⁺_ii is estimated by Hutchinson's method and combined with
	// the sketch's ‖Z e_i‖² (inverse-variance weights; both unbiased), and
	// the eccentricities are bounded from them (bounds).
	X := slices.Clone(order[:min(n, exactAnchors)])
	slices.Sort(X)
	cols := make([]float64, len(X)*n, max(len(X), maxAnchors)*n) // grow appends up to maxAnchors columns
	if _, err := solver.SolveMany(len(X), func(q int, b []float64) { b[X[q]] = 1 },
		func(q int, x []float64) { copy(cols[q*n:(q+1)*n], x) }, e.opt.Tol, 10*n+100, workers); err != nil {
		return fmt.Errorf("anchor solves: %w", err)
	}
	e.solves += len(X)
	hd, err := laplace.EstimateDiag(solver, e.opt.Probes, e.opt.Seed+uint64(e.round), 1e-4, workers)
	if err != nil {
		return err
	}
	e.solves += e.opt.Probes
	inX := make(map[int]int, len(X))
	for q, a := range X {
		inX[a] = q
	}
	e.dhat, e.sd = make([]float64, n), make([]float64, n)
	for i := range n {
		dh, sd := hd.Mean[i], 0.0
		if q, ok := inX[i]; ok {
			dh = cols[q*n+i]
		} else if vh, vj := hd.StdErr[i]*hd.StdErr[i], 2*diag[i]*diag[i]/float64(k); vh > 0 && vj > 0 {
			w := 1/vh + 1/vj
			dh, sd = (hd.Mean[i]/vh+diag[i]/vj)/w, math.Sqrt(1/w)
		}
		e.dhat[i], e.sd[i] = dh, sd
	}
	if err := e.findSmall(); err != nil {
		return err
	}
	e.anchors, e.acol = X, cols
	e.delta = 0
	for _, v := range cols {
		e.delta = max(e.delta, -v)
	}
	e.aidx = slices.Grow(e.aidx[:0], n)[:n]
	for i := range e.aidx {
		e.aidx[i] = -1
	}
	for q, a := range X {
		e.aidx[a] = int32(q)
	}
	e.scale = 1
	if err := e.bounds(ecc); err != nil {
		return err
	}
	sortByEcc()
	s := min(n, e.opt.Candidates)
	isCand := make(map[int]bool, s+len(X)+len(extra))
	for _, i := range order[:s] {
		isCand[i] = true
	}
	for _, a := range X {
		isCand[a] = true
	}
	for _, i := range extra {
		isCand[i] = true
	}
	// Calibration: up to 32 random nodes among the rest (drawn from the
	// seed and the round) are kept too; their exact/estimated eccentricity
	// ratios, free of the selection bias of the candidates (chosen for
	// large estimates, so mostly overestimated), scale the cover.
	var calib []int
	if rest := n - len(isCand); rest > 0 {
		r := rand.New(rand.NewPCG(e.opt.Seed, 0xca1+uint64(e.round)))
		for tries := 0; len(calib) < min(32, rest) && tries < 64*32; tries++ {
			i := r.IntN(n)
			if !isCand[i] && !slices.Contains(calib, i) {
				calib = append(calib, i)
			}
		}
	}
	for _, i := range calib {
		isCand[i] = true
	}
	// The round holds while its best pair beats every pair with an end
	// outside the candidates: such a pair's R is at most its end's
	// eccentricity, and additions only lower resistances. The estimates ρ
	// are maxima of noisy sketch values, so they run high; they are scaled
	// by the median ratio of exact to estimated eccentricity over the
	// candidates (exact from M once it is solved, below).
	keep := make(map[int]bool, len(isCand))
	for i := range isCand {
		keep[i] = true
	}
	if !e.stale {
		// The nodes kept before stay, largest bound first, while K holds
		// fewer than carryKept of them with the new candidates (and fits
		// in MaxKept): their entries cost no solve (below), and a node
		// dropped could hold the farthest pair that its new bound misses.
		old := slices.Clone(e.kept)
		slices.SortFunc(old, byDesc(ecc))
		for _, i := range old {
			if len(keep) >= min(e.opt.MaxKept, carryKept) {
				break
			}
			keep[i] = true
		}
	}
	if e.opt.Removes {
		// Removal candidates: the lightest non-bridge edges by the sketch.
		bridges := tarjan.Bridges(g)
		for _, p := range lightest(sketchedEdges(g, sk, bridges, workers), E/2+16) {
			keep[p.U], keep[p.V] = true, true
		}
	}
	// Nodes kept before, when M is still L⁺[K, K] of the current graph (no
	// addition joined components since), keep their entries: no solve.
	var oldIndex []int32
	var oldM []float64
	oldK := 0
	if !e.stale && len(e.kept) > 0 {
		oldIndex, oldM, oldK = slices.Clone(e.index), e.m, len(e.kept)
	}
	e.kept = e.kept[:0]
	for i := range keep {
		e.kept = append(e.kept, i)
	}
	slices.Sort(e.kept)
	for i := range e.index {
		e.index[i] = -1
	}
	for p, i := range e.kept {
		e.index[i] = int32(p)
	}
	e.setCandidates()
	// M = L⁺[K, K], one solve per kept node.
	K := len(e.kept)
	e.m = make([]float64, K*K)
	var todo []int // kept positions to solve (the anchors' columns are known)
	reused := func(i int) bool { return oldIndex != nil && oldIndex[i] >= 0 }
	for p, i := range e.kept {
		row := e.m[p*K : (p+1)*K]
		if reused(i) {
			op := int(oldIndex[i]) * oldK
			for p2, j := range e.kept {
				if reused(j) {
					row[p2] = oldM[op+int(oldIndex[j])]
				}
			}
		} else if q, ok := inX[i]; ok {
			for p2, j := range e.kept {
				row[p2] = cols[q*n+j]
			}
		} else {
			todo = append(todo, p)
		}
	}
	_, err = solver.SolveMany(len(todo), func(q int, b []float64) { b[e.kept[todo[q]]] = 1 },
		func(q int, x []float64) {
			p := todo[q]
			row := e.m[p*K : (p+1)*K]
			for p2, i := range e.kept {
				row[p2] = x[i]
			}
		}, e.opt.Tol, 10*n+100, workers)
	if err != nil {
		return fmt.Errorf("re-scoring solves: %w", err)
	}
	e.solves += len(todo)
	for p, i := range e.kept { // reused rows: the new nodes' entries by symmetry
		if reused(i) {
			for p2, j := range e.kept {
				if !reused(j) {
					e.m[p*K+p2] = e.m[p2*K+p]
				}
			}
		}
	}
	oldM = nil
	for a := range K { // symmetrise: the solves meet Tol, not the last bit
		for b := a + 1; b < K; b++ {
			v := (e.m[a*K+b] + e.m[b*K+a]) / 2
			e.m[a*K+b], e.m[b*K+a] = v, v
		}
	}
	var ratios []float64
	for _, i := range calib {
		c := e.index[i]
		if ecc[i] <= 0 {
			continue
		}
		exact := e.farthest(i, e.kept, func(_, a int) float64 { return e.r(c, e.index[a]) },
			func(_, a int) float64 { return e.r(c, e.index[a]) })
		ratios = append(ratios, exact/ecc[i])
	}
	// The bounds should hold (ratios ≤ 1); where the calibration finds
	// otherwise, the cover is raised by the worst ratio.
	e.scale = 1
	if len(ratios) > 0 {
		e.scale = max(1, slices.Max(ratios))
	}
	e.setRowMin()
	for p, i := range e.kept { // kept nodes: L⁺_ii exact
		e.dhat[i], e.sd[i] = e.m[p*K+p], 0
	}
	e.ecc = ecc
	e.dirty = true
	if err := e.updateBounds(); err != nil {
		return err
	}
	e.edges = e.edges[:0]
	for _, u := range e.kept {
		for _, v := range g.Neighbours(u) {
			if v > u && e.index[v] >= 0 {
				e.edges = append(e.edges, incremental.Pair{U: u, V: v})
			}
		}
	}
	e.left, e.stale = E, false
	return nil
}
