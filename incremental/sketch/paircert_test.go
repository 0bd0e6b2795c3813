package sketch

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// exactEcc is every node's eccentricity in R and R*, from a dense
// pseudoinverse (linalg.Pinv) of the connected graph g.
func exactEcc(t *testing.T, g *linalg.Graph) ([]float64, float64) {
	t.Helper()
	comp, _ := tarjan.Components(g)
	P, err := linalg.Pinv(g, comp)
	if err != nil {
		t.Fatal(err)
	}
	n := g.N()
	ecc, rstar := make([]float64, n), 0.0
	for i := range n {
		for j := range n {
			ecc[i] = max(ecc[i], P.At(i, i)+P.At(j, j)-2*P.At(i, j))
		}
		rstar = max(rstar, ecc[i])
	}
	return ecc, rstar
}

// TestPairCertBounds: the pair certificate's bounds are at least every
// exact eccentricity (a dense pseudoinverse of the current graph), at its
// build and after each of 40 random edits (removals of edges that are no
// bridge, additions of non-edges) that it follows by its chain, on a
// path, a ring of cliques, a random geometric graph, an SBM and a BA
// graph (smallGraphs); at the build the largest bound is within 10⁻⁶ of
// R* (the farthest pair's ends are anchors), and its pair is a farthest
// pair. A fill cap below the factor's refuses the certificate.
func TestPairCertBounds(t *testing.T) {
	for name, g0 := range smallGraphs(t) {
		t.Run(name, func(t *testing.T) {
			g := g0.Clone()
			pc, err := buildPairCert(g, 1e9, 2)
			if err != nil || pc == nil {
				t.Fatalf("no certificate: %v", err)
			}
			ecc, rstar := exactEcc(t, g)
			if math.Abs(pc.lb-rstar) > 1e-9*rstar {
				t.Errorf("the anchors' farthest pair %v has R %.12g, R* is %.12g", pc.pair, pc.lb, rstar)
			}
			check := func(step int) {
				t.Helper()
				ecc, rstar = exactEcc(t, g)
				top, slack := 0.0, 0.0
				for i := range g.N() {
					b := pc.nodeBound(i)
					if b < ecc[i]*(1-1e-12) {
						t.Fatalf("step %d: node %d: bound %.12g below its eccentricity %.12g", step, i, b, ecc[i])
					}
					top, slack = max(top, b), max(slack, (b-ecc[i])/rstar)
				}
				if step == 0 && top > rstar*(1+1e-6) {
					t.Errorf("the largest bound %.9g exceeds R* %.9g", top, rstar)
				}
				if step%10 == 0 {
					t.Logf("step %d: R* %.5g, largest bound/R* %.5f, worst (bound − ecc)/R* %.4f", step, rstar, top/rstar, slack)
				}
			}
			check(0)
			r := rand.New(rand.NewPCG(7, uint64(g.N())))
			for step := 1; step <= 40; step++ {
				n := g.N()
				if step%2 == 1 {
					bridges := tarjan.Bridges(g)
					var es [][2]int
					for _, e := range g.Edges() {
						if !bridges.Has(e.U, e.V) {
							es = append(es, [2]int{e.U, e.V})
						}
					}
					if len(es) == 0 {
						continue
					}
					e := es[r.IntN(len(es))]
					pc.edit(false, e[0], e[1])
					g.RemoveEdge(e[0], e[1])
				} else {
					u, v := r.IntN(n), r.IntN(n)
					if u == v || g.HasEdge(u, v) {
						continue
					}
					pc.edit(true, u, v)
					g.AddEdge(u, v)
				}
				check(step)
			}
		})
	}
	gg, err := graphgen.RGGByDegree(300, 6, 1)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := gg.Undirected()
	for i := range g.N() - 1 {
		g.AddEdge(i, i+1)
	}
	if pc, err := buildPairCert(g, 0.5, 1); pc != nil || err != nil {
		t.Errorf("a fill cap of 0.5·(n + m) built a certificate (%v)", err)
	}
}

// TestSketchPairCertDecisions: the sketch engine with the pair
// certificate against the exact incremental engine following the same
// edits, err (an addition and a removal per iteration) on a random
// geometric graph and a ring of cliques of 1 200 nodes (rounds of 64,
// hand-off off): the certificate is built, every pair the sketch adds has
// at least 0.98 of the exact maximum R (definitions §3.7.2), and the run
// keeps no more nodes than without the certificate (PairFill −1), on the
// ring fewer (today's bound keeps every node there). The decisions equal
// to the exact engine's are counted (the ring's many ties break either
// way).
func TestSketchPairCertDecisions(t *testing.T) {
	shapes := map[string]func() (*graphgen.Graph, error){
		"rgg":  func() (*graphgen.Graph, error) { return graphgen.RGGByDegree(1200, 12, 3) },
		"ring": func() (*graphgen.Graph, error) { return graphgen.RingOfCliques(120, 10) },
	}
	for name, mk := range shapes {
		t.Run(name, func(t *testing.T) {
			gg, err := mk()
			if err != nil {
				t.Fatal(err)
			}
			g, _ := gg.Undirected()
			for i := range g.N() - 1 {
				g.AddEdge(i, i+1)
			}
			with := certRun(t, g, CertFill, name)
			without := certRun(t, g, -1, name)
			t.Logf("kept at most %d with the certificate, %d without", with, without)
			if with > without || (name == "ring" && with >= without) {
				t.Errorf("the certificate kept %d nodes, today's bound %d", with, without)
			}
		})
	}
}

