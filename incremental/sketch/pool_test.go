package sketch

import (
	"os"
	"testing"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphgen"
	"github.com/ohmgnn/ohm/linalg/graphio"
)

// TestPoolColumns: a round keeps the removal candidates that form trees
// with no kept node as edge vectors (sketch-19): a column of M each, so
// M has exactly one column fewer per tree than sketch-18's (the nodes and
// every candidate's ends), the other candidates' ends are kept nodes, every
// column but the anchors' takes one solve, and an edge vector's R (its
// diagonal entry) is that of a fresh solve.
func TestPoolColumns(t *testing.T) {
	gg, _ := graphgen.SBM(600, 3, 0.04, 0.002, 5)
	g, err := linalg.FromEdges(gg.N, false, gg.Edges)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(g, Options{Round: 40, Candidates: 12, Seed: 3, Removes: true})
	if err != nil {
		t.Fatal(err)
	}
	st := poolStats(e)
	t.Logf("%+v", st)
	// The edge vectors form trees (splitPool), each a column fewer than
	// its ends.
	trees := treesOf(t, e.pool)
	if st.pool == 0 || st.columns != st.pool+st.nodes || st.columns != st.nodesBefore-trees {
		t.Fatalf("%d edge vectors in %d trees, %d columns, %d nodes: want columns = nodes + edge vectors = sketch-18's %d − trees", st.pool, trees, st.columns, st.nodes, st.nodesBefore)
	}
	cand := 0
	for _, p := range e.edges {
		if e.g.HasEdge(p.U, p.V) {
			cand++
		}
	}
	if cand+st.pool < 80 {
		t.Fatalf("%d edges among kept nodes and %d edge vectors: fewer than the 2·Round = 80 candidates", cand, st.pool)
	}
	if want := e.opt.Rows + e.opt.Probes + len(e.anchors) + st.columns - st.anchorsKept; e.Solves() != want {
		t.Fatalf("%d solves, want k + probes + anchors + columns − kept anchors = %d", e.Solves(), want)
	}
	for p, f := range e.pool {
		want, err := e.SolveResistance(f.U, f.V)
		if err != nil {
			t.Fatal(err)
		}
		if !near(e.diag[p], want, 1e-7) {
			t.Fatalf("edge %v: R %.12g from its column, %.12g by a fresh solve", f, e.diag[p], want)
		}
		if r, ok := e.Resistance(f.U, f.V); !ok || r != e.diag[p] {
			t.Fatalf("edge %v: Resistance %v (%v), its column's %v", f, r, ok, e.diag[p])
		}
		if e.index[f.U] >= 0 || e.index[f.V] >= 0 {
			t.Fatalf("edge vector %v has a kept end", f)
		}
	}
	t.Logf("%d edge vectors' R agree with fresh solves", len(e.pool))
}

// treesOf counts the components of the graph of the edges es, failing
// unless each is a tree.
func treesOf(t *testing.T, es []incremental.Pair) int {
	t.Helper()
	adj := map[int][]int{}
	for _, f := range es {
		adj[f.U] = append(adj[f.U], f.V)
		adj[f.V] = append(adj[f.V], f.U)
	}
	seen := map[int]bool{}
	trees := 0
	for s := range adj {
		if seen[s] {
			continue
		}
		nodes, degrees := 0, 0
		stack := []int{s}
		seen[s] = true
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			nodes++
			degrees += len(adj[x])
			for _, y := range adj[x] {
				if !seen[y] {
					seen[y] = true
					stack = append(stack, y)
				}
			}
		}
		if degrees/2 != nodes-1 {
			t.Fatalf("edge vectors: a component of %d nodes and %d edges, no tree", nodes, degrees/2)
		}
		trees++
	}
	return trees
}

func near(a, b, tol float64) bool { return a-b <= tol*b && b-a <= tol*b }

// roundColumns is what a round start keeps: the nodes, the removal
// candidates, M's columns (their sum), the nodes sketch-18 kept (the
// nodes and the candidates' ends), its columns' solves (one a node but
// the kept anchors') and the anchors among the kept nodes.
type roundColumns struct {
	nodes, pool, columns, nodesBefore, anchorsKept int
}

func poolStats(e *Engine) roundColumns {
	st := roundColumns{nodes: e.Kept(), pool: e.Pool(), columns: len(e.kept)}
	before := map[int]bool{}
	for _, i := range e.nodes() {
		before[i] = true
		if e.aidx[i] >= 0 {
			st.anchorsKept++
		}
	}
	for _, f := range e.pool {
		before[f.U], before[f.V] = true, true
	}
	st.nodesBefore = len(before)
	return st
}

// BenchmarkRoundStart starts the engine (its first round) with err's
// removal candidates on OHM_SKETCH_GRAPH (an .npz of `ohm data synth`,
// read as undirected) or a 10⁴-node SBM of mean degree 20, two workers,
// and reports the round's kept nodes, removal candidates, M's columns and
// solves beside what sketch-18 kept on the same round (the candidates'
// ends as nodes: the same sketch, candidates and pool): docs/sketch.md,
// "Third round".
func BenchmarkRoundStart(b *testing.B) {
	var g *linalg.Graph
	if path := os.Getenv("OHM_SKETCH_GRAPH"); path != "" {
		var err error
		if g, err = graphio.Load(path, 0, false); err != nil {
			b.Fatal(err)
		}
	} else {
		gg, err := graphgen.SBMByDegree(10000, 10, 20, 0.8, 1)
		if err != nil {
			b.Fatal(err)
		}
		if g, err = gg.Undirected(); err != nil {
			b.Fatal(err)
		}
	}
	for range b.N {
		e, err := New(g, Options{Seed: 1, Workers: 2, Removes: true})
		if err != nil {
			b.Fatal(err)
		}
		st := poolStats(e)
		b.ReportMetric(float64(st.nodes), "nodes")
		b.ReportMetric(float64(st.pool), "pool")
		b.ReportMetric(float64(st.columns), "columns")
		b.ReportMetric(float64(e.Solves()), "solves")
		b.ReportMetric(float64(st.nodesBefore), "sketch18-columns")
		b.ReportMetric(float64(e.opt.Rows+e.opt.Probes+len(e.anchors)+st.nodesBefore-st.anchorsKept), "sketch18-solves")
	}
}
