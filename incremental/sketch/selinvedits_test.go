package sketch

// How the exact diagonal follows the edits (OHM_SELINV_EDITS); docs/sketch.md,
// "Step 4, third measurement: the exact diagonal and a pruned query".

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/floats"

	"github.com/ohmgnn/ohm/linalg"
)

// TestSelInvEditsMeasure follows an edit log (OHM_SELINV_LOG) on a graph
// (OHM_SELINV_EDITS=G.npz) from the exact diagonal of G(0), for the first
// OHM_SELINV_MAX edits (default 400). Each edit's x = L⁺(e_a − e_b) is
// exact (a new factor per edit) and its approximation x̂ = x + e has a
// random error of ‖e‖_L = δ‖x‖_L (δ in OHM_SELINV_DELTA, default
// 1e-2,1e-3,1e-4). The upper bound U_i on L⁺_ii kept from x̂ alone:
//
//   - |x_i − x̂_i| ≤ ‖e‖_L·√L⁺_ii ≤ ε√U_i, ε = δ√R̄ (e has mean zero: e_i =
//     ⟨L⁺^{1/2}Πe_i, L^{1/2}e⟩);
//   - R_ab ≤ R̄ = R̂_ab/(1 − δ) (|R̂ − R| ≤ ‖e‖_L√R ≤ δR);
//   - a removal: U_i += (|x̂_i| + ε√U_i)²/(1 − R̄); an addition: U_i −=
//     max(0, |x̂_i| − ε√U_i)²/(1 + R̄).
//
// At checkpoints it factors G(t) afresh and logs max and median of
// (U_i − L⁺_ii)/L⁺_ii, and checks the exact updates (x exact) against it.
func TestSelInvEditsMeasure(t *testing.T) {
	g, _ := measuredGraph(t, "OHM_SELINV_EDITS", "a measurement: OHM_SELINV_EDITS=G.npz OHM_SELINV_LOG=log.jsonl [OHM_SELINV_MAX=400 OHM_SELINV_DELTA=1e-2,...] runs it")
	edits := readEditLog(t, os.Getenv("OHM_SELINV_LOG"))
	maxEdits := envInts(t, "OHM_SELINV_MAX", "400")[0]
	deltas := envFloats(t, "OHM_SELINV_DELTA", "1e-2,1e-3,1e-4")
	n := g.N()
	order := ndOrder(g, allTrue(n), 64)
	diag, _, err := pinvDiag(g, order, math.MaxInt)
	if err != nil {
		t.Fatal(err)
	}
	exact := slices.Clone(diag) // exact updates, exact x
	U := make([][]float64, len(deltas))
	for k := range U {
		U[k] = slices.Clone(diag)
	}
	ground := make([]bool, n)
	ground[order[n-1]] = true
	rng := rand.New(rand.NewPCG(7, 7))
	checks := map[int]bool{1: true, 2: true, 5: true, 10: true, 20: true, 50: true, 100: true, 200: true, 400: true, 800: true, 1600: true}
	crossed := make([]int, len(deltas)) // first edit count past 1 %
	start := time.Now()
	for te, ed := range edits {
		if te >= maxEdits {
			break
		}
		f, err := newSpChol(g, order[:n-1], ground, math.MaxInt)
		if err != nil {
			t.Fatal(err)
		}
		b := make([]float64, n)
		b[ed.U], b[ed.V] = 1, -1
		x := f.solveNodes(b)
		centre(x)
		r := x[ed.U] - x[ed.V]
		// a random error direction, mean zero, scaled per δ in the L-norm
		e := make([]float64, n)
		for i := range e {
			e[i] = rng.NormFloat64()
		}
		centre(e)
		eL := math.Sqrt(energy(g, e))
		add := ed.Op == "add"
		for k, d := range deltas {
			s := d * math.Sqrt(r) / eL
			rhat := r + s*(e[ed.U]-e[ed.V])
			rbar := rhat / (1 - d)
			eps := d * math.Sqrt(rbar)
			for i := range n {
				xh := math.Abs(x[i] + s*e[i])
				m := eps * math.Sqrt(U[k][i])
				if add {
					lo := max(0, xh-m)
					U[k][i] -= lo * lo / (1 + rbar)
				} else {
					U[k][i] += (xh + m) * (xh + m) / (1 - rbar)
				}
			}
		}
		for i := range n {
			if add {
				exact[i] -= x[i] * x[i] / (1 + r)
			} else {
				exact[i] += x[i] * x[i] / (1 - r)
			}
		}
		if add {
			g.AddEdge(ed.U, ed.V)
		} else {
			g.RemoveEdge(ed.U, ed.V)
		}
		tt := te + 1
		if !checks[tt] && tt != maxEdits {
			continue
		}
		truth, _, err := pinvDiag(g, order, math.MaxInt)
		if err != nil {
			t.Fatal(err)
		}
		drift := 0.0
		for i := range n {
			drift = max(drift, math.Abs(exact[i]-truth[i])/truth[i])
		}
		line := ""
		for k, d := range deltas {
			rel := make([]float64, n)
			low := 0
			for i := range n {
				rel[i] = (U[k][i] - truth[i]) / truth[i]
				if rel[i] < -1e-9 {
					low++
				}
			}
			slices.Sort(rel)
			if low > 0 {
				t.Errorf("δ=%g, %d edits: U below L⁺_ii at %d nodes", d, tt, low)
			}
			line += fmt.Sprintf(" | δ=%g: max %.2e median %.2e", d, rel[n-1], rel[n/2])
		}
		t.Logf("%d edits (iteration %d): exact updates vs factor %.1e%s (%.0f s)", tt, ed.Iteration, drift, line, time.Since(start).Seconds())
	}
	_ = crossed
}

