package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/ohmgnn/ohm/internal/frame"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/rewire"
)

// serveRequest is the JSON header of a request to `ohm serve`
// (docs/python.md): an operation and, for "rewire", the options of `ohm
// rewire` and the graphs, whose arrays the blob holds in their order.
type serveRequest struct {
	Op               string       `json:"op"` // "rewire" or "ping"
	Method           string       `json:"method"`
	Budget           float64      `json:"budget"`
	Edits            int          `json:"edits"`
	Directed         bool         `json:"directed"`
	Engine           string       `json:"engine"`
	Alpha            *float64     `json:"alpha"` // nil: 0.5
	WithinComponents bool         `json:"within_components"`
	MaxIterations    int          `json:"max_iterations"`
	Seed             uint64       `json:"seed"`
	Threads          int          `json:"threads"` // graphs rewired at once; 0: the server's --threads
	Graphs           []serveGraph `json:"graphs"`
}

// serveGraph is one graph of a request: its node count, its number of arcs
// E (the blob holds its edge_index, 2·E int64: the sources, then the
// targets) and whether fosr's start vector follows (num_nodes float64).
type serveGraph struct {
	NumNodes int  `json:"num_nodes"`
	Arcs     int  `json:"arcs"`
	X0       bool `json:"x0"`
}

// serveResult is the header of the answer for one graph; the blob holds
// the rewired edge_index (2·Arcs int64, PyG's convention) and, per arc, the
// column of the request's edge_index that holds the same edge (the arc
// itself, else its reverse when undirected), or −1 for an edge the rewiring
// added.
type serveResult struct {
	Kind     string        `json:"kind"` // "result"
	Graph    int           `json:"graph"`
	NumNodes int           `json:"num_nodes"`
	Arcs     int           `json:"arcs"`
	Summary  RewireSummary `json:"summary"`
	Log      []rewire.Edit `json:"log"`
}

// serveError is an error frame: the request (Graph −1) or one of its
// graphs failed; Usage marks a bad argument (what `ohm rewire` reports
// with exit status 2, its message naming the flag).
type serveError struct {
	Kind  string `json:"kind"` // "error"
	Error string `json:"error"`
	Usage bool   `json:"usage"`
	Graph int    `json:"graph"`
}

// servePong answers "ping": the server's version and process id.
type servePong struct {
	Kind    string `json:"kind"` // "pong"
	Version string `json:"version"`
	PID     int    `json:"pid"`
}

// graphError is a failure of graph k of a request.
type graphError struct {
	graph int
	err   error
}

func (e *graphError) Error() string { return fmt.Sprintf("graph %d: %v", e.graph, e.err) }
func (e *graphError) Unwrap() error { return e.err }

// decodeRequest parses a frame's header as a serveRequest, refusing
// unknown fields.
func decodeRequest(header []byte) (*serveRequest, error) {
	dec := json.NewDecoder(bytes.NewReader(header))
	dec.DisallowUnknownFields()
	var req serveRequest
	if err := dec.Decode(&req); err != nil {
		return nil, usagef("request header: %v", err)
	}
	if dec.More() {
		return nil, usagef("request header: more than one JSON value")
	}
	return &req, nil
}

// serveFlags names the `ohm rewire` flag of each field of the
// configuration, for the usage errors of a request (the Python package
// names its arguments after them); --edits is the batch's.
var serveFlags = func() map[rewire.Field]string {
	m := map[rewire.Field]string{rewire.FieldEdits: "--edits"}
	for f, flag := range rewireFlags {
		m[f] = flag
	}
	return m
}()

// serveBatch is a request checked: the configuration every graph shares,
// the graphs, their arcs as given and fosr's start vectors (nil when
// none was given).
type serveBatch struct {
	cfg    rewire.Config
	graphs []*linalg.Graph
	inputs [][]linalg.Edge
	x0     [][]float64
}

// checkServeRequest checks the request's options as `ohm rewire` does
// and builds its graphs from the blob. A bad option is a usage error
// naming its flag; a bad graph is a *graphError.
func checkServeRequest(req *serveRequest, blob []byte) (*serveBatch, error) {
	alpha := 0.5
	if req.Alpha != nil {
		alpha = *req.Alpha
	}
	cfg := rewire.Config{Method: rewire.Method(strings.ToLower(req.Method)), Budget: req.Budget, Edits: req.Edits,
		WithinComponents: req.WithinComponents, Engine: rewire.EngineKind(strings.ToLower(req.Engine)),
		MaxIterations: req.MaxIterations, Curvature: &rewire.CurvatureOptions{Alpha: alpha},
		FoSR: &rewire.FoSROptions{Seed: req.Seed}}
	if err := cfg.Check(req.Directed); err != nil {
		return nil, configUsage(err, serveFlags)
	}
	cfg.Method, _ = rewire.ParseMethod(string(cfg.Method))
	if err := checkServeSize(req); err != nil {
		return nil, err
	}
	r := frame.NewBlob(blob)
	b := &serveBatch{cfg: cfg, graphs: make([]*linalg.Graph, len(req.Graphs)), inputs: make([][]linalg.Edge, len(req.Graphs))}
	for k, sg := range req.Graphs {
		g, arcs, x0, err := readServeGraph(r, sg, req.Directed)
		if err != nil {
			return nil, &graphError{k, err}
		}
		if x0 != nil {
			if b.x0 == nil {
				b.x0 = make([][]float64, len(req.Graphs))
			}
			b.x0[k] = x0
		}
		b.graphs[k], b.inputs[k] = g, arcs
	}
	if r.Rest() != 0 {
		return nil, usagef("the blob holds %d bytes more than the graphs of the header", r.Rest())
	}
	return b, nil
}

