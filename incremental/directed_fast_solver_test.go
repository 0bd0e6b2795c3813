package incremental

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// TestWoodburyApplyBits: woodburyApply leaves the bits of the Dgemm call it
// replaces, with zeros in z (skipped by both) and 1 to 9 right-hand sides.
func TestWoodburyApplyBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct{ n, m, k int }{{1, 1, 1}, {70, 1, 3}, {300, 4, 17}, {2485, 2, 48}, {513, 9, 48}} {
		z := make([]float64, tc.n*maxWoodbury)
		for i := range z {
			if rng.IntN(10) > 0 {
				z[i] = rng.NormFloat64()
			}
		}
		ldu := tc.m + 1
		u := make([]float64, tc.k*ldu)
		b := make([]float64, tc.n*tc.m)
		for i := range u {
			u[i] = rng.NormFloat64()
		}
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		want := append([]float64(nil), b...)
		blas64.Implementation().Dgemm(blas.NoTrans, blas.NoTrans, tc.n, tc.m, tc.k, -1, z, maxWoodbury, u, ldu, 1, want, tc.m)
		woodburyApply(tc.n, tc.m, tc.k, negT(z, tc.n, tc.k), u, ldu, b)
		for i := range b {
			if math.Float64bits(b[i]) != math.Float64bits(want[i]) {
				t.Fatalf("n=%d m=%d k=%d: entry %d = %v, Dgemm gives %v", tc.n, tc.m, tc.k, i, b[i], want[i])
			}
		}
	}
}

// negT returns −zᵀ (k×n row-major) for the first k columns of the n×maxWoodbury z.
func negT(z []float64, n, k int) []float64 {
	out := make([]float64, k*n)
	for i := range n {
		for l := range k {
			out[l*n+i] = -z[i*maxWoodbury+l]
		}
	}
	return out
}

// BenchmarkWoodburyApply: the Woodbury correction of one shifted solve of
// Cora's largest SCC (2485 nodes, 48 changed rows) for 1 and 4 right-hand
// sides.
func BenchmarkWoodburyApply(b *testing.B) {
	const n, k = 2485, 48
	rng := rand.New(rand.NewPCG(5, 6))
	z := make([]float64, n*maxWoodbury)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	zn := negT(z, n, k)
	for _, m := range []int{1, 4} {
		u, x := make([]float64, k*m), make([]float64, n*m)
		for i := range u {
			u[i] = rng.NormFloat64()
		}
		b.Run(fmt.Sprint(m), func(b *testing.B) {
			for b.Loop() {
				woodburyApply(n, m, k, zn, u, m, x)
			}
		})
	}
}

// TestSolveLWoodburyPaths: a shifted solve through the Woodbury correction
// gives the same result by linalg.MulAdd as by woodburyApply (the path for
// factors with an exact zero), to rounding (MulAdd may fuse its
// multiply–adds), for 1 and 3 right-hand sides.
func TestSolveLWoodburyPaths(t *testing.T) {
	const n = 300
	rng := rand.New(rand.NewPCG(9, 10))
	s, upd := ringShiftSolver(t, n, rng, []int{3, 77, 150, 299})
	if len(s.changed) != len(upd) {
		t.Fatalf("%d rows in the Woodbury correction, want %d", len(s.changed), len(upd))
	}
	for j := range s.shifts {
		for _, m := range []int{1, 3} {
			b := make([]float64, n*m)
			for i := range b {
				b[i] = rng.NormFloat64()
			}
			want := slices.Clone(b)
			s.zzero[j] = true
			s.solveL(j, want, m)
			s.zzero[j] = false
			s.solveL(j, b, m)
			scale := 0.0
			for _, v := range want {
				scale = math.Max(scale, math.Abs(v))
			}
			for i := range b {
				if d := math.Abs(b[i] - want[i]); d > 1e-13*scale || math.IsNaN(b[i]) {
					t.Fatalf("shift %d, m=%d: entry %d = %v, woodburyApply gives %v", j, m, i, b[i], want[i])
				}
			}
		}
	}
}

// TestSolveSplitBits: the shifted solve with its Woodbury product split
// over two goroutines (solve at GOMAXPROCS 2 on an order above
// splitSolveMin) gives the bits of the solve without the split, with both
// paths of the Woodbury correction and with and without a candidate arc,
// for 1 to 5 right-hand sides; each column, solved alone, has the bits it
// has among the others.
func TestSolveSplitBits(t *testing.T) {
	const n = splitSolveMin + 77
	rng := rand.New(rand.NewPCG(21, 22))
	s, _ := ringShiftSolver(t, n, rng, []int{3, 77, 150, 299, 512, 1090})
	old := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(old)
	for _, cand := range []bool{false, true} {
		s.setCandidate(-1, -1)
		if cand {
			s.setCandidate(10, 400)
		}
		for j := range s.shifts {
			for _, zz := range []bool{false, true} {
				s.zzero[j] = zz
				for m := 1; m <= 5; m++ {
					b := make([]float64, n*m)
					for i := range b {
						b[i] = rng.NormFloat64()
					}
					whole := slices.Clone(b)
					s.solveCand(j, whole, m, s.cand, make([]float64, n*m), false)
					cols := make([]float64, n)
					for c := range m {
						for i := range n {
							cols[i] = b[i*m+c]
						}
						s.solveCand(j, cols, 1, s.cand, make([]float64, n), false)
						for i := range n {
							if math.Float64bits(cols[i]) != math.Float64bits(whole[i*m+c]) {
								t.Fatalf("candidate %v, shift %d, zero path %v, m=%d: column %d alone differs at row %d", cand, j, zz, m, c, i)
							}
						}
					}
					if err := s.solve(j, b, m); err != nil {
						t.Fatal(err)
					}
					for i := range b {
						if math.Float64bits(b[i]) != math.Float64bits(whole[i]) {
							t.Fatalf("candidate %v, shift %d, zero path %v, m=%d: split entry %d = %v, whole %v", cand, j, zz, m, i, b[i], whole[i])
						}
					}
				}
			}
			s.zzero[j] = false
		}
	}
}

// ringShiftSolver is the shift solver (shifts 0.5 and 3) of a directed ring
// of n nodes with one random chord per row where rng draws one, after the
// rows of edited gain the arc to i+7: their Woodbury correction set. It
// returns the solver and the edited rows.
func ringShiftSolver(t *testing.T, n int, rng *rand.Rand, edited []int) (*shiftSolver, map[int][]int) {
	t.Helper()
	rows := make([][]int, n)
	for i := range rows {
		rows[i] = []int{(i + 1) % n}
		if j := rng.IntN(n); j != i && j != (i+1)%n {
			rows[i] = append(rows[i], j)
		}
		slices.Sort(rows[i])
	}
	s, err := newShiftSolver(rows, []float64{0.5, 3})
	if err != nil {
		t.Fatal(err)
	}
	upd := map[int][]int{}
	for _, i := range edited {
		upd[i] = append(slices.Clone(rows[i]), (i+7)%n)
		slices.Sort(upd[i])
	}
	if err := s.setRows(upd); err != nil {
		t.Fatal(err)
	}
	return s, upd
}