// certRun runs 40 err iterations of the sketch engine (PairFill fill)
// beside the exact engine and returns the most nodes it kept.
func certRun(t *testing.T, g *linalg.Graph, fill float64, name string) int {
	t.Helper()
	e, err := New(g, Options{Seed: 1, Removes: true, Round: 64, HandOff: -1, PairFill: fill, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	x, err := incremental.NewUndirected(g, incremental.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if built, _ := e.PairCertificates(); fill > 0 && built == 0 {
		t.Fatalf("fill %g: %d certificates built", fill, built)
	}
	accept := func(u, v int) bool {
		r, _ := x.Resistance(u, v)
		return r < 1-1e-9
	}
	same, most := 0, 0
	for it := range 40 {
		p, ok := e.MaxPair()
		if !ok {
			t.Fatalf("iteration %d: no pair: %v", it, e.Err())
		}
		most = max(most, e.Kept())
		best, _ := x.MaxPair()
		r, _ := x.Resistance(p.U, p.V)
		if r < coverMargin*best.Score {
			t.Fatalf("fill %g, iteration %d: the sketch added %v, R %.9g, below 0.98 of the exact maximum %v", fill, it, p, r, best)
		}
		if p.U == best.U && p.V == best.V {
			same++
		}
		e.Begin()
		x.Begin()
		if err := e.Add(p.U, p.V); err != nil {
			t.Fatal(err)
		}
		if err := x.Add(p.U, p.V); err != nil {
			t.Fatal(err)
		}
		q, ok := e.MinEdge(accept)
		if ok {
			if err := e.Remove(q.U, q.V); err != nil {
				t.Fatal(err)
			}
			if err := x.Remove(q.U, q.V); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.Commit(); err != nil {
			t.Fatal(err)
		}
		if err := x.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	built, refused := e.PairCertificates()
	t.Logf("fill %g: %d of 40 additions the exact engine's, kept at most %d, %d rounds, %d solves, certificates built %d, refused %d",
		fill, same, most, e.Rounds(), e.Solves(), built, refused)
	return most
}

// TestPairCertRefusesExpander: on an SBM of 4 000 nodes and mean degree
// 20 (an expander) the nested-dissection factor passes the default fill
// cap, 32·(n + m), and no certificate is built (buildPairCert with a cap
// it meets is TestPairCertBounds').
func TestPairCertRefusesExpander(t *testing.T) {
	gg, err := graphgen.SBMByDegree(4000, 4, 20, 0.8, 2)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := gg.Undirected()
	for i := range g.N() - 1 {
		g.AddEdge(i, i+1)
	}
	if pc, err := buildPairCert(g, CertFill, 2); pc != nil || err != nil {
		t.Errorf("a certificate on the SBM (%v)", err)
	}
}

// TestPairMaxima: the cluster pass's per-node maxima against the plain
// scan of every pair, on random points (3 000, 8 coordinates, random ρ²
// and h) with 64 clusters: at least the scan's maximum at every node for
// any threshold, and equal to it where every cluster passes the
// threshold (τ = 0: every pair scored) unless a node's pairs pass the
// cap.
func TestPairMaxima(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n, d := 3000, 8
	pp := &pairPoints{n: n, dim: d, p: make([]float64, n*d), rho2: make([]float64, n), h: make([]float64, n)}
	for i := range n {
		for x := range d {
			pp.p[i*d+x] = r.NormFloat64() * float64(x+1)
		}
		pp.rho2[i], pp.h[i] = r.Float64(), r.Float64()
		pp.H += pp.h[i]
	}
	scan := make([]float64, n)
	for i := range n {
		for j := range n {
			if j != i {
				scan[i] = max(scan[i], pp.bound(i, j))
			}
		}
	}
	for _, tau := range []float64{0, slices.Max(scan) * 0.9, math.Inf(1)} {
		got := pairMaxima(pp, tau, 64, 2)
		exact := 0
		for i := range n {
			if got[i] < scan[i]*(1-1e-12) {
				t.Fatalf("τ %g: node %d: %g below the scan's %g", tau, i, got[i], scan[i])
			}
			if math.Abs(got[i]-scan[i]) <= 1e-12*scan[i] {
				exact++
			}
		}
		t.Logf("τ %g: %d of %d maxima exact", tau, exact, n)
		if tau == 0 && exact != n {
			t.Errorf("τ 0: %d of %d maxima exact", exact, n)
		}
	}
}
