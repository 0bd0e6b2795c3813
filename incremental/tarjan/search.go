package tarjan

import (
	"math"

	"github.com/ohmgnn/ohm/linalg"
)

// Searcher answers single-edge connectivity queries (IsBridge, SplitsSCC) with
// reusable scratch space: visited stamps (a generation counter, so marks are
// never cleared between queries) and two search queues. Once sized for a
// graph, a query allocates nothing. The zero Searcher is ready to use and
// sizes itself on the first query; a query on a graph with more nodes than the
// Searcher has room for grows it (one O(n) allocation).
//
// A Searcher holds no reference to any graph between calls, so one Searcher
// may serve a graph that is edited between queries, or several graphs. It is
// not safe for concurrent use; give each goroutine its own.
//
// Each query runs a bidirectional search: one breadth-first search grows from
// each endpoint, alternating one scanned edge at a time, and stops as soon as
// the two meet (the endpoints are connected) or either one runs out (they are
// not). The work is therefore about twice the size of the smaller side: a
// bridge that cuts off a small piece is confirmed in time proportional to that
// piece, whatever the size of the graph. Worst case O(n + m).
type Searcher struct {
	mark   []uint32 // mark[x] == gen: found by side A; gen+1: by side B; else unseen
	gen    uint32
	qa, qb []int
	seen   int // nodes discovered by the last search (both sides), for tests
}

// NewSearcher returns a Searcher with scratch space for graphs of up to n
// nodes. O(n).
func NewSearcher(n int) *Searcher {
	s := &Searcher{}
	s.grow(max(n, 0))
	return s
}

func (s *Searcher) grow(n int) {
	s.mark = make([]uint32, n)
	s.gen = 0
	s.qa = make([]int, 0, n)
	s.qb = make([]int, 0, n)
}

// stamps returns fresh marks for the two sides of a search on n nodes.
func (s *Searcher) stamps(n int) (a, b uint32) {
	if len(s.mark) < n {
		s.grow(n)
	}
	if s.gen >= math.MaxUint32-3 {
		clear(s.mark)
		s.gen = 0
	}
	s.gen += 2
	return s.gen, s.gen + 1
}

// side is one half of a bidirectional search.
type side struct {
	q      []int
	head   int
	x      int   // node being scanned
	l1, l2 []int // its neighbour lists
	k      int   // position in l1 ++ l2
}

const (
	stepGoing = iota
	stepMet
	stepExhausted
)

// step scans one neighbour (loading the next queued node when the current one
// is done). It skips the pair (skipX, skipY), and with undirected also
// (skipY, skipX); dir selects the lists: 0 undirected view, 1 Out, 2 In.
func (sd *side) step(g *linalg.Graph, mark []uint32, mine, other uint32, dir int, skipX, skipY int, undirected bool) int {
	for sd.k >= len(sd.l1)+len(sd.l2) {
		if sd.head == len(sd.q) {
			return stepExhausted
		}
		x := sd.q[sd.head]
		sd.head++
		sd.x, sd.k = x, 0
		switch dir {
		case 0:
			sd.l1, sd.l2 = g.Out(x), inList(g, x)
		case 1:
			sd.l1, sd.l2 = g.Out(x), nil
		default:
			sd.l1, sd.l2 = g.In(x), nil
		}
	}
	var y int
	if sd.k < len(sd.l1) {
		y = sd.l1[sd.k]
	} else {
		y = sd.l2[sd.k-len(sd.l1)]
	}
	sd.k++
	x := sd.x
	if (x == skipX && y == skipY) || (undirected && x == skipY && y == skipX) {
		return stepGoing
	}
	switch mark[y] {
	case other:
		return stepMet
	case mine:
		return stepGoing
	}
	mark[y] = mine
	sd.q = append(sd.q, y)
	return stepGoing
}

// connected reports whether src reaches dst (src != dst) in g without the arc
// a→b; with undirected, in the underlying undirected graph of g without the
// edge {a,b}. Side A searches forward from src, side B backward from dst.
func (s *Searcher) connected(g *linalg.Graph, src, dst, a, b int, undirected bool) bool {
	ma, mb := s.stamps(g.N())
	s.mark[src], s.mark[dst] = ma, mb
	A := side{q: append(s.qa[:0], src)}
	B := side{q: append(s.qb[:0], dst)}
	dirA, dirB := 0, 0
	if !undirected {
		dirA, dirB = 1, 2
	}
	res := false
	for {
		r := A.step(g, s.mark, ma, mb, dirA, a, b, undirected)
		if r == stepGoing {
			// B walks arcs backwards: it sees the arc a→b at b, as (b, a).
			r = B.step(g, s.mark, mb, ma, dirB, b, a, undirected)
		}
		if r != stepGoing {
			res = r == stepMet
			break
		}
	}
	s.qa, s.qb = A.q[:0], B.q[:0]
	s.seen = len(A.q) + len(B.q)
	return res
}

func inRange(g *linalg.Graph, u, v int) bool {
	n := g.N()
	return u >= 0 && v >= 0 && u < n && v < n
}

// IsBridge reports whether {u,v} is a bridge of the underlying undirected
// graph of g: true iff u != v, {u,v} is an edge of that graph (for a directed
// g: u→v or v→u is an arc; a pair with both arcs is one edge) and removing it
// disconnects u from v. If {u,v} is not an edge (including ids outside
// [0, n) and u == v) the answer is false; it does not panic. Bidirectional
// search with early exit, allocation-free once the Searcher is sized: about
// twice the size of the smaller side, worst case O(n + m).
func (s *Searcher) IsBridge(g *linalg.Graph, u, v int) bool {
	if u == v || !inRange(g, u, v) {
		return false
	}
	if !g.HasEdge(u, v) && !(g.Directed() && g.HasEdge(v, u)) {
		return false
	}
	return !s.connected(g, u, v, u, v, true)
}

// SplitsSCC reports whether removing the arc u→v from the directed graph g
// would split the strongly connected component containing it: true iff u→v is
// an arc, u and v are in the same strongly connected component, and without
// that arc v is no longer reachable from u (the component stays strongly
// connected iff u still reaches v). An arc between different components, a
// missing arc, u == v and ids outside [0, n) give false. For an undirected g
// the edge {u,v} is the one removed and the answer equals IsBridge(g, u, v).
//
// It runs at most two bidirectional searches with early exit (u to v without
// the arc; then, only if that fails, v to u), allocation-free once the
// Searcher is sized; worst case O(n + m).
func (s *Searcher) SplitsSCC(g *linalg.Graph, u, v int) bool {
	if !g.Directed() {
		return s.IsBridge(g, u, v)
	}
	if u == v || !inRange(g, u, v) || !g.HasEdge(u, v) {
		return false
	}
	if s.connected(g, u, v, u, v, false) {
		return false // u still reaches v: the component survives
	}
	// Same component iff v reaches u; a shortest such path never uses u→v.
	return s.connected(g, v, u, u, v, false)
}
