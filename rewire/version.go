package rewire

// CodeVersion returns the version of the rewiring code that makes the
// decisions of method m on a graph of the given form (definitions §3.6);
// "rewire-1" for a name that is no method ("none", the original graph, in
// the sweeps). Every cached graph and every result of a sweep carries it,
// and a result of another version is never reused, counted as done or
// mixed into a report (definitions §6). A change that can alter a method's
// decisions bumps the version of exactly the methods and forms it can
// alter (the registry's version functions below); CHANGELOG.md says what
// each version changed. O(len(AllMethods)).
func CodeVersion(m Method, directed bool) string {
	info := m.Info()
	if info.Name == "" {
		return firstVersion(directed)
	}
	return info.version(directed)
}

// firstVersion is the first code's version: still that of curvature in
// both forms and of undirected err and res.
func firstVersion(bool) string { return "rewire-1" }

// resistanceVersion is the version of err and res: rewire-2 directed
// (case 2 may leave the SCC and merge SCCs), rewire-1 undirected.
func resistanceVersion(directed bool) string {
	if directed {
		return "rewire-2"
	}
	return firstVersion(directed)
}

// perHopVersion is the version of err-hop and res-hop in both forms
// (rewire-2: per-hop ties go to the larger R; pairs that give no edge are
// passed over for the next).
func perHopVersion(bool) string { return "rewire-2" }

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
// whenever its choice of candidates, hence its decisions, can change
// (CHANGELOG.md lists what each version changed).
const SketchVersion = "15"
