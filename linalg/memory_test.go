package linalg

import (
	"errors"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/internal/sysmem"
)

// TestGraphSizeRefused: node counts beyond int32 ids or beyond the memory
// ceiling are refused before anything is allocated (the ceiling of 256 MiB
// keeps a regression from taking the machine down: the 10⁸-node graph would
// take gigabytes).
func TestGraphSizeRefused(t *testing.T) {
	t.Setenv("OHM_MEMORY", "256M")
	if _, err := FromEdges(MaxNodes+1, false, nil); err == nil || !strings.Contains(err.Error(), "int32") {
		t.Fatalf("2³¹ nodes: %v", err)
	}
	_, err := FromEdges(100_000_000, false, []Edge{{0, 1}})
	var me *sysmem.Error
	if !errors.As(err, &me) || me.Have > 256<<20 || !strings.Contains(err.Error(), "(OHM_MEMORY=256M, ") {
		t.Fatalf("10⁸ nodes under 256 MiB: %v", err)
	}
	if _, err := FromEdges(1000, true, []Edge{{0, 1}}); err != nil {
		t.Fatalf("1000 nodes refused: %v", err)
	}
}
