package curvature

import (
	"runtime"

	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/linalg"
)

// kappaEdges stores κ of es[k] (edges of the undirected ug) in out[k],
// sharing the edges among workers in chunks taken from a counter.
func kappaEdges(ug *linalg.Graph, es []linalg.Edge, alpha float64, workers int, out []float64) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	const chunk = 16
	workers = min(workers, (len(es)+chunk-1)/chunk)
	if workers <= 1 {
		w := newKappaWorker(ug.N())
		v := view{g: ug, ea: -1}
		for k, e := range es {
			out[k] = w.kappa(&v, e.U, e.V, alpha)
		}
		return
	}
	ws := make([]*kappaWorker, workers)
	parallel.Each(workers, (len(es)+chunk-1)/chunk, func(t, c int) {
		if ws[t] == nil {
			ws[t] = newKappaWorker(ug.N())
		}
		v := view{g: ug, ea: -1}
		for k := c * chunk; k < min((c+1)*chunk, len(es)); k++ {
			out[k] = ws[t].kappa(&v, es[k].U, es[k].V, alpha)
		}
	})
}

// view is an undirected graph as the curvature kernel reads it: g, plus
// optionally one extra edge {ea, eb} (ea = -1: none) that is not in g. The
// extra edge lets a candidate addition be scored without editing g, so
// several goroutines can score candidates on one shared graph.
type view struct {
	g      *linalg.Graph
	ea, eb int
	xa, xb []int // N(ea) ∪ {eb} and N(eb) ∪ {ea}, sorted
}

// withEdge makes v read g plus the edge {a, b}; it reuses v's buffers.
func (v *view) withEdge(a, b int) {
	v.ea, v.eb = a, b
	v.xa = insertInto(v.xa[:0], v.g.Out(a), b)
	v.xb = insertInto(v.xb[:0], v.g.Out(b), a)
}

func insertInto(dst, src []int, x int) []int {
	placed := false
	for _, y := range src {
		if !placed && x < y {
			dst = append(dst, x)
			placed = true
		}
		dst = append(dst, y)
	}
	if !placed {
		dst = append(dst, x)
	}
	return dst
}

// nbrs returns the sorted neighbours of p (self-loop excluded).
func (v *view) nbrs(p int) []int {
	if v.ea >= 0 {
		switch p {
		case v.ea:
			return v.xa
		case v.eb:
			return v.xb
		}
	}
	return v.g.Out(p)
}

// kappaWorker is one goroutine's scratch space for kappa: node stamps, the
// two supports with their masses, the cost matrix and a Transport.
type kappaWorker struct {
	pos    []int32  // pos[p]: index of p in the supply list, valid when posGen[p] == gen
	posGen []uint32 //
	mark   []uint32 // neighbour marks for the distance test
	gen    uint32
	mgen   uint32
	sa, sb []int
	ma, mb []float64
	cost   []int32
	tr     Transport
}

func newKappaWorker(n int) *kappaWorker {
	return &kappaWorker{pos: make([]int32, n), posGen: make([]uint32, n), mark: make([]uint32, n)}
}

// nextStamp starts a new generation of stamps: it advances *gen and returns
// it, clearing stamps when *gen wraps round to 0 (no live stamp holds 0).
func nextStamp(gen *uint32, stamps []uint32) uint32 {
	*gen++
	if *gen == 0 {
		clear(stamps)
		*gen = 1
	}
	return *gen
}

