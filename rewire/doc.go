// Package rewire holds the rewiring operators of SPEC §3 — err, err-hop, res,
// res-hop and the curvature baseline — and the GTR and FoSR baselines, with
// their budgets, edit logs and code versions (CodeVersion). Run runs them
// all; the resistance operators drive an incremental.Engine and take every
// decision from the scores of the current graph, ranked by package
// incremental/rank.
package rewire
