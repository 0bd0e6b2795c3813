package rewire

import (
	"slices"

	"github.com/ohmgnn/ohm/linalg"
)

// fosrAdj is the graph's neighbour rows as FoSR's power step sums them:
// row i, nb[start[i]:end[i]], holds i's neighbours ascending, then i when
// it has a self-loop, then the padding n (the index of a zero entry of the
// summed vector), the row's length a multiple of four with at least one
// pad (room for an added edge). The summing loop takes four entries a
// step, so its trip count varies little from node to node and rarely
// mispredicts its exit, where a loop over each neighbour list did at
// nearly every node; the sums, in the same order, have the same bits.
type fosrAdj struct {
	start, end []int // the rows' bounds in nb
	nb         []int // the rows
}

// fosrRowLen is the length of a row of k entries (neighbours and
// self-loop): k+1 rounded up to a multiple of four. O(1).
func fosrRowLen(k int) int { return (k + 4) &^ 3 }

// build makes the rows of g, reusing a's memory. O(n + m).
func (a *fosrAdj) build(g *linalg.Graph) {
	n := g.N()
	a.start = slices.Grow(a.start[:0], n)[:n]
	a.end = slices.Grow(a.end[:0], n)[:n]
	// Every row takes at most its entries and four pads; three more
	// entries at the end take the last row's unconditional pads.
	a.nb = slices.Grow(a.nb[:0], 2*g.NumEdges()+g.NumSelfLoops()+4*n+3)
	a.nb = a.nb[:cap(a.nb)]
	pos, nb, start, end := 0, a.nb, a.start[:n], a.end[:n]
	for i := range n {
		k := copy(nb[pos:], g.Out(i))
		if g.HasSelfLoop(i) {
			nb[pos+k] = i
			k++
		}
		p := nb[pos+k : pos+k+4] // four pads, those beyond the row overwritten by the next
		p[0], p[1], p[2], p[3] = n, n, n, n
		start[i], pos = pos, pos+fosrRowLen(k)
		end[i] = pos
	}
	a.nb = nb[:pos+3] // moved rows are appended after the last one's pads
}

// write puts node i's entries at nb[pos:] and four pads after them (as
// build does); it returns the count of entries. O(deg).
func (a *fosrAdj) write(g *linalg.Graph, i, pos int) int {
	out := g.Out(i)
	k := copy(a.nb[pos:], out)
	if g.HasSelfLoop(i) {
		a.nb[pos+k] = i
		k++
	}
	p, n := a.nb[pos+k:pos+k+4], g.N()
	p[0], p[1], p[2], p[3] = n, n, n, n
	return k
}

// add updates the rows after the edge {u,v} (u ≠ v, undirected) was added
// to g: a row with a pad left is rewritten in place, a full one moves to
// the end of nb with room again. O(deg).
func (a *fosrAdj) add(g *linalg.Graph, u, v int) {
	for _, i := range [2]int{u, v} {
		k := len(g.Out(i))
		if g.HasSelfLoop(i) {
			k++
		}
		if k < a.end[i]-a.start[i] {
			row := a.nb[a.start[i]:a.end[i]]
			copy(row, g.Out(i))
			if g.HasSelfLoop(i) {
				row[k-1] = i
			}
			for t := k; t < len(row); t++ {
				row[t] = g.N()
			}
			continue
		}
		pos, l := len(a.nb), fosrRowLen(k)
		a.nb = slices.Grow(a.nb, l+3)[:pos+l+3]
		a.write(g, i, pos)
		a.start[i], a.end[i] = pos, pos+l
	}
}

// rows sets y[i] = x[i] + s_i·isd[i], s_i the sum of w over row i in
// order (the neighbours, then the self-loop, as the reference sums them;
// the padding adds w[n] = +0, which changes no sum: s starts at +0, and a
// sum of doubles is then never −0), and returns Σ y[i]² in order: the
// sums of a power step (w has n+1 entries). With fosrRowsKernel, in
// fosrRowsSSE2, the same roundings. O(n + m).
func (a *fosrAdj) rows(x, isd, y, w []float64) float64 {
	n := len(x)
	isd, y, w = isd[:n], y[:n], w[:n+1]
	start, end, nb := a.start[:n], a.end[:n], a.nb
	if n == 0 {
		return 0
	}
	if fosrRowsKernel {
		// The rows lie inside nb (build, add) and hold indices ≤ n.
		return fosrRowsSSE2(&x[0], &isd[0], &y[0], &w[0], &nb[0], &start[0], &end[0], n)
	}
	norm := 0.0
	for i := range n {
		row := nb[start[i]:end[i]]
		s := 0.0
		for len(row) >= 4 {
			s += w[row[0]]
			s += w[row[1]]
			s += w[row[2]]
			s += w[row[3]]
			row = row[4:]
		}
		yi := x[i] + s*isd[i]
		y[i] = yi
		norm += yi * yi
	}
	return norm
}
