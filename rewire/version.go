package rewire

import (
	"cmp"
	"strconv"
	"strings"
)

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

// resistanceVersion is the version of err and res: rewire-3 directed
// (directedVersion), rewire-1 undirected.
func resistanceVersion(directed bool) string {
	if directed {
		return directedVersion
	}
	return firstVersion(directed)
}

// perHopVersion is the version of err-hop and res-hop: rewire-2 undirected
// (per-hop ties go to the larger R; pairs that give no edge are passed over
// for the next), rewire-3 directed (directedVersion).
func perHopVersion(directed bool) string {
	if directed {
		return directedVersion
	}
	return "rewire-2"
}

// directedVersion is the version of the directed forms of err, res, err-hop
// and res-hop: rewire-2 (case 2 may leave the SCC and merge SCCs; the
// per-hop rules above), then rewire-3, whose fast engine carries a bound on
// its residual between dense checks (definitions §2.2): the same decisions,
// the scores' last bits free where an exact solve moves.
const directedVersion = "rewire-3"

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
const SketchVersion = "20"

// CompareVersions orders two versions of rewiring decisions as RunVersion
// writes them, "NAME-N" or "NAME-N+sketch-M" (rewire-2, gtr-1,
// rewire-1+sketch-15): c is -1, 0 or +1 when a is older than, the same as
// or newer than b, numbers compared as numbers (rewire-10 is newer than
// rewire-9; with one NAME-N, the sketch's by M). ok is false when they do
// not compare: different names, one made by the sketch engine and the
// other not, or one not of this form. O(len(a) + len(b)).
func CompareVersions(a, b string) (c int, ok bool) {
	pa, na, sa, oka := parseVersion(a)
	pb, nb, sb, okb := parseVersion(b)
	if !oka || !okb || pa != pb || (sa < 0) != (sb < 0) {
		return 0, false
	}
	if na != nb {
		return cmp.Compare(na, nb), true
	}
	return cmp.Compare(sa, sb), true
}

// parseVersion splits "NAME-N[+sketch-M]" into NAME, N and M (-1 without
// the sketch part).
func parseVersion(v string) (name string, n, sketch int, ok bool) {
	base, sk, hasSketch := strings.Cut(v, "+sketch-")
	i := strings.LastIndexByte(base, '-')
	if i <= 0 {
		return "", 0, 0, false
	}
	name = base[:i]
	if n, ok = versionNumber(base[i+1:]); !ok {
		return "", 0, 0, false
	}
	sketch = -1
	if hasSketch {
		if sketch, ok = versionNumber(sk); !ok {
			return "", 0, 0, false
		}
	}
	return name, n, sketch, true
}

// versionNumber reads a version number: decimal digits only.
func versionNumber(s string) (int, bool) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}
