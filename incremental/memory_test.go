package incremental

import (
	"errors"
	"testing"

	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/linalg"
)

// TestDenseEngineRefused: a dense engine whose n² state exceeds the memory
// ceiling is refused with the size it needs, before allocating it.
func TestDenseEngineRefused(t *testing.T) {
	t.Setenv("OHM_MEMORY", "64M")
	g := linalg.NewGraph(5000, false)
	for i := 1; i < 5000; i++ {
		g.AddEdge(i-1, i)
	}
	var me *sysmem.Error
	if _, err := NewUndirected(g, Options{}); !errors.As(err, &me) || me.Need != DenseBytes(5000, false, false) {
		t.Fatalf("undirected: %v", err)
	}
	d := linalg.NewGraph(5000, true)
	if _, err := NewDirected(d, Options{PerHop: true}); !errors.As(err, &me) || me.Need != DenseBytes(5000, true, true) {
		t.Fatalf("directed: %v", err)
	}
}

// TestMemoryCheckedSkipsProbe: with Options.MemoryChecked the constructors
// trust the caller's check and build an engine the probe would refuse.
func TestMemoryCheckedSkipsProbe(t *testing.T) {
	t.Setenv("OHM_MEMORY", "1K") // below DenseBytes(20) = 11 200 bytes
	for _, directed := range []bool{false, true} {
		g := linalg.NewGraph(20, directed)
		for i := 1; i < 20; i++ {
			g.AddEdge(i-1, i)
			g.AddEdge(i, i-1)
		}
		build := func(opt Options) error {
			if directed {
				_, err := NewDirected(g, opt)
				return err
			}
			_, err := NewUndirected(g, opt)
			return err
		}
		var me *sysmem.Error
		if err := build(Options{Workers: 1}); !errors.As(err, &me) {
			t.Errorf("directed %v: probed: %v, want a *sysmem.Error", directed, err)
		}
		if err := build(Options{Workers: 1, MemoryChecked: true}); err != nil {
			t.Errorf("directed %v: memory checked: %v", directed, err)
		}
	}
}
