package sketch

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// TestSketchRefusedBeforeAllocating: a graph whose estimated peak exceeds
// the memory available is refused with that estimate and the limit, a
// *sysmem.Error, before the engine allocates anything of the
// graph's size (its copy of the graph alone would take megabytes here).
func TestSketchRefusedBeforeAllocating(t *testing.T) {
	const n = 200_000
	g := linalg.NewGraph(n, false)
	for i := 1; i < n; i++ {
		g.AddEdge(i-1, i)
	}
	t.Setenv("OHM_MEMORY", "64M")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := New(g, Options{Workers: 2})
	runtime.ReadMemStats(&after)
	var me *sysmem.Error
	if !errors.As(err, &me) || me.Need != Bytes(n, n-1, Options{Workers: 2}) || me.Have > 64<<20 ||
		!strings.Contains(err.Error(), "the sketch resistance engine on 200000 nodes and 199999 edges needs") {
		t.Fatalf("New under 64 MiB: %v", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Fatalf("New allocated %d bytes before it refused", got)
	}
}

// TestSketchBytesBoundsLiveHeap: the estimate is at least the heap the
// engine keeps after a round's start and some edits, on graphs of two
// shapes, and grows with the options that size its parts.
func TestSketchBytesBoundsLiveHeap(t *testing.T) {
	for _, tc := range []struct {
		name string
		gen  func() (*graphgen.Graph, error)
	}{
		{"SBM", func() (*graphgen.Graph, error) { return graphgen.SBMByDegree(3000, 4, 12, 0.8, 1) }},
		{"RGG", func() (*graphgen.Graph, error) { return graphgen.RGG(3000, 0.04, 1) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gg, err := tc.gen()
			if err != nil {
				t.Fatal(err)
			}
			g, err := linalg.FromEdges(gg.N, false, gg.Edges)
			if err != nil {
				t.Fatal(err)
			}
			opt := Options{Workers: 2, MaxKept: 512, Removes: true, Round: 64}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			e, err := New(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			for range 8 { // iterations of err: add the farthest pair, remove the lightest edge
				e.Begin()
				if p, ok := e.MaxPair(); ok {
					if err := e.Add(p.U, p.V); err != nil {
						t.Fatal(err)
					}
				}
				if p, ok := e.MinEdge(nil); ok {
					if err := e.Remove(p.U, p.V); err != nil {
						t.Fatal(err)
					}
				}
				if err := e.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			live := after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
			est := Bytes(g.N(), g.NumEdges(), opt)
			if live > est {
				t.Fatalf("live heap %s above the estimate %s", sysmem.FormatBytes(live), sysmem.FormatBytes(est))
			}
			runtime.KeepAlive(e)
			t.Logf("live heap %s, estimate %s", sysmem.FormatBytes(live), sysmem.FormatBytes(est))
		})
	}
	base := Bytes(100_000, 1_000_000, Options{})
	for _, opt := range []Options{{Rows: 384}, {Workers: 4}, {MaxKept: 16384}} {
		if Bytes(100_000, 1_000_000, opt) <= base {
			t.Errorf("Bytes with %+v not above the defaults'", opt)
		}
	}
}
