// Package laplace solves Laplacian systems L x = b of large sparse graphs
// without forming anything n²: per connected component, one node is
// grounded (its row and column dropped), which leaves a symmetric positive
// definite system, solved by conjugate gradients preconditioned with a
// zero-fill incomplete Cholesky factor (IC(0)) of it. The solution is then
// centred on each component, which gives L⁺b for any b (b is first
// projected on the range of L: each component's entries summed to zero).
// It is the solver of effective-resistance sketches (R_uv = ‖Z b_uv‖²,
// Spielman–Srivastava) on graphs far beyond the dense engines. Memory
// O(n + m); time O(m) per iteration, the iterations depending on the
// graph's conditioning.
package laplace

import (
	"errors"
	"fmt"
	"math"

	"github.com/ohmgnn/ohm/linalg"
)

// Solver holds the grounded, factorized Laplacian of a graph.
type Solver struct {
	n      int
	comp   []int // component label per node
	count  int   // components
	ground []int // grounded node per component
	// The grounded matrix A in CSR form (lower triangle with the diagonal,
	// rows ascending), and its IC(0) factor with the same pattern.
	rowStart []int
	col      []int
	val      []float64
	fac      []float64
	diag     []int // position of each row's diagonal entry
	adj      [][]int
}

// New builds the solver of g's Laplacian (undirected; self-loops ignored):
// components by BFS, one grounded node per component (the smallest id),
// and the IC(0) factor. O(n + m) memory, O(Σ deg²) time for the factor.
func New(g *linalg.Graph) (*Solver, error) {
	if g.Directed() {
		return nil, errors.New("laplace: the Laplacian solver takes undirected graphs")
	}
	n := g.N()
	comp, count := components(g)
	s := &Solver{n: n, comp: comp, count: count, ground: make([]int, count)}
	for c := range s.ground {
		s.ground[c] = -1
	}
	for i := range n {
		if s.ground[comp[i]] < 0 {
			s.ground[comp[i]] = i
		}
	}
	s.adj = make([][]int, n)
	for i := range n {
		s.adj[i] = g.Neighbours(i)
	}
	// Lower triangle of the grounded Laplacian: rows and columns of grounded
	// nodes dropped (their entries are zero, and the diagonal is set to 1).
	s.rowStart = make([]int, n+1)
	s.diag = make([]int, n)
	for i := range n {
		if s.isGround(i) {
			s.diag[i] = len(s.col)
			s.col, s.val = append(s.col, i), append(s.val, 1)
			s.rowStart[i+1] = len(s.col)
			continue
		}
		for _, j := range s.adj[i] {
			if j < i && !s.isGround(j) {
				s.col, s.val = append(s.col, j), append(s.val, -1)
			}
		}
		s.diag[i] = len(s.col)
		s.col, s.val = append(s.col, i), append(s.val, float64(len(s.adj[i])))
		s.rowStart[i+1] = len(s.col)
	}
	if err := s.factor(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Solver) isGround(i int) bool { return s.ground[s.comp[i]] == i }

// factor computes the IC(0) factor F (lower, same pattern as A) with
// A ≈ F Fᵀ, row by row: F_ij = (A_ij − Σ_{k<j} F_ik F_jk) / F_jj over the
// pattern, F_ii = sqrt(A_ii − Σ_k F_ik²).
func (s *Solver) factor() error {
	s.fac = make([]float64, len(s.val))
	pos := make(map[[2]int]int, len(s.col))
	for i := range s.n {
		for p := s.rowStart[i]; p < s.rowStart[i+1]; p++ {
			pos[[2]int{i, s.col[p]}] = p
		}
	}
	for i := range s.n {
		for p := s.rowStart[i]; p < s.rowStart[i+1]; p++ {
			j := s.col[p]
			sum := s.val[p]
			// Σ_{k<j} F_ik F_jk over the common pattern of rows i and j.
			for q := s.rowStart[i]; q < p; q++ {
				k := s.col[q]
				if r, ok := pos[[2]int{j, k}]; ok {
					sum -= s.fac[q] * s.fac[r]
				}
			}
			if j == i {
				if !(sum > 0) {
					return fmt.Errorf("laplace: incomplete Cholesky broke down at row %d", i)
				}
				s.fac[p] = math.Sqrt(sum)
			} else {
				s.fac[p] = sum / s.fac[s.diag[j]]
			}
		}
	}
	return nil
}

// apply returns y = A x for the grounded matrix.
func (s *Solver) apply(y, x []float64) {
	for i := range s.n {
		if s.isGround(i) {
			y[i] = x[i]
			continue
		}
		v := float64(len(s.adj[i])) * x[i]
		for _, j := range s.adj[i] {
			if !s.isGround(j) {
				v -= x[j]
			}
		}
		y[i] = v
	}
}

// precondition solves F Fᵀ z = r.
func (s *Solver) precondition(z, r []float64) {
	copy(z, r)
	for i := range s.n { // F w = r
		v := z[i]
		for p := s.rowStart[i]; p < s.diag[i]; p++ {
			v -= s.fac[p] * z[s.col[p]]
		}
		z[i] = v / s.fac[s.diag[i]]
	}
	for i := s.n - 1; i >= 0; i-- { // Fᵀ z = w, column-oriented
		z[i] /= s.fac[s.diag[i]]
		for p := s.rowStart[i]; p < s.diag[i]; p++ {
			z[s.col[p]] -= s.fac[p] * z[i]
		}
	}
}

// Solve returns x = L⁺b to a relative residual of tol (‖Lx − Πb‖ ≤
// tol·‖Πb‖, Π projecting b on the range of L) and the iterations taken; an
// error when maxIter iterations do not reach it. O(m) per iteration.
func (s *Solver) Solve(b []float64, tol float64, maxIter int) ([]float64, int, error) {
	n := s.n
	// Project b on the range of L: zero mean on every component.
	sum := make([]float64, s.count)
	size := make([]float64, s.count)
	for i, v := range b {
		sum[s.comp[i]] += v
		size[s.comp[i]]++
	}
	rhs := make([]float64, n)
	for i, v := range b {
		rhs[i] = v - sum[s.comp[i]]/size[s.comp[i]]
	}
	norm := math.Sqrt(dot(rhs, rhs))
	x := make([]float64, n)
	if norm == 0 {
		return x, 0, nil
	}
	r := make([]float64, n)
	for i := range n {
		if !s.isGround(i) {
			r[i] = rhs[i]
		}
	}
	z, p, ap := make([]float64, n), make([]float64, n), make([]float64, n)
	s.precondition(z, r)
	copy(p, z)
	rz := dot(r, z)
	it := 0
	for ; it < maxIter && math.Sqrt(dot(r, r)) > tol*norm*0.5; it++ {
		s.apply(ap, p)
		alpha := rz / dot(p, ap)
		for i := range n {
			x[i] += alpha * p[i]
			r[i] -= alpha * ap[i]
		}
		s.precondition(z, r)
		rz2 := dot(r, z)
		beta := rz2 / rz
		rz = rz2
		for i := range n {
			p[i] = z[i] + beta*p[i]
		}
	}
	// Grounded nodes are 0; centre every component: x = L⁺b.
	mean := make([]float64, s.count)
	for i := range n {
		mean[s.comp[i]] += x[i]
	}
	for i := range n {
		x[i] -= mean[s.comp[i]] / size[s.comp[i]]
	}
	if res := s.residual(x, rhs); res > tol*norm {
		return x, it, fmt.Errorf("laplace: residual %.3g after %d iterations, above %.3g", res/norm, it, tol)
	}
	return x, it, nil
}

// residual returns ‖L x − rhs‖.
func (s *Solver) residual(x, rhs []float64) float64 {
	r := 0.0
	for i := range s.n {
		v := float64(len(s.adj[i]))*x[i] - rhs[i]
		for _, j := range s.adj[i] {
			v -= x[j]
		}
		r += v * v
	}
	return math.Sqrt(r)
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// components labels the connected components by BFS, in order of their
// smallest node. O(n + m). (The linalg layer sits below incremental/tarjan.)
func components(g *linalg.Graph) ([]int, int) {
	n := g.N()
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	count := 0
	queue := make([]int, 0, n)
	for s := range n {
		if comp[s] >= 0 {
			continue
		}
		comp[s] = count
		queue = append(queue[:0], s)
		for h := 0; h < len(queue); h++ {
			for _, v := range g.Neighbours(queue[h]) {
				if comp[v] < 0 {
					comp[v] = count
					queue = append(queue, v)
				}
			}
		}
		count++
	}
	return comp, count
}
