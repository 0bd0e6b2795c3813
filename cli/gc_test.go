package cli

import (
	"runtime/debug"
	"testing"

	"github.com/ohmgnn/ohm/rewire"
)

// TestCollectForSketch: the sketch engine lowers the collector's target,
// the other engines and a GOGC the user set leave it.
func TestCollectForSketch(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, c := range []struct {
		kind rewire.EngineKind
		gogc string
		want int
	}{
		{rewire.Sketch, "", sketchGCPercent},
		{rewire.Incremental, "", 100},
		{rewire.Sketch, "200", 100},
	} {
		t.Setenv("GOGC", c.gogc)
		debug.SetGCPercent(100)
		collectForSketch(c.kind)
		if got := debug.SetGCPercent(100); got != c.want {
			t.Errorf("%s with GOGC=%q: GC percent %d, want %d", c.kind, c.gogc, got, c.want)
		}
	}
}