func centre(x []float64) {
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for i := range x {
		x[i] -= m
	}
}

// energy is xᵀLx.
func energy(g *linalg.Graph, x []float64) float64 {
	s := 0.0
	for u := range g.N() {
		for _, v := range g.Neighbours(u) {
			if v > u {
				d := x[u] - x[v]
				s += d * d
			}
		}
	}
	return s
}

// TestSelInvFarAdditions measures how far-pair additions grow the factor
// (OHM_SELINV_FAR=G.npz, OHM_SELINV_FAR_K additions, default 50): a proxy
// of ERR's additions where no edit log exists, each the end pair of a
// sweep by L⁺'s columns on G(t) (four solves), no removals. At
// checkpoints: a new order, nnz(L), factor and selected-inversion seconds.
func TestSelInvFarAdditions(t *testing.T) {
	g, _ := measuredGraph(t, "OHM_SELINV_FAR", "a measurement: OHM_SELINV_FAR=G.npz [OHM_SELINV_FAR_K=50] runs it")
	kmax := envInts(t, "OHM_SELINV_FAR_K", "50")[0]
	n := g.N()
	checks := map[int]bool{0: true, 1: true, 5: true, 10: true, 20: true, 50: true, 100: true, 200: true}
	for k := 0; k <= kmax; k++ {
		t0 := time.Now()
		order := ndOrder(g, allTrue(n), 64)
		ground := make([]bool, n)
		ground[order[n-1]] = true
		f, err := newSpChol(g, order[:n-1], ground, math.MaxInt)
		if err != nil {
			t.Fatal(err)
		}
		facSec := time.Since(t0).Seconds()
		if checks[k] || k == kmax {
			t1 := time.Now()
			f.selInv()
			f.diagFromSelInv()
			t.Logf("%d far additions: nnz(L) %d (%.1f per node), order + factor %.2f s, selected inversion + diagonal %.2f s, peak %.0f MB",
				k, f.nnz(), float64(f.nnz())/float64(n), facSec, time.Since(t1).Seconds(), maxRSSMB())
			f.z = nil
		}
		if k == kmax {
			break
		}
		// A sweep by L⁺'s columns: from a, the node b with the smallest
		// L⁺_ab (R_ab = L⁺_aa + L⁺_bb − 2L⁺_ab, far when the diagonals are
		// alike), three times; the pair of the last step is added.
		a := order[0]
		for range 3 {
			x := f.pinvColumn(a)
			b := floats.MinIdx(x) // L⁺_ab smallest: far from a in R when diagonals are alike
			a = b
		}
		x := f.pinvColumn(a)
		b := floats.MinIdx(x)
		if a == b || g.HasEdge(a, b) {
			t.Fatalf("far pair %d–%d", a, b)
		}
		g.AddEdge(a, b)
	}
}
