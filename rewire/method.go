package rewire

import (
	"fmt"
	"math"
	"strings"
)

// Method is a rewiring operator of SPEC §3.
type Method string

// The resistance operators.
const (
	ERR    Method = "err"     // Resistance (add & remove)
	ERRHop Method = "err-hop" // Resistance per hop (add & remove)
	Res    Method = "res"     // Resistance (add only)
	ResHop Method = "res-hop" // Resistance per hop (add only)
)

// Curvature is the baseline operator of SPEC §3: curvature rewiring with
// exact Ollivier–Ricci curvature (one addition across the least-curved edge
// and one removal of the most-curved edge per iteration). It is not in
// Methods, which lists the resistance operators; Run runs it with its own
// loop (curvature_rewire.go, on package curvature's State), α from
// Config.Alpha.
const Curvature Method = "curvature"

// The baselines beyond the paper (add only, undirected): greedy total
// resistance rewiring and first-order spectral rewiring.
const (
	GTR  Method = "gtr"  // Black et al., ICML 2023 (gtr.go)
	FoSR Method = "fosr" // Karhadkar et al., ICLR 2023 (fosr.go)
)

// Methods lists the resistance operators in the order reports use; code
// that loops over Methods means the four resistance operators of SPEC §3.
var Methods = []Method{Res, ResHop, ERR, ERRHop}

// AllMethods lists every operator ParseMethod knows (and Run runs):
// Methods, the curvature baseline, then GTR and FoSR.
var AllMethods = []Method{Res, ResHop, ERR, ERRHop, Curvature, GTR, FoSR}

// UndirectedOnly reports whether the method rewires undirected graphs only.
func (m Method) UndirectedOnly() bool { return m == GTR || m == FoSR }

// ParseMethod returns the method named s (any of AllMethods, case
// insensitive), or an error listing the known ones.
func ParseMethod(s string) (Method, error) {
	for _, m := range AllMethods {
		if string(m) == strings.ToLower(s) {
			return m, nil
		}
	}
	names := make([]string, len(AllMethods))
	for i, m := range AllMethods {
		names[i] = string(m)
	}
	return "", fmt.Errorf("unknown method %q (known: %s)", s, strings.Join(names, ", "))
}

// Removes reports whether the method removes an edge each iteration.
func (m Method) Removes() bool { return m == ERR || m == ERRHop || m == Curvature }

// UsesEngine reports whether the method reads a resistance engine (err,
// err-hop, res, res-hop, gtr); curvature and fosr do not.
func (m Method) UsesEngine() bool { return m != Curvature && m != FoSR }

// Sketchable reports whether the sketch engine runs the method (err, res).
func (m Method) Sketchable() bool { return m == ERR || m == Res }

// PerHop reports whether the method scores pairs by resistance per hop.
func (m Method) PerHop() bool { return m == ERRHop || m == ResHop }

// Budget returns B = floor(r·E0), the number of iterations, guarded against
// rounding (0.1·280 gives 28, 0.29·100 gives 29, not 28). It panics unless
// 0 < r ≤ 1 (Config.Validate reports that as an error first).
func Budget(r float64, e0 int) int {
	if !(r > 0 && r <= 1) {
		panic(fmt.Sprintf("rewire: budget %v outside (0, 1]", r))
	}
	return int(math.Floor(r*float64(e0) + 1e-9))
}