// checkServeSize checks the counts of the request's graphs and that they
// fit in memory together, once for the request (linalg.CheckGraphSize on
// the totals) rather than once per graph, and not at all for a small
// request (unprobedRequest): a probe of the memory costs more than
// building a graph of 20 nodes.
func checkServeSize(req *serveRequest) error {
	var n, m int
	for k, sg := range req.Graphs {
		if sg.NumNodes < 0 || sg.Arcs < 0 || sg.NumNodes > linalg.MaxNodes {
			return &graphError{k, usagef("num_nodes %d and arcs %d: must lie in [0, %d]", sg.NumNodes, sg.Arcs, linalg.MaxNodes)}
		}
		n, m = n+sg.NumNodes, m+sg.Arcs
	}
	if linalg.GraphBytes(n, m, req.Directed) <= unprobedRequest {
		return nil
	}
	return linalg.CheckGraphSize(min(n, linalg.MaxNodes), m, req.Directed)
}

// unprobedRequest is the most memory the graphs of a request may need
// without a probe of the machine's memory: a few times the request the
// server already holds, far below any machine's.
const unprobedRequest = 64 << 20

// readServeGraph reads graph sg's arrays from r and builds it (its size
// checked by checkServeSize).
func readServeGraph(r *frame.Blob, sg serveGraph, directed bool) (*linalg.Graph, []linalg.Edge, []float64, error) {
	ei := r.Int64s("edge_index", 2*sg.Arcs)
	var x0 []float64
	if sg.X0 {
		x0 = r.Float64s("fosr_x0", sg.NumNodes)
	}
	if r.Err != nil {
		return nil, nil, nil, usagef("%v", r.Err)
	}
	arcs := make([]linalg.Edge, sg.Arcs)
	n := int64(sg.NumNodes)
	g := linalg.NewGraph(sg.NumNodes, directed)
	for c := range arcs {
		u, v := ei[c], ei[sg.Arcs+c]
		if u < 0 || u >= n || v < 0 || v >= n {
			return nil, nil, nil, usagef("--graph column %d (%d, %d): node id outside [0, %d)", c, u, v, n)
		}
		arcs[c] = linalg.Edge{U: int(u), V: int(v)}
		g.AddEdge(arcs[c].U, arcs[c].V)
	}
	return g, arcs, x0, nil
}

// serveAnswer is graph k's result frame: its header and blob.
func (b *serveBatch) answer(k int, res *rewire.Result) (serveResult, []byte) {
	arcs := res.Graph.Arcs()
	directed := res.Graph.Directed()
	h := serveResult{Kind: "result", Graph: k, NumNodes: res.Graph.N(), Arcs: len(arcs),
		Summary: summarize(fmt.Sprintf("graph %d", k), b.cfg, directed, res), Log: res.Log}
	if h.Log == nil {
		h.Log = []rewire.Edit{}
	}
	if math.IsInf(h.Summary.Seconds, 0) || math.IsNaN(h.Summary.Seconds) {
		h.Summary.Seconds = 0
	}
	src := sourceColumns(b.inputs[k], arcs, res.Graph.N(), directed)
	blob := make([]byte, 0, 8*3*len(arcs))
	for _, a := range arcs {
		blob = frame.AppendInt64s(blob, int64(a.U))
	}
	for _, a := range arcs {
		blob = frame.AppendInt64s(blob, int64(a.V))
	}
	return h, frame.AppendInt64s(blob, src...)
}

// sourceColumns returns, for every arc of out, the first column of in
// holding that arc — else, undirected, its reverse — or −1 when in holds
// neither (an added edge): the source of definitions §3.9.
// O(len(in) + len(out)).
func sourceColumns(in, out []linalg.Edge, n int, directed bool) []int64 {
	key := func(u, v int) uint64 { return uint64(u)*uint64(n) + uint64(v) }
	first := make(map[uint64]int64, len(in))
	for c, e := range in {
		if _, ok := first[key(e.U, e.V)]; !ok {
			first[key(e.U, e.V)] = int64(c)
		}
	}
	src := make([]int64, len(out))
	for i, a := range out {
		c, ok := first[key(a.U, a.V)]
		if !ok && !directed {
			c, ok = first[key(a.V, a.U)]
		}
		if !ok {
			c = -1
		}
		src[i] = c
	}
	return src
}
