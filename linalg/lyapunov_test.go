package linalg

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// lyapMaxAbs returns the largest absolute entry of a.
func lyapMaxAbs(a mat.Matrix) float64 {
	r, c := a.Dims()
	var m float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = math.Max(m, math.Abs(a.At(i, j)))
		}
	}
	return m
}

// lyapResidual returns ‖M Y + Y Mᵀ − C‖_max / (‖M‖₁‖Y‖₁ + ‖C‖₁).
func lyapResidual(M *mat.Dense, Y, C *mat.SymDense) float64 {
	n, _ := M.Dims()
	var r, ym mat.Dense
	r.Mul(M, Y)
	ym.Mul(Y, M.T())
	r.Add(&r, &ym)
	r.Sub(&r, C)
	den := mat.Norm(M, 1)*mat.Norm(Y, 1) + mat.Norm(C, 1)
	if den == 0 || n == 0 {
		return lyapMaxAbs(&r)
	}
	return lyapMaxAbs(&r) / den
}

// lyapRawSymmetric reports the largest difference between the two triangles
// of Y's backing storage.
func lyapRawAsymmetry(Y *mat.SymDense) float64 {
	raw := Y.RawSymmetric()
	var d float64
	for i := 0; i < raw.N; i++ {
		for j := i + 1; j < raw.N; j++ {
			d = math.Max(d, math.Abs(raw.Data[i*raw.Stride+j]-raw.Data[j*raw.Stride+i]))
		}
	}
	return d
}

// lyapRandSym returns a random symmetric n×n matrix.
func lyapRandSym(rng *rand.Rand, n int) *mat.SymDense {
	c := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			c.SetSym(i, j, rng.NormFloat64())
		}
	}
	return c
}

// lyapRandDense returns an n×n matrix of standard normal entries.
func lyapRandDense(rng *rand.Rand, n int) *mat.Dense {
	a := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a.Set(i, j, rng.NormFloat64())
		}
	}
	return a
}

// lyapShiftedRandom returns R + s I for a random R, with s chosen so that the
// smallest real part of an eigenvalue is 0.5. Random matrices have many
// complex-conjugate eigenvalue pairs.
func lyapShiftedRandom(t testing.TB, rng *rand.Rand, n int) *mat.Dense {
	a := lyapRandDense(rng, n)
	var eig mat.Eigen
	if !eig.Factorize(a, mat.EigenNone) {
		t.Fatal("eigen factorization failed")
	}
	minRe := math.Inf(1)
	for _, v := range eig.Values(nil) {
		minRe = math.Min(minRe, real(v))
	}
	for i := 0; i < n; i++ {
		a.Set(i, i, a.At(i, i)+0.5-minRe)
	}
	return a
}

// lyapRotations returns S D S⁻¹ where D is block diagonal with 2×2 blocks
// [a b; −b a] (a in [0.1, 2], |b| in [1, 10]) and, for odd n, one positive 1×1
// block, and S = I + R/(2√n) is a random nonorthogonal similarity: a
// nonnormal matrix whose eigenvalues are nearly all complex pairs.
func lyapRotations(t testing.TB, rng *rand.Rand, n int) *mat.Dense {
	d := mat.NewDense(n, n, nil)
	for i := 0; i+1 < n; i += 2 {
		a := 0.1 + 1.9*rng.Float64()
		b := (1 + 9*rng.Float64()) * float64(1-2*rng.IntN(2))
		d.Set(i, i, a)
		d.Set(i+1, i+1, a)
		d.Set(i, i+1, b)
		d.Set(i+1, i, -b)
	}
	if n%2 == 1 {
		d.Set(n-1, n-1, 0.1+rng.Float64())
	}
	s := lyapRandDense(rng, n)
	s.Scale(0.5/math.Sqrt(float64(n)), s)
	for i := 0; i < n; i++ {
		s.Set(i, i, s.At(i, i)+1)
	}
	var sd, m mat.Dense
	sd.Mul(s, d)
	// m = S D S⁻¹, i.e. m S = S D, i.e. Sᵀ mᵀ = (S D)ᵀ.
	if err := m.Solve(s.T(), sd.T()); err != nil {
		t.Fatal(err)
	}
	return mat.DenseCopyOf(m.T())
}

