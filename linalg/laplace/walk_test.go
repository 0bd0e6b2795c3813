package laplace

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphgen"
)

// TestWalkBlockBits: the control variate applied to a block of probes
// (applyBlock, AVX and Go loops, full and short blocks) gives each probe
// the bits of the walk taken probe by probe (walkOne), on graphs with
// several components, isolated nodes and self-loops (which linalg.Graph
// keeps apart from the neighbours).
func TestWalkBlockBits(t *testing.T) {
	hasAVX := useAVX
	defer func() { useAVX = hasAVX }()
	for trial := range 3 {
		gg, _ := graphgen.SBM(300, 3, 0.08, 0.002*float64(trial), uint64(trial))
		edges := append(gg.Edges, linalg.Edge{U: 7, V: 7}, linalg.Edge{U: 11, V: 11})
		g, err := linalg.FromEdges(gg.N+2, false, edges) // two isolated nodes
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(g)
		if err != nil {
			t.Fatal(err)
		}
		w := s.walkSeries(1)
		n := g.N()
		if w3 := s.walkSeries(3); !slices.Equal(w3.diag, w.diag) {
			t.Fatalf("trial %d: P's diagonal on three workers differs from one's", trial)
		}
		r := rand.New(rand.NewPCG(uint64(trial), 3))
		for _, c := range []int{block, 3} {
			vs := make([]float64, n*c)
			for i := range vs {
				vs[i] = r.NormFloat64()
			}
			for _, avx := range []bool{false, true} {
				useAVX = avx && hasAVX
				got := w.applyBlock(vs, c)
				for q := range c {
					v := make([]float64, n)
					for i := range v {
						v[i] = vs[i*c+q]
					}
					want := walkOne(w, v)
					for i := range want {
						if math.Float64bits(got[i*c+q]) != math.Float64bits(want[i]) {
							t.Fatalf("trial %d, block of %d, AVX %v: probe %d node %d: %v, apply gives %v", trial, c, useAVX, q, i, got[i*c+q], want[i])
						}
					}
				}
			}
		}
	}
}

// walkOne is P v for one probe, one power at a time, each entry's sum
// taken term by term: the reference applyBlock must match bit for bit.
func walkOne(w *walkSeries, v []float64) []float64 {
	n := len(v)
	y := make([]float64, n)
	acc := make([]float64, n)
	next := make([]float64, n)
	for i := range n {
		y[i] = w.isqrt[i] * v[i]
		acc[i] = y[i]
	}
	for range walkTerms {
		for i := range n {
			t := 0.0
			for _, j := range w.s.neighbours(i) {
				if int(j) != i {
					t += w.isqrt[j] * y[j]
				}
			}
			next[i] = w.isqrt[i] * t
		}
		y, next = next, y
		for i := range n {
			acc[i] += y[i]
		}
	}
	sum := make([]float64, len(w.ivol))
	for i, c := range w.s.comp {
		sum[c] += v[i]
	}
	for i, c := range w.s.comp {
		acc[i] = acc[i]*w.isqrt[i] - walkTerms*w.ivol[c]*sum[c]
	}
	return acc
}
