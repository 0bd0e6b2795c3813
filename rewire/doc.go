// Package rewire holds the rewiring operators of SPEC §3 — err, err-hop, res,
// res-hop and the curvature baseline — with their budgets and edit logs. They
// drive the resistance engines of package incremental and take every decision
// from the scores of the current graph, with SPEC §3's tie rule.
package rewire
