package linalg

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randLowRank returns a random n×r LowRankSym with a symmetric indefinite D.
func randLowRank(r *rand.Rand, n, k int) *LowRankSym {
	l := &LowRankSym{N: n, R: k, Z: make([]float64, n*k), D: make([]float64, k*k)}
	for i := range l.Z {
		l.Z[i] = r.NormFloat64()
	}
	for a := range k {
		for b := a; b < k; b++ {
			v := r.NormFloat64()
			l.D[a*k+b], l.D[b*k+a] = v, v
		}
	}
	return l
}

// lowRankDense returns Z D Zᵀ as a dense matrix.
func lowRankDense(l *LowRankSym) *mat.Dense {
	out := mat.NewDense(max(l.N, 1), max(l.N, 1), nil)
	if l.R == 0 {
		return out
	}
	Z := mat.NewDense(l.N, l.R, l.Z)
	D := mat.NewDense(l.R, l.R, l.D)
	var t mat.Dense
	t.Mul(Z, D)
	out.Mul(&t, Z.T())
	return out
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	d := 0.0
	for i := range r {
		for j := range c {
			d = math.Max(d, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return d
}

// TestLowRankSym: At, Quad, Norm2, Compress (no truncation and with the
// smallest eigenvalues dropped) and AddToSym agree with dense computations.
func TestLowRankSym(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct{ n, k int }{{1, 1}, {5, 2}, {5, 8}, {60, 7}, {300, 20}} {
		t.Run(fmt.Sprintf("n%d_r%d", tc.n, tc.k), func(t *testing.T) {
			l := randLowRank(r, tc.n, tc.k)
			D := lowRankDense(l)
			scale := mat.Norm(D, math.Inf(1))
			for range 10 {
				i, j := r.IntN(tc.n), r.IntN(tc.n)
				if d := math.Abs(l.At(i, j) - D.At(i, j)); d > 1e-12*scale {
					t.Fatalf("At(%d,%d) off by %.3g", i, j, d)
				}
				q := l.Quad([]int{i, j}, []float64{1, -1})
				want := D.At(i, i) + D.At(j, j) - D.At(i, j) - D.At(j, i)
				if math.Abs(q-want) > 1e-12*scale {
					t.Fatalf("Quad off by %.3g", math.Abs(q-want))
				}
			}
			var eig mat.EigenSym
			sym := mat.NewSymDense(tc.n, nil)
			for i := range tc.n {
				for j := i; j < tc.n; j++ {
					sym.SetSym(i, j, D.At(i, j))
				}
			}
			if !eig.Factorize(sym, false) {
				t.Fatal("eig")
			}
			ev := eig.Values(nil)
			n2 := math.Max(math.Abs(ev[0]), math.Abs(ev[len(ev)-1]))
			if d := math.Abs(l.Norm2() - n2); d > 1e-10*n2 {
				t.Fatalf("Norm2 %v, dense %v", l.Norm2(), n2)
			}
			c, dropped := l.Compress(0)
			if dropped != 0 || c.R > min(tc.n, tc.k) {
				t.Fatalf("Compress(0): rank %d dropped %v", c.R, dropped)
			}
			if d := maxAbsDiff(lowRankDense(c), D); d > 1e-11*scale {
				t.Fatalf("Compress(0) changed the matrix by %.3g", d)
			}
			// Dropping: the change is at most the largest dropped eigenvalue.
			c2, dropped2 := l.Compress(0.3)
			if d := maxAbsDiff(lowRankDense(c2), D); d > dropped2*(1+1e-9)+1e-11*scale {
				t.Fatalf("Compress(0.3): change %.3g > dropped %.3g", d, dropped2)
			}
			x := mat.NewSymDense(tc.n, nil)
			raw := x.RawSymmetric()
			for i := range tc.n {
				for j := i; j < tc.n; j++ {
					v := r.NormFloat64()
					raw.Data[i*raw.Stride+j], raw.Data[j*raw.Stride+i] = v, v
				}
			}
			want := mat.NewDense(tc.n, tc.n, nil)
			for i := range tc.n {
				for j := range tc.n {
					want.Set(i, j, raw.Data[i*raw.Stride+j]+2*D.At(i, j))
				}
			}
			l.AddToSym(2, raw.Data, raw.Stride)
			got := mat.NewDense(tc.n, tc.n, nil)
			for i := range tc.n {
				for j := range tc.n {
					got.Set(i, j, raw.Data[i*raw.Stride+j])
				}
			}
			if d := maxAbsDiff(got, want); d > 1e-11*scale {
				t.Fatalf("AddToSym off by %.3g", d)
			}
		})
	}
}

// TestWachspressShifts: the shifts lie in [a, b], their bound decreases
// with their number, and WachspressCount reaches the reduction asked for.
func TestWachspressShifts(t *testing.T) {
	for _, tc := range []struct{ a, b float64 }{{1, 1}, {0.5, 2}, {1e-3, 10}, {7e-3, 340}, {1e-6, 1e3}} {
		prev := math.Inf(1)
		for _, J := range []int{1, 2, 5, 10, 20, 40} {
			p := WachspressShifts(tc.a, tc.b, J)
			for _, q := range p {
				if q < tc.a*(1-1e-12) || q > tc.b*(1+1e-12) {
					t.Fatalf("[%g,%g] J=%d: shift %v outside", tc.a, tc.b, J, q)
				}
			}
			red := ADIReduction(tc.a, tc.b, p)
			if red > prev*(1+1e-9) {
				t.Fatalf("[%g,%g]: reduction %.3g with %d shifts, %.3g with fewer", tc.a, tc.b, red, J, prev)
			}
			prev = red
		}
		for _, want := range []float64{1e-4, 1e-12} {
			J := WachspressCount(tc.a, tc.b, want)
			if got := ADIReduction(tc.a, tc.b, WachspressShifts(tc.a, tc.b, J)); got > want {
				t.Fatalf("[%g,%g]: %d shifts reduce by %.3g, want %.3g", tc.a, tc.b, J, got, want)
			}
		}
	}
	// The optimal parameters beat geometric spacing.
	a, b, J := 1e-3, 1e2, 12
	geo := make([]float64, J)
	for j := range geo {
		geo[j] = a * math.Pow(b/a, (float64(j)+0.5)/float64(J))
	}
	if w, g := ADIReduction(a, b, WachspressShifts(a, b, J)), ADIReduction(a, b, geo); w > g {
		t.Fatalf("Wachspress %.3g worse than geometric %.3g", w, g)
	}
}

// stableTestMatrix returns M = L + 1wᵀ for a random strongly connected
// digraph (the matrices of the directed resistance), its spectral interval
// [a, b] from a dense eigen-decomposition (real parts), and a solver of
// (M + pI)x = b by dense LU per shift.
func stableTestMatrix(t *testing.T, r *rand.Rand, n, m int) (*mat.Dense, float64, float64) {
	t.Helper()
	s := randLaplacianRows(r, n, m, false)
	L := s.dense(0)
	for i := range n { // a cycle makes it strongly connected
		j := (i + 1) % n
		if L.At(i, j) == 0 && i != j {
			L.Set(i, j, -1)
			L.Set(i, i, L.At(i, i)+1)
		}
	}
	M := mat.NewDense(n, n, nil)
	for b := range n {
		col := 0.0
		for a := range n {
			col += L.At(a, b)
		}
		for a := range n {
			M.Set(a, b, L.At(a, b)+(1-col)/float64(n))
		}
	}
	var eig mat.Eigen
	if !eig.Factorize(M, mat.EigenNone) {
		t.Fatal("eigen")
	}
	lo, hi := math.Inf(1), 0.0
	for _, v := range eig.Values(nil) {
		lo = math.Min(lo, real(v))
		hi = math.Max(hi, cmplx.Abs(v))
	}
	return M, lo, hi
}

// TestSolveLyapunovADI: on random positive-stable M (directed Laplacian
// form) and indefinite right-hand sides of rank 1 to 6, the ADI solution's
// true residual (evaluated densely) is within a small multiple of the
// tolerance, it matches the dense Bartels–Stewart solution, and the
// compressed and raw forms agree.
func TestSolveLyapunovADI(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, tc := range []struct{ n, m, k int }{{3, 3, 1}, {20, 40, 2}, {60, 150, 4}, {120, 300, 6}} {
		t.Run(fmt.Sprintf("n%d_k%d", tc.n, tc.k), func(t *testing.T) {
			M, a, b := stableTestMatrix(t, r, tc.n, tc.m)
			shifts := WachspressShifts(a, b, WachspressCount(a, b, 1e-16))
			lus := make([]*mat.LU, len(shifts))
			for j, p := range shifts {
				A := mat.DenseCopyOf(M)
				for i := range tc.n {
					A.Set(i, i, A.At(i, i)+p)
				}
				lus[j] = &mat.LU{}
				lus[j].Factorize(A)
			}
			solve := func(j int, x []float64, k int) error {
				B := mat.NewDense(tc.n, k, append([]float64(nil), x...))
				var X mat.Dense
				if err := lus[j].SolveTo(&X, false, B); err != nil {
					return err
				}
				for i := range tc.n {
					for c := range k {
						x[i*k+c] = X.At(i, c)
					}
				}
				return nil
			}
			rhs := randLowRank(r, tc.n, tc.k)
			F := lowRankDense(rhs)
			Fs := mat.NewSymDense(tc.n, nil)
			for i := range tc.n {
				for j := i; j < tc.n; j++ {
					Fs.SetSym(i, j, F.At(i, j))
				}
			}
			exact, err := SolveLyapunov(M, Fs)
			if err != nil {
				t.Fatal(err)
			}
			tol := 1e-12 * rhs.Norm2()
			for _, trunc := range []float64{-1, 0, 1e-15} {
				lr, info, err := SolveLyapunovADI(tc.n, append([]float64(nil), rhs.Z...), tc.k, rhs.D, shifts, solve, ADIOptions{Tol: tol, MaxSteps: 3 * len(shifts), Truncate: trunc})
				if err != nil {
					t.Fatalf("truncate %g: %v (%+v)", trunc, err, info)
				}
				if info.Residual > tol || info.Steps == 0 || info.Rank != lr.R {
					t.Fatalf("truncate %g: info %+v", trunc, info)
				}
				X := lowRankDense(lr)
				var MX, res mat.Dense
				MX.Mul(M, X)
				res.Add(&MX, MX.T())
				res.Sub(&res, F)
				rn := mat.Norm(&res, 2)
				if rn > 10*tol+1e-13*mat.Norm(M, 2)*mat.Norm(X, 2) {
					t.Fatalf("truncate %g: true residual %.3g, tolerance %.3g", trunc, rn, tol)
				}
				if d := maxAbsDiff(X, exact); d > 1e-9*mat.Norm(exact, math.Inf(1)) {
					t.Fatalf("truncate %g: differs from the dense solution by %.3g", trunc, d)
				}
				t.Logf("truncate %g: %d steps, rank %d, residual %.2g (true %.2g)", trunc, info.Steps, lr.R, info.Residual, rn)
			}
			// Too few steps: the iterate and ErrADINotConverged.
			_, _, err = SolveLyapunovADI(tc.n, append([]float64(nil), rhs.Z...), tc.k, rhs.D, shifts, solve, ADIOptions{Tol: 1e-300, MaxSteps: 1})
			if !errors.Is(err, ErrADINotConverged) {
				t.Fatalf("got %v, want ErrADINotConverged", err)
			}
		})
	}
}
