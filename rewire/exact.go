package rewire

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
)

// exactEngine recomputes every score from scratch whenever the graph has
// changed: L⁺ by linalg.Pinv (undirected) or X by one Lyapunov solve per SCC
// (directed), all-pairs distances by a BFS from every node, and the maximum
// by a plain two-pass scan. It shares no state or kernel with the incremental
// engines, so it is the tests' oracle and the benchmarks' naive baseline.
// Each recomputation costs O(Σ n_C³ + n(n+m)).
type exactEngine struct {
	g      *linalg.Graph
	hop    bool
	within bool

	skip  []incremental.Pair // left out of MaxPair (Skip)
	fresh bool
	block []int         // component (undirected) or SCC (directed) per node
	X     *mat.SymDense // L⁺ or X, 0 across blocks
	dist  [][]int       // -1: unreachable
}

func newExactEngine(g *linalg.Graph, hop, within bool) (*exactEngine, error) {
	n := uint64(g.N())
	// L⁺ or X (n² floats), the Pinv work, and per hop n² int distances.
	need := 3 * n * n * 8
	if hop {
		need += n * n * 8
	}
	if err := linalg.CheckMemory(fmt.Sprintf("the exact engine on %d nodes", n), need, "it recomputes n² numbers every iteration; use the incremental engine"); err != nil {
		return nil, err
	}
	e := &exactEngine{g: g.Clone(), hop: hop, within: within}
	return e, e.refresh()
}

func (e *exactEngine) Graph() *linalg.Graph { return e.g }

func (e *exactEngine) refresh() error {
	if e.fresh {
		return nil
	}
	block, X, err := exactMatrix(e.g)
	if err != nil {
		return err
	}
	e.block, e.X = block, X
	if e.hop {
		e.dist = allPairsBFS(e.g)
	}
	e.fresh = true
	return nil
}

// exactMatrix computes the blocks and L⁺ (undirected) or X (directed) of g
// from scratch.
func exactMatrix(g *linalg.Graph) ([]int, *mat.SymDense, error) {
	if !g.Directed() {
		comp, _ := tarjan.Components(g)
		P, err := linalg.Pinv(g, comp)
		return comp, P, err
	}
	scc, _ := tarjan.SCC(g)
	n := g.N()
	X := mat.NewSymDense(max(n, 1), nil)
	for _, nodes := range linalg.Groups(scc) {
		ns := len(nodes)
		if ns < 2 {
			continue
		}
		local := make(map[int]int, ns)
		for a, i := range nodes {
			local[i] = a
		}
		// M = ΠL + J/n on the induced subgraph: (ΠL)_ab = L_ab − colsum_b/n.
		L := mat.NewDense(ns, ns, nil)
		for a, i := range nodes {
			for _, j := range g.Out(i) {
				if b, ok := local[j]; ok {
					L.Set(a, b, L.At(a, b)-1)
					L.Set(a, a, L.At(a, a)+1)
				}
			}
		}
		inv := 1 / float64(ns)
		M := mat.NewDense(ns, ns, nil)
		Pi := mat.NewSymDense(ns, nil)
		for b := range ns {
			col := 0.0
			for a := range ns {
				col += L.At(a, b)
			}
			for a := range ns {
				M.Set(a, b, L.At(a, b)-col*inv+inv)
			}
			for a := b; a < ns; a++ {
				v := -inv
				if a == b {
					v++
				}
				Pi.SetSym(b, a, v)
			}
		}
		Y, err := linalg.SolveLyapunov(M, Pi)
		if err != nil {
			return nil, nil, fmt.Errorf("exact directed solve of an SCC of %d nodes: %w", ns, err)
		}
		for a, i := range nodes {
			for b := a; b < ns; b++ {
				X.SetSym(i, nodes[b], 2*Y.At(a, b))
			}
		}
	}
	return scc, X, nil
}

// allPairsBFS returns d[i][j], the number of arcs on a shortest path i→j
// (undirected: edges), or -1.
func allPairsBFS(g *linalg.Graph) [][]int {
	n := g.N()
	d := make([][]int, n)
	q := make([]int, 0, n)
	for s := range n {
		row := make([]int, n)
		for j := range row {
			row[j] = -1
		}
		row[s] = 0
		q = append(q[:0], s)
		for h := 0; h < len(q); h++ {
			u := q[h]
			for _, v := range g.Out(u) {
				if row[v] < 0 {
					row[v] = row[u] + 1
					q = append(q, v)
				}
			}
		}
		d[s] = row
	}
	return d
}

