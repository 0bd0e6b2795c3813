package linalg

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// labelComponents is the test's own union-find labelling (smallest id first).
func labelComponents(g *Graph) []int {
	parent := make([]int, g.N())
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, e := range g.Edges() {
		a, b := find(e.U), find(e.V)
		if a < b {
			parent[b] = a
		} else {
			parent[a] = b
		}
	}
	label := make(map[int]int)
	comp := make([]int, g.N())
	for i := range comp {
		r := find(i)
		if _, ok := label[r]; !ok {
			label[r] = len(label)
		}
		comp[i] = label[r]
	}
	return comp
}

func mustPinv(t *testing.T, g *Graph) *mat.SymDense {
	t.Helper()
	P, err := Pinv(g, labelComponents(g))
	if err != nil {
		t.Fatal(err)
	}
	return P
}

func TestResistanceClosedForms(t *testing.T) {
	path := func(n int) *Graph {
		g := NewGraph(n, false)
		for i := 0; i+1 < n; i++ {
			g.AddEdge(i, i+1)
		}
		return g
	}
	cycle := func(n int) *Graph {
		g := path(n)
		g.AddEdge(n-1, 0)
		return g
	}
	complete := func(n int) *Graph {
		g := NewGraph(n, false)
		for i := range n {
			for j := i + 1; j < n; j++ {
				g.AddEdge(i, j)
			}
		}
		return g
	}
	star := func(n int) *Graph {
		g := NewGraph(n, false)
		for i := 1; i < n; i++ {
			g.AddEdge(0, i)
		}
		return g
	}
	for _, tc := range []struct {
		name string
		g    *Graph
		want func(i, j int) float64
	}{
		// Series resistors: |i−j| unit resistors between i and j.
		{"path", path(30), func(i, j int) float64 { return math.Abs(float64(i - j)) }},
		// Two parallel arcs of k and n−k unit resistors: k(n−k)/n.
		{"cycle", cycle(25), func(i, j int) float64 {
			k := float64((j - i + 25) % 25)
			return k * (25 - k) / 25
		}},
		// Symmetry of K_n: R = 2/n for every pair.
		{"complete", complete(12), func(i, j int) float64 { return 2.0 / 12 }},
		// Star: centre–leaf 1, leaf–leaf 2.
		{"star", star(15), func(i, j int) float64 {
			if i == 0 || j == 0 {
				return 1
			}
			return 2
		}},
	} {
		P := mustPinv(t, tc.g)
		for i := range tc.g.N() {
			for j := range tc.g.N() {
				want := tc.want(i, j)
				if i == j {
					want = 0
				}
				if got := Resistance(P, i, j); math.Abs(got-want) > 1e-10*max(1, want) {
					t.Fatalf("%s: R(%d,%d) = %v, want %v", tc.name, i, j, got, want)
				}
			}
		}
	}
}

// TestResistanceTree: on any tree R_ij is the hop distance.
func TestResistanceTree(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	n := 60
	g := NewGraph(n, false)
	for i := 1; i < n; i++ {
		g.AddEdge(i, r.IntN(i))
	}
	P := mustPinv(t, g)
	for s := range n {
		dist := bfs(g, s)
		for j := range n {
			if got := Resistance(P, s, j); math.Abs(got-float64(dist[j])) > 1e-9 {
				t.Fatalf("R(%d,%d) = %v, hop distance %d", s, j, got, dist[j])
			}
		}
	}
}

func bfs(g *Graph, s int) []int {
	d := make([]int, g.N())
	for i := range d {
		d[i] = -1
	}
	d[s] = 0
	q := []int{s}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, v := range g.Out(u) {
			if d[v] < 0 {
				d[v] = d[u] + 1
				q = append(q, v)
			}
		}
	}
	return d
}

// TestPinvAgainstSVD compares with gonum's SVD pseudoinverse on random
// connected and disconnected graphs (with isolated nodes and self-loops).
func TestPinvAgainstSVD(t *testing.T) {
	for seed := range uint64(30) {
		r := rand.New(rand.NewPCG(seed, 11))
		n := 2 + r.IntN(40)
		g := randomPinvGraph(r, n, seed%2 == 0)
		P := mustPinv(t, g)
		want := svdPinv(t, mat.DenseCopyOf(g.Laplacian()))
		if d := maxRelDiff(P, want); d > 1e-10 {
			t.Fatalf("seed %d n %d: max relative difference %g", seed, n, d)
		}
	}
}

