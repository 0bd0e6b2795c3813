package gnn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/james-bowman/sparse"
	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/linalg"
)

// testGraph returns a small random graph on n ≥ 8 nodes with the cases the
// operators must handle: self-loops (nodes 0 and 3, and a node with nothing
// but a self-loop: 5), a node with no arcs at all (n−1), a node with
// out-arcs only (n−2) and one with in-arcs only (n−3). Undirected when
// !directed.
func testGraph(t *testing.T, n int, directed bool, seed uint64) *linalg.Graph {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	g := linalg.NewGraph(n, true)
	special := map[int]bool{5: true, n - 1: true, n - 2: true, n - 3: true}
	for u := range n {
		for v := range n {
			if u != v && !special[u] && !special[v] && r.Float64() < 0.3 {
				g.AddEdge(u, v)
			}
		}
	}
	g.AddEdge(0, 0)
	g.AddEdge(3, 3)
	g.AddEdge(5, 5)
	g.AddEdge(n-2, 1)
	g.AddEdge(n-2, 2)
	g.AddEdge(2, n-3)
	if !directed {
		return g.Undirected()
	}
	return g
}

// randDense returns an r×c matrix with entries uniform in [-1, 1).
func randDense(r, c int, rng *rand.Rand) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for k, d := 0, rawDense(m); k < len(d); k++ {
		d[k] = 2*rng.Float64() - 1
	}
	return m
}

// randCSR returns an r×c CSR matrix with about density·r·c positive entries
// and row 1 empty.
func randCSR(r, c int, density float64, rng *rand.Rand) *sparse.CSR {
	ia := make([]int, r+1)
	var ja []int
	var data []float64
	for i := range r {
		for j := range c {
			if i != 1 && rng.Float64() < density {
				ja = append(ja, j)
				data = append(data, 0.1+rng.Float64())
			}
		}
		ia[i+1] = len(ja)
	}
	return sparse.NewCSR(r, c, ia, ja, data)
}

// weighted returns Σ R∘Y, the scalar whose gradient with respect to Y is R.
func weighted(y, r *mat.Dense) float64 {
	return dot(rawDense(contiguous(y)), rawDense(r))
}

// fdStep is the central-difference step.
const fdStep = 1e-5

// numGrad returns the central-difference gradient of f with respect to the
// entries of x, perturbing them in place (and restoring them).
func numGrad(f func() float64, x []float64) []float64 {
	g := make([]float64, len(x))
	for k := range x {
		old := x[k]
		x[k] = old + fdStep
		fp := f()
		x[k] = old - fdStep
		fm := f()
		x[k] = old
		g[k] = (fp - fm) / (2 * fdStep)
	}
	return g
}

// relErr returns ‖a − b‖ / max(‖a‖, ‖b‖) (0 when both are zero).
func relErr(a, b []float64) float64 {
	var d, na, nb float64
	for k := range a {
		d += (a[k] - b[k]) * (a[k] - b[k])
		na += a[k] * a[k]
		nb += b[k] * b[k]
	}
	den := math.Sqrt(max(na, nb))
	if den == 0 {
		return 0
	}
	return math.Sqrt(d) / den
}

// maxRelErr is the largest relative error a gradient may have against
// central differences.
const maxRelErr = 1e-6

// checkGrad compares the analytic gradient with central differences of f
// with respect to x.
func checkGrad(t *testing.T, what string, f func() float64, analytic, x []float64) {
	t.Helper()
	num := numGrad(f, x)
	e := relErr(analytic, num)
	if e > maxRelErr || math.IsNaN(e) {
		t.Errorf("%s: relative error %.3g > %g\nanalytic %v\nnumeric  %v", what, e, maxRelErr, analytic, num)
	} else if testing.Verbose() {
		t.Logf("%s: relative error %.2g", what, e)
	}
	if allZero(analytic) {
		t.Errorf("%s: gradient is identically zero; the check proves nothing", what)
	}
}

func allZero(v []float64) bool { return isZero(v) }

// copyOf returns a copy of a row-major gradient.
func copyOf(m *mat.Dense) []float64 { return append([]float64(nil), rawDense(m)...) }

// checkZeroGrad checks that both the analytic gradient and central
// differences of f with respect to x vanish (up to rounding).
func checkZeroGrad(t *testing.T, what string, f func() float64, analytic, x []float64) {
	t.Helper()
	num := numGrad(f, x)
	for k := range analytic {
		if math.Abs(analytic[k]) > 1e-12 || math.Abs(num[k]) > 1e-9 {
			t.Errorf("%s: gradient should vanish: analytic %v, numeric %v", what, analytic, num)
			return
		}
	}
}
