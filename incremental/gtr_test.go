package incremental

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/incremental/tarjan"
	"github.com/ohmgnn/ohm/linalg"
)

// totalResistance returns n·tr(L⁺) of g, from a fresh pseudoinverse.
func totalResistance(t *testing.T, g *linalg.Graph) float64 {
	t.Helper()
	comp, _ := tarjan.Components(g)
	P, err := linalg.Pinv(g, comp)
	if err != nil {
		t.Fatal(err)
	}
	return float64(g.N()) * mat.Trace(P)
}

// TestGTRBruteForce: in GTR mode the engine's pair is the non-edge inside a
// component whose addition lowers the total effective resistance most, by a
// brute-force search over all of them with fresh pseudoinverses (definitions §3's
// ranking), step after step.
func TestGTRBruteForce(t *testing.T) {
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 5))
		g := randomGraph(r, 18, 24, 2)
		e, err := NewUndirected(g, Options{GTR: true, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for step := range 8 {
			cur := e.Graph()
			comp, _ := tarjan.Components(cur)
			base := totalResistance(t, cur)
			var ps []Pair
			for i := range cur.N() {
				for j := i + 1; j < cur.N(); j++ {
					if comp[i] != comp[j] || cur.HasEdge(i, j) {
						continue
					}
					h := cur.Clone()
					h.AddEdge(i, j)
					ps = append(ps, Pair{U: i, V: j, Score: (base - totalResistance(t, h)) / float64(cur.N())})
				}
			}
			got, ok := e.MaxPair()
			if len(ps) == 0 {
				if ok {
					t.Fatalf("seed %d step %d: %v, but no admissible pair", seed, step, got)
				}
				break
			}
			want := ps[rank.First(ps, rank.Descending, rank.ScoreOnly)]
			if !ok || !rank.Same(got, want) || abs(got.Score-want.Score) > 1e-9*max(1, want.Score) {
				t.Fatalf("seed %d step %d: engine %v, brute force %v", seed, step, got, want)
			}
			if err := e.Add(got.U, got.V); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestGTRSquareStaysExact: after 1,000 GTR additions the kept (L⁺)² is
// within 1e-8 (relative, max norm) of the square of a fresh pseudoinverse.
func TestGTRSquareStaysExact(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	g := randomGraph(r, 80, 100, 1)
	// No drift refresh: the kept square must stay exact by its updates alone.
	e, err := NewUndirected(g, Options{GTR: true, DriftTolerance: math.Inf(1)})
	if err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		p, ok := e.MaxPair()
		if !ok {
			t.Fatal("no pair left")
		}
		if err := e.Add(p.U, p.V); err != nil {
			t.Fatal(err)
		}
	}
	comp, _ := tarjan.Components(e.Graph())
	P, err := linalg.Pinv(e.Graph(), comp)
	if err != nil {
		t.Fatal(err)
	}
	var S mat.Dense
	S.Mul(P, P)
	kept := mat.NewDense(e.n, e.n, nil)
	for i := range e.n {
		for j := range e.n {
			kept.Set(i, j, e.SquaredPinv(i, j))
		}
	}
	if d := relMaxDiff(kept, &S); d > 1e-8 {
		t.Fatalf("(L⁺)² drifted: %.3g relative", d)
	}
	if err := e.Remove(p0(e)); err == nil {
		t.Fatal("GTR mode accepted a removal")
	}
}

// p0 returns some edge of the engine's graph.
func p0(e *Undirected) (int, int) {
	es := e.Graph().Edges()
	return es[0].U, es[0].V
}

// BenchmarkGTRAddition measures one GTR step on a synthetic 1,500-node graph
// (a random graph of mean degree 4): "incremental" is the fused rank-one
// (L⁺) and rank-2 ((L⁺)²) update with the scan, O(n²); "dense" is what the
// reference code does per step with dense matrices — the scores of all
// pairs from L⁺ and (L⁺)², then both matrices updated by outer products —
// written with gonum, O(n²) too but in several passes over two full n×n
// matrices, plus the (L⁺)² update by the Woodbury product (O(n²·2)).
func BenchmarkGTRAddition(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	g := randomGraph(r, 1500, 3000, 1)
	b.Run("incremental", func(b *testing.B) {
		e, err := NewUndirected(g, Options{GTR: true})
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for range b.N {
			p, ok := e.MaxPair()
			if !ok {
				b.Fatal("no pair")
			}
			if err := e.Add(p.U, p.V); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("dense", func(b *testing.B) {
		comp, _ := tarjan.Components(g)
		P0, err := linalg.Pinv(g, comp)
		if err != nil {
			b.Fatal(err)
		}
		n := g.N()
		P := mat.NewDense(n, n, nil)
		P.Copy(P0)
		var S mat.Dense
		S.Mul(P, P)
		h := g.Clone()
		D := mat.NewDense(n, n, nil)
		x, y := make([]float64, n), make([]float64, n)
		b.ResetTimer()
		for range b.N {
			// Scores of all pairs, then the masked argmax.
			for i := range n {
				for j := range n {
					rr := P.At(i, i) + P.At(j, j) - 2*P.At(i, j)
					D.Set(i, j, (S.At(i, i)+S.At(j, j)-2*S.At(i, j))/(1+rr))
				}
			}
			bu, bv, best := 0, 0, -1.0
			for i := range n {
				for j := range n {
					if i != j && !h.HasEdge(i, j) && comp[i] == comp[j] && D.At(i, j) > best {
						bu, bv, best = i, j, D.At(i, j)
					}
				}
			}
			h.AddEdge(bu, bv)
			for i := range n {
				x[i] = P.At(i, bu) - P.At(i, bv)
				y[i] = S.At(i, bu) - S.At(i, bv)
			}
			c := 1 / (1 + x[bu] - x[bv])
			xx := 0.0
			for _, xi := range x {
				xx += xi * xi
			}
			for i := range n {
				for j := range n {
					P.Set(i, j, P.At(i, j)-c*x[i]*x[j])
					S.Set(i, j, S.At(i, j)-c*(y[i]*x[j]+x[i]*y[j])+c*c*xx*x[i]*x[j])
				}
			}
		}
	})
}