func (e *exactEngine) SameBlock(i, j int) bool {
	if err := e.refresh(); err != nil {
		panic(err)
	}
	return e.block[i] == e.block[j]
}

// score returns the method's score of the pair and whether it is admissible.
func (e *exactEngine) score(i, j int) (float64, bool) {
	if e.g.Directed() || e.within {
		if e.block[i] != e.block[j] {
			return 0, false
		}
	}
	r := linalg.Resistance(e.X, i, j)
	if !e.hop {
		return r, true
	}
	if e.dist[i][j] <= 0 {
		return 0, false
	}
	return r / float64(e.dist[i][j]), true
}

// Skip sets the pairs MaxPair leaves out.
func (e *exactEngine) Skip(pairs []incremental.Pair) { e.skip = slices.Clone(pairs) }

// MaxPair ranks every admissible pair (rank.Each over the full list, the
// pairs of Skip left out): O(n²) per call after the recomputation.
func (e *exactEngine) MaxPair() (incremental.Pair, bool) {
	skip := e.skip
	if err := e.refresh(); err != nil {
		panic(err)
	}
	n := e.g.N()
	var ps []incremental.Pair
	for i := range n {
		for j := range n {
			if i == j || (!e.g.Directed() && j < i) {
				continue
			}
			if s, ok := e.score(i, j); ok && !slices.ContainsFunc(skip, func(q incremental.Pair) bool { return q.U == i && q.V == j }) {
				ps = append(ps, incremental.Pair{U: i, V: j, Score: s, Key: linalg.Resistance(e.X, i, j)})
			}
		}
	}
	var best incremental.Pair
	found := false
	rank.Each(ps, rank.Descending, e.hop, func(p incremental.Pair) bool {
		best, found = p, true
		return false
	})
	return best, found
}

// MinEdge ranks the edges (arcs inside SCCs) by resistance, ascending.
func (e *exactEngine) MinEdge(accept func(u, v int) bool) (incremental.Pair, bool) {
	var es []incremental.Pair
	for _, ed := range e.g.Edges() {
		if r, ok := e.Resistance(ed.U, ed.V); ok {
			es = append(es, incremental.Pair{U: ed.U, V: ed.V, Score: r})
		}
	}
	var pick incremental.Pair
	found := false
	rank.Each(es, rank.Ascending, false, func(p incremental.Pair) bool {
		if accept == nil || accept(p.U, p.V) {
			pick, found = p, true
			return false
		}
		return true
	})
	return pick, found
}

// Resistance is R_ij from the fresh matrix; false across SCCs (directed).
func (e *exactEngine) Resistance(i, j int) (float64, bool) {
	if err := e.refresh(); err != nil {
		panic(err)
	}
	if e.g.Directed() && e.block[i] != e.block[j] {
		return 0, false
	}
	return linalg.Resistance(e.X, i, j), true
}

// ResistanceAfterAdd recomputes everything with the edge (arc) added.
func (e *exactEngine) ResistanceAfterAdd(a, b, x, y int) (float64, bool) {
	h := e.g.Clone()
	h.AddEdge(x, y)
	block, X, err := exactMatrix(h)
	if err != nil {
		panic(err)
	}
	if h.Directed() && block[a] != block[b] {
		return 0, false
	}
	return linalg.Resistance(X, a, b), true
}

// Begin and Commit do nothing: the exact engine recomputes lazily anyway.
func (e *exactEngine) Begin()        {}
func (e *exactEngine) Commit() error { return nil }

func (e *exactEngine) Add(u, v int) error {
	if !e.g.AddEdge(u, v) {
		return &incremental.EditError{Op: "add", U: u, V: v, Reason: incremental.ErrEdgeExists}
	}
	e.fresh = false
	return nil
}

func (e *exactEngine) Remove(u, v int) error {
	if !e.g.RemoveEdge(u, v) {
		return &incremental.EditError{Op: "remove", U: u, V: v, Reason: incremental.ErrNoEdge}
	}
	e.fresh = false
	return nil
}
