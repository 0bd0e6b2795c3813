package rewire

import (
	"context"
	"fmt"
	"strings"

	"github.com/ohmgnn/ohm/incremental/hops"
	"github.com/ohmgnn/ohm/incremental/sketch"
	"github.com/ohmgnn/ohm/linalg"
)

// Config is one rewiring run as asked for; NewPlan validates it and fixes
// what it leaves open.
type Config struct {
	Method Method
	// Budget is r in (0, 1]; the run makes B = floor(r·E0) iterations.
	// Zero when Edits is given.
	Budget float64
	// Edits, when positive, is B itself: the run makes that many
	// iterations whatever E0 is (FoSR's and BORF's way of tuning it;
	// definitions §3.8). Budget must then be zero.
	Edits int
	// WithinComponents restricts undirected pairs to one component.
	WithinComponents bool
	// Engine is the resistance engine; "" is Auto (Incremental when its
	// dense state fits in memory, else Sketch).
	Engine EngineKind
	// Sketch configures the sketch engine (Engine Sketch, or Auto when it
	// chooses it).
	Sketch sketch.Options
	// Curvature and FoSR are those methods' own options; nil means their
	// defaults. Given, they are validated whatever the method (and used
	// only by theirs).
	Curvature *CurvatureOptions
	FoSR      *FoSROptions
	// Workers for the O(n²) passes; 0: GOMAXPROCS.
	Workers int
	// MaxIterations, when positive, stops the run after that many
	// iterations even if the budget allows more (StoppedEarly says so).
	MaxIterations int
	// OnIteration, if set, is called after every iteration with its number,
	// the current graph (read-only) and the iteration's edits.
	OnIteration func(iteration int, g *linalg.Graph, edits []Edit)
	// Context, when set and done, stops the run before its next iteration;
	// on the sketch engine it also ends the iteration in flight within a
	// second (a round's start, minutes on 10⁶ nodes, is part of an
	// iteration: its solves watch the context, sketch.Options.Stop), and
	// that iteration is dropped. The result then holds the iterations made
	// before, and StoppedEarly says the run was interrupted. A set-up the
	// context ends returns its error.
	Context context.Context
	// memoryChecked: the caller (RunMany) found that this graph's dense
	// engine (EngineSpec.MemoryChecked), or its method's operator
	// (checkOperatorMemory), fits in memory.
	memoryChecked bool
	// checked: the caller (RunMany) has checked the Config (Check) for the
	// graphs' form, its method parsed: NewPlan skips both, graph by graph.
	checked bool
	// scratch, set by RunMany, is the worker's memory reused from one
	// graph to the next (nil: a run of its own).
	scratch *batchScratch
}

// CurvatureOptions are the curvature baseline's options (definitions §3.4).
type CurvatureOptions struct {
	// Alpha is the laziness α of the measures, in [0, 1] (0 is BORF's).
	Alpha float64
}

// FoSROptions are FoSR's options (definitions §3.5).
type FoSROptions struct {
	// Seed draws the random start vector (uniform in [−1, 1)).
	Seed uint64
	// X0, when not nil, is the start vector instead (one entry per node).
	X0 []float64
}

// Field names the part of a Config that a *ConfigError is about.
type Field string

// The fields a *ConfigError names.
const (
	FieldMethod           Field = "method"
	FieldBudget           Field = "budget"
	FieldEdits            Field = "edits"
	FieldMaxIterations    Field = "max iterations"
	FieldWithinComponents Field = "within components"
	FieldEngine           Field = "engine"
	FieldAlpha            Field = "alpha"
	FieldStartVector      Field = "start vector"
	FieldSeed             Field = "seed"
	FieldForm             Field = "form"
)

// ConfigError is a configuration that cannot run: the field, its value and
// why. Commands map the field to their own flag or argument name.
type ConfigError struct {
	Field  Field
	Value  any // the value given (nil when the field is a switch)
	Reason string
	Cause  error // the error behind Reason, if any (Unwrap)
}

// Unwrap is the error behind the configuration's failure, or nil.
func (e *ConfigError) Unwrap() error { return e.Cause }

func (e *ConfigError) Error() string {
	if e.Value == nil {
		return fmt.Sprintf("%s: %s", e.Field, e.Reason)
	}
	return fmt.Sprintf("%s %v: %s", e.Field, e.Value, e.Reason)
}

