package curvature

import (
	"fmt"
	"math"
)

// Transport solves small balanced transportation problems exactly: the
// earth-mover (Wasserstein-1) distance between two discrete measures whose
// ground distances are small non-negative integers, as Ollivier–Ricci
// curvature needs (the distances between the supports of two adjacent lazy
// measures are 1, 2 or 3).
//
// The algorithm is the primal–dual method for the transportation problem
// (Ford & Fulkerson 1956), i.e. successive shortest paths that augment all
// paths of one length at once: integer duals u_i, v_j with u_i + v_j ≤ c_ij;
// a maximum flow on the equality arcs (u_i + v_j = c_ij) by shortest
// augmenting paths (BFS, Edmonds–Karp, so it terminates for real masses
// too); then the duals of the nodes the last search reached move by the
// least positive reduced cost δ, an integer. The source-to-sink distance
// grows by δ ≥ 1 at every dual step and, the bipartite graph being complete,
// never exceeds the largest cost C; so there are at most C − min c dual
// steps (2 for curvature, whose costs are 1..3) and the dual moves are exact integer arithmetic.
// The first pushes of each phase go along single arcs (greedy), each search
// serves every demand node it reaches, and the problem is transposed (same
// optimum) when that gives fewer supply nodes.
//
// Masses are float64. The only arithmetic on them is subtraction of the
// smallest residual along a path and the final Σ c_ij f_ij, so when every
// mass is a multiple of 2⁻ᵏ below 2⁵³⁻ᵏ (e.g. integers or half-integers, as
// the curvature code arranges for α = 0 and α = 0.5) every intermediate value
// is exact and so is the result; otherwise the result is within a few ulps of
// the exact optimum. The problem is m×k; each search costs O(m·k), and
// their number, bounded as in Edmonds–Karp, is small in practice (about 6
// per problem over a curvature rewiring of Cora). A Transport reuses its
// buffers; it is not safe for concurrent use (give each goroutine its own).
type Transport struct {
	m, k   int
	c      []int32   // m×k costs, row-major
	a, b   []float64 // residual supply and demand
	f      []float64 // m×k flow
	u, v   []int32   // duals
	seenI  []bool
	seenJ  []bool
	fromI  []int // demand j was reached from supply fromI[j]
	fromJ  []int // supply i was reached from demand fromJ[i] (-1: a root)
	queue  []int
	sinks  []int
	ct     []int32 // transposed costs
	phases int     // dual updates of the last Solve, for tests
}

// Solve returns min Σ c_ij f_ij over f ≥ 0 with row sums supply and column
// sums demand: the W1 distance between the two measures when cost holds the
// ground distances (cost is m×k row-major, m = len(supply), k = len(demand)).
// Masses must be finite and non-negative and the totals equal (up to
// rounding: the run stops once either side is used up). Costs must be
// non-negative. It panics on malformed input. Cost: O(m·k) per search (see
// Transport for their number).
func (t *Transport) Solve(supply, demand []float64, cost []int32) float64 {
	m, k := len(supply), len(demand)
	if len(cost) != m*k {
		panic(fmt.Sprintf("curvature: transport cost has %d entries, want %d×%d", len(cost), m, k))
	}
	if m > k {
		// Fewer supply nodes make fewer roots and more sinks per search.
		// W1 is symmetric: solve the transposed problem.
		t.ct = grow(t.ct, m*k)
		for i := range m {
			for j := range k {
				t.ct[j*m+i] = cost[i*k+j]
			}
		}
		supply, demand, cost, m, k = demand, supply, t.ct, k, m
	}
	t.reset(m, k)
	copy(t.a, supply)
	copy(t.b, demand)
	t.c = cost
	for _, x := range t.a {
		if !(x >= 0) || math.IsInf(x, 0) {
			panic(fmt.Sprintf("curvature: transport supply %v", x))
		}
	}
	for _, x := range t.b {
		if !(x >= 0) || math.IsInf(x, 0) {
			panic(fmt.Sprintf("curvature: transport demand %v", x))
		}
	}
	maxC := int32(0)
	for _, c := range cost {
		if c < 0 {
			panic(fmt.Sprintf("curvature: transport cost %d < 0", c))
		}
		maxC = max(maxC, c)
	}
	// Initial duals: u_i = min_j c_ij, v_j = min_i (c_ij − u_i).
	for i := range m {
		row := cost[i*k : (i+1)*k]
		mn := int32(math.MaxInt32)
		for _, c := range row {
			mn = min(mn, c)
		}
		t.u[i] = mn
	}
	for j := range k {
		mn := int32(math.MaxInt32)
		for i := range m {
			mn = min(mn, cost[i*k+j]-t.u[i])
		}
		t.v[j] = mn
	}
	for {
		t.greedy()
		for t.augment() {
		}
		if !t.pending() {
			break
		}
		t.updateDuals()
		t.phases++
		if t.phases > int(maxC)+2 {
			panic("curvature: transport did not converge (bug)")
		}
	}
	w := 0.0
	for x, fl := range t.f {
		if fl != 0 {
			w += float64(cost[x]) * fl
		}
	}
	return w
}

