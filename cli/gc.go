package cli

import (
	"os"
	"runtime/debug"

	"github.com/ohmgnn/ohm/rewire"
)

// sketchGCPercent is the collector's target (GOGC) while the sketch engine
// runs.
const sketchGCPercent = 25

// collectForSketch lowers the garbage collector's target when the sketch
// engine runs (kind, auto resolved), unless the user set GOGC: its live
// heap is a few large vectors free of pointers (the graph, the solver's
// blocks, the anchors' columns), so a collection costs little, while Go's
// default target (GOGC=100) lets the heap grow to twice the live data
// before it collects — on the 10⁶-node SBM to 19 GB.
func collectForSketch(kind rewire.EngineKind) {
	if kind == rewire.Sketch && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(sketchGCPercent)
	}
}