// Check validates c for a graph of the given form, before the graph is
// known: the method, the budget, the limits, the engine and the method's
// options. It returns the first problem as a *ConfigError. NewPlan checks
// with it; commands call it before they load a graph. O(len(X0)).
func (c Config) Check(directed bool) error {
	m, err := ParseMethod(string(c.Method))
	if err != nil {
		return err
	}
	info := m.Info()
	switch {
	case c.Edits < 0:
		return &ConfigError{Field: FieldEdits, Value: c.Edits, Reason: "must be ≥ 0"}
	case c.Edits > 0 && c.Budget != 0:
		return &ConfigError{Field: FieldEdits, Value: c.Edits, Reason: fmt.Sprintf("give either a budget fraction or a number of edits, not both (budget %v)", c.Budget)}
	case c.Edits == 0 && !(c.Budget > 0 && c.Budget <= 1):
		return &ConfigError{Field: FieldBudget, Value: c.Budget, Reason: "must lie in (0, 1] (a fraction of E0, e.g. 0.05)"}
	}
	if c.MaxIterations < 0 {
		return &ConfigError{Field: FieldMaxIterations, Value: c.MaxIterations, Reason: "must be ≥ 0"}
	}
	if directed && !info.Directed {
		return &ConfigError{Field: FieldForm, Reason: fmt.Sprintf("%s rewires undirected graphs only; use the undirected form", m)}
	}
	if c.WithinComponents && directed {
		return &ConfigError{Field: FieldWithinComponents, Reason: "applies to undirected graphs; directed pairs are always taken inside one strongly connected component"}
	}
	if err := checkEngine(c.Engine, directed, info.Exact, info.Sketch); err != nil {
		return err
	}
	if c.Curvature != nil && !(c.Curvature.Alpha >= 0 && c.Curvature.Alpha <= 1) {
		return &ConfigError{Field: FieldAlpha, Value: c.Curvature.Alpha, Reason: "must lie in [0, 1]"}
	}
	return nil
}

// Plan is a checked run: the configuration with everything it left open
// fixed — the budget B, the iterations allowed, the engine and why — made
// once, before the run. Run runs it.
type Plan struct {
	// Graph is the input graph (never modified, but by a batch given its
	// graphs: ManyOptions.InPlace).
	Graph *linalg.Graph
	// Config is the configuration as checked.
	Config Config
	// Method is the registry's entry of Config.Method.
	Method MethodInfo
	// B is floor(r·E0), or Config.Edits when given; Iterations the iterations the run may make: B, or
	// MaxIterations when smaller.
	B, Iterations int
	// Engine is the engine that will run: Auto resolved; for curvature,
	// Incremental (κ updated near each edit) or Exact (every κ anew); for
	// fosr, Incremental.
	Engine EngineKind
	// EngineReason says why Auto chose Engine ("" when Auto was not asked
	// for, or the method reads no resistance engine).
	EngineReason string
	// engine is the resistance engine's spec (Engine resolved).
	engine EngineSpec
}

// NewPlan checks cfg for g (Config.Check) and fixes the run: the method's
// canonical name, B, the
// iterations allowed and the engine, with the reason when Auto chose it.
// The error is a *ConfigError, or the start vector's length. O(1) beyond
// the check.
func NewPlan(g *linalg.Graph, cfg Config) (*Plan, error) {
	if !cfg.checked {
		if err := cfg.Check(g.Directed()); err != nil {
			return nil, err
		}
		cfg.Method, _ = ParseMethod(string(cfg.Method))
	}
	if f := cfg.FoSR; f != nil && f.X0 != nil && len(f.X0) != g.N() {
		return nil, &ConfigError{Field: FieldStartVector, Value: fmt.Sprintf("of %d entries", len(f.X0)), Reason: fmt.Sprintf("the graph has %d nodes", g.N())}
	}
	info := cfg.Method.Info()
	if info.PerHop {
		if err := hops.CheckNodes(g.N()); err != nil {
			return nil, &ConfigError{Field: FieldMethod, Value: cfg.Method, Reason: fmt.Sprintf("the graph has %d nodes; per-hop scores hold at most %d (16-bit hop distances): use %s on this graph", g.N(), hops.MaxNodes, strings.TrimSuffix(string(cfg.Method), "-hop"))}
		}
	}
	var p *Plan
	if cfg.scratch != nil {
		p = &cfg.scratch.plan // a batch's worker plans one graph at a time
	} else {
		p = new(Plan)
	}
	*p = Plan{Graph: g, Config: cfg, Method: info, B: cfg.Edits}
	if cfg.Edits == 0 {
		p.B = Budget(cfg.Budget, g.E0())
	}
	p.Iterations = p.B
	if cfg.MaxIterations > 0 && cfg.MaxIterations < p.B {
		p.Iterations = cfg.MaxIterations
	}
	p.engine = EngineSpec{Kind: cfg.Engine, PerHop: info.PerHop, GTR: cfg.Method == GTR, Removes: info.Removes,
		WithinComponents: cfg.WithinComponents, Workers: cfg.Workers, Sketch: cfg.Sketch,
		MemoryChecked: cfg.memoryChecked}
	switch {
	case info.Resistance:
		var why string
		p.engine, why = p.engine.Resolve(g)
		if cfg.Engine == "" || cfg.Engine == Auto {
			p.EngineReason = why
		}
		p.Engine = p.engine.Kind
	case cfg.Engine == Exact:
		p.Engine = Exact
	default:
		p.Engine = Incremental
	}
	return p, nil
}

// Version is the code version of the plan's decisions (RunVersion).
func (p *Plan) Version() string {
	return RunVersion(p.Config.Method, p.Graph.Directed(), p.Engine)
}

// stopBefore is why the run stops before iteration it ("" to go on): the
// MaxIterations limit or the Context's end.
func (p *Plan) stopBefore(it int) string {
	c := p.Config
	if c.MaxIterations > 0 && it > c.MaxIterations {
		return fmt.Sprintf("stopped after %d iterations (max iterations)", c.MaxIterations)
	}
	if c.Context != nil && c.Context.Err() != nil {
		return fmt.Sprintf("interrupted after %d iterations", it-1)
	}
	return ""
}
