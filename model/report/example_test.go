package report_test

import (
	"fmt"

	"github.com/ohmgnn/ohm/model/report"
)

// Wilcoxon is exact up to 64 non-zero paired differences and the normal
// approximation (tie and continuity corrections) above. Nine non-zero
// differences, eight of them positive: 6 of the 2⁹ sign assignments are
// as extreme (p = 0.01171875, counted by brute force); the same pairs
// eight times over give 72 differences and scipy's approximate p.
func ExampleWilcoxon() {
	x := []float64{0.81, 0.83, 0.80, 0.84, 0.82, 0.85, 0.83, 0.86, 0.80, 0.84}
	y := []float64{0.80, 0.80, 0.80, 0.81, 0.80, 0.82, 0.81, 0.82, 0.81, 0.80}
	p, n, m := report.Wilcoxon(x, y)
	fmt.Printf("%d pairs, p = %.4f (%v)\n", n, p, m)
	var xs, ys []float64
	for range 8 {
		xs, ys = append(xs, x...), append(ys, y...)
	}
	p, n, m = report.Wilcoxon(xs, ys)
	fmt.Printf("%d pairs, p = %.2g (%v)\n", n, p, m)

	// Output:
	// 9 pairs, p = 0.0117 (exact)
	// 72 pairs, p = 2.2e-12 (normal approximation)
}
