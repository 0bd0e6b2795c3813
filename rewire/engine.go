package rewire

import (
	"fmt"
	"runtime"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/exact"
	"github.com/ohmgnn/ohm/incremental/sketch"
	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/linalg"
)

// EngineKind names a resistance engine.
type EngineKind string

// The engines. The zero kind is Auto, everywhere: code that records results
// (the sweeps, ohm stats, ohm diagnose) asks for Incremental, and so gets
// the exact decisions or a refusal, never the sketch's under the same code
// version.
const (
	Auto        EngineKind = "auto"        // Incremental when its dense state fits in memory, else Sketch
	Incremental EngineKind = "incremental" // rank-one updates of the dense L⁺, low-rank certified ones of X
	Exact       EngineKind = "exact"       // recompute everything every iteration (the oracle)
	Sketch      EngineKind = "sketch"      // resistance sketch + exact re-scoring (package incremental/sketch)
)

// EngineSpec says which resistance engine to build and how; NewEngine
// builds it, Resolve chooses for Auto. A plan (NewPlan) derives it from its
// method; ohm resistance states it itself.
type EngineSpec struct {
	// Kind is the engine; "" is Auto.
	Kind EngineKind
	// PerHop scores pairs by resistance per hop (err-hop, res-hop); GTR by
	// the drop of total resistance (gtr). Neither runs on the sketch.
	PerHop, GTR bool
	// Removes keeps the sketch engine's removal candidates (err).
	Removes bool
	// WithinComponents restricts undirected pairs to one component.
	WithinComponents bool
	// Workers for the O(n²) passes; 0: GOMAXPROCS.
	Workers int
	// Sketch configures the sketch engine; its Removes, WithinComponents
	// and (when zero) Workers are taken from the fields above.
	Sketch sketch.Options
	// MemoryChecked says the caller has found that the dense engine's
	// state fits in memory (incremental.CheckDense, e.g. once for the
	// largest graph of a batch): the dense engines then skip their own
	// probe (incremental.Options.MemoryChecked).
	MemoryChecked bool
	// reuse and graphs, set by a batch's worker (Config.scratch), are the
	// dead engine whose memory the next undirected dense engine takes and
	// where it copies its graph (incremental.Options.Reuse, Graphs).
	reuse  *incremental.Undirected
	graphs *linalg.CloneArena
}

// sketchable reports whether the sketch engine scores pairs as s asks
// (by resistance: err, res).
func (s EngineSpec) sketchable() bool { return !s.PerHop && !s.GTR }

// checkEngine reports an engine kind that cannot run what is asked on a
// graph of the given form, as a *ConfigError of FieldEngine: exact and
// sketch say whether the scoring asked for has an exact engine and runs on
// the sketch. The plan and NewEngine both check with it.
func checkEngine(kind EngineKind, directed, exact, sketch bool) error {
	switch kind {
	case "", Auto, Incremental:
	case Exact:
		if !exact {
			return &ConfigError{Field: FieldEngine, Value: kind, Reason: "this method has no exact engine: its tests compare it with brute-force searches"}
		}
	case Sketch:
		if directed || !sketch {
			return &ConfigError{Field: FieldEngine, Value: kind, Reason: "runs err and res on undirected graphs only (per-hop scores need the distances of every candidate pair, which only the dense engines keep)"}
		}
	default:
		return &ConfigError{Field: FieldEngine, Value: kind, Reason: fmt.Sprintf("unknown (known: %s, %s, %s, %s)", Auto, Incremental, Exact, Sketch)}
	}
	return nil
}

// Check reports an engine kind that cannot score as s asks on a graph of
// the given form (the sketch on a directed graph or per-hop scores, the
// exact engine for GTR), as a *ConfigError of FieldEngine. O(1).
func (s EngineSpec) Check(directed bool) error {
	return checkEngine(s.Kind, directed, !s.GTR, s.sketchable())
}

// Resolve returns s with Auto (or "") resolved for g, and the reason in
// words ("" when s.Kind was not Auto): the incremental engine when its dense
// state fits in the memory available (incremental.CheckDense), or when the
// sketch cannot run s; else the sketch engine. Other kinds are returned as
// they are. O(1).
func (s EngineSpec) Resolve(g *linalg.Graph) (EngineSpec, string) {
	if s.Kind != "" && s.Kind != Auto {
		return s, ""
	}
	need := sysmem.FormatBytes(incremental.DenseBytes(g.N(), g.Directed(), s.PerHop))
	fits := s.MemoryChecked || incremental.CheckDense(g.N(), g.Directed(), s.PerHop) == nil
	if fits || !s.sketchable() || g.Directed() {
		s.Kind = Incremental
		if !fits {
			return s, fmt.Sprintf("engine auto: incremental (the sketch cannot run this; the dense state needs %s, more than is available)", need)
		}
		return s, fmt.Sprintf("engine auto: incremental (dense state %s fits in memory)", need)
	}
	s.Kind = Sketch
	return s, fmt.Sprintf("engine auto: sketch (the dense state would need %s, more than is available)", need)
}

// NewEngine builds the resistance engine s names (Auto resolved first) on
// a copy of g: the one constructor of every engine kind. The dense engines
// refuse, before they allocate, a graph whose state exceeds the memory
// available (a *sysmem.Error). Cost: the engine's set-up — O(n³) for
// the dense ones, a round of Laplacian solves for the sketch.
func NewEngine(g *linalg.Graph, s EngineSpec) (incremental.Engine, error) {
	if err := s.Check(g.Directed()); err != nil {
		return nil, err
	}
	s, _ = s.Resolve(g)
	switch s.Kind {
	case Exact:
		return exact.New(g, exact.Options{PerHop: s.PerHop, WithinComponents: s.WithinComponents})
	case Sketch:
		opt := s.Sketch
		opt.Removes = s.Removes
		opt.WithinComponents = s.WithinComponents
		if opt.Workers == 0 {
			opt.Workers = s.Workers
		}
		if opt.Workers == 0 {
			opt.Workers = runtime.GOMAXPROCS(0)
		}
		return sketch.New(g, opt)
	}
	// Directed graphs use the fast (low-rank, residual-certified) mode; the
	// exact engine is its oracle.
	opt := incremental.Options{Workers: s.Workers, WithinComponents: s.WithinComponents, PerHop: s.PerHop, FastDirected: true, GTR: s.GTR,
		MemoryChecked: s.MemoryChecked, Reuse: s.reuse, Graphs: s.graphs}
	if g.Directed() {
		return incremental.NewDirected(g, opt)
	}
	return incremental.NewUndirected(g, opt)
}
