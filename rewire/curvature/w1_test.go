package curvature

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// lpTransport solves the transportation problem with gonum's simplex: the
// variables f_ij ≥ 0 (row-major), one equality per supply row and per demand
// column except the last (the m+k constraints have rank m+k−1, and Simplex
// wants full row rank).
// Points of zero mass carry no flow and are dropped first (gonum's square
// solve for m = 1 or k = 1 would otherwise see −1e-17 where 0 is meant).
func lpTransport(t *testing.T, a0, b0 []float64, cost0 []int32) float64 {
	t.Helper()
	var a, b []float64
	var rows0, cols0 []int
	for i, x := range a0 {
		if x > 0 {
			a, rows0 = append(a, x), append(rows0, i)
		}
	}
	for j, x := range b0 {
		if x > 0 {
			b, cols0 = append(b, x), append(cols0, j)
		}
	}
	m, k := len(a), len(b)
	cost := make([]int32, 0, m*k)
	for _, i := range rows0 {
		for _, j := range cols0 {
			cost = append(cost, cost0[i*len(b0)+j])
		}
	}
	rows := m + k - 1
	A := mat.NewDense(rows, m*k, nil)
	rhs := make([]float64, rows)
	c := make([]float64, m*k)
	for i := range m {
		for j := range k {
			x := i*k + j
			c[x] = float64(cost[x])
			A.Set(i, x, 1)
			if j < k-1 {
				A.Set(m+j, x, 1)
			}
		}
		rhs[i] = a[i]
	}
	for j := range k - 1 {
		rhs[m+j] = b[j]
	}
	opt, _, err := lp.Simplex(c, A, rhs, 1e-10, nil)
	if err != nil {
		t.Fatalf("lp.Simplex: %v (a=%v b=%v cost=%v)", err, a, b, cost)
	}
	return opt
}

// randomMasses returns n positive masses summing to 1: integer weights
// (exact rationals, as curvature produces) or uniform floats, or with some
// zeros.
func randomMasses(r *rand.Rand, n int, kind int) []float64 {
	w := make([]float64, n)
	total := 0.0
	for i := range w {
		switch kind {
		case 0:
			w[i] = float64(1 + r.IntN(6))
		case 1:
			w[i] = r.Float64() + 1e-3
		default:
			if r.IntN(3) > 0 || i == 0 {
				w[i] = float64(1 + r.IntN(4))
			}
		}
		total += w[i]
	}
	for i := range w {
		w[i] /= total
	}
	return w
}

// TestTransportAgainstSimplex: Transport equals gonum's lp.Simplex to 1e-9
// on 500 random small transportation problems — sizes 1..9 by 1..9, costs
// random integers in 0..3 (any matrix, not only metrics, and with ties
// everywhere, the degenerate case), masses of three kinds — and is
// deterministic when reused; it makes at most max c − min c dual steps.
func TestTransportAgainstSimplex(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	var tr Transport
	maxPhases := 0
	for n := range 500 {
		m, k := 1+r.IntN(9), 1+r.IntN(9)
		kind := n % 3
		a, b := randomMasses(r, m, kind), randomMasses(r, k, kind)
		cost := make([]int32, m*k)
		maxC := int32(1 + n%3)
		for x := range cost {
			cost[x] = r.Int32N(maxC + 1)
		}
		got := tr.Solve(a, b, cost)
		maxPhases = max(maxPhases, tr.phases)
		if hi, lo := slices.Max(cost), slices.Min(cost); tr.phases > int(hi-lo) {
			t.Errorf("problem %d: %d dual steps with costs in [%d, %d]", n, tr.phases, lo, hi)
		}
		want := lpTransport(t, a, b, cost)
		if math.Abs(got-want) > 1e-9 {
			t.Fatalf("problem %d (%d×%d): Transport %.15g, simplex %.15g\na=%v\nb=%v\ncost=%v", n, m, k, got, want, a, b, cost)
		}
		if again := tr.Solve(a, b, cost); again != got {
			t.Fatalf("problem %d: %v then %v", n, got, again)
		}
	}
	t.Logf("at most %d dual steps", maxPhases)
}

// TestTransportHand: problems solved by hand.
func TestTransportHand(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b []float64
		cost []int32
		want float64
	}{
		{"point", []float64{1}, []float64{1}, []int32{2}, 2},
		{"identity", []float64{0.5, 0.5}, []float64{0.5, 0.5}, []int32{0, 3, 3, 0}, 0},
		// Moving both units across costs 1+1 = 2, not 0+3.
		{"crossing", []float64{1, 1}, []float64{1, 1}, []int32{0, 1, 1, 3}, 2},
		{"split", []float64{2}, []float64{1, 1}, []int32{1, 3}, 4},
		// The cheap column can take only 1 of the 3 units: 1·0 + 2·2.
		{"capacity", []float64{3}, []float64{1, 2}, []int32{0, 2}, 4},
		{"zero masses", []float64{0, 1}, []float64{1, 0}, []int32{0, 0, 1, 0}, 1},
	} {
		var tr Transport
		if got := tr.Solve(tc.a, tc.b, tc.cost); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
