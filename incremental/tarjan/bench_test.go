package tarjan

import (
	"math/rand/v2"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

// coraLike returns a seeded random graph with n = 3000 nodes and m = 5000
// distinct edges (arcs when directed), the size of the Cora citation graph.
func coraLike(directed bool) *linalg.Graph {
	const n, m = 3000, 5000
	r := rand.New(rand.NewPCG(42, 43))
	g := linalg.NewGraph(n, directed)
	for g.NumEdges() < m {
		u, v := r.IntN(n), r.IntN(n)
		if u != v {
			g.AddEdge(u, v)
		}
	}
	return g
}

func BenchmarkComponents(b *testing.B) {
	g := coraLike(false)
	b.ReportAllocs()
	for b.Loop() {
		Components(g)
	}
}

func BenchmarkBridges(b *testing.B) {
	for _, c := range []struct {
		name     string
		directed bool
	}{{"undirected", false}, {"directed", true}} {
		b.Run(c.name, func(b *testing.B) {
			g := coraLike(c.directed)
			b.ReportAllocs()
			for b.Loop() {
				Bridges(g)
			}
		})
	}
}

func BenchmarkSCC(b *testing.B) {
	for _, c := range []struct {
		name     string
		directed bool
	}{{"directed", true}, {"undirected", false}} {
		b.Run(c.name, func(b *testing.B) {
			g := coraLike(c.directed)
			b.ReportAllocs()
			for b.Loop() {
				SCC(g)
			}
		})
	}
}

// BenchmarkIsBridge measures one query, cycling over every edge of the graph.
func BenchmarkIsBridge(b *testing.B) {
	g := coraLike(false)
	es := g.Edges()
	b.Run("Searcher", func(b *testing.B) {
		s := NewSearcher(g.N())
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			e := es[i%len(es)]
			i++
			s.IsBridge(g, e.U, e.V)
		}
	})
	b.Run("fresh", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			e := es[i%len(es)]
			i++
			isBridge(g, e.U, e.V)
		}
	})
}

// BenchmarkSplitsSCC measures one query, cycling over every arc of the graph.
func BenchmarkSplitsSCC(b *testing.B) {
	g := coraLike(true)
	es := g.Edges()
	s := NewSearcher(g.N())
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		e := es[i%len(es)]
		i++
		s.SplitsSCC(g, e.U, e.V)
	}
}