func (t *Transport) reset(m, k int) {
	t.m, t.k, t.phases = m, k, 0
	t.a = grow(t.a, m)
	t.b = grow(t.b, k)
	t.f = grow(t.f, m*k)
	clear(t.f)
	t.u = grow(t.u, m)
	t.v = grow(t.v, k)
	t.seenI = grow(t.seenI, m)
	t.seenJ = grow(t.seenJ, k)
	t.fromI = grow(t.fromI, k)
	t.fromJ = grow(t.fromJ, m)
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// pending reports whether both some supply and some demand remain.
func (t *Transport) pending() bool {
	sup, dem := false, false
	for _, x := range t.a {
		if x > 0 {
			sup = true
			break
		}
	}
	for _, x := range t.b {
		if x > 0 {
			dem = true
			break
		}
	}
	return sup && dem
}

// greedy pushes along every single equality arc from a supply node with
// residual mass to a demand node with residual demand: the augmenting paths
// of length one, which carry most of the flow, without a search each.
// O(m·k).
func (t *Transport) greedy() {
	k := t.k
	for i := range t.m {
		ai := t.a[i]
		if ai <= 0 {
			continue
		}
		row := t.c[i*k : (i+1)*k]
		ui := t.u[i]
		for j := range k {
			bj := t.b[j]
			if bj <= 0 || row[j]-ui != t.v[j] {
				continue
			}
			d := min(ai, bj)
			t.f[i*k+j] += d
			t.b[j] = bj - d
			ai -= d
			if ai <= 0 {
				break
			}
		}
		t.a[i] = ai
	}
}

// augment runs one breadth-first search from every supply node with residual
// mass over the equality arcs (forward i→j) and the arcs carrying flow
// (backward j→i), then pushes, for each demand node with residual demand it
// reached (in discovery order), as much as possible along its path in the
// search tree. Those are shortest augmenting paths, and stay so while they
// have capacity (the level-graph argument of Dinic), so Edmonds–Karp's bound
// on the number of rounds holds for real masses. It reports whether it
// pushed; when it did not, seenI/seenJ hold the nodes reached (the labelled
// set). O(m·k) per round.
func (t *Transport) augment() bool {
	m, k := t.m, t.k
	clear(t.seenI)
	clear(t.seenJ)
	q := t.queue[:0]
	for i := range m {
		if t.a[i] > 0 {
			t.seenI[i] = true
			t.fromJ[i] = -1
			q = append(q, i)
		}
	}
	sinks := t.sinks[:0]
	for h := 0; h < len(q); h++ {
		i := q[h]
		row := t.c[i*k : (i+1)*k]
		ui := t.u[i]
		for j := range k {
			if t.seenJ[j] || row[j]-ui != t.v[j] {
				continue
			}
			t.seenJ[j] = true
			t.fromI[j] = i
			if t.b[j] > 0 {
				sinks = append(sinks, j)
			}
			// Backward arcs j→i' where flow i'→j is positive.
			for i2 := range m {
				if !t.seenI[i2] && t.f[i2*k+j] > 0 {
					t.seenI[i2] = true
					t.fromJ[i2] = j
					q = append(q, i2)
				}
			}
		}
	}
	t.queue, t.sinks = q, sinks
	if len(sinks) == 0 {
		return false
	}
	for _, sink := range sinks {
		// Bottleneck: the sink's demand, the root's supply, backward flows
		// (earlier paths of this round may have used some up).
		delta := t.b[sink]
		j := sink
		for delta > 0 {
			i := t.fromI[j]
			pj := t.fromJ[i]
			if pj < 0 {
				delta = min(delta, t.a[i])
				break
			}
			delta = min(delta, t.f[i*k+pj])
			j = pj
		}
		if delta <= 0 {
			continue
		}
		t.b[sink] -= delta
		j = sink
		for {
			i := t.fromI[j]
			t.f[i*k+j] += delta
			pj := t.fromJ[i]
			if pj < 0 {
				t.a[i] -= delta
				break
			}
			t.f[i*k+pj] -= delta
			j = pj
		}
	}
	return true
}

// updateDuals raises u on the labelled supply nodes and lowers v on the
// labelled demand nodes by δ, the least reduced cost from a labelled supply
// node to an unlabelled demand node (≥ 1: such arcs are not equality arcs).
// Flow arcs keep reduced cost 0 (both ends labelled or neither), and the new
// equality arcs let the next search go further.
func (t *Transport) updateDuals() {
	k := t.k
	delta := int32(math.MaxInt32)
	for i := range t.m {
		if !t.seenI[i] {
			continue
		}
		for j := range k {
			if !t.seenJ[j] {
				delta = min(delta, t.c[i*k+j]-t.u[i]-t.v[j])
			}
		}
	}
	if delta == math.MaxInt32 || delta <= 0 {
		panic(fmt.Sprintf("curvature: transport dual step %d (bug)", delta))
	}
	for i := range t.m {
		if t.seenI[i] {
			t.u[i] += delta
		}
	}
	for j := range k {
		if t.seenJ[j] {
			t.v[j] -= delta
		}
	}
}
