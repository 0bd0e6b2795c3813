package cli

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/internal/frame"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphgen"
	"github.com/ohmgnn/ohm/rewire"
)

// serveGraphIn is a test graph sent to the server: n and its arcs.
type serveGraphIn struct {
	n    int
	arcs []linalg.Edge
}

// requestFrame is a rewire request for graphs with the options opts (the
// header's other fields), written byte by byte as the protocol says.
func requestFrame(t *testing.T, opts map[string]any, graphs []serveGraphIn) []byte {
	t.Helper()
	h := map[string]any{"op": "rewire"}
	for k, v := range opts {
		h[k] = v
	}
	var gs []map[string]any
	var blob []byte
	for _, g := range graphs {
		gs = append(gs, map[string]any{"num_nodes": g.n, "arcs": len(g.arcs)})
		for _, a := range g.arcs {
			blob = binary.LittleEndian.AppendUint64(blob, uint64(a.U))
		}
		for _, a := range g.arcs {
			blob = binary.LittleEndian.AppendUint64(blob, uint64(a.V))
		}
	}
	h["graphs"] = gs
	return rawFrame(t, h, blob)
}

func rawFrame(t *testing.T, header any, blob []byte) []byte {
	t.Helper()
	hb, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	b := []byte("OHM1")
	b = binary.LittleEndian.AppendUint32(b, uint32(len(hb)))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(blob)))
	return append(append(b, hb...), blob...)
}

// answer is one decoded frame of the server.
type answer struct {
	Kind     string          `json:"kind"`
	Graph    int             `json:"graph"`
	Error    string          `json:"error"`
	Usage    bool            `json:"usage"`
	NumNodes int             `json:"num_nodes"`
	Arcs     int             `json:"arcs"`
	Summary  RewireSummary   `json:"summary"`
	Log      []rewire.Edit   `json:"log"`
	Raw      json.RawMessage `json:"-"`
	out      []linalg.Edge
	src      []int64
}

// runServe runs the server on stream with workers and returns its
// answers and its error.
func runServe(t *testing.T, stream []byte, workers int) ([]answer, error) {
	t.Helper()
	var out bytes.Buffer
	err := serve(bytes.NewReader(stream), &out, frame.Limits{Header: 1 << 20, Blob: 1 << 20}, workers)
	var got []answer
	for {
		f, rerr := frame.Read(&out, frame.DefaultLimits)
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			t.Fatalf("the server wrote a bad frame: %v", rerr)
		}
		var a answer
		if err := json.Unmarshal(f.Header, &a); err != nil {
			t.Fatal(err)
		}
		a.Raw = f.Header
		if a.Kind == "result" {
			r := frame.NewBlob(f.Blob)
			u, v := r.Int64s("u", a.Arcs), r.Int64s("v", a.Arcs)
			a.src = r.Int64s("source", a.Arcs)
			if r.Err != nil || r.Rest() != 0 {
				t.Fatalf("result blob of %d bytes for %d arcs", len(f.Blob), a.Arcs)
			}
			for i := range u {
				a.out = append(a.out, linalg.Edge{U: int(u[i]), V: int(v[i])})
			}
		}
		got = append(got, a)
	}
	return got, err
}

