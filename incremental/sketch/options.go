package sketch

// Options configures the sketch engine.
type Options struct {
	// Rows is k, the rows of the resistance sketch (default 192: a pair's
	// relative error has standard deviation about √(2/k) = 10 %).
	Rows int
	// Round is the number of iterations decided from one sketch before
	// the next (default 1024).
	Round int
	// Candidates is the number of nodes of largest bound kept as addition
	// candidates at a round's start (default 64; the cover test keeps more
	// when they are needed).
	Candidates int
	// Removes says the operator removes edges (err), so the engine keeps
	// removal candidates too.
	Removes bool
	// RemovalCandidates is the number of edges of least sketched
	// resistance whose ends a round keeps for the removals (default
	// 2·Round: a pool smaller than the removals a round makes runs dry,
	// and the later removals then take heavier edges). The removal is
	// exact only among the kept edges; a larger pool keeps more nodes (M
	// is |K|², one solve per node).
	RemovalCandidates int
	// WithinComponents restricts pairs to one component (as in
	// incremental.Options).
	WithinComponents bool
	// Seed draws the sketches' random signs (round r uses Seed + r).
	Seed uint64
	// Workers for the Laplacian solves; 0 means 1.
	Workers int
	// MaxKept caps the kept nodes the cover and the removals' bound may
	// add inside a round (default 8192: M then takes 512 MB); beyond it
	// the round decides among what it keeps.
	MaxKept int
	// Probes is the number of Hutchinson probes of the diagonal estimate
	// (default 128).
	Probes int
	// Tol is the relative residual of the exact re-scoring solves (default
	// 1e-8: definitions §3's ties are within 1e-9 of the best score, and the
	// re-scored R of tied pairs must stay close enough to their exact
	// values for no tie to break the wrong way: at 1e-7 the kept columns
	// broke an exact tie on CiteSeer, docs/sketch.md, sketch-21); sketches
	// are solved to 1e-4, far below their own error.
	Tol float64
	// BoundTol is the relative residual of each edit's full x = L⁺(e_u −
	// e_v), which updates the bounds only (default 1e-2: the bounds carry
	// three standard errors of the diagonal estimate, far more than x's
	// error; M follows the edits from its own columns, to Tol).
	BoundTol float64
	// HandOff is the fraction of the graph's nodes beyond which the
	// engine hands the run over to the exact incremental engine
	// (definitions §3.7.1): when the nodes kept at a round's start, or
	// those the cover would keep next, exceed HandOff·n and the dense
	// state fits in the memory available, every later decision is the
	// exact engine's. Default 0.5; negative: never.
	HandOff float64
	// Stop, when set, is asked between the stages of a round's start and
	// between the iterations of every Laplacian solve (laplace.Options.Stop):
	// when it returns an error the engine fails with it (New returns it,
	// MaxPair and the edits report it through Err), so that a cancelled
	// context ends a round start of minutes within a second. It never
	// changes a decision that completes; it must be safe for concurrent use.
	Stop func() error
}

// withDefaults returns opt with every zero (or invalid) field at its
// default.
func (opt Options) withDefaults() Options {
	if opt.Rows <= 0 {
		opt.Rows = 192
	}
	if opt.Round <= 0 {
		opt.Round = 1024
	}
	if opt.Candidates <= 0 {
		opt.Candidates = 64
	}
	if opt.Tol <= 0 {
		opt.Tol = 1e-8
	}
	if opt.BoundTol <= 0 {
		opt.BoundTol = 1e-2
	}
	if opt.Probes < 2 {
		opt.Probes = 128
	}
	if opt.RemovalCandidates <= 0 {
		opt.RemovalCandidates = 2 * opt.Round
	}
	if opt.MaxKept <= 0 {
		opt.MaxKept = 8192
	}
	if opt.HandOff == 0 {
		opt.HandOff = 0.5
	}
	return opt
}
