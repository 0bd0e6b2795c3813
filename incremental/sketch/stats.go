package sketch

import "github.com/ohmgnn/ohm/incremental"

var (
	_ incremental.Engine        = (*Engine)(nil)
	_ incremental.StatsReporter = (*Engine)(nil)
	_ incremental.Failer        = (*Engine)(nil)
	_ incremental.TopRanker     = (*Engine)(nil)
	_ incremental.PairSolver    = (*Engine)(nil)
)

// Stats is the engine's rounds (sketches) and Laplacian solves so far,
// and the hand-off to the exact engine when it happened (HandedOff). O(1).
func (e *Engine) Stats() incremental.Stats {
	return incremental.Stats{Rounds: e.Rounds(), Solves: e.Solves(), HandOffAt: e.handOffAt, HandOffKept: e.handOffKept}
}
