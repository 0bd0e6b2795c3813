package laplace

import (
	"math"
	"testing"

	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// TestEstimateDiag: Hutchinson's estimate of diag L⁺ against a dense
// pseudoinverse, on a graph with three components and an isolated node:
// the errors, in units of the reported standard error, have a mean square
// near 1 (the standard error is honest) and no node is off by more than
// 5 of them; with 256 probes the estimate is within 5 % of L⁺_ii on
// average, and the isolated node's is exactly 0.
func TestEstimateDiag(t *testing.T) {
	gg, _ := graphgen.SBM(300, 3, 0.1, 0, 7)
	g, s, P := withIsolatedNode(t, gg)
	d, err := EstimateDiag(s, 256, 1, 1e-8, 2)
	if err != nil {
		t.Fatal(err)
	}
	var z2, rel float64
	worst := 0.0
	n := g.N() - 1
	for i := range n {
		want := P.At(i, i)
		z := (d.Mean[i] - want) / d.StdErr[i]
		z2 += z * z
		worst = math.Max(worst, math.Abs(z))
		rel += math.Abs(d.Mean[i]-want) / want
	}
	z2 /= float64(n)
	rel /= float64(n)
	t.Logf("mean squared z %.3f, worst |z| %.2f, mean relative error %.4f", z2, worst, rel)
	if z2 < 0.6 || z2 > 1.6 || worst > 5 || rel > 0.05 {
		t.Errorf("estimate off: mean squared z %.3f, worst |z| %.2f, mean relative error %.4f", z2, worst, rel)
	}
	if iso := g.N() - 1; d.Mean[iso] != 0 {
		t.Errorf("isolated node: %v, want 0", d.Mean[iso])
	}
	if _, err := EstimateDiag(s, 1, 1, 1e-8, 1); err == nil {
		t.Error("one probe: want an error")
	}
}
