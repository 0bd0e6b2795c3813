package rewire

import (
	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/rewire/curvature"
)

// curvatureOperator makes the curvature baseline's iterations (definitions
// §3.4) on its κ state (package curvature):
//
//  1. Addition: the underlying edges (u,v), u < v, in ascending κ (ties by
//     the rule of definitions §3.1); for the first that has candidates —
//     pairs (i,j), i ∈ N(u)∖{v}, j ∈ N(v)∖{u}, i ≠ j, {i,j} not an edge
//     (directed: neither arc) — the candidate whose addition leaves κ(u,v)
//     largest is added (directed: the arc i→j); ties row-major. At most
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
// After each edit κ is recomputed only for the edges it can change; the
// Exact engine recomputes every κ after every edit instead, with the same
// decisions and scores. WithinComponents changes nothing (candidates lie
// within distance 3 of each other). Each iteration costs the ranking
// (O(m)), at most curvature.MaxCandidates curvature evaluations of (u,v)
// and the recomputation of the edges near the two edits, spread over the
// plan's workers.
type curvatureOperator struct {
	s *curvature.State
	// afterEdit, when set (tests), is called after every edit.
	afterEdit func(s *curvature.State)
	edits     []Edit
}

func newCurvatureOperator(p *Plan) (operator, error) {
	alpha := curvature.DefaultAlpha
	if p.Config.Curvature != nil {
		alpha = p.Config.Curvature.Alpha
	}
	if err := checkOperatorMemory(p); err != nil {
		return nil, err
	}
	opt := curvature.StateOptions{Alpha: alpha, Workers: p.Config.Workers, RecomputeAll: p.Engine == Exact}
	if ctx := p.Config.Context; ctx != nil {
		opt.Stop = ctx.Err // the set-up's κ of every edge ends within a chunk of the context's end
	}
	s := curvature.NewState(p.Graph, opt)
	if err := s.Err(); err != nil {
		return nil, err
	}
	return &curvatureOperator{s: s}, nil
}

func (o *curvatureOperator) graph() *linalg.Graph { return o.s.Graph() }

func (o *curvatureOperator) idle() string {
	return "no edge has a candidate addition and no edge could be removed without splitting its component"
}

func (o *curvatureOperator) iterate(it int) ([]Edit, error) {
	s := o.s
	o.edits = o.edits[:0]
	added := incremental.Pair{U: -1, V: -1}
	if a, ok := s.ChooseAddition(); ok {
		if err := s.Add(a.U, a.V); err != nil {
			return nil, err
		}
		o.edits = append(o.edits, edit(s.Graph(), it, "add", a))
		added = a
		o.edited()
	}
	if r, ok := s.ChooseRemoval(added); ok {
		if err := s.Remove(r.U, r.V); err != nil {
			return nil, err
		}
		o.edits = append(o.edits, edit(s.Graph(), it, "remove", r))
		o.edited()
	}
	return o.edits, nil
}

func (o *curvatureOperator) edited() {
	if o.afterEdit != nil {
		o.afterEdit(o.s)
	}
}

func (o *curvatureOperator) finish(*Result) error { return nil }