// kappa returns κ(x, y) = 1 − W1(μx, μy) for the edge {x, y} of the view.
//
// Masses are scaled by deg(x)·deg(y) so that they are α·dx·dy on x,
// (1−α)·dy on each neighbour of x, α·dx·dy on y and (1−α)·dx on each
// neighbour of y: integers for α = 0, half-integers for α = 0.5, so the
// transport is then computed exactly and κ carries one rounding (the final
// division). Mass that both measures put on one node stays in place: W1
// depends only on μx − μy (Kantorovich–Rubinstein duality on the finite
// metric space), so the common part min(μx(p), μy(p)) is cancelled first and
// the supports become disjoint.
//
// Ground distances: a supply node p lies in {x} ∪ N(x) and a demand node q in
// {y} ∪ N(y), with x ~ y, so d(p, q) ≤ 3 always; with disjoint supports it is
// 1 if p ~ q, 2 if they have a common neighbour, else 3 — exactly what a BFS
// would give, at the cost of neighbour-list scans. κ(x,y) therefore reads
// only N(x), N(y) and the edges at the nodes of {x, y} ∪ N(x) ∪ N(y) (the
// basis of the update radius in State.affected).
func (w *kappaWorker) kappa(v *view, x, y int, alpha float64) float64 {
	nx, ny := v.nbrs(x), v.nbrs(y)
	dx, dy := float64(len(nx)), float64(len(ny))
	scale := dx * dy
	selfX, selfY := alpha*scale, alpha*scale
	nbX, nbY := (1-alpha)*dy, (1-alpha)*dx

	gen := nextStamp(&w.gen, w.posGen)
	w.sa, w.ma = w.sa[:0], w.ma[:0]
	w.sb, w.mb = w.sb[:0], w.mb[:0]
	addA := func(p int, m float64) {
		w.pos[p] = int32(len(w.sa))
		w.posGen[p] = gen
		w.sa = append(w.sa, p)
		w.ma = append(w.ma, m)
	}
	addA(x, selfX)
	for _, p := range nx {
		addA(p, nbX)
	}
	addB := func(q int, m float64) {
		if w.posGen[q] == gen {
			k := w.pos[q]
			net := w.ma[k] - m
			if net >= 0 {
				w.ma[k] = net
				return
			}
			w.ma[k] = 0
			m = -net
		}
		w.sb = append(w.sb, q)
		w.mb = append(w.mb, m)
	}
	addB(y, selfY)
	for _, q := range ny {
		addB(q, nbY)
	}
	// Drop emptied supply points (and α = 0's zero masses).
	w.sa, w.ma = dropEmpty(w.sa, w.ma)
	w.sb, w.mb = dropEmpty(w.sb, w.mb)
	if len(w.sa) == 0 || len(w.sb) == 0 {
		return 1
	}
	w.costs(v)
	return 1 - w.tr.Solve(w.ma, w.mb, w.cost)/scale
}

// dropEmpty keeps the points of positive mass, in order, in place.
func dropEmpty(pts []int, mass []float64) ([]int, []float64) {
	n := 0
	for k := range pts {
		if mass[k] > 0 {
			pts[n], mass[n] = pts[k], mass[k]
			n++
		}
	}
	return pts[:n], mass[:n]
}

// costs fills w.cost (|sa|×|sb|, row-major) with the ground distances,
// marking the neighbours of each node of the side whose scans are cheaper.
func (w *kappaWorker) costs(v *view) {
	na, nb := len(w.sa), len(w.sb)
	w.cost = grow(w.cost, na*nb)
	degA, degB := 0, 0
	for _, p := range w.sa {
		degA += len(v.nbrs(p))
	}
	for _, q := range w.sb {
		degB += len(v.nbrs(q))
	}
	// Marking the outer side costs its degrees once; each pair then scans
	// (at most) the inner node's neighbours.
	if degA+na*degB <= degB+nb*degA {
		for i, p := range w.sa {
			w.distRow(v, p, w.sb, w.cost[i*nb:(i+1)*nb], 1)
		}
		return
	}
	for j, q := range w.sb {
		w.distRow(v, q, w.sa, w.cost[j:], nb)
	}
}

// distRow stores d(p, qs[k]) in out[k·stride] for nodes qs disjoint from p.
func (w *kappaWorker) distRow(v *view, p int, qs []int, out []int32, stride int) {
	mk := nextStamp(&w.mgen, w.mark)
	for _, r := range v.nbrs(p) {
		w.mark[r] = mk
	}
	for k, q := range qs {
		d := int32(3)
		if w.mark[q] == mk {
			d = 1
		} else {
			for _, r := range v.nbrs(q) {
				if w.mark[r] == mk {
					d = 2
					break
				}
			}
		}
		out[k*stride] = d
	}
}
