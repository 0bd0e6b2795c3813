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
