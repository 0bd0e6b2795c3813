package sketch

import (
	"fmt"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/laplace"
)

// Engine is the resistance engine for graphs whose L⁺ does not fit in
// memory (issue 14): undirected, for the operators err and res. It works
// in rounds. At the start of a round it builds the Laplacian solver of the
// current graph (laplace: IC(0)-preconditioned conjugate gradients in
// mixed precision) and a
// Spielman–Srivastava sketch Z with k rows, R_ij ≈ ‖Z e_i − Z e_j‖². From
// the sketch it draws the candidates:
//
//   - for additions, the nodes most likely to hold the farthest pair. A
//     first estimate of every node's eccentricity, ρ_i = max over anchors
//     a of R̂_ia (anchors: the 32 nodes of largest sketched L⁺_ii, the
//     extreme points of the embedding along each of its k coordinates,
//     then the 128 nodes of largest ρ), picks 64 exact anchors X, whose
//     full columns are solved and kept. D̂_i estimates L⁺_ii by
//     Hutchinson's method with a walk-series control variate
//     (laplace.EstimateDiag, Probes solves) combined with the sketch's
//     ‖Z e_i‖², σ_i its standard error. The bound on i's eccentricity
//     (bounds) is the larger of max over a in X of (D̂_i + L⁺_aa − 2L⁺_ai)
//     and D̂_i + max over j outside X of (D̂_j + 3σ_j) + 2δ (δ the most
//     negative anchor entry), plus 3σ_i; in small components (64 nodes or
//     fewer) L⁺ is dense and the eccentricity exact. The candidates are X,
//     the Candidates (default 64) nodes of largest bound and 32 random
//     nodes that calibrate the bound;
//   - for removals, the E/2 + 16 edges of smallest sketched resistance that
//     are not bridges (Tarjan), i.e. their endpoints.
//
// It then solves L x = e_c exactly (relative residual Tol) for every
// candidate node c, keeping only the block M = L⁺[K, K] of the kept nodes
// K, |K|² floats. Inside the round every decision is exact among the
// candidates: MaxPair ranks all pairs of addition candidates by R_ij =
// M_ii + M_jj − 2M_ij with SPEC §3's rule, MinEdge all edges with both ends
// in K, and every edit (both ends are kept) updates M by Sherman–Morrison,
// L⁺' = L⁺ ∓ u uᵀ / (1 ± R_ab) with u = L⁺(e_a − e_b) read from M's
// columns: exact, so M stays L⁺[K, K] of the current graph. The error is
// in the choice of candidates only: the farthest pair is missed when one
// of its ends is not among them.
//
// The bounds follow the edits: each edit's full x = L⁺(e_a − e_b) (one
// solve to BoundTol; the round's solver takes the edits as rank-one
// updates, laplace.Solver.Update) updates the anchors' columns and every
// D̂_i by the same Sherman–Morrison identity. An iteration's edits (an
// addition and a removal) are solved side by side on the graph before it,
// on two cores when Workers allows, and the removal's vector is then
// brought to the graph after the addition by the addition's own update. K grows
// inside a round (grow: one solve on the current graph per node, whose
// column joins the anchors while there are fewer than maxAnchors).
// MaxPair keeps more nodes before it decides
//
//   - while the best kept pair's R is below 0.98 of the cover, the largest
//     bound outside K (times the calibration's worst exact/bound ratio
//     when it exceeds 1): the next 32 nodes by bound;
//   - the neighbours case 2 of SPEC §3 needs.
//
// A new round starts when the round's iterations are made or when an
// addition joins two components (L⁺ changes rank). It keeps the nodes kept
// before (largest new bound first, while fewer than carryKept are kept
// with its addition candidates) and reuses their entries of M, exact for
// the current graph, unless an addition joined components.
//
// Memory O((n + m)·k + n·|X| + |K|²), never n²; time per round
// O(k + |K|) solves of O(m) per CG iteration each, per edit one solve and
// O(|K|² + n·|X|).
type Engine struct {
	g   *linalg.Graph
	opt Options

	solver *laplace.Solver // of the graph the round started on
	comp   []int32         // component per node, at the round's start
	kept   []int           // K, in the order the nodes were kept
	index  []int32         // node → position in kept, or −1
	cand   []int32         // positions (in kept) of the addition candidates, ascending ids
	m      []float64
	edges  []incremental.Pair // edges of the graph with both ends kept (row-major U < V)

	// The bounds on the eccentricities, ecc per node, and scale the factor
	// the calibration puts on them.
	ecc   []float64
	scale float64
	// Live bounds. The anchors' full columns of L⁺ of the current graph
	// (anchor q's is acol[q·n:(q+1)·n]), aidx node → anchor or −1, dhat the
	// current estimate of L⁺_ii (exact for anchors and kept nodes) and sd
	// its standard error; every edit updates them by Sherman–Morrison with
	// its full x = L⁺(e_u − e_v) (one solve), so the bounds follow the
	// edits. dirty: the bounds need computing again.
	anchors []int
	acol    []float64
	delta   float64 // the most negative entry of acol, negated (0 at least)
	aidx    []int32
	dhat    []float64
	sd      []float64
	dirty   bool

	// Small components (at most smallComponent nodes): their L⁺ is
	// computed densely, so their nodes' L⁺_ii and eccentricities inside
	// the component are exact (smallEcc), again after an edit inside one
	// (smallDirty). small is the node's small component or −1.
	small      []int32
	smallNodes [][]int
	smallEcc   []float64
	smallDirty []bool

	left    int     // iterations left in the round
	cover   float64 // the largest estimated eccentricity outside the candidates
	stale   bool
	round   int
	solves  int
	skip    []incremental.Pair
	pending []pendingEdit
	// The edits whose effect on the bounds waits (flushBounds), and the
	// solver's update count before the first of them.
	waiting  []waitingEdit
	waitFrom int
	added    map[[2]int]bool // edges added in the open batch
	err      error
	tracker  rank.Max
	// rowMin is a lower bound on each row's minimum of M (exact after
	// setRowMin), eligible the bestCandidatePair's work list.
	rowMin   []float64
	eligible []int32
	// batch holds flushBounds' full vectors between batches (32·n
	// numbers: 256 MB at 10⁶ nodes, every 16 iterations).
	batch []float64
}

type pendingEdit struct {
	add  bool
	u, v int
}

var _ incremental.Engine = (*Engine)(nil)

// New starts the sketch engine on a copy of g (undirected) with its
// first round. Its cost is that of a round.
func New(g *linalg.Graph, opt Options) (*Engine, error) {
	if g.Directed() {
		return nil, fmt.Errorf("the sketch engine takes undirected graphs")
	}
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
	if opt.MaxKept <= 0 {
		opt.MaxKept = 8192
	}
	e := &Engine{g: g.Clone(), opt: opt, index: make([]int32, g.N())}
	if err := e.refresh(nil); err != nil {
		return nil, err
	}
	return e, nil
}

// Rounds is the number of sketches made so far, Solves the Laplacian
// solves (sketch rows and re-scoring columns).
func (e *Engine) Rounds() int { return e.round }

// Solves is the number of Laplacian systems solved so far.
func (e *Engine) Solves() int { return e.solves }

// Kept is the number of nodes whose L⁺ entries the round keeps exactly.
func (e *Engine) Kept() int { return len(e.kept) }

// Err is the error of a round started by MaxPair, if any (MaxPair then
// reports no pair).
func (e *Engine) Err() error { return e.err }

// Graph is the current graph.
func (e *Engine) Graph() *linalg.Graph { return e.g }
