package rewire

// CodeVersion returns the version of the rewiring code that makes the
// decisions of method m on a graph of the given form ("none", the original
// graph, included). Every cached graph and every result of a sweep carries
// it, and a result of another version is never reused, counted as done or
// mixed into a report (SPEC §6). Bump the version of exactly the methods and
// forms whose decisions a change can alter:
//
//   - rewire-1: the first code; still the version of none, curvature (both
//     forms) and undirected err and res, whose decisions the changes since
//     have not altered (checked by comparing their edit logs on the four
//     datasets at 15 %).
//   - rewire-2: per-hop ties go to the larger R; pairs that give no edge
//     are passed over for the next; directed case 2 may leave the SCC and
//     merge SCCs (err-hop and res-hop in both forms, err and res directed).
//   - gtr-1, fosr-1: the first code of the GTR and FoSR baselines.
func CodeVersion(m Method, directed bool) string {
	switch {
	case m == GTR:
		return "gtr-1"
	case m == FoSR:
		return "fosr-1"
	case m.PerHop():
		return "rewire-2"
	case directed && (m == ERR || m == Res):
		return "rewire-2"
	}
	return "rewire-1"
}

// RunVersion is the version of a run's decisions: CodeVersion, with
// "+sketch-N" appended when the sketch engine made them (its decisions are
// exact only among its candidates, so they are never reported as the dense
// engines'). Summaries print it; sweeps and the graph cache never run the
// sketch engine and key on CodeVersion. SketchVersion is N.
func RunVersion(m Method, directed bool, e EngineKind) string {
	if e == Sketch {
		return CodeVersion(m, directed) + "+sketch-" + SketchVersion
	}
	return CodeVersion(m, directed)
}

// SketchVersion is the sketch engine's version in RunVersion: bumped
// whenever its choice of candidates, hence its decisions, can change.
// Version 12 is version 10's candidates again (removal candidates' two
// ends kept as nodes) on the faster solver: version 11 kept them as edges,
// which cost more time at scale than it saved (docs/sketch.md). Version
// 13 updates the bounds in batches of edits (their vectors solved side by
// side as blocks, the cover tested on the bounds of the graph before the
// batch until a node would be kept on their word), so the bounds, and
// through them the candidates, can differ in their last bits or, while a
// batch waits, by its edits. Version 14 solves in mixed precision (float32
// corrections refined to the same float64 residuals, blocks of 16) and
// batches 32 edits: every solution differs in its last digits, the bounds
// by the longer wait. Version 15 ends a solve on a residual taken from its
// last float32 correction (laplace's lower) where 14 recomputed it from the
// float64 iterate: the two differ by rounding, so a solve right at its
// tolerance could take one round more or less, and its solution differ.
// On every graph measured the decisions are 14's, edit log for edit log
// (the 10⁵-node SBM's first 1 000 iterations, the 10⁶-node SBM's whole
// budget of 10⁴), so 14's quality figures stand for 15.
const SketchVersion = "15"