// lyapDigraph returns the out-Laplacian L = D_out − A of a random strongly
// connected digraph on n nodes: a directed cycle through all nodes in random
// order plus about extra·n random arcs. With symmetric set, every arc is
// present in both directions (an undirected connected graph).
func lyapDigraph(rng *rand.Rand, n, extra int, symmetric bool) *mat.Dense {
	adj := mat.NewDense(n, n, nil)
	add := func(u, v int) {
		if u == v {
			return
		}
		adj.Set(u, v, 1)
		if symmetric {
			adj.Set(v, u, 1)
		}
	}
	perm := rng.Perm(n)
	for i := 0; i < n && n > 1; i++ {
		add(perm[i], perm[(i+1)%n])
	}
	for k := 0; k < extra*n; k++ {
		add(rng.IntN(n), rng.IntN(n))
	}
	l := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		var deg float64
		for j := 0; j < n; j++ {
			if a := adj.At(i, j); a != 0 {
				l.Set(i, j, -a)
				deg += a
			}
		}
		l.Set(i, i, deg)
	}
	return l
}

// lyapOhmSystem returns M = Π L + J/n and C = Π for the Laplacian L.
func lyapOhmSystem(l *mat.Dense) (*mat.Dense, *mat.SymDense) {
	n, _ := l.Dims()
	pi := mat.NewSymDense(n, nil)
	inv := 1 / float64(n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := -inv
			if i == j {
				v += 1
			}
			pi.SetSym(i, j, v)
		}
	}
	var m mat.Dense
	m.Mul(pi, l)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			m.Set(i, j, m.At(i, j)+inv)
		}
	}
	return &m, pi
}

// lyapKronecker solves M Y + Y Mᵀ = C through (I⊗M + M⊗I) vec(Y) = vec(C).
func lyapKronecker(t *testing.T, M *mat.Dense, C *mat.SymDense) *mat.Dense {
	n, _ := M.Dims()
	k := mat.NewDense(n*n, n*n, nil)
	rhs := mat.NewVecDense(n*n, nil)
	// vec index of (i, j) is j*n + i (column stacking).
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			row := j*n + i
			rhs.SetVec(row, C.At(i, j))
			for q := 0; q < n; q++ {
				// (I⊗M): Σ_q M[i,q] Y[q,j].
				k.Set(row, j*n+q, k.At(row, j*n+q)+M.At(i, q))
				// (M⊗I): Σ_q Y[i,q] M[j,q].
				k.Set(row, q*n+i, k.At(row, q*n+i)+M.At(j, q))
			}
		}
	}
	var x mat.VecDense
	if err := x.SolveVec(k, rhs); err != nil {
		t.Fatalf("Kronecker solve: %v", err)
	}
	y := mat.NewDense(n, n, nil)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			y.Set(i, j, x.AtVec(j*n+i))
		}
	}
	return y
}

func lyapRelDiff(a, b mat.Matrix) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return lyapMaxAbs(&d) / math.Max(lyapMaxAbs(b), math.SmallestNonzeroFloat64)
}

func TestSolveLyapunovRandom(t *testing.T) {
	kinds := []struct {
		name string
		gen  func(testing.TB, *rand.Rand, int) *mat.Dense
	}{
		{"shifted", lyapShiftedRandom},
		{"rotations", lyapRotations},
		{"ohm", func(_ testing.TB, rng *rand.Rand, n int) *mat.Dense {
			m, _ := lyapOhmSystem(lyapDigraph(rng, n, 2, false))
			return m
		}},
	}
	for _, kind := range kinds {
		for _, n := range []int{1, 2, 3, 5, 10, 37, 100, 200} {
			t.Run(fmt.Sprintf("%s/n=%d", kind.name, n), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(n), 7))
				M := kind.gen(t, rng, n)
				C := lyapRandSym(rng, n)
				Y, err := SolveLyapunov(M, C)
				if err != nil {
					t.Fatal(err)
				}
				if r := lyapResidual(M, Y, C); !(r <= 1e-12) {
					t.Errorf("relative residual %.3g > 1e-12", r)
				}
				if d := lyapRawAsymmetry(Y); d > 1e-12*lyapMaxAbs(Y) {
					t.Errorf("Y storage asymmetric by %.3g", d)
				}
			})
		}
	}
}

