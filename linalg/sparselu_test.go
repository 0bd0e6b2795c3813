package linalg

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// sparseRows is a sparse matrix by rows, for the tests.
type sparseRows struct {
	n    int
	cols [][]int
	vals [][]float64
}

func (s *sparseRows) dense(shift float64) *mat.Dense {
	d := mat.NewDense(s.n, s.n, nil)
	for i := range s.n {
		d.Set(i, i, shift)
		for q, j := range s.cols[i] {
			d.Set(i, j, d.At(i, j)+s.vals[i][q])
		}
	}
	return d
}

// randLaplacianRows returns the out-Laplacian of a random digraph on n nodes
// with about m arcs (self-loops skipped), plus, when repeat, a repeated
// column in every row (entries add up).
func randLaplacianRows(r *rand.Rand, n, m int, repeat bool) *sparseRows {
	s := &sparseRows{n: n, cols: make([][]int, n), vals: make([][]float64, n)}
	seen := map[[2]int]bool{}
	for range m {
		i, j := r.IntN(n), r.IntN(n)
		if i == j || seen[[2]int{i, j}] {
			continue
		}
		seen[[2]int{i, j}] = true
		s.cols[i] = append(s.cols[i], j)
		s.vals[i] = append(s.vals[i], -1)
	}
	for i := range n {
		d := float64(len(s.cols[i]))
		if repeat {
			s.cols[i] = append(s.cols[i], i, i)
			s.vals[i] = append(s.vals[i], d/2, d/2)
		} else {
			s.cols[i] = append(s.cols[i], i)
			s.vals[i] = append(s.vals[i], d)
		}
	}
	return s
}

// TestSparseLUSolve: the sparse LU of L + pI (L a random digraph's
// out-Laplacian, an M-matrix for p > 0) solves systems with several
// right-hand sides to a backward error near rounding, against dense products.
func TestSparseLUSolve(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		n, m   int
		shift  float64
		k      int
		repeat bool
	}{
		{1, 0, 1, 1, false},
		{2, 2, 0.5, 1, false},
		{10, 30, 1e-3, 1, false},
		{10, 30, 1e-3, 3, true},
		{100, 300, 1e-2, 4, false},
		{100, 2000, 10, 2, false},
		{300, 900, 1e-3, 2, true},
		{300, 900, 1e-1, 4, true},
		{300, 1200, 1e-2, 8, false},
		{400, 1600, 1e-4, 5, true},
	} {
		t.Run(fmt.Sprintf("n%d_m%d_p%g_k%d", tc.n, tc.m, tc.shift, tc.k), func(t *testing.T) {
			s := randLaplacianRows(r, tc.n, tc.m, tc.repeat)
			sym := AnalyzeLU(tc.n, func(i int) []int { return s.cols[i] })
			f, err := sym.Factor(func(i int) []int { return s.cols[i] }, func(i int) []float64 { return s.vals[i] }, tc.shift)
			if err != nil {
				t.Fatal(err)
			}
			if sym.NNZ() < tc.n || sym.Flops() < 0 || sym.N() != tc.n {
				t.Fatalf("NNZ %d Flops %d N %d", sym.NNZ(), sym.Flops(), sym.N())
			}
			b := make([]float64, tc.n*tc.k)
			for i := range b {
				b[i] = r.NormFloat64()
			}
			x := append([]float64(nil), b...)
			f.Solve(x, tc.k, make([]float64, tc.n*tc.k))
			A := s.dense(tc.shift)
			X := mat.NewDense(tc.n, tc.k, x)
			var AX mat.Dense
			AX.Mul(A, X)
			var res, scale float64
			for i := range tc.n {
				for c := range tc.k {
					res = math.Max(res, math.Abs(AX.At(i, c)-b[i*tc.k+c]))
				}
			}
			scale = mat.Norm(A, math.Inf(1))*mat.Norm(X, math.Inf(1)) + mat.Norm(mat.NewDense(tc.n, tc.k, b), math.Inf(1))
			if rel := res / scale; rel > 1e-14 {
				t.Fatalf("backward error %.3g", rel)
			}
			// Each column solved alone gives the same bits (the
			// specialized paths for two and four columns make the general
			// loop's operations in its order).
			col := make([]float64, tc.n)
			for c := range tc.k {
				for i := range tc.n {
					col[i] = b[i*tc.k+c]
				}
				f.Solve(col, 1, make([]float64, tc.n))
				for i := range tc.n {
					if col[i] != x[i*tc.k+c] {
						t.Fatalf("column %d row %d: alone %v, with the others %v", c, i, col[i], x[i*tc.k+c])
					}
				}
			}
		})
	}
}

// TestSparseLUZeroPivot: the Laplacian itself (p = 0) is singular, and the
// factorization says so with ErrZeroPivot.
func TestSparseLUZeroPivot(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	s := randLaplacianRows(r, 30, 200, false)
	// Make it strongly connected so that exactly one pivot vanishes.
	for i := range 30 {
		s.cols[i] = append(s.cols[i], (i+1)%30)
		s.vals[i] = append(s.vals[i], -1)
		s.cols[i] = append(s.cols[i], i)
		s.vals[i] = append(s.vals[i], 1)
	}
	sym := AnalyzeLU(30, func(i int) []int { return s.cols[i] })
	_, err := sym.Factor(func(i int) []int { return s.cols[i] }, func(i int) []float64 { return s.vals[i] }, 0)
	if !errors.Is(err, ErrZeroPivot) {
		t.Fatalf("got %v, want ErrZeroPivot", err)
	}
}

// TestAnalyzeLUPattern: the order is a permutation, U rows hold only
// columns after their pivot, and the L pattern is the transpose of the U
// pattern.
func TestAnalyzeLUPattern(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 7, 64, 65, 200} {
		s := randLaplacianRows(r, n, 4*n, false)
		sym := AnalyzeLU(n, func(i int) []int { return s.cols[i] })
		seen := make([]bool, n)
		for k, o := range sym.perm {
			if seen[o] || sym.iperm[o] != k {
				t.Fatalf("n=%d: perm is not a permutation", n)
			}
			seen[o] = true
		}
		inL := map[[2]int]bool{}
		for i := range n {
			for _, k := range sym.lstr[sym.lp[i]:sym.lp[i+1]] {
				inL[[2]int{i, int(k)}] = true
			}
		}
		count := 0
		for k := range n {
			for _, j := range sym.ustr[sym.up[k]:sym.up[k+1]] {
				if int(j) <= k {
					t.Fatalf("n=%d: U row %d holds column %d", n, k, j)
				}
				if !inL[[2]int{int(j), k}] {
					t.Fatalf("n=%d: U(%d,%d) without L(%d,%d)", n, k, j, j, k)
				}
				count++
			}
		}
		if count != len(inL) {
			t.Fatalf("n=%d: %d U entries, %d L entries", n, count, len(inL))
		}
	}
}
