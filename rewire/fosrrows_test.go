package rewire

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

// powerStepLists is powerStep as it was before fosrRowsSSE2, summing each
// node's neighbour list and then its self-loop in Go: the reference the
// kernel must match bit for bit (center and
// scaleDivTo have the Go loops' bits: TestFoSRKernels).
func (f *fosr) powerStepLists() error {
	n := len(f.x)
	x, sd, isd := f.x[:n], f.sd[:n], f.isd[:n]
	w, y, g := f.w[:n], f.y[:n], f.g
	dot, sum := 0.0, f.sum
	for i := range n {
		dot += x[i] * sd[i]
	}
	if sum > 0 {
		center(x, w, sd, isd, dot, sum)
	} else {
		for i := range n {
			w[i] = x[i] * isd[i]
		}
	}
	norm := 0.0
	for i := range n {
		s := 0.0
		for _, j := range g.Neighbours(i) {
			s += w[j]
		}
		if g.HasSelfLoop(i) {
			s += w[i]
		}
		yi := x[i] + s*isd[i]
		y[i] = yi
		norm += yi * yi
	}
	norm = math.Sqrt(norm)
	if !(norm > 0) || math.IsInf(norm, 0) {
		return ErrFoSRVanished
	}
	scaleDivTo(x, y, norm)
	return nil
}

// randomFoSRGraph is a graph of n nodes with about m random edges and
// some self-loops and isolated nodes.
func randomFoSRGraph(r *rand.Rand, n, m int) *linalg.Graph {
	g := linalg.NewGraph(n, false)
	for range m {
		u, v := r.IntN(n), r.IntN(n)
		if u == v && r.IntN(3) != 0 {
			continue
		}
		g.AddEdge(u, v)
	}
	return g
}

// TestFoSRNeighbourSums: the power step with fosrRowsSSE2 (where it runs)
// keeps the bits of the Go loop over the neighbour lists, through
// additions, on random graphs with self-loops and isolated nodes.
func TestFoSRNeighbourSums(t *testing.T) {
	if !fosrRowsKernel {
		t.Log("no kernel here: the Go loop is compared with itself")
	}
	r := rand.New(rand.NewPCG(9, 4))
	for trial := range 300 {
		n := 1 + r.IntN(60)
		g := randomFoSRGraph(r, n, r.IntN(3*n+1))
		a, b := new(fosr), new(fosr)
		a.reset(g.Clone())
		b.reset(g.Clone())
		for i := range a.x {
			a.x[i] = 2*r.Float64() - 1
		}
		copy(b.x, a.x)
		for step := range 40 {
			if step > 4 && n > 1 && (step < 12 || trial%4 == 0) {
				u, v := r.IntN(n), r.IntN(n)
				if u != v && !a.g.HasEdge(u, v) {
					for _, f := range []*fosr{a, b} {
						f.g.AddEdge(u, v)
						f.setDeg(u, f.deg[u]+1)
						f.setDeg(v, f.deg[v]+1)
					}
				}
			}
			errA, errB := a.powerStep(), b.powerStepLists()
			if (errA == nil) != (errB == nil) {
				t.Fatalf("trial %d step %d: errors %v and %v", trial, step, errA, errB)
			}
			if errA != nil {
				break
			}
			for i := range a.x {
				if math.Float64bits(a.x[i]) != math.Float64bits(b.x[i]) {
					t.Fatalf("trial %d step %d: x[%d] = %v, want %v", trial, step, i, a.x[i], b.x[i])
				}
			}
		}
	}
}

// BenchmarkFoSRPowerStep times a power step on graphs of ENZYMES' mean
// size (33 nodes, about 62 edges), a different one each step (as in a
// batch, where the branch predictor cannot learn one graph's list
// lengths): with fosrRowsSSE2 and with the Go loop it replaces.
func BenchmarkFoSRPowerStep(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	fs := make([]*fosr, 512)
	for k := range fs {
		g := randomFoSRGraph(r, 33, 66)
		fs[k] = new(fosr)
		fs[k].reset(g)
		for i := range fs[k].x {
			fs[k].x[i] = 2*r.Float64() - 1
		}
	}
	b.Run("kernel", func(b *testing.B) {
		k := 0
		for b.Loop() {
			_ = fs[k&511].powerStep()
			k++
		}
	})
	b.Run("go", func(b *testing.B) {
		k := 0
		for b.Loop() {
			_ = fs[k&511].powerStepLists()
			k++
		}
	})
}