func TestSolveLyapunovKronecker(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 11, 12} {
		for _, kind := range []string{"shifted", "rotations", "ohm"} {
			t.Run(fmt.Sprintf("%s/n=%d", kind, n), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(n), 11))
				var M *mat.Dense
				C := lyapRandSym(rng, n)
				switch kind {
				case "shifted":
					M = lyapShiftedRandom(t, rng, n)
				case "rotations":
					M = lyapRotations(t, rng, n)
				default:
					M, C = lyapOhmSystem(lyapDigraph(rng, n, 1, false))
				}
				Y, err := SolveLyapunov(M, C)
				if err != nil {
					t.Fatal(err)
				}
				want := lyapKronecker(t, M, C)
				if d := lyapRelDiff(Y, want); !(d <= 1e-10) {
					t.Errorf("relative difference from the Kronecker solution %.3g > 1e-10", d)
				}
			})
		}
	}
}

func TestSolveLyapunovOhm(t *testing.T) {
	for _, n := range []int{2, 3, 5, 10, 37, 100, 200} {
		for _, symmetric := range []bool{false, true} {
			t.Run(fmt.Sprintf("n=%d/symmetric=%t", n, symmetric), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(n), 3))
				l := lyapDigraph(rng, n, 2, symmetric)
				M, C := lyapOhmSystem(l)
				Y, err := SolveLyapunov(M, C)
				if err != nil {
					t.Fatal(err)
				}
				if r := lyapResidual(M, Y, C); !(r <= 1e-12) {
					t.Errorf("relative residual %.3g > 1e-12", r)
				}
				scale := math.Max(1, lyapMaxAbs(Y))
				for i := 0; i < n; i++ {
					var s float64
					for j := 0; j < n; j++ {
						s += Y.At(i, j)
					}
					if math.Abs(s) > 1e-10*scale {
						t.Fatalf("(Y·1)[%d] = %.3g, want 0", i, s)
					}
				}
				if !symmetric {
					return
				}
				// X = 2Y must equal L⁺ = (L + J/n)⁻¹ − J/n.
				var lj, lp mat.Dense
				lj.Apply(func(_, _ int, v float64) float64 { return v + 1/float64(n) }, l)
				if err := lp.Inverse(&lj); err != nil {
					t.Fatal(err)
				}
				lp.Apply(func(_, _ int, v float64) float64 { return v - 1/float64(n) }, &lp)
				var x mat.Dense
				x.Scale(2, Y)
				if d := lyapRelDiff(&x, &lp); !(d <= 1e-10) {
					t.Errorf("2Y differs from L⁺ by %.3g (relative) > 1e-10", d)
				}
			})
		}
	}
}

func TestSolveLyapunovErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	// A 3×3 matrix with eigenvalues 2, −2, 1 hidden by a similarity.
	hidden := func() *mat.Dense {
		s := lyapRandDense(rng, 3)
		for i := 0; i < 3; i++ {
			s.Set(i, i, s.At(i, i)+3)
		}
		d := mat.NewDiagDense(3, []float64{2, -2, 1})
		var sd, m mat.Dense
		sd.Mul(s, d)
		if err := m.Solve(s.T(), sd.T()); err != nil {
			t.Fatal(err)
		}
		return mat.DenseCopyOf(m.T())
	}()
	cases := []struct {
		name string
		M    *mat.Dense
		want error
	}{
		{"diag(1,-1)", mat.NewDense(2, 2, []float64{1, 0, 0, -1}), ErrLyapunovSingular},
		{"rotation ±i", mat.NewDense(2, 2, []float64{0, 1, -1, 0}), ErrLyapunovSingular},
		{"zero", mat.NewDense(3, 3, nil), ErrLyapunovSingular},
		{"1×1 zero", mat.NewDense(1, 1, []float64{0}), ErrLyapunovSingular},
		{"similar to diag(2,-2,1)", hidden, ErrLyapunovSingular},
		{"NaN", mat.NewDense(2, 2, []float64{1, math.NaN(), 0, 1}), ErrNotFinite},
		{"Inf", mat.NewDense(2, 2, []float64{1, 0, math.Inf(1), 1}), ErrNotFinite},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n, _ := tc.M.Dims()
			Y, err := SolveLyapunov(tc.M, lyapRandSym(rng, n))
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if Y != nil {
				t.Errorf("got a solution with the error")
			}
		})
	}
	t.Run("NaN in C", func(t *testing.T) {
		C := mat.NewSymDense(2, []float64{1, math.NaN(), math.NaN(), 1})
		if _, err := SolveLyapunov(mat.NewDense(2, 2, []float64{1, 0, 0, 1}), C); !errors.Is(err, ErrNotFinite) {
			t.Fatalf("error %v, want ErrNotFinite", err)
		}
	})
}

