package sketch

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"

	"github.com/ohmgnn/ohm/internal/parallel"
)

// pairPoints are the pair certificate's points p_i (dim = |A| coordinates,
// row-major), ρ_i² and h_i with its total H: the Pythagorean bound is
// B_ij = ‖p_i − p_j‖² + ρ_i² + ρ_j² + 2h_ih_j/H (paircert.go).
type pairPoints struct {
	n, dim int
	p      []float64 // row-major n×dim
	rho2   []float64
	h      []float64
	H      float64
}

// bound is B_ij. O(dim).
func (pp *pairPoints) bound(i, j int) float64 {
	return dist2(pp.p[i*pp.dim:(i+1)*pp.dim], pp.p[j*pp.dim:(j+1)*pp.dim]) + pp.rho2[i] + pp.rho2[j] + 2*pp.h[i]*pp.h[j]/pp.H
}

// dist2 is ‖a − b‖². O(len(a)). Written here: gonum's floats.Distance
// returns the norm, and its square root would only be squared again in the
// cluster pass.
func dist2(a, b []float64) float64 {
	s := 0.0
	for k, x := range a {
		d := x - b[k]
		s += d * d
	}
	return s
}

// pairMaxima returns, per node i, an upper bound on max_{j≠i} B_ij
// through m clusters of the points (farthestClusters): the cluster bound
// (‖p_i − c_k‖ + r_k)² + ρ_i² + ρ²_k + 2h_i h_k/H, and for a cluster whose
// bound passes tau (the threshold the cover compares with) the exact B_ij
// of its members instead, while a node's such pairs stay below pairCap
// (beyond, the cluster bounds stand: valid, looser). A node's own cluster
// counts j = i, which only raises its bound. The clusters are visited in
// descending order of a bound that needs no distance, (‖p_i − c_o‖ +
// ‖c_o − c_k‖ + r_k)² + … (c_o the node's own centre), and the visit stops
// when that falls to the maximum found. Hand-written, not a tree: the
// third measurement found median-split ball trees pruning 10–100 times
// worse in 64 dimensions. O(n·m log m + the clusters and pairs scored·dim),
// the nodes split among workers goroutines.
func pairMaxima(pp *pairPoints, tau float64, m, workers int) []float64 {
	n, d := pp.n, pp.dim
	pt := func(i int) []float64 { return pp.p[i*d : (i+1)*d] }
	cl := farthestClusters(pp, m, workers)
	m = len(cl.centres)
	pairCap := 64 * m
	out := make([]float64, n)
	parallel.Rows(max(1, workers), n, func(_, lo, hi int) {
		up := make([]float64, m)
		var ord []int32
		for i := lo; i < hi; i++ {
			pi, o := pt(i), int(cl.owner[i])
			ri := math.Sqrt(cl.mind[i])
			base := pp.rho2[i]
			top := 0
			for k := range m {
				a := ri + cl.cc[o*m+k] + cl.r[k]
				up[k] = a*a + base + cl.r2k[k] + 2*pp.h[i]*cl.hk[k]/pp.H
				if up[k] > up[top] {
					top = k
				}
			}
			// The cluster of the largest distance-free bound, exactly:
			// a first maximum (when it is below tau, no pair to score),
			// below which the others need no visit; above tau the
			// clusters whose distance-free bound is at most tau are not
			// visited, and the largest such bound stands for them.
			a := math.Sqrt(dist2(pi, pt(cl.centres[top]))) + cl.r[top]
			best, floor := 0.0, tau
			if cb := a*a + base + cl.r2k[top] + 2*pp.h[i]*cl.hk[top]/pp.H; cb <= tau {
				best, floor = cb, cb
			}
			ord = ord[:0]
			for k := range m {
				if up[k] > floor {
					ord = append(ord, int32(k))
				} else {
					best = max(best, min(up[k], floor))
				}
			}
			slices.SortFunc(ord, func(x, y int32) int { return cmp.Compare(up[y], up[x]) })
			pairs := 0
			for _, k := range ord {
				if up[k] <= best {
					break // every cluster left is below the maximum found
				}
				a := math.Sqrt(dist2(pi, pt(cl.centres[k]))) + cl.r[k]
				cb := a*a + base + cl.r2k[k] + 2*pp.h[i]*cl.hk[k]/pp.H
				if cb <= best {
					continue
				}
				if cb <= tau || pairs+len(cl.members[k]) > pairCap {
					best = cb
					continue
				}
				pairs += len(cl.members[k])
				for _, j := range cl.members[k] {
					if int(j) != i {
						best = max(best, pp.bound(i, int(j)))
					}
				}
			}
			out[i] = best
		}
	})
	return out
}

// clusters are farthest-point clusters of the points: centres (nodes),
// each node's owner and squared distance to it, each cluster's radius,
// largest ρ² and h and members, and the centres' distances cc (m×m).
type clusters struct {
	centres    []int
	owner      []int32
	mind       []float64
	r, r2k, hk []float64
	members    [][]int32
	cc         []float64
}

// farthestClusters is Gonzalez's farthest-point clustering of the points
// into at most m clusters: each next centre the point farthest from those
// chosen. A point is measured against a new centre c only when c may be
// nearer than its own centre o: ‖c − o‖ < 2‖p − o‖ (the triangle
// inequality), the centres' distances kept in cc. O(n·m·dim) at worst,
// far less once the clusters are small.
func farthestClusters(pp *pairPoints, m, workers int) *clusters {
	n, d := pp.n, pp.dim
	m = min(m, n)
	pt := func(i int) []float64 { return pp.p[i*d : (i+1)*d] }
	cl := &clusters{owner: make([]int32, n), mind: make([]float64, n)}
	for i := range cl.mind {
		cl.mind[i] = math.Inf(1)
	}
	cc := make([]float64, m*m) // distances, filled as centres come
	w := max(1, workers)
	next := 0
	for len(cl.centres) < m {
		c := next
		k := len(cl.centres)
		cl.centres = append(cl.centres, c)
		pc := pt(c)
		for q, o := range cl.centres[:k] {
			v := math.Sqrt(dist2(pc, pt(o)))
			cc[k*m+q], cc[q*m+k] = v, v
		}
		parallel.Rows(w, n, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				if k > 0 && cc[k*m+int(cl.owner[i])] >= 2*math.Sqrt(cl.mind[i]) {
					continue // c is no nearer than i's own centre
				}
				if v := dist2(pt(i), pc); v < cl.mind[i] {
					cl.mind[i], cl.owner[i] = v, int32(k)
				}
			}
		})
		next = floats.MaxIdx(cl.mind)
		if cl.mind[next] == 0 {
			break // every point is a centre's
		}
	}
	m2 := len(cl.centres)
	cl.cc = make([]float64, m2*m2)
	for k := range m2 {
		copy(cl.cc[k*m2:(k+1)*m2], cc[k*m:k*m+m2])
	}
	cl.r, cl.r2k, cl.hk = make([]float64, m2), make([]float64, m2), make([]float64, m2)
	cl.members = make([][]int32, m2)
	for i := range n {
		k := cl.owner[i]
		cl.members[k] = append(cl.members[k], int32(i))
		cl.r[k] = max(cl.r[k], math.Sqrt(cl.mind[i]))
		cl.r2k[k] = max(cl.r2k[k], pp.rho2[i])
		cl.hk[k] = max(cl.hk[k], pp.h[i])
	}
	return cl
}
