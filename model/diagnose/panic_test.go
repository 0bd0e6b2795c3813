package diagnose

import (
	"errors"
	"testing"

	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/gnn"
)

// TestRunAllWorkerPanic: a panic in a training worker (here in OnTrained,
// which the worker calls) comes back from RunAll as a
// *parallel.PanicError, not a crash of the process.
func TestRunAllWorkerPanic(t *testing.T) {
	ds := []*dataset.Dataset{dataset.Bottleneck(dataset.SynthOptions{})}
	spec := Spec{Kind: gnn.GCN, Depths: []int{1}, Seeds: []uint64{0}, Workers: 2, OnTrained: func() { panic("on trained") }}
	_, err := RunAll(ds, Plan{Methods: []string{MethodNone}}, spec)
	var p *parallel.PanicError
	if !errors.As(err, &p) || p.Value != "on trained" {
		t.Fatalf("err %v, want a *parallel.PanicError of OnTrained's panic", err)
	}
}
