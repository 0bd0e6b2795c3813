package rewire

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/incremental/sketch"
	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// countdownCtx is a context whose Err is nil for its first left calls and
// context.Canceled from then on: a stop that arrives at a chosen point of
// the work, the same on every run (Err is all Plan.Run asks of it).
type countdownCtx struct {
	context.Context
	left  atomic.Int64
	calls atomic.Int64
}

func (c *countdownCtx) Err() error {
	c.calls.Add(1)
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestSketchStopInsideIteration: a context that ends inside an iteration
// of the sketch engine (in a round's start or the solves of an edit) ends
// the run there, and the result is the iterations made before it — the
// prefix of the uninterrupted run, its graph the input with that prefix
// replayed — or, when it ends during the set-up, the context's error.
// The stop points run from the set-up's first solve to the last rounds.
func TestSketchStopInsideIteration(t *testing.T) {
	g := mustFrom(t, must(graphgen.SBM(600, 3, 0.03, 0.002, 5)))
	cfg := Config{Method: ERR, Edits: 40, Engine: Sketch, Workers: 1,
		Sketch: sketch.Options{Round: 6, Candidates: 32, Seed: 2}}
	full, err := Run(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	count := &countdownCtx{Context: context.Background()}
	count.left.Store(1 << 40)
	cfg.Context = count
	again, err := Run(g, cfg)
	if err != nil || !slices.Equal(again.Log, full.Log) {
		t.Fatalf("a context that never ends changed the run: %v", err)
	}
	calls := count.calls.Load()
	var setup, during int
	points := []int64{1, 2, 5, calls - 3}
	for k := int64(1); k < 16; k++ { // through the rounds, the edits' solves and the grown kept sets
		points = append(points, calls*k/16+k)
	}
	for _, at := range points {
		t.Run(fmt.Sprint(at), func(t *testing.T) {
			ctx := &countdownCtx{Context: context.Background()}
			ctx.left.Store(at)
			cfg.Context = ctx
			res, err := Run(g, cfg)
			if err != nil {
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("error %v, want the context's", err)
				}
				setup++
				return
			}
			if !strings.HasPrefix(res.StoppedEarly, "interrupted") {
				t.Fatalf("stopped early %q after %d of %d Err calls", res.StoppedEarly, at, calls)
			}
			if strings.Contains(res.StoppedEarly, "during") {
				during++
			}
			want := full.Prefix(g, res.Iterations)
			if !slices.Equal(res.Log, want.Log) || !res.Graph.Equal(want.Graph) {
				t.Fatalf("interrupted after %d iterations: log or graph differ from the full run's prefix", res.Iterations)
			}
		})
	}
	if setup == 0 || during == 0 {
		t.Errorf("stop points: %d in the set-up, %d inside an iteration; want both", setup, during)
	}
	t.Logf("%d Err calls in the run; %d stops in the set-up, %d inside an iteration", calls, setup, during)
}

// TestSketchStopLatency: cancelling the context 0.3 s into the set-up of
// the sketch engine on a 2·10⁴-node graph (a round start of seconds)
// ends the run within a second with the context's error.
func TestSketchStopLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a round start of seconds")
	}
	g := mustFrom(t, must(graphgen.RGGByDegree(20000, 8, 3)))
	ctx, cancel := context.WithCancel(context.Background())
	cfg := Config{Method: ERR, Edits: 3, Engine: Sketch, Workers: 1, Context: ctx,
		Sketch: sketch.Options{Rows: 256, Probes: 256, Candidates: 512, Seed: 1}}
	time.AfterFunc(300*time.Millisecond, cancel)
	t0 := time.Now()
	_, err := Run(g, cfg)
	took := time.Since(t0)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v after %v, want the context's (is the set-up shorter than 0.3 s?)", err, took)
	}
	if took > 1300*time.Millisecond {
		t.Errorf("the run ended %v after it started, %v after the cancel; want within 1 s", took, took-300*time.Millisecond)
	}
}

// TestCurvatureStopInSetUp: a context that ends during the curvature
// operator's set-up (κ of every edge) ends the run there with the
// context's error; one that never ends changes nothing.
func TestCurvatureStopInSetUp(t *testing.T) {
	g := mustFrom(t, must(graphgen.SBM(300, 3, 0.1, 0.01, 4)))
	cfg := Config{Method: Curvature, Edits: 5, Workers: 2}
	full, err := Run(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	never := &countdownCtx{Context: context.Background()}
	never.left.Store(1 << 40)
	cfg.Context = never
	again, err := Run(g, cfg)
	if err != nil || !slices.Equal(again.Log, full.Log) {
		t.Fatalf("a context that never ends changed the run: %v", err)
	}
	for _, at := range []int64{0, 3} {
		ctx := &countdownCtx{Context: context.Background()}
		ctx.left.Store(at)
		cfg.Context = ctx
		if _, err := Run(g, cfg); !errors.Is(err, context.Canceled) {
			t.Errorf("context ended after %d checks: error %v, want the context's", at, err)
		}
	}
}
