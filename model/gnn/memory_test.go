package gnn

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/internal/sysmem"
)

// TestModelBytesBoundsLiveHeap: the estimate is at least the heap a
// trainer holds after an epoch (what the check refuses on), for both model
// kinds and with PairNorm, and not more than four times it.
func TestModelBytesBoundsLiveHeap(t *testing.T) {
	d := synthPlanetoid(3000, 500, 5, 10, 12000, 1)
	for _, tc := range []struct {
		kind     Kind
		layers   int
		hidden   int
		pairnorm bool
	}{{GCN, 2, 256, false}, {GCN, 4, 128, true}, {DirGCN, 3, 128, false}} {
		data, err := NewData(d, nil, tc.kind, FeaturesRow)
		if err != nil {
			t.Fatal(err)
		}
		cfg := Defaults("x")
		cfg.Kind, cfg.Layers, cfg.Hidden, cfg.PairNorm, cfg.Epochs = tc.kind, tc.layers, tc.hidden, tc.pairnorm, 1
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		tr, err := NewTrainer(data, cfg, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		tr.Epoch()
		runtime.GC()
		runtime.ReadMemStats(&after)
		live := after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
		_, f := data.X.Dims()
		est := ModelBytes(Architecture{Kind: tc.kind, Layers: tc.layers, In: f, Hidden: tc.hidden, Classes: data.Classes}, data.Ops.N)
		if est < live || est > 4*live {
			t.Errorf("%v L=%d h=%d: estimate %s, live heap %s", tc.kind, tc.layers, tc.hidden, sysmem.FormatBytes(est), sysmem.FormatBytes(live))
		}
		runtime.KeepAlive(tr)
	}
}

// TestTrainRefusedBeforeAllocating: a width or depth beyond the budget is
// refused with a *sysmem.Error before any weight is drawn, and absurd sizes
// do not overflow the estimate.
func TestTrainRefusedBeforeAllocating(t *testing.T) {
	t.Setenv("OHM_MEMORY", "256M")
	data, err := NewData(synthPlanetoid(2708, 1433, 7, 18, 10556, 1), nil, GCN, FeaturesRow)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ layers, hidden int }{{2, 1_000_000}, {1_000_000, 16}, {1 << 30, 1 << 30}, {2, 100_000}} {
		cfg := Defaults("cora")
		cfg.Layers, cfg.Hidden = tc.layers, tc.hidden
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := TrainRuns(data, cfg, Runs(2, []int{0}), 2, nil)
		runtime.ReadMemStats(&after)
		var me *sysmem.Error
		if !errors.As(err, &me) || me.Need <= 256<<20 || !strings.Contains(err.Error(), "runs at once of a gcn") {
			t.Fatalf("L=%d hidden=%d: %v", tc.layers, tc.hidden, err)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
			t.Fatalf("L=%d hidden=%d: %d bytes allocated before the refusal", tc.layers, tc.hidden, got)
		}
	}
}

// TestTrainContextStopsWithinAnEpoch: a context cancelled during a run of
// a million epochs stops it before its next epoch; TrainRunsContext then
// returns no result of it, with the context's error.
func TestTrainContextStopsWithinAnEpoch(t *testing.T) {
	data, err := NewData(synthPlanetoid(500, 50, 3, 5, 2000, 1), nil, GCN, FeaturesRow)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Defaults("x")
	cfg.Epochs = 1_000_000
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	t0 := time.Now()
	res, err := TrainRunsContext(ctx, data, cfg, Runs(2, []int{0}), 2, nil)
	if took := time.Since(t0); took > 5*time.Second || !errors.Is(err, context.Canceled) || len(res) != 0 {
		t.Fatalf("after %v: %d results, %v", took, len(res), err)
	}
}