// serveTestGraphs are graphs of every awkward kind: random ones of
// several sizes, two components, isolated nodes, a self-loop, a single
// node, no edge, a duplicate arc, one arc of an edge only.
func serveTestGraphs(t *testing.T) []serveGraphIn {
	var gs []serveGraphIn
	for i, n := range []int{12, 20, 31} {
		g, err := graphgen.SBM(n, 2, 0.4, 0.05, uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		var arcs []linalg.Edge
		for _, e := range g.Edges {
			arcs = append(arcs, e, linalg.Edge{U: e.V, V: e.U})
		}
		gs = append(gs, serveGraphIn{g.N, arcs})
	}
	e := func(pairs ...int) []linalg.Edge {
		var arcs []linalg.Edge
		for i := 0; i < len(pairs); i += 2 {
			arcs = append(arcs, linalg.Edge{U: pairs[i], V: pairs[i+1]})
		}
		return arcs
	}
	gs = append(gs,
		serveGraphIn{9, e(0, 1, 1, 0, 1, 2, 2, 1, 2, 3, 3, 2, 5, 6, 6, 5, 6, 7, 7, 6, 4, 4)}, // two paths, a loop, node 8 isolated
		serveGraphIn{1, nil},
		serveGraphIn{4, nil},
		serveGraphIn{5, e(0, 1, 1, 2, 2, 3, 3, 4, 0, 1)}, // one arc per edge, a duplicate
	)
	return gs
}

// TestServeEqualsAlone: every graph of a request is rewired exactly as
// rewire.Run rewires it alone (log, graph, counts), for every method, and
// the answers are the same whatever the number of workers.
func TestServeEqualsAlone(t *testing.T) {
	graphs := serveTestGraphs(t)
	for _, m := range rewire.AllMethods {
		for _, directed := range []bool{false, true} {
			if directed && !m.Info().Directed {
				continue
			}
			t.Run(fmt.Sprintf("%s/directed=%v", m, directed), func(t *testing.T) {
				opts := map[string]any{"method": string(m), "budget": 0.3, "directed": directed}
				req := requestFrame(t, opts, graphs)
				one, err := runServe(t, req, 1)
				if err != nil {
					t.Fatal(err)
				}
				three, err := runServe(t, req, 3)
				if err != nil {
					t.Fatal(err)
				}
				if len(one) != len(graphs) || len(three) != len(graphs) {
					t.Fatalf("%d and %d answers for %d graphs: %+v", len(one), len(three), len(graphs), one)
				}
				for k, g := range graphs {
					gr, err := linalg.FromEdges(g.n, directed, g.arcs)
					if err != nil {
						t.Fatal(err)
					}
					cfg := rewire.Config{Method: m, Budget: 0.3, Workers: 1, Curvature: &rewire.CurvatureOptions{Alpha: 0.5},
						FoSR: &rewire.FoSROptions{}}
					want, err := rewire.Run(gr, cfg)
					if err != nil {
						t.Fatal(err)
					}
					for _, a := range []answer{one[k], three[k]} {
						checkServeAnswer(t, k, a, g, want)
					}
				}
			})
		}
	}
}

func checkServeAnswer(t *testing.T, k int, a answer, in serveGraphIn, want *rewire.Result) {
	t.Helper()
	if a.Kind != "result" || a.Graph != k {
		t.Fatalf("answer %d: %s", k, a.Raw)
	}
	if !reflect.DeepEqual(a.out, want.Graph.Arcs()) && !(len(a.out) == 0 && len(want.Graph.Arcs()) == 0) {
		t.Errorf("graph %d: arcs %v, alone %v", k, a.out, want.Graph.Arcs())
	}
	if !reflect.DeepEqual(a.Log, want.Log) && !(len(a.Log) == 0 && len(want.Log) == 0) {
		t.Errorf("graph %d: log %v, alone %v", k, a.Log, want.Log)
	}
	s := a.Summary
	if s.Iterations != want.Iterations || s.Added != want.Added || s.Removed != want.Removed || s.E0 != want.E0 ||
		s.AddedNet != want.AddedNet || a.NumNodes != in.n {
		t.Errorf("graph %d: summary %+v, alone %+v", k, s, want)
	}
	// source: the input column of the same arc (else its reverse), -1 for added.
	directed := want.Graph.Directed()
	added := 0
	for i, o := range a.out {
		c := a.src[i]
		if c < 0 {
			added++
			for _, x := range in.arcs {
				if x == o || !directed && x == (linalg.Edge{U: o.V, V: o.U}) {
					t.Errorf("graph %d: arc %v marked added but the input holds it", k, o)
				}
			}
			continue
		}
		x := in.arcs[c]
		if x != o && (directed || x != (linalg.Edge{U: o.V, V: o.U})) {
			t.Errorf("graph %d: arc %v from input column %d = %v", k, o, c, x)
		}
	}
	perEdge := 2
	if directed {
		perEdge = 1
	}
	if added != perEdge*want.AddedNet {
		t.Errorf("graph %d: %d arcs marked added, net additions %d", k, added, want.AddedNet)
	}
}

// TestServeBadRequests: every bad request gets an error frame saying what
// is wrong, and the server answers the next request.
func TestServeBadRequests(t *testing.T) {
	t.Setenv("OHM_MEMORY", "4G") // "beyond memory" below, on any machine
	good := requestFrame(t, map[string]any{"method": "err", "budget": 0.5}, []serveGraphIn{{3, []linalg.Edge{{U: 0, V: 1}, {U: 1, V: 2}}}})
	tests := []struct {
		name  string
		frame []byte
		graph int
		usage bool
		msg   string
	}{
		{"not JSON", nil, 0, false, ""}, // set below
		{"unknown op", rawFrame(t, map[string]any{"op": "dance"}, nil), -1, true, `op "dance": unknown (known: rewire, ping)`},
		{"unknown field", rawFrame(t, map[string]any{"op": "rewire", "budjet": 0.1}, nil), -1, true, `unknown field "budjet"`},
		{"bad budget", requestFrame(t, map[string]any{"method": "err", "budget": 2}, nil), -1, true, "--budget 2: must lie in (0, 1]"},
		{"bad method", requestFrame(t, map[string]any{"method": "erx", "budget": 0.1}, nil), -1, true, "--method erx: unknown"},
		{"bad edits", requestFrame(t, map[string]any{"method": "err", "budget": 0.1, "edits": -1}, nil), -1, true, "--edits -1: must be ≥ 0"},
		{"no engine", requestFrame(t, map[string]any{"method": "gtr", "budget": 0.1, "engine": "exact"}, nil), -1, true, "--engine exact: this method has no exact engine"},
		{"id out of range", requestFrame(t, map[string]any{"method": "err", "budget": 0.1},
			[]serveGraphIn{{3, []linalg.Edge{{U: 0, V: 1}}}, {3, []linalg.Edge{{U: 0, V: 3}}}}), 1, true, "--graph column 0 (0, 3): node id outside [0, 3)"},
		{"negative count", rawFrame(t, map[string]any{"op": "rewire", "method": "err", "budget": 0.1,
			"graphs": []map[string]int{{"num_nodes": -1, "arcs": 0}}}, nil), 0, true, "num_nodes -1 and arcs 0: must lie in [0, 2147483647]"},
		{"beyond memory", rawFrame(t, map[string]any{"op": "rewire", "method": "err", "budget": 0.1,
			"graphs": []map[string]int{{"num_nodes": 2000000000, "arcs": 0}}}, nil), -1, false, "a graph of 2000000000 nodes and 0 edges"},
		{"blob too short", rawFrame(t, map[string]any{"op": "rewire", "method": "err", "budget": 0.1,
			"graphs": []map[string]int{{"num_nodes": 3, "arcs": 2}}}, make([]byte, 24)), 0, true, "the blob ends at byte 24, before the 4 entries of edge_index"},
		{"blob too long", rawFrame(t, map[string]any{"op": "rewire", "method": "err", "budget": 0.1,
			"graphs": []map[string]int{{"num_nodes": 3, "arcs": 0}}}, make([]byte, 8)), -1, true, "the blob holds 8 bytes more than the graphs"},
		{"too large", rawFrame(t, map[string]any{"op": "rewire"}, make([]byte, 2<<20)), -1, false, "frame: too large"},
		{"fosr x0 of zeros", rawFrame(t, map[string]any{"op": "rewire", "method": "fosr", "budget": 0.5,
			"graphs": []map[string]any{{"num_nodes": 3, "arcs": 2, "x0": true}}},
			append(frame.AppendInt64s(nil, 0, 1, 1, 2), make([]byte, 24)...)), 0, false, "fosr's power iteration vanished"},
	}
	tests[0].frame = append([]byte("OHM1\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"), `{"op":`...)
	tests[0].graph, tests[0].usage, tests[0].msg = -1, true, "request header: unexpected EOF"
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stream := append(append(append([]byte{}, good...), tc.frame...), good...)
			got, err := runServe(t, stream, 2)
			if err != nil {
				t.Fatalf("the server stopped: %v", err)
			}
			if len(got) != 3 || got[0].Kind != "result" || got[2].Kind != "result" {
				t.Fatalf("answers %d: %+v", len(got), got)
			}
			e := got[1]
			if e.Kind != "error" || e.Graph != tc.graph || e.Usage != tc.usage || !strings.Contains(e.Error, tc.msg) {
				t.Fatalf("error frame %s; want graph %d, usage %v, %q", e.Raw, tc.graph, tc.usage, tc.msg)
			}
		})
	}
}

