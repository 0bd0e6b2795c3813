package exact

import (
	"errors"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"gonum.org/v1/gonum/mat"
)

// TestRecomputationFails: when the recomputation after an edit fails,
// Commit returns the error (wrapped), Err keeps it, and the reads return
// nothing instead of panicking; a failure inside ResistanceAfterAdd is kept
// the same way. Both forms.
func TestRecomputationFails(t *testing.T) {
	boom := errors.New("solve failed")
	defer func(m func(*linalg.Graph) ([]int, *mat.SymDense, error)) { computeMatrix = m }(computeMatrix)
	for _, directed := range []bool{false, true} {
		computeMatrix = matrix
		g := linalg.NewGraph(4, directed)
		for i := range 4 {
			g.AddEdge(i, (i+1)%4)
		}
		e, err := New(g, Options{PerHop: true})
		if err != nil {
			t.Fatal(err)
		}
		computeMatrix = func(*linalg.Graph) ([]int, *mat.SymDense, error) { return nil, nil, boom }
		if _, ok := e.ResistanceAfterAdd(0, 2, 0, 2); ok || !errors.Is(e.Err(), boom) {
			t.Errorf("directed %v: ResistanceAfterAdd %v, Err %v", directed, ok, e.Err())
		}
		e.err = nil
		e.Begin()
		if err := e.Add(0, 2); err != nil {
			t.Fatal(err)
		}
		if err := e.Commit(); !errors.Is(err, boom) || !errors.Is(e.Err(), boom) {
			t.Errorf("directed %v: Commit %v, Err %v", directed, err, e.Err())
		}
		if _, ok := e.MaxPair(); ok {
			t.Errorf("directed %v: MaxPair after a failure", directed)
		}
		if _, ok := e.Resistance(0, 1); ok || e.SameBlock(0, 1) {
			t.Errorf("directed %v: Resistance or SameBlock after a failure", directed)
		}
		computeMatrix = matrix
		if err := e.Commit(); !errors.Is(err, boom) {
			t.Errorf("directed %v: a later Commit forgot the failure: %v", directed, err)
		}
	}
}