func svdPinv(t *testing.T, L *mat.Dense) *mat.Dense {
	t.Helper()
	var svd mat.SVD
	if !svd.Factorize(L, mat.SVDFull) {
		t.Fatal("SVD failed")
	}
	var U, V mat.Dense
	svd.UTo(&U)
	svd.VTo(&V)
	s := svd.Values(nil)
	n, _ := L.Dims()
	tol := 1e-10 * s[0]
	P := mat.NewDense(n, n, nil)
	for k, sk := range s {
		if sk <= tol {
			continue
		}
		for i := range n {
			for j := range n {
				P.Set(i, j, P.At(i, j)+V.At(i, k)*U.At(j, k)/sk)
			}
		}
	}
	return P
}

// maxRelDiff returns max|a−b| / max(max|b|, tiny).
func maxRelDiff(a, b mat.Matrix) float64 {
	n, _ := b.Dims()
	d, s := 0.0, 1e-300
	for i := range n {
		for j := range n {
			d = max(d, math.Abs(a.At(i, j)-b.At(i, j)))
			s = max(s, math.Abs(b.At(i, j)))
		}
	}
	return d / s
}

func TestResistancesMatrix(t *testing.T) {
	g, _ := FromEdges(5, false, []Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 3}, {U: 3, V: 4}})
	R := resistances(mustPinv(t, g))
	for i := range 5 {
		for j := range 5 {
			if d := R.At(i, j) - math.Abs(float64(i-j)); math.Abs(d) > 1e-12 {
				t.Fatalf("R(%d,%d) = %v on a path", i, j, R.At(i, j))
			}
		}
	}
}

// resistances returns the all-pairs matrix R_ij = P_ii + P_jj − 2P_ij of a
// symmetric P (L⁺, or the directed X of definitions §2.2). O(n²).
func resistances(P mat.Symmetric) *mat.SymDense {
	n := P.SymmetricDim()
	R := mat.NewSymDense(max(n, 1), nil)
	for i := range n {
		pii := P.At(i, i)
		for j := i + 1; j < n; j++ {
			R.SetSym(i, j, pii+P.At(j, j)-2*P.At(i, j))
		}
	}
	return R
}

// TestComponentPinvBitForBit checks that ComponentPinv without the
// condition estimate gives, bit for bit (raw storage, both triangles), what
// mat.Cholesky's Factorize and InverseTo give, on the components of random
// graphs (self-loops, components of consecutive and of scattered nodes).
func TestComponentPinvBitForBit(t *testing.T) {
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 12))
		n := 2 + r.IntN(60)
		g := randomPinvGraph(r, n, seed%2 == 0)
		for c, nodes := range Groups(labelComponents(g)) {
			if len(nodes) < 2 {
				continue
			}
			got, err := ComponentPinv(g, nodes)
			if err != nil {
				t.Fatal(err)
			}
			var ch mat.Cholesky
			if !ch.Factorize(componentMatrix(g, nodes, nil)) {
				t.Fatalf("seed %d component %d: reference Cholesky failed", seed, c)
			}
			var want mat.SymDense
			if err := ch.InverseTo(&want); err != nil {
				t.Fatal(err)
			}
			inv := 1 / float64(len(nodes))
			w, gr := want.RawSymmetric(), got.RawSymmetric()
			for a := range len(nodes) {
				for b := range len(nodes) {
					x := w.Data[a*w.Stride+b]
					if b >= a {
						x -= inv
					}
					if y := gr.Data[a*gr.Stride+b]; math.Float64bits(x) != math.Float64bits(y) {
						t.Fatalf("seed %d component %d (%d nodes) entry (%d,%d): %v, mat.Cholesky %v", seed, c, len(nodes), a, b, y, x)
					}
				}
			}
		}
	}
}

// randomPinvGraph is a random graph on n nodes, each pair (self-loops
// included) an edge with a probability drawn from [0.02, 0.32); with
// connected a path through 0, 1, …, n−1 is added, which makes it connected.
func randomPinvGraph(r *rand.Rand, n int, connected bool) *Graph {
	g := NewGraph(n, false)
	p := 0.02 + 0.3*r.Float64()
	for i := range n {
		for j := i; j < n; j++ {
			if r.Float64() < p {
				g.AddEdge(i, j)
			}
		}
	}
	if connected {
		for i := 0; i+1 < n; i++ {
			g.AddEdge(i, i+1)
		}
	}
	return g
}