func TestSolveLyapunovPanics(t *testing.T) {
	cases := []struct {
		name string
		M    *mat.Dense
		C    *mat.SymDense
		msg  string
	}{
		{"nonsquare", mat.NewDense(2, 3, nil), mat.NewSymDense(2, nil), "not square"},
		{"mismatch", mat.NewDense(3, 3, nil), mat.NewSymDense(2, nil), "C is 2×2"},
		{"empty C", mat.NewDense(2, 2, nil), &mat.SymDense{}, "C is 0×0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil {
					t.Fatal("no panic")
				}
				if !strings.Contains(fmt.Sprint(r), tc.msg) {
					t.Errorf("panic %q does not mention %q", r, tc.msg)
				}
			}()
			SolveLyapunov(tc.M, tc.C)
		})
	}
}

func TestSolveLyapunovSmallExact(t *testing.T) {
	// 1×1: 2·m·y = c.
	Y, err := SolveLyapunov(mat.NewDense(1, 1, []float64{2}), mat.NewSymDense(1, []float64{4}))
	if err != nil || Y.At(0, 0) != 1 {
		t.Fatalf("got %v, %v; want 1", Y, err)
	}
	// Empty.
	Y, err = SolveLyapunov(&mat.Dense{}, &mat.SymDense{})
	if err != nil || !Y.IsEmpty() {
		t.Fatalf("empty: got %v, %v", Y, err)
	}
	// M = I: Y = C/2.
	rng := rand.New(rand.NewPCG(1, 2))
	C := lyapRandSym(rng, 6)
	I := mat.NewDense(6, 6, nil)
	for i := 0; i < 6; i++ {
		I.Set(i, i, 1)
	}
	Y, err = SolveLyapunov(I, C)
	if err != nil {
		t.Fatal(err)
	}
	var half mat.SymDense
	half.ScaleSym(0.5, C)
	if d := lyapRelDiff(Y, &half); d > 1e-14 {
		t.Errorf("M = I: relative difference %.3g from C/2", d)
	}
}

func TestRealSchurLyapunov(t *testing.T) {
	for _, n := range []int{1, 2, 5, 37, 100} {
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		A := lyapRandDense(rng, n)
		orig := mat.DenseCopyOf(A)
		T, U, err := RealSchur(A)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(A, orig) {
			t.Fatalf("n=%d: A modified", n)
		}
		var ut, r mat.Dense
		ut.Mul(U, T)
		r.Mul(&ut, U.T())
		if d := lyapRelDiff(&r, A); d > 1e-12 {
			t.Errorf("n=%d: ‖U T Uᵀ − A‖ relative %.3g", n, d)
		}
		var utu mat.Dense
		utu.Mul(U.T(), U)
		for i := 0; i < n; i++ {
			utu.Set(i, i, utu.At(i, i)-1)
		}
		if d := lyapMaxAbs(&utu); d > 1e-12 {
			t.Errorf("n=%d: ‖UᵀU − I‖_max = %.3g", n, d)
		}
		for i := 1; i < n; i++ {
			for j := 0; j < i-1; j++ {
				if T.At(i, j) != 0 {
					t.Fatalf("n=%d: T[%d,%d] = %g below the subdiagonal", n, i, j, T.At(i, j))
				}
			}
			if T.At(i, i-1) != 0 {
				if (i >= 2 && T.At(i-1, i-2) != 0) || (i+1 < n && T.At(i+1, i) != 0) {
					t.Fatalf("n=%d: overlapping 2×2 blocks at row %d", n, i)
				}
				if T.At(i, i) != T.At(i-1, i-1) || T.At(i, i-1)*T.At(i-1, i) >= 0 {
					t.Errorf("n=%d: 2×2 block at %d not in standard form", n, i-1)
				}
			}
		}
	}
}

// lyapBenchCase caches the ohm-use-case matrices and their Schur forms across
// sub-benchmarks.
type lyapBenchCase struct {
	M    *mat.Dense
	C    *mat.SymDense
	t, u []float64 // Schur form and vectors
	f    []float64 // Uᵀ C U
}

var lyapBenchCases = map[int]*lyapBenchCase{}

