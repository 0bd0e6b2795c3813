package rewire

import (
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

// Small graphs and helpers shared by the tests (package curvature's tests
// hold copies of those they use).

func cycleGraph(t *testing.T, n int, directed bool) *linalg.Graph {
	var es [][2]int
	for i := range n {
		es = append(es, [2]int{i, (i + 1) % n})
	}
	return mustGraph(t, n, directed, es...)
}

func pathGraph(t *testing.T, n int) *linalg.Graph {
	var es [][2]int
	for i := 0; i+1 < n; i++ {
		es = append(es, [2]int{i, i + 1})
	}
	return mustGraph(t, n, false, es...)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
