package sketch

import (
	"math/rand/v2"
	"slices"
)

// drawCalibration draws up to 32 random nodes that are not candidates
// (from the seed and the round), kept too: their exact/estimated
// eccentricity ratios, free of the selection bias of the candidates
// (chosen for large estimates, so mostly overestimated), scale the cover
// (calibrate). At most 64·32 draws, O(32) each.
func (e *Engine) drawCalibration(isCand map[int]bool) []int {
	n := e.g.N()
	var calib []int
	if rest := n - len(isCand); rest > 0 {
		r := rand.New(rand.NewPCG(e.opt.Seed, 0xca1+uint64(e.round)))
		for tries := 0; len(calib) < min(32, rest) && tries < 64*32; tries++ {
			i := r.IntN(n)
			if !isCand[i] && !slices.Contains(calib, i) {
				calib = append(calib, i)
			}
		}
	}
	return calib
}

// calibrate sets the scale of the cover. The round holds while its best
// pair beats every pair with an end outside the candidates: such a pair's
// R is at most its end's eccentricity, and additions only lower
// resistances. The bounds should hold (exact/bound ratios ≤ 1 over the
// calibration nodes, exact from M); where the calibration finds otherwise,
// the cover is raised by the worst ratio. O(|calib|·|K|).
func (e *Engine) calibrate(rs *roundStart) {
	var ratios []float64
	for _, i := range rs.calib {
		c := e.index[i]
		if rs.ecc[i] <= 0 {
			continue
		}
		exact := e.farthest(i, e.kept, func(_, a int) float64 { return e.r(c, e.index[a]) },
			func(_, a int) float64 { return e.r(c, e.index[a]) })
		ratios = append(ratios, exact/rs.ecc[i])
	}
	e.scale = 1
	if len(ratios) > 0 {
		e.scale = max(1, slices.Max(ratios))
	}
}