func lyapBench(b *testing.B, n int, schur bool) *lyapBenchCase {
	bc := lyapBenchCases[n]
	if bc == nil {
		rng := rand.New(rand.NewPCG(uint64(n), 99))
		M, C := lyapOhmSystem(lyapDigraph(rng, n, 2, false))
		bc = &lyapBenchCase{M: M, C: C}
		lyapBenchCases[n] = bc
	}
	if schur && bc.t == nil {
		t := schurCopyDense(bc.M)
		u, _, _, err := realSchur(n, t)
		if err != nil {
			b.Fatal(err)
		}
		f := lyapSymToFull(bc.C)
		w := make([]float64, n*n)
		lyapGemm(blas.NoTrans, blas.NoTrans, n, f, u, w)
		lyapSymProduct(n, blas.Trans, blas.NoTrans, u, w, f)
		bc.t, bc.u, bc.f = t, u, f
	}
	return bc
}

// BenchmarkSolveLyapunov times SolveLyapunov on the ohm use case (M = ΠL + J/n
// for a random strongly connected digraph with about 3 arcs per node, C = Π),
// and separately its Schur decomposition, its two congruences and its
// quasi-triangular solve. Use -benchtime 1x for n = 1000.
func BenchmarkSolveLyapunov(b *testing.B) {
	for _, n := range []int{183, 500, 1000} {
		b.Run(fmt.Sprintf("n=%d/total", n), func(b *testing.B) {
			bc := lyapBench(b, n, false)
			for b.Loop() {
				if _, err := SolveLyapunov(bc.M, bc.C); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/schur", n), func(b *testing.B) {
			bc := lyapBench(b, n, false)
			for b.Loop() {
				t := schurCopyDense(bc.M)
				if _, _, _, err := realSchur(n, t); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/transforms", n), func(b *testing.B) {
			bc := lyapBench(b, n, true)
			f := lyapSymToFull(bc.C)
			w := make([]float64, n*n)
			y := make([]float64, n*n)
			for b.Loop() {
				lyapGemm(blas.NoTrans, blas.NoTrans, n, f, bc.u, w)
				lyapSymProduct(n, blas.Trans, blas.NoTrans, bc.u, w, y)
				lyapGemm(blas.NoTrans, blas.NoTrans, n, bc.u, y, w)
				lyapSymProduct(n, blas.NoTrans, blas.Trans, w, bc.u, y)
			}
		})
		b.Run(fmt.Sprintf("n=%d/quasitri", n), func(b *testing.B) {
			bc := lyapBench(b, n, true)
			z := make([]float64, n*n)
			for b.Loop() {
				copy(z, bc.f)
				if err := solveQuasiTriLyap(n, bc.t, z); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestSolveQuasiTriLyapSingularPivots(t *testing.T) {
	cases := []struct {
		name string
		n    int
		t    []float64
	}{
		{"1×1 pair", 2, []float64{1, 3, 0, -1}},
		{"1×1 diagonal", 3, []float64{2, 1, 1, 0, 0, 1, 0, 0, 1}},
		{"2×2 block", 3, []float64{0, 2, 1, -2, 0, 1, 0, 0, 1}},
		{"two 2×2 blocks", 4, []float64{
			1, 2, 1, 1,
			-2, 1, 1, 1,
			0, 0, -1, 2,
			0, 0, -2, -1,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			z := make([]float64, tc.n*tc.n)
			for i := 0; i < tc.n; i++ {
				z[i*tc.n+i] = 1
			}
			err := solveQuasiTriLyap(tc.n, append([]float64(nil), tc.t...), z)
			if !errors.Is(err, ErrLyapunovSingular) {
				t.Fatalf("error %v, want ErrLyapunovSingular", err)
			}
		})
	}
}

func TestCheckLyapunovGrowth(t *testing.T) {
	f := []float64{1, 0, 0, 1}
	if err := checkLyapunovGrowth(f, []float64{1e15, 0, 0, 1}, 1e-14); !errors.Is(err, ErrLyapunovSingular) {
		t.Errorf("huge solution: error %v, want ErrLyapunovSingular", err)
	}
	if err := checkLyapunovGrowth(f, []float64{2, 0, 0, 1}, 1e-14); err != nil {
		t.Errorf("moderate solution: %v", err)
	}
	if err := checkLyapunovGrowth(make([]float64, 4), make([]float64, 4), 1e-14); err != nil {
		t.Errorf("zero right-hand side: %v", err)
	}
}
