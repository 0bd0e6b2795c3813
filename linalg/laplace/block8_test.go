package laplace

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// TestBlock8AVX: the AVX block kernels give the bits of the Go loops —
// the product with the grounded matrix and both triangular sweeps of the
// preconditioner, and the full Laplacian of the residual — on graphs with several components, an isolated node
// and hubs, and a solve of 8 sides gives the same bits either way.
func TestBlock8AVX(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX on this CPU: the Go loops are the only kernels")
	}
	r := rand.New(rand.NewPCG(3, 4))
	cases := []struct {
		name string
		gen  func() *graphgen.Graph
	}{
		{"sbm one component", func() *graphgen.Graph { g, _ := graphgen.SBM(300, 3, 0.1, 0.01, 1); return g }},
		{"sbm three components", func() *graphgen.Graph { g, _ := graphgen.SBM(240, 3, 0.15, 0, 2); return g }},
		{"barabasi-albert", func() *graphgen.Graph { g, _ := graphgen.BA(400, 3, 5); return g }},
	}
	for _, c := range cases {
		gg := c.gen()
		g, err := linalg.FromEdges(gg.N+1, false, gg.Edges) // the last node isolated
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(g)
		if err != nil {
			t.Fatal(err)
		}
		n := s.N()
		x := make([]float64, n*block)
		for i := range x {
			x[i] = r.NormFloat64()
		}
		kernels := func(avx bool) (ax, px, lx, sol []float64) {
			defer func(old bool) { useAVX = old }(useAVX)
			useAVX = avx
			ax, px = make([]float64, n*block), make([]float64, n*block)
			s.apply8(ax, x)
			s.precondition8(px, x)
			lx = make([]float64, n*block)
			s.laplacian(lx, x, block)
			sol = make([]float64, n*block)
			b := make([]float64, n*block)
			for i := 0; i < n; i++ {
				b[i*block+i%block] = 1
				b[((i*7+3)%n)*block+i%block] -= 1
			}
			if _, err := s.solveBlock(sol, b, block, 1e-8, 500, nil); err != nil {
				t.Fatal(err)
			}
			return ax, px, lx, sol
		}
		a1, p1, l1, s1 := kernels(true)
		a0, p0, l0, s0 := kernels(false)
		for _, cmp := range []struct {
			what     string
			avx, ref []float64
		}{{"A x", a1, a0}, {"M⁻¹ x", p1, p0}, {"L x", l1, l0}, {"solve", s1, s0}} {
			for i := range cmp.ref {
				if math.Float64bits(cmp.avx[i]) != math.Float64bits(cmp.ref[i]) {
					t.Fatalf("%s: %s entry %d: AVX %v, Go %v", c.name, cmp.what, i, cmp.avx[i], cmp.ref[i])
				}
			}
		}
	}
}

// scatterPrecondition is the preconditioner as it was before the upper
// part of the factor held Fᵀ: the backward sweep column-oriented, scaling
// z_i and then scattering −F_ij z_i into the rows j < i.
func scatterPrecondition(s *Solver, z, r []float64, c int) {
	copy(z, r)
	for i := range s.n {
		zi := z[i*c : i*c+c]
		for p := s.start[i]; p < s.mid[i]; p++ {
			zj := z[int(s.adj[p])*c : int(s.adj[p])*c+c]
			for q := range zi {
				zi[q] -= s.fac[p] * zj[q]
			}
		}
		for q := range zi {
			if c == 1 {
				zi[q] /= s.fdiag[i]
			} else {
				zi[q] *= 1 / s.fdiag[i]
			}
		}
	}
	for i := s.n - 1; i >= 0; i-- {
		zi := z[i*c : i*c+c]
		for q := range zi {
			if c == 1 {
				zi[q] /= s.fdiag[i]
			} else {
				zi[q] *= 1 / s.fdiag[i]
			}
		}
		for p := s.start[i]; p < s.mid[i]; p++ {
			zj := z[int(s.adj[p])*c : int(s.adj[p])*c+c]
			for q := range zi {
				zj[q] -= s.fac[p] * zi[q]
			}
		}
	}
}

// TestPreconditionGather: the triangular sweeps as gathers over the rows of
// F and Fᵀ (the upper part) give the bits of the column-oriented scatter
// they replaced, for one side, a partial block and a full block, with the
// Go loops and with AVX.
func TestPreconditionGather(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	gg, _ := graphgen.SBM(300, 3, 0.08, 0.01, 7)
	g, err := linalg.FromEdges(gg.N+1, false, gg.Edges)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(g)
	if err != nil {
		t.Fatal(err)
	}
	n := s.N()
	for _, avx := range []bool{false, true} {
		if avx && !useAVX {
			continue
		}
		for _, c := range []int{1, 3, block} {
			x := make([]float64, n*c)
			for i := range x {
				x[i] = r.NormFloat64()
			}
			want, got := make([]float64, n*c), make([]float64, n*c)
			scatterPrecondition(s, want, x, c)
			func() {
				defer func(old bool) { useAVX = old }(useAVX)
				useAVX = avx
				switch c {
				case 1:
					s.precondition1(got, x)
				case block:
					s.precondition8(got, x)
				default:
					// The generic path, without the coarse correction.
					s.preconditionGeneric(got, x, c)
				}
			}()
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("avx %v, %d sides: entry %d is %v, the scatter gives %v", avx, c, i, got[i], want[i])
				}
			}
		}
	}
}
