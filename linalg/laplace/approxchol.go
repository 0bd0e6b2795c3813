package laplace

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/ohmgnn/ohm/linalg"
)

// Approximate Cholesky (Kyng–Sachdeva's randomized elimination, in the
// form of Gao, Kyng and Spielman's AC: the clique that eliminating a node
// leaves among its neighbours is replaced by a sample of as many edges as
// neighbours less one, equal to it in expectation). Eliminating v with
// neighbours of weights w_1 ≤ … ≤ w_d (multiple edges merged), W = Σ w,
// leaves the clique Σ_{i<j} w_i w_j/W (e_i − e_j)(e_i − e_j)ᵀ: for each i
// < d the star from i to the later neighbours (weights w_i w_j/W, j > i)
// is replaced by one edge (i, k), k drawn among the later ones with
// probability w_k/S_i (S_i = Σ_{j>i} w_j), of weight w_i S_i/W — the
// star's expectation. The graph of the remaining nodes keeps its
// components and never gains edges, so the factor has at most as many
// entries as the edges ever present and the elimination costs O(m log m)
// time and O(m) memory. The nodes go in order of least current degree
// (a heap; ties by id). The last node of each component keeps no
// neighbour: its pivot is 0 and it is the component's grounded node.
//
// As a preconditioner it serves conjugate gradients as IC(0) does — the
// factor F (F Fᵀ ≈ L, F_vv = √W, F_jv = −w_j/√W) is swept forward and back
// — in the elimination's numbering: precondition gathers the block into
// it and scatters it back.

// acEdge is an edge entry of the elimination's graph: the neighbour and
// the weight.
type acEdge struct {
	nb int32
	w  float64
}

// acFactor is the approximate Cholesky factor in the elimination's
// numbering (position k is node perm[k]): its two triangles, 1/F_kk (0 for
// the grounded nodes) and the grounded node of each elimination's
// component.
type acFactor struct {
	perm         []int32
	lower, upper triangle
	finv32       []float32
	ground       []int // grounded nodes (original ids), one per component
}

// acMaxFill caps the approximate factor's entries at acMaxFill times the
// graph's edges: on expanders (the SBMs) the elimination fills in several
// times the edges and IC(0) converges fast anyway; beyond the cap the
// factor is abandoned (approxChol returns nil), which bounds its memory.
const acMaxFill = 3

// acStopEvery is how many eliminations approxChol makes between two calls
// of its stop function (a few milliseconds of work).
const acStopEvery = 4096

// approxChol computes the approximate Cholesky factor of g's Laplacian
// (undirected, unit weights, self-loops ignored) with the random draws of
// seed, or nil when it would hold more than acMaxFill·m entries or when
// stop (when not nil, asked every acStopEvery eliminations) returns an
// error. Deterministic for a seed.
func approxChol(g *linalg.Graph, seed uint64, stop func() error) *acFactor {
	maxFill := acMaxFill*g.NumEdges() + g.N()
	n := g.N()
	adj := make([][]acEdge, n)
	live := make([]int32, n) // entries of adj[v] to nodes not eliminated
	for v := range n {
		nb := g.Neighbours(v)
		l := make([]acEdge, len(nb), len(nb)+len(nb)/2+2)
		for i, u := range nb {
			l[i] = acEdge{nb: int32(u), w: 1}
		}
		adj[v], live[v] = l, int32(len(nb))
	}
	gone := make([]bool, n)
	h := acHeap{keys: make([]uint64, 0, 2*n)}
	for v := range n {
		h.push(live[v], v)
	}
	rng := rand.New(rand.NewPCG(seed, 0xac4c))
	acc := make([]float64, n) // merged weight per neighbour (0: not seen)
	var nbs []acEdge
	var cum []float64
	f := &acFactor{perm: make([]int32, 0, n)}
	// The columns of F, in the elimination's order: col k's entries are
	// rows[colStart[k]:colStart[k+1]] (original ids) and vals.
	colStart := make([]int, 1, n+1)
	var rows []int32
	var vals []float64
	fdiag := make([]float64, 0, n)
	for len(f.perm) < n {
		if stop != nil && len(f.perm)%acStopEvery == 0 && stop() != nil {
			return nil
		}
		d, v := h.pop()
		if gone[v] || d != live[v] {
			continue
		}
		gone[v] = true
		f.perm = append(f.perm, int32(v))
		nbs = nbs[:0]
		for _, e := range adj[v] {
			if gone[e.nb] {
				continue
			}
			live[e.nb]--
			if acc[e.nb] == 0 {
				nbs = append(nbs, acEdge{nb: e.nb})
			}
			acc[e.nb] += e.w
		}
		adj[v] = nil
		W := 0.0
		for i := range nbs {
			nbs[i].w = acc[nbs[i].nb]
			acc[nbs[i].nb] = 0
			W += nbs[i].w
		}
		if len(nbs) == 0 {
			fdiag = append(fdiag, 0)
			f.ground = append(f.ground, v)
			colStart = append(colStart, len(rows))
			continue
		}
		slices.SortFunc(nbs, func(a, b acEdge) int {
			if c := cmp.Compare(a.w, b.w); c != 0 {
				return c
			}
			return cmp.Compare(a.nb, b.nb)
		})
		sq := math.Sqrt(W)
		fdiag = append(fdiag, sq)
		for _, e := range nbs {
			rows = append(rows, e.nb)
			vals = append(vals, -e.w/sq)
		}
		colStart = append(colStart, len(rows))
		if len(rows) > maxFill {
			return nil
		}
		sampleClique(nbs, W, rng, &cum, func(a, b int32, w float64) {
			adj[a] = append(adj[a], acEdge{nb: b, w: w})
			adj[b] = append(adj[b], acEdge{nb: a, w: w})
			live[a]++
			live[b]++
		})
		for _, e := range nbs {
			u := e.nb
			if len(adj[u]) > 2*int(live[u])+16 { // drop the entries to eliminated nodes
				adj[u] = slices.DeleteFunc(adj[u], func(e acEdge) bool { return gone[e.nb] })
			}
			h.push(live[u], int(u))
		}
	}
	f.triangles(colStart, rows, vals, fdiag)
	return f
}

