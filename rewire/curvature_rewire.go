package rewire

import (
	"fmt"
	"time"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/rewire/curvature"
)

// runCurvature is Run for the curvature baseline of SPEC §3: B =
// floor(cfg.Budget·E0) iterations, α the laziness of the measures
// (*cfg.Alpha, curvature.DefaultAlpha when nil), afterEdit a hook called
// after every edit (tests; nil elsewhere). It fills the same Result, log and
// summary fields as the resistance operators. One iteration drives a
// curvature.State through its two steps:
//
//  1. Addition: the underlying edges (u,v), u < v, in ascending κ (ties by
//     the rule of SPEC §3); for the first that has candidates — pairs (i,j),
//     i ∈ N(u)∖{v}, j ∈ N(v)∖{u}, i ≠ j, {i,j} not an edge (directed:
//     neither arc) — the candidate whose addition leaves κ(u,v) largest is
//     added (directed: the arc i→j); ties row-major (undirected candidates
//     are unordered pairs, taken as (min, max)). At most
//     curvature.MaxCandidates are evaluated: those at current distance 3
//     first, then 2, each group row-major. The edit's score is that largest
//     κ(u,v).
//  2. Removal: on the graph after the addition, the underlying edges in
//     descending κ (ties by the rule); the first whose removal keeps the
//     component count — undirected: it is not a bridge; directed: the arc
//     x→y (x < y) if it exists and its removal keeps the SCC partition,
//     else y→x under the same condition — is removed. The edge added in
//     this iteration is not a candidate (removing it would undo the
//     addition, and the run would repeat itself). The edit's score is the
//     removed edge's κ.
//
// After each edit κ is recomputed only for the edges it can change (see
// curvature.State.Add): the incremental engine (cfg.Engine "" or
// Incremental). The Exact engine recomputes every κ after every edit
// instead; both make the same decisions with the same scores.
// cfg.WithinComponents changes nothing (candidates lie within distance 3 of
// each other). An iteration that changes nothing stops the run. Each
// iteration costs the ranking (O(m)), at most 256 curvature evaluations of
// (u,v) and the recomputation of the edges near the two edits, spread over
// cfg.Workers goroutines.
func runCurvature(g *linalg.Graph, cfg Config, alpha float64, afterEdit func(s *curvature.State)) (*Result, error) {
	if cfg.Method != Curvature {
		return nil, fmt.Errorf("runCurvature runs method %s, not %q", Curvature, cfg.Method)
	}
	if err := cfg.Validate(g.Directed()); err != nil {
		return nil, err
	}
	if err := curvature.ValidateAlpha(alpha); err != nil {
		return nil, err
	}
	t0 := time.Now()
	s := curvature.NewState(g, alpha, cfg.Workers, cfg.Engine == Exact)
	res := &Result{E0: g.E0(), Budget: Budget(cfg.Budget, g.E0())}
	var edits []Edit
	for it := 1; it <= res.Budget; it++ {
		if why := cfg.stopBefore(it); why != "" {
			res.StoppedEarly = why
			break
		}
		edits = edits[:0]
		added := incremental.Pair{U: -1, V: -1}
		if a, ok := s.ChooseAddition(); ok {
			if err := s.Add(a.U, a.V); err != nil {
				return nil, fmt.Errorf("iteration %d: %w", it, err)
			}
			edits = append(edits, edit(s.Graph(), it, "add", a))
			added = a
			if afterEdit != nil {
				afterEdit(s)
			}
		}
		if r, ok := s.ChooseRemoval(added); ok {
			if err := s.Remove(r.U, r.V); err != nil {
				return nil, fmt.Errorf("iteration %d: %w", it, err)
			}
			edits = append(edits, edit(s.Graph(), it, "remove", r))
			if afterEdit != nil {
				afterEdit(s)
			}
		}
		res.Iterations = it
		if len(edits) == 0 {
			res.StoppedEarly = fmt.Sprintf("iteration %d changed nothing: no edge has a candidate addition and no edge could be removed without splitting its component", it)
			break
		}
		res.record(edits)
		if cfg.OnIteration != nil {
			cfg.OnIteration(it, s.Graph(), edits)
		}
	}
	res.Graph = s.Graph().Clone()
	res.AddedNet, res.RemovedNet = NetChange(g, res.Graph)
	res.Seconds = time.Since(t0).Seconds()
	return res, nil
}
