package laplace

import (
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// TestApproxCholAgainstDensePinv: with the approximate Cholesky
// preconditioner the solver's x = L⁺b equals the dense L⁺ times b, on
// graphs of three shapes with several components and an isolated node,
// and each component is grounded at one of its own nodes.
func TestApproxCholAgainstDensePinv(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, tc := range []struct {
		name string
		gen  func() (*graphgen.Graph, error)
	}{
		{"SBM in 3 components", func() (*graphgen.Graph, error) { return graphgen.SBM(150, 3, 0.15, 0, 1) }},
		{"RGG", func() (*graphgen.Graph, error) { return graphgen.RGG(200, 0.15, 2) }},
		{"BA", func() (*graphgen.Graph, error) { return graphgen.BA(150, 3, 3) }},
		{"ring of cliques", func() (*graphgen.Graph, error) { return graphgen.RingOfCliques(12, 6) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gg, err := tc.gen()
			if err != nil {
				t.Fatal(err)
			}
			g, err := linalg.FromEdges(gg.N+1, false, gg.Edges)
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewWith(g, Options{Preconditioner: ApproxChol, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			for c, v := range s.ground {
				if int(s.comp[v]) != c {
					t.Fatalf("component %d grounded at node %d of component %d", c, v, s.comp[v])
				}
			}
			P, err := linalg.Pinv(g, labels(g))
			if err != nil {
				t.Fatal(err)
			}
			b := make([]float64, g.N())
			for i := range b {
				b[i] = r.NormFloat64()
			}
			x, it, err := s.Solve(b, 1e-10, 1000)
			if err != nil {
				t.Fatal(err)
			}
			worst := maxPinvError(P, x, b)
			if worst > 1e-8 {
				t.Fatalf("max |x − L⁺b| = %.3g after %d iterations", worst, it)
			}
		})
	}
}

// TestAutoPreconditioner: Auto keeps IC(0) on an SBM (an expander, where
// IC(0) converges in a few iterations) and takes the approximate Cholesky
// factor on a random geometric graph (a mesh-like graph of long
// diameter, where IC(0) needs many), where it needs far fewer iterations
// than IC(0).
func TestAutoPreconditioner(t *testing.T) {
	for _, tc := range []struct {
		name string
		gen  func() (*graphgen.Graph, error)
		ac   bool
	}{
		{"SBM", func() (*graphgen.Graph, error) { return graphgen.SBM(4000, 4, 0.01, 0.001, 1) }, false},
		{"RGG", func() (*graphgen.Graph, error) { return graphgen.RGG(20000, math.Sqrt(20/(math.Pi*20000)), 2) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gg, err := tc.gen()
			if err != nil {
				t.Fatal(err)
			}
			g, err := linalg.FromEdges(gg.N, false, gg.Edges)
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewWith(g, Options{Preconditioner: Auto, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if (s.perm != nil) != tc.ac {
				t.Fatalf("Auto chose approximate Cholesky: %v, want %v", s.perm != nil, tc.ac)
			}
			if !tc.ac {
				return
			}
			ic, _ := New(g)
			ac, err := NewWith(g, Options{Preconditioner: ApproxChol, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			iic, iac := ic.probe(1000), ac.probe(1000)
			t.Logf("probe iterations: IC(0) %d, approximate Cholesky %d", iic, iac)
			if 2*iac > iic {
				t.Fatalf("approximate Cholesky took %d iterations, IC(0) %d", iac, iic)
			}
		})
	}
}

// BenchmarkPreconditioners compares IC(0) and approximate Cholesky on the
// systems the sketch engine solves, on an SBM (10 blocks, mean degree 20,
// homophily 0.8) and a random geometric graph (mean degree 20) of
// OHM_LAPLACE_NODES nodes (default 10 000): the factor's set-up and
// entries, then 32 sketch rows (random edge signs, to 10⁻⁴), 32 pairs
// e_u − e_v to 10⁻⁸ (re-scoring) and to 10⁻² (the edits' bound vectors),
// two blocks each on one worker; it reports each one's most iterations
// per block and seconds.
func BenchmarkPreconditioners(b *testing.B) {
	n := 10000
	if s := os.Getenv("OHM_LAPLACE_NODES"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	for _, shape := range []struct {
		name string
		gen  func() (*graphgen.Graph, error)
	}{
		{"sbm", func() (*graphgen.Graph, error) { return graphgen.SBMByDegree(n, 10, 20, 0.8, 1) }},
		{"rgg", func() (*graphgen.Graph, error) { return graphgen.RGG(n, math.Sqrt(20/(math.Pi*float64(n))), 2) }},
	} {
		gg, err := shape.gen()
		if err != nil {
			b.Fatal(err)
		}
		g, err := linalg.FromEdges(gg.N, false, gg.Edges)
		if err != nil {
			b.Fatal(err)
		}
		for _, pc := range []struct {
			name string
			p    Preconditioner
		}{{"ic0", IC0}, {"approxchol", ApproxChol}} {
			b.Run(shape.name+"/"+pc.name, func(b *testing.B) {
				for b.Loop() {
					t0 := time.Now()
					s, err := NewWith(g, Options{Preconditioner: pc.p, Seed: 1})
					if err != nil {
						b.Skip(err)
					}
					b.ReportMetric(time.Since(t0).Seconds(), "factor-s")
					b.ReportMetric(float64(len(s.lower.fac))/float64(g.NumEdges()), "entries/edge")
					for _, sys := range []struct {
						name string
						tol  float64
						edge bool
					}{{"sketch", 1e-4, true}, {"pair-1e-8", 1e-8, false}, {"pair-1e-2", 1e-2, false}} {
						t1 := time.Now()
						it, err := s.SolveMany(32, func(q int, rhs []float64) {
							r := rand.New(rand.NewPCG(uint64(q), 7))
							if !sys.edge {
								rhs[r.IntN(n)], rhs[r.IntN(n)] = 1, -1
								return
							}
							for u := range n {
								for _, v := range g.Neighbours(u) {
									if v > u {
										sg := float64(1 - 2*int(r.Uint64()&1))
										rhs[u] += sg
										rhs[v] -= sg
									}
								}
							}
						}, func(int, []float64) {}, sys.tol, 10*n+100, 1)
						if err != nil {
							b.Fatal(err)
						}
						b.ReportMetric(float64(it), sys.name+"-it")
						b.ReportMetric(time.Since(t1).Seconds(), sys.name+"-s")
					}
				}
			})
		}
	}
}
