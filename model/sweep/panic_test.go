package sweep

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/model/dataset"
)

// TestRunWorkerPanic: a panic in a training worker (here in OnRun, which
// the worker calls) ends the sweep with a *parallel.PanicError, not a
// crash of the process.
func TestRunWorkerPanic(t *testing.T) {
	load := func(name string, o dataset.SynthOptions) (*dataset.Dataset, error) { return dataset.Bottleneck(o), nil }
	spec := Spec{Datasets: []string{"bottleneck"}, Methods: []string{None}, Depths: []int{1}, Epochs: 1}
	opt := Options{Results: filepath.Join(t.TempDir(), "r.jsonl"), Load: load, Workers: 2,
		OnRun: func(Record) { panic("on run") }}
	_, err := Run(context.Background(), spec, opt)
	var p *parallel.PanicError
	if !errors.As(err, &p) || p.Value != "on run" {
		t.Fatalf("err %v, want a *parallel.PanicError of OnRun's panic", err)
	}
}
