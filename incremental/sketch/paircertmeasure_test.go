package sketch

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg/graphio"
)

// TestPairCertMeasure is a measurement, not a test: for each graph of
// OHM_PAIRCERT (comma-separated .npz paths) it builds the pair
// certificate with the default fill cap and logs whether the cap refused
// it, the factor's nonzeros against n + m (the factor with no cap, when
// refused and OHM_PAIRCERT_UNCAPPED is set), the seconds, the nodes whose
// bound keeps them by the cover rule at the build (0.98·B_i above the
// anchors' farthest R) and the peak memory. docs/sketch.md, "Step 4,
// `sketch-22`".
func TestPairCertMeasure(t *testing.T) {
	paths := os.Getenv("OHM_PAIRCERT")
	if paths == "" {
		t.Skip("a measurement: OHM_PAIRCERT=G.npz[,H.npz] runs it")
	}
	for _, path := range strings.Split(paths, ",") {
		g, err := graphio.Load(path, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		n, m := g.N(), g.NumEdges()
		fill := float64(CertFill)
		t0 := time.Now()
		pc, err := buildPairCert(g, fill, 2)
		if err != nil {
			t.Fatal(err)
		}
		sec := time.Since(t0).Seconds()
		if pc == nil {
			line := ""
			if os.Getenv("OHM_PAIRCERT_UNCAPPED") != "" {
				order := ndOrder(g, allTrue(n), 64)
				ground := make([]bool, n)
				ground[order[n-1]] = true
				f, err := newSpChol(g, order[:n-1], ground, math.MaxInt)
				if err == nil {
					line = ", uncapped " + ftoa(float64(f.nnz())/float64(n+m)) + "·(n + m)"
				}
			}
			t.Logf("%s: n=%d m=%d: refused by the cap %g·(n + m) in %.2f s%s", path, n, m, fill, sec, line)
			continue
		}
		kept := 0
		for _, b := range pc.bound {
			if coverMargin*b > pc.lb {
				kept++
			}
		}
		t.Logf("%s: n=%d m=%d: built in %.2f s, factor %.3g·(n + m), R̂* %.5g, nodes with 0.98·B_i > R̂*: %d; peak %.0f MB",
			path, n, m, sec, float64(pc.f.nnz())/float64(n+m), pc.lb, kept, maxRSSMB())
	}
}

func ftoa(x float64) string { return strings.TrimRight(strings.TrimRight(strconvF(x), "0"), ".") }

func strconvF(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// TestPairCertRunMeasure is a measurement, not a test: err on the graph
// OHM_CERTRUN (an .npz) for OHM_CERTRUN_ITERS iterations (default 100)
// with the engine's defaults but PairFill = OHM_CERTRUN_FILL (default 32;
// −1: the diagonal estimate's bound, `sketch-20`'s path) and two workers,
// each iteration's addition MaxPair's pair and its removal the least kept
// edge that is no bridge (Tarjan on the current graph), as `ohm rewire`
// does; it logs every 25 iterations the seconds, the nodes kept, the
// solves, the certificates built and whether the engine handed off.
func TestPairCertRunMeasure(t *testing.T) {
	g, path := measuredGraph(t, "OHM_CERTRUN", "a measurement: OHM_CERTRUN=G.npz [OHM_CERTRUN_ITERS=100 OHM_CERTRUN_FILL=32] runs it")
	iters := envInts(t, "OHM_CERTRUN_ITERS", "100")[0]
	fill := envFloats(t, "OHM_CERTRUN_FILL", "32")[0]
	t0 := time.Now()
	e, err := New(g, Options{Removes: true, PairFill: fill, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	most := e.Kept()
	built, _ := e.PairCertificates()
	t.Logf("%s fill %g: round start %.1f s, kept %d, %d solves, certificate %v", path, fill, time.Since(t0).Seconds(), e.Kept(), e.Solves(), built > 0)
	for it := 1; it <= iters; it++ {
		p, ok := e.MaxPair()
		if !ok {
			t.Fatalf("iteration %d: no pair: %v", it, e.Err())
		}
		most = max(most, e.Kept())
		e.Begin()
		if err := e.Add(p.U, p.V); err != nil {
			t.Fatal(err)
		}
		br := tarjan.Bridges(e.Graph())
		if q, ok := e.MinEdge(func(u, v int) bool { return !br.Has(u, v) }); ok {
			if err := e.Remove(q.U, q.V); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.Commit(); err != nil {
			t.Fatal(err)
		}
		if it%25 == 0 || it == iters {
			built, refused := e.PairCertificates()
			at, _, handed := e.HandedOff()
			t.Logf("  iteration %d: %.1f s, kept %d (most %d), %d solves, %d rounds, certificates %d (refused %d), active %v, handed off %v at %d",
				it, time.Since(t0).Seconds(), e.Kept(), most, e.Solves(), e.Rounds(), built, refused, e.CertificateActive(), handed, at)
		}
	}
	t.Logf("peak %.0f MB", maxRSSMB())
}
