package gnn

import (
	"math"
	"testing"

	"github.com/james-bowman/sparse"
	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/linalg"
)

func graphOf(t *testing.T, n int, directed bool, edges ...linalg.Edge) *linalg.Graph {
	t.Helper()
	g, err := linalg.FromEdges(n, directed, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func sameDense(t *testing.T, what string, got *sparse.CSR, want [][]float64) {
	t.Helper()
	r := got.RawMatrix()
	for i := range r.I {
		for q := r.Indptr[i]; q < r.Indptr[i+1]; q++ {
			if q > r.Indptr[i] && r.Ind[q] <= r.Ind[q-1] {
				t.Fatalf("%s: row %d columns not strictly ascending: %v", what, i, r.Ind[r.Indptr[i]:r.Indptr[i+1]])
			}
		}
	}
	for i, row := range want {
		for j, w := range row {
			if g := got.At(i, j); math.Abs(g-w) > 1e-15 {
				t.Fatalf("%s[%d,%d] = %v, want %v\n%v", what, i, j, g, w, mat.Formatted(got.ToDense()))
			}
		}
	}
}

// TestGCNOperator checks Â by hand: path 0–1–2 with a self-loop at 1 and an
// isolated node 3. The loop is not doubled (PyG's add_remaining_self_loops):
// d̃ = (2, 3, 2, 1).
func TestGCNOperator(t *testing.T) {
	s6 := 1 / math.Sqrt(6)
	want := [][]float64{
		{1.0 / 2, s6, 0, 0},
		{s6, 1.0 / 3, s6, 0},
		{0, s6, 1.0 / 2, 0},
		{0, 0, 0, 1},
	}
	for _, tc := range []struct {
		name string
		g    *linalg.Graph
	}{
		{"undirected", graphOf(t, 4, false, linalg.Edge{U: 0, V: 1}, linalg.Edge{U: 1, V: 2}, linalg.Edge{U: 1, V: 1})},
		// A directed graph is symmetrized first: 0→1 and 2→1 alone give the
		// same Â.
		{"directed", graphOf(t, 4, true, linalg.Edge{U: 0, V: 1}, linalg.Edge{U: 2, V: 1}, linalg.Edge{U: 1, V: 1})},
	} {
		t.Run(tc.name, func(t *testing.T) { sameDense(t, "Â", GCNOperator(tc.g), want) })
	}
}

// TestDirOperators checks D_in⁻¹A_in and D_out⁻¹A_out by hand on the arcs
// 0→1, 0→2, 2→0 and the self-loop 1→1, with node 3 isolated (zero rows),
// and on an undirected graph (both equal D⁻¹A).
func TestDirOperators(t *testing.T) {
	g := graphOf(t, 4, true, linalg.Edge{U: 0, V: 1}, linalg.Edge{U: 0, V: 2}, linalg.Edge{U: 2, V: 0}, linalg.Edge{U: 1, V: 1})
	in, out := DirOperators(g)
	sameDense(t, "out", out, [][]float64{
		{0, 0.5, 0.5, 0},
		{0, 1, 0, 0},
		{1, 0, 0, 0},
		{0, 0, 0, 0},
	})
	sameDense(t, "in", in, [][]float64{
		{0, 0, 1, 0},
		{0.5, 0.5, 0, 0},
		{1, 0, 0, 0},
		{0, 0, 0, 0},
	})
	u := graphOf(t, 4, false, linalg.Edge{U: 0, V: 1}, linalg.Edge{U: 1, V: 2}, linalg.Edge{U: 1, V: 1})
	want := [][]float64{
		{0, 1, 0, 0},
		{1.0 / 3, 1.0 / 3, 1.0 / 3, 0},
		{0, 1, 0, 0},
		{0, 0, 0, 0},
	}
	in, out = DirOperators(u)
	sameDense(t, "undirected in", in, want)
	sameDense(t, "undirected out", out, want)
}

// TestRowNormalize: rows divided by their sums; empty and zero-sum rows kept.
func TestRowNormalize(t *testing.T) {
	x := sparse.NewCSR(4, 3, []int{0, 3, 3, 5, 6}, []int{0, 1, 2, 0, 2, 1}, []float64{1, 1, 2, 1, -1, 4})
	got := RowNormalize(x)
	sameDense(t, "normalised", got, [][]float64{
		{0.25, 0.25, 0.5},
		{0, 0, 0},
		{1, 0, -1},
		{0, 1, 0},
	})
	if x.At(0, 2) != 2 {
		t.Fatal("RowNormalize modified its input")
	}
}