// sampleClique replaces the clique of an eliminated node whose neighbours
// nbs (weights ascending, total W) by len(nbs) − 1 edges, calling add for
// each: neighbour i's star to the later ones becomes one edge to k, drawn
// with probability w_k/S_i, of weight w_i S_i/W. cum is scratch.
func sampleClique(nbs []acEdge, W float64, rng *rand.Rand, cum *[]float64, add func(a, b int32, w float64)) {
	d := len(nbs)
	c := slices.Grow((*cum)[:0], d)[:d] // c[j] = Σ_{t≤j} w_t
	s := 0.0
	for j, e := range nbs {
		s += e.w
		c[j] = s
	}
	*cum = c
	for i := 0; i < d-1; i++ {
		S := c[d-1] - c[i]
		if S <= 0 {
			continue
		}
		t := c[i] + rng.Float64()*S
		k, _ := slices.BinarySearch(c[i+1:], t)
		k = min(i+1+k, d-1)
		add(nbs[i].nb, nbs[k].nb, nbs[i].w*S/W)
	}
}

// triangles lays out F in the elimination's numbering as the sweeps read
// it (lower: row k's entries F_kj, j < k; upper: row j's F_kj, k > j; both
// by ascending column) from its columns, and 1/F_kk.
func (f *acFactor) triangles(colStart []int, rows []int32, vals, fdiag []float64) {
	n := len(f.perm)
	pos := make([]int32, n)
	for k, v := range f.perm {
		pos[v] = int32(k)
	}
	nnz := len(rows)
	// upper: row j of Fᵀ is column j of F, sorted by position.
	up := triangle{start: make([]int, n+1), adj: make([]int32, nnz), fac: make([]float32, nnz)}
	type ent struct {
		p int32
		v float64
	}
	var col []ent
	for j := range n {
		col = col[:0]
		for p := colStart[j]; p < colStart[j+1]; p++ {
			col = append(col, ent{pos[rows[p]], vals[p]})
		}
		slices.SortFunc(col, func(a, b ent) int { return cmp.Compare(a.p, b.p) })
		for t, e := range col {
			up.adj[colStart[j]+t] = e.p
			up.fac[colStart[j]+t] = float32(e.v)
		}
		up.start[j+1] = colStart[j+1]
	}
	// lower: row k gathers the columns j < k that name it, ascending j.
	lo := triangle{start: make([]int, n+1), adj: make([]int32, nnz), fac: make([]float32, nnz)}
	for p := range nnz {
		lo.start[up.adj[p]+1]++
	}
	for k := range n {
		lo.start[k+1] += lo.start[k]
	}
	next := slices.Clone(lo.start[:n])
	for j := range n {
		for p := up.start[j]; p < up.start[j+1]; p++ {
			k := up.adj[p]
			lo.adj[next[k]] = int32(j)
			lo.fac[next[k]] = up.fac[p]
			next[k]++
		}
	}
	lo.adj, up.adj = padded(lo.adj), padded(up.adj)
	f.lower, f.upper = lo, up
	f.finv32 = make([]float32, n)
	for k, d := range fdiag {
		if d > 0 {
			f.finv32[k] = float32(1 / d)
		}
	}
}

// acHeap is a min-heap of (degree, node) keys, ties by node id; stale
// keys are skipped by the caller.
type acHeap struct{ keys []uint64 }

func (h *acHeap) push(d int32, v int) {
	h.keys = append(h.keys, uint64(d)<<32|uint64(v))
	i := len(h.keys) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h.keys[p] <= h.keys[i] {
			break
		}
		h.keys[p], h.keys[i] = h.keys[i], h.keys[p]
		i = p
	}
}

func (h *acHeap) pop() (int32, int) {
	top := h.keys[0]
	last := len(h.keys) - 1
	h.keys[0] = h.keys[last]
	h.keys = h.keys[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < last && h.keys[l] < h.keys[m] {
			m = l
		}
		if r < last && h.keys[r] < h.keys[m] {
			m = r
		}
		if m == i {
			break
		}
		h.keys[m], h.keys[i] = h.keys[i], h.keys[m]
		i = m
	}
	return int32(top >> 32), int(top & (1<<32 - 1))
}
