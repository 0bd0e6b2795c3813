// Package rewire rewires graphs: the resistance operators of definitions
// §3.3 (err, err-hop, res, res-hop), the curvature baseline (§3.4, its κ in
// package rewire/curvature) and the GTR and FoSR baselines (§3.5), with
// their budgets, edit logs and code versions.
//
// A run is planned once and then run: NewPlan checks a Config (a
// *ConfigError names the field at fault), fixes the budget B = floor(r·E0)
// and chooses the resistance engine with its reason; Plan.Run drives the
// method's operator through one loop shared by every method. Run does both.
// Each method's facts — the forms it rewires, whether it removes, the
// engines that run it, its code version — are one entry of a registry
// (Method.Info). NewEngine is the one constructor of every resistance engine
// (incremental, exact, sketch), for the operators and for ohm resistance.
// The resistance operators take every decision from the scores of the
// current graph, ranked by package incremental/rank.
package rewire