// TestServeEnds: the end of input ends the server without an error; a
// frame out of step gets an error frame, then ends it with the error; a
// stream cut inside a frame ends it with an error.
func TestServeEnds(t *testing.T) {
	got, err := runServe(t, nil, 1)
	if err != nil || len(got) != 0 {
		t.Fatalf("empty input: %v, %v", got, err)
	}
	ping := rawFrame(t, map[string]string{"op": "ping"}, nil)
	got, err = runServe(t, append(append([]byte{}, ping...), "XXXX0000000000000000"...), 1)
	if !errors.Is(err, frame.ErrBadMagic) || len(got) != 2 || got[0].Kind != "pong" || got[1].Kind != "error" ||
		!strings.Contains(got[1].Error, "bad magic") {
		t.Fatalf("bad magic: %v, %+v", err, got)
	}
	_, err = runServe(t, ping[:len(ping)-2], 1)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("cut frame: %v", err)
	}
}

// TestServeEdits: edits N makes N iterations on every graph whatever its
// size (definitions §3.8), capped by max_iterations.
func TestServeEdits(t *testing.T) {
	graphs := []serveGraphIn{{20, nil}}
	for i := range 19 { // a path of 19 edges
		graphs[0].arcs = append(graphs[0].arcs, linalg.Edge{U: i, V: i + 1}, linalg.Edge{U: i + 1, V: i})
	}
	for _, tc := range []struct {
		edits, maxIt, want int
	}{{3, 0, 3}, {3, 2, 2}, {25, 0, 25}} {
		got, err := runServe(t, requestFrame(t, map[string]any{"method": "res", "edits": tc.edits,
			"max_iterations": tc.maxIt}, graphs), 1)
		if err != nil || len(got) != 1 {
			t.Fatal(err, got)
		}
		if got[0].Summary.Iterations != tc.want || got[0].Summary.Added != tc.want {
			t.Errorf("edits %d, max %d: %d iterations, %d added; want %d", tc.edits, tc.maxIt, got[0].Summary.Iterations, got[0].Summary.Added, tc.want)
		}
	}
	got, _ := runServe(t, requestFrame(t, map[string]any{"method": "res", "edits": 3, "budget": 0.1}, graphs), 1)
	if len(got) != 1 || got[0].Kind != "error" || !strings.Contains(got[0].Error, "--edits 3: give either a budget fraction or a number of edits, not both") {
		t.Errorf("edits and budget: %+v", got)
	}
}

// BenchmarkServeCall is the server's side of one call of ohm.rewire on a
// 20-node ring (err, r = 0.1: two iterations): decoding the request,
// rewiring, encoding the answer.
func BenchmarkServeCall(b *testing.B) {
	var ring serveGraphIn
	ring.n = 20
	for i := range 20 {
		ring.arcs = append(ring.arcs, linalg.Edge{U: i, V: (i + 1) % 20}, linalg.Edge{U: (i + 1) % 20, V: i})
	}
	t := &testing.T{}
	req := requestFrame(t, map[string]any{"method": "err", "budget": 0.1}, []serveGraphIn{ring})
	f, err := frame.Read(bytes.NewReader(req), frame.DefaultLimits)
	if err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		if err := handleFrame(&out, f, 1); err != nil {
			b.Fatal(err)
		}
	}
}
