package rewire

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/linalg"
)

// TestOperatorStateRefused: curvature and FoSR on a graph of 2·10⁶ nodes
// and two edges are refused with their estimate, a *sysmem.Error, when the
// budget leaves 32 MiB beyond what the process holds, before their
// per-node state is allocated; the estimates bound what each allocates in
// all (an upper bound of its peak) on a run of two iterations.
func TestOperatorStateRefused(t *testing.T) {
	const n = 2_000_000
	g := linalg.NewGraph(n, false)
	g.AddEdge(0, 1)
	g.AddEdge(1, 2)
	for _, m := range []Method{Curvature, FoSR} {
		runtime.GC()
		t.Setenv("OHM_MEMORY", fmt.Sprint(sysmem.InUse()+32<<20))
		plan, err := NewPlan(g, Config{Method: m, Budget: 1, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err = plan.Run()
		runtime.ReadMemStats(&after)
		var me *sysmem.Error
		if !errors.As(err, &me) || !strings.Contains(err.Error(), fmt.Sprintf("the %s rewiring on 2000000 nodes and 2 edges needs", m)) {
			t.Fatalf("%s: %v", m, err)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
			t.Fatalf("%s: %d bytes allocated before the refusal", m, got)
		}
	}
	t.Setenv("OHM_MEMORY", "")
	for _, m := range []Method{Curvature, FoSR} {
		est := map[Method]uint64{Curvature: CurvatureBytes(n, 2, false, 2), FoSR: FoSRBytes(n, 2)}[m]
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		plan := must(NewPlan(g, Config{Method: m, Budget: 1, Workers: 2}))
		if _, err := plan.Run(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if peak := after.TotalAlloc - before.TotalAlloc; peak > est {
			t.Errorf("%s: allocated %s, estimate %s", m, sysmem.FormatBytes(peak), sysmem.FormatBytes(est))
		}
	}
}
