package incremental

import (
	"errors"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

// TestDirectedFailureReachesCommit: a solve failure kept where no error can
// be returned (fail, as RAfterAdd, MinRAfterAdd and Skip record it) is the
// engine's Err and Commit's error, and the first one is kept.
func TestDirectedFailureReachesCommit(t *testing.T) {
	g := linalg.NewGraph(3, true)
	g.AddEdge(0, 1)
	g.AddEdge(1, 2)
	g.AddEdge(2, 0)
	e, err := NewDirected(g, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if e.Err() != nil {
		t.Fatalf("Err %v on a fresh engine", e.Err())
	}
	first, second := errors.New("first"), errors.New("second")
	e.fail(first)
	e.fail(second)
	e.Begin()
	if err := e.Commit(); err != first || e.Err() != first {
		t.Errorf("Commit %v, Err %v; want %v", err, e.Err(), first)
	}
}
