package linalg

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Pinv returns the Moore–Penrose pseudoinverse L⁺ of the Laplacian L = D − A of
// the undirected graph g (self-loops ignored), given the connected component of
// every node (comp[i] in 0..count-1, as tarjan.Components returns it).
//
// L⁺ is block diagonal over the components. For a component C with n_C > 1
// nodes, L_C⁺ = (L_C + J/n_C)⁻¹ − J/n_C: L_C + J/n_C is positive definite, so
// the inverse is taken through its Cholesky factor (definitions §2.1), not an SVD. An
// isolated node's block is 0. Cost O(Σ n_C³) time and O(n²) memory; entries
// between components are 0.
func Pinv(g *Graph, comp []int) (*mat.SymDense, error) {
	if g.Directed() {
		panic("linalg: Pinv of a directed graph")
	}
	n := g.N()
	if len(comp) != n {
		panic(fmt.Sprintf("linalg: %d component labels for %d nodes", len(comp), n))
	}
	P := mat.NewSymDense(max(n, 1), nil)
	if n == 0 {
		return mat.NewSymDense(1, nil), nil
	}
	for _, nodes := range Groups(comp) {
		if len(nodes) < 2 {
			continue
		}
		block, err := ComponentPinv(g, nodes)
		if err != nil {
			return nil, err
		}
		for a, i := range nodes {
			for b := a; b < len(nodes); b++ {
				P.SetSym(i, nodes[b], block.At(a, b))
			}
		}
	}
	return P, nil
}

// ComponentPinv returns L_C⁺, the pseudoinverse of the Laplacian of the
// connected component C of g whose nodes (ascending) are given, indexed by
// position in nodes: (L_C + J/n_C)⁻¹ − J/n_C by a dense Cholesky. O(n_C³)
// time, O(n_C²) memory.
//
// Up to conditionBound nodes the factorization skips the condition estimate
// (see conditionBound), the rest of the arithmetic being mat.Cholesky's, so
// the result is the same to the bit.
func ComponentPinv(g *Graph, nodes []int) (*mat.SymDense, error) {
	return ComponentPinvIn(nil, g, nodes)
}

// ComponentPinvIn is ComponentPinv computed in buf (len(nodes)² floats,
// the matrix's storage; nil or shorter: a new one), the same bits. Up to
// conditionBound nodes it allocates nothing else: a batch of small graphs
// reuses one buffer. O(n_C³) time.
func ComponentPinvIn(buf []float64, g *Graph, nodes []int) (*mat.SymDense, error) {
	nc := len(nodes)
	A := componentMatrix(g, nodes, buf)
	inv := 1 / float64(nc)
	var P *mat.SymDense
	if nc <= conditionBound {
		raw := A.RawSymmetric()
		if !potrfUpper(nc, raw.Data, raw.Stride) {
			return nil, fmt.Errorf("linalg: Cholesky of L+J/n failed on a component of %d nodes (component labels wrong?)", nc)
		}
		if !potriUpper(nc, raw.Data, raw.Stride) {
			return nil, fmt.Errorf("linalg: inverse of L+J/n on a component of %d nodes: %w", nc, mat.Condition(math.Inf(1)))
		}
		for a := range nc { // as mat.Cholesky.InverseTo leaves it: the lower triangle zero
			clear(raw.Data[a*raw.Stride : a*raw.Stride+a])
		}
		P = A
	} else {
		var ch mat.Cholesky
		if !ch.Factorize(A) {
			return nil, fmt.Errorf("linalg: Cholesky of L+J/n failed on a component of %d nodes (component labels wrong?)", nc)
		}
		P = new(mat.SymDense)
		if err := ch.InverseTo(P); err != nil {
			return nil, fmt.Errorf("linalg: inverse of L+J/n on a component of %d nodes: %w", nc, err)
		}
	}
	raw := P.RawSymmetric()
	for a := range nc {
		row := raw.Data[a*raw.Stride : a*raw.Stride+nc]
		for b := a; b < nc; b++ {
			row[b] -= inv
		}
	}
	return P, nil
}

// conditionBound is the largest component whose Cholesky skips the
// condition estimate (about a tenth of the set-up of a graph of tens of
// nodes). L_C + J/n_C of a connected simple graph on n nodes has its
// eigenvalues in [min(1, 4/(n·diam)), max(1, 2·dmax)] ⊂ [4/n², 2n] (Mohar's
// bound on the algebraic connectivity), so its 2-norm condition number is
// below n³/2 and its 1-norm one (mat.Cholesky's) below n⁴/2: 5·10¹¹ at
// n = 1000, far from mat.ConditionTolerance (10¹⁶), above which
// mat.Cholesky.InverseTo would fail. The estimate can then change nothing.
const conditionBound = 1000

// componentMatrix is L_C + J/n_C of the component of g on nodes (both
// triangles). O(n_C²).
func componentMatrix(g *Graph, nodes []int, buf []float64) *mat.SymDense {
	nc := len(nodes)
	if len(buf) < nc*nc {
		buf = make([]float64, nc*nc)
	} else {
		buf = buf[:nc*nc] // every entry written by fillComponentMatrix
	}
	fillComponentMatrix(g, nodes, buf, nc)
	return mat.NewSymDense(nc, buf)
}

// Groups returns the members of each label 0..max(labels), ascending within a
// group. O(n).
func Groups(labels []int) [][]int {
	k := 0
	for _, c := range labels {
		k = max(k, c+1)
	}
	groups := make([][]int, k)
	for i, c := range labels {
		groups[c] = append(groups[c], i)
	}
	return groups
}

// Resistance returns R_ij = P_ii + P_jj − 2 P_ij for a pseudoinverse-like
// matrix P (L⁺, or the directed X of definitions §2.2). O(1).
func Resistance(P mat.Matrix, i, j int) float64 {
	return P.At(i, i) + P.At(j, j) - 2*P.At(i, j)
}
