package sketch

import (
	"fmt"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/laplace"
)

// Engine is the sketch engine on one graph (the package comment says how
// it works); it implements incremental.Engine. Memory O((n + m)·k + n·|X|
// + |K|²), never n²; time per round O(k + |K|) solves of O(m) per CG
// iteration each, per edit one solve and O(|K|² + n·|X|).
type Engine struct {
	g   *linalg.Graph
	opt Options

	solver   *laplace.Solver // of the graph the round started on
	comp     []int32         // component per node, at the round's start
	kept     []int           // K, in the order the nodes were kept
	index    []int32         // node → position in kept, or −1
	cand     []int32         // positions (in kept) of the addition candidates, ascending ids
	m        []float64       // M = L⁺[K, K] but the updates waiting in deferred, M_pq at m[p·stride+q]
	stride   int             // M's row stride, at least |K|: grow adds rows and columns in place while it can
	diag     []float64       // M's current diagonal (the waiting updates added)
	deferred deferredM
	edges    []incremental.Pair // edges of the graph with both ends kept (row-major U < V)

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
	// setRowMin and flushM), eligible the bestCandidatePair's work list.
	rowMin   []float64
	eligible []int32
	// batch holds flushBounds' full vectors between batches (32·n
	// numbers: 256 MB at 10⁶ nodes, every 16 iterations).
	batch []float64

	// The hand-off (handoff.go): exact, once set, takes every call;
	// iterations counts the commits; handOffAt and handOffKept are the
	// iteration whose decision was the exact engine's first and the nodes
	// kept then; handOffRefused says the dense state did not fit (asked
	// again at the next round).
	exact          *incremental.Undirected
	iterations     int
	handOffAt      int
	handOffKept    int
	handOffRefused bool
}

type pendingEdit struct {
	add  bool
	u, v int
}

var _ incremental.Engine = (*Engine)(nil)

// New starts the sketch engine on a copy of g (undirected) with its
// first round. It refuses first, with a *sysmem.Error, a graph whose
// estimated peak (Bytes) exceeds the memory available. Its cost is that of
// a round.
func New(g *linalg.Graph, opt Options) (*Engine, error) {
	if g.Directed() {
		return nil, fmt.Errorf("sketch: the sketch engine takes undirected graphs")
	}
	opt = opt.withDefaults()
	if err := checkMemory(g.N(), g.NumEdges(), opt); err != nil {
		return nil, err
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

// Kept is the number of nodes whose L⁺ entries the round keeps exactly
// (every node once the exact engine has taken over: HandedOff).
func (e *Engine) Kept() int {
	if e.exact != nil {
		return e.g.N()
	}
	return len(e.kept)
}

// Err is the error of a round started by MaxPair, if any (a stop of
// Options.Stop among them): MaxPair then reports no pair, MinEdge none,
// and Add, Remove and Commit return it, the state being half made.
func (e *Engine) Err() error { return e.err }

// Graph is the current graph.
func (e *Engine) Graph() *linalg.Graph {
	if e.exact != nil {
		return e.exact.Graph()
	}
	return e.g
}
