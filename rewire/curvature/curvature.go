package curvature

import (
	"fmt"

	"github.com/ohmgnn/ohm/linalg"
)

// DefaultAlpha is the laziness α of the measures μx (see Curvatures) when
// none is given, as in the GraphRicciCurvature package.
const DefaultAlpha = 0.5

// EdgeKappa is the Ollivier–Ricci curvature κ of one edge {U, V}, U < V, of
// a graph's underlying undirected graph, as Curvatures and State.Edges
// return it.
type EdgeKappa struct {
	U     int     `json:"u"`
	V     int     `json:"v"`
	Kappa float64 `json:"kappa"`
}

// ValidateAlpha checks the laziness α of the measures μx (see Curvatures):
// nil for a number in [0, 1], else an error naming it. O(1).
func ValidateAlpha(alpha float64) error {
	if !(alpha >= 0 && alpha <= 1) {
		return fmt.Errorf("curvature: alpha %v outside [0, 1]", alpha)
	}
	return nil
}

// Curvatures returns the Ollivier–Ricci curvature
//
//	κ(x,y) = 1 − W1(μx, μy),  μx = α·δx + (1−α)/deg(x)·Σ_{z∈N(x)} δz,
//
// of every edge of g's underlying undirected graph (a directed g is read
// through its underlying undirected neighbourhoods; self-loops play no part),
// in row-major order (Edges of the underlying graph). W1 is the exact
// earth-mover distance with the shortest-path ground distance (see
// kappaWorker.kappa; Transport solves it). The edges are shared among
// workers goroutines (0: GOMAXPROCS); the result
// does not depend on their number. Cost: Σ over edges of a transport problem
// of size (deg x + 1)×(deg y + 1) plus the distances between the supports.
func Curvatures(g *linalg.Graph, alpha float64, workers int) ([]EdgeKappa, error) {
	if err := ValidateAlpha(alpha); err != nil {
		return nil, err
	}
	ug := g
	if g.Directed() {
		ug = g.Undirected()
	}
	es := ug.Edges()
	ks := make([]float64, len(es))
	kappaEdges(ug, es, alpha, workers, ks)
	out := make([]EdgeKappa, len(es))
	for k, e := range es {
		out[k] = EdgeKappa{U: e.U, V: e.V, Kappa: ks[k]}
	}
	return out, nil
}
