package rewire

import (
	"fmt"
	"math"
	"strings"
)

// Method names a rewiring method (definitions §3).
type Method string

// The resistance operators of definitions §3.3.
const (
	ERR    Method = "err"     // Resistance (add & remove)
	ERRHop Method = "err-hop" // Resistance per hop (add & remove)
	Res    Method = "res"     // Resistance (add only)
	ResHop Method = "res-hop" // Resistance per hop (add only)
)

// The baselines: curvature rewiring with exact Ollivier–Ricci curvature
// (definitions §3.4: one addition across the least-curved edge, one removal
// of the most-curved edge per iteration), and the add-only undirected
// baselines beyond the paper (definitions §3.5): greedy total resistance
// rewiring and first-order spectral rewiring.
const (
	Curvature Method = "curvature"
	GTR       Method = "gtr"  // Black et al., ICML 2023
	FoSR      Method = "fosr" // Karhadkar et al., ICLR 2023
)

// MethodInfo is what ohm knows of one method: the forms it rewires, what
// its iterations do, the engines that can run it, the version of the code
// that makes its decisions and the operator that makes them. The registry
// (Method.Info) holds one per method; nothing else tests a method's name.
type MethodInfo struct {
	Name Method
	// Directed reports whether the method rewires the directed form too
	// (every method rewires the undirected form).
	Directed bool
	// Removes reports whether an iteration removes an edge.
	Removes bool
	// PerHop reports whether pairs are scored by resistance per hop.
	PerHop bool
	// Resistance reports whether the method reads a resistance engine
	// (the plan chooses which); curvature and fosr keep their own state.
	Resistance bool
	// Sketch reports whether the sketch engine runs the method.
	Sketch bool
	// Exact reports whether the method has an exact engine (recompute
	// everything every iteration: the oracle of its incremental one).
	Exact bool
	// version returns the code version of the method's decisions on a
	// graph of the given form (CodeVersion).
	version func(directed bool) string
	// operator builds the method's state for a plan (the driver, Plan.Run,
	// runs it).
	operator func(p *Plan) (operator, error)
}

// registry lists every method, in the order of AllMethods.
var registry = []MethodInfo{
	{Name: Res, Directed: true, Resistance: true, Sketch: true, Exact: true,
		version: resistanceVersion, operator: newResistanceOperator},
	{Name: ResHop, Directed: true, PerHop: true, Resistance: true, Exact: true,
		version: perHopVersion, operator: newResistanceOperator},
	{Name: ERR, Directed: true, Removes: true, Resistance: true, Sketch: true, Exact: true,
		version: resistanceVersion, operator: newResistanceOperator},
	{Name: ERRHop, Directed: true, Removes: true, PerHop: true, Resistance: true, Exact: true,
		version: perHopVersion, operator: newResistanceOperator},
	{Name: Curvature, Directed: true, Removes: true, Exact: true,
		version: firstVersion, operator: newCurvatureOperator},
	{Name: GTR, Resistance: true,
		version: func(bool) string { return "gtr-1" }, operator: newResistanceOperator},
	{Name: FoSR,
		version: func(bool) string { return "fosr-1" }, operator: newFoSROperator},
}

// Methods lists the resistance operators in the order reports use; code
// that loops over Methods means the four resistance operators of
// definitions §3.3.
var Methods = []Method{Res, ResHop, ERR, ERRHop}

// AllMethods lists every method ParseMethod knows (and Run runs): Methods,
// the curvature baseline, then GTR and FoSR.
var AllMethods = func() []Method {
	ms := make([]Method, len(registry))
	for i, info := range registry {
		ms[i] = info.Name
	}
	return ms
}()

// Info returns the registry's entry of m; the zero MethodInfo (Name "")
// when m is not a method. O(len(AllMethods)).
func (m Method) Info() MethodInfo {
	for _, info := range registry {
		if info.Name == m {
			return info
		}
	}
	return MethodInfo{}
}

// ParseMethod returns the method named s (any of AllMethods, case
// insensitive), or a *ConfigError listing the known ones.
func ParseMethod(s string) (Method, error) {
	if info := Method(strings.ToLower(s)).Info(); info.Name != "" {
		return info.Name, nil
	}
	names := make([]string, len(AllMethods))
	for i, m := range AllMethods {
		names[i] = string(m)
	}
	return "", &ConfigError{Field: FieldMethod, Value: s, Reason: "unknown (known: " + strings.Join(names, ", ") + ")"}
}

// Budget returns B = floor(r·E0), the number of iterations, guarded against
// rounding (0.1·280 gives 28, 0.29·100 gives 29, not 28). It panics unless
// 0 < r ≤ 1 (NewPlan reports that as a *ConfigError first).
func Budget(r float64, e0 int) int {
	if !(r > 0 && r <= 1) {
		panic(fmt.Sprintf("rewire: budget %v outside (0, 1]", r))
	}
	return int(math.Floor(r*float64(e0) + 1e-9))
}
