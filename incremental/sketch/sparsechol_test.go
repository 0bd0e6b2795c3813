package sketch

// Measurement code (docs/sketch.md, "Step 4, third measurement: the exact
// diagonal and a pruned query"): a sparse LDLᵀ factor of a grounded
// Laplacian in a nested-dissection order, and selected inversion
// (Takahashi's equations) for the exact diagonal of L⁺. Hand-written, in a
// test file, because no maintained Go package offers a sparse Cholesky
// with a fill-reducing order (gonum has none; linalg.SymbolicLU's minimum
// degree is O(n²)), and this is a throw-away measurement, not engine
// code. The order is nested dissection by BFS level sets on the graph
// alone (no geometry), which is what a planar-like graph (the RGG, the
// ring of cliques) needs; the factor is simplicial (left-looking, column
// by column), so its seconds are an upper bound on what a supernodal
// code would take.

import (
	"errors"
	"math"
	"slices"

	"github.com/ohmgnn/ohm/linalg"
)

// errFill is returned when the factor's nonzeros would pass the cap.
var errFill = errors.New("sparse factor: fill cap reached")

// ndOrder returns an elimination order of the nodes with keep[v] true
// (nested dissection: a BFS level of a pseudo-peripheral node's level
// structure, thinned to the nodes with a neighbour beyond it, separates the
// rest; parts first, separator last, recursively; parts of at most leaf
// nodes in BFS order). O(m log n).
func ndOrder(g *linalg.Graph, keep []bool, leaf int) []int {
	n := g.N()
	stamp := make([]int, n) // stamp[v] = id of v's current part, -1 out
	for v := range n {
		if keep[v] {
			stamp[v] = 0
		} else {
			stamp[v] = -1
		}
	}
	level := make([]int, n)
	next := 1
	order := make([]int, 0, n)
	// bfs from s inside part id; returns the nodes in BFS order and sets level.
	bfs := func(s, id int, buf []int) []int {
		buf = append(buf[:0], s)
		level[s] = 0
		seen := next
		next++
		stamp[s] = seen
		for h := 0; h < len(buf); h++ {
			u := buf[h]
			for _, w := range g.Neighbours(u) {
				if stamp[w] == id {
					stamp[w] = seen
					level[w] = level[u] + 1
					buf = append(buf, w)
				}
			}
		}
		for _, u := range buf { // restore the part's id
			stamp[u] = id
		}
		return buf
	}
	var rec func(nodes []int, id int)
	var buf []int
	rec = func(nodes []int, id int) {
		// split into connected components first
		comps := [][]int{}
		remaining := len(nodes)
		for _, s := range nodes {
			if stamp[s] != id {
				continue
			}
			c := slices.Clone(bfs(s, id, buf))
			nid := next
			next++
			for _, u := range c {
				stamp[u] = nid
			}
			comps = append(comps, c)
			remaining -= len(c)
		}
		for _, c := range comps {
			cid := stamp[c[0]]
			if len(c) <= leaf {
				order = append(order, c...)
				for _, u := range c {
					stamp[u] = -1
				}
				continue
			}
			lv := bfs(c[0], cid, buf)
			far := lv[len(lv)-1]
			for range 2 { // pseudo-peripheral node
				lv = bfs(far, cid, buf)
				far = lv[len(lv)-1]
			}
			lv = slices.Clone(bfs(far, cid, buf))
			depth := level[lv[len(lv)-1]]
			if depth < 2 { // a clique-like part: no level separates it
				order = append(order, lv...)
				for _, u := range lv {
					stamp[u] = -1
				}
				continue
			}
			half := lv[len(lv)/2]
			sl := max(1, min(level[half], depth-1))
			var sep []int
			for _, u := range lv {
				if level[u] != sl {
					continue
				}
				for _, w := range g.Neighbours(u) {
					if stamp[w] == cid && level[w] == sl+1 {
						sep = append(sep, u)
						break
					}
				}
			}
			for _, u := range sep {
				stamp[u] = -1
			}
			nid := next
			next++
			rest := lv[:0:0]
			for _, u := range lv {
				if stamp[u] == cid {
					stamp[u] = nid
					rest = append(rest, u)
				}
			}
			rec(rest, nid)
			order = append(order, sep...)
		}
		_ = remaining
	}
	all := make([]int, 0, n)
	for v := range n {
		if keep[v] {
			all = append(all, v)
		}
	}
	rec(all, 0)
	return order
}

// spChol is the LDLᵀ factor of the grounded Laplacian (the rows and
// columns of the grounded nodes removed) in a given order: column j of the
// unit lower L holds rows[colp[j]:colp[j+1]] (ascending, positions in the
// order) and val; d the diagonal of D.
type spChol struct {
	n     int
	perm  []int // perm[k]: the node eliminated k-th
	iperm []int // iperm[v]: v's position, -1 for a grounded node
	colp  []int
	rows  []int32
	val   []float64
	d     []float64
	z     []float64 // selected inverse on L's pattern (after selInv)
	zd    []float64 // its diagonal
}

// symbolic builds L's pattern: struct(j) = {i > j : A_ij ≠ 0} ∪ the
// children's structures less j (parent(c) = min struct(c)). It fails with
// errFill past capNNZ entries. O(nnz(L) log).
func (f *spChol) symbolic(g *linalg.Graph, capNNZ int) error {
	n := f.n
	children := make([][]int32, n)
	mark := make([]int, n)
	for i := range mark {
		mark[i] = -1
	}
	f.colp = make([]int, n+1)
	var col []int32
	for j := range n {
		col = col[:0]
		mark[j] = j
		for _, w := range g.Neighbours(f.perm[j]) {
			if i := f.iperm[w]; i > j && mark[i] != j {
				mark[i] = j
				col = append(col, int32(i))
			}
		}
		for _, c := range children[j] {
			for _, i := range f.rows[f.colp[c]:f.colp[c+1]] {
				if int(i) > j && mark[i] != j {
					mark[i] = j
					col = append(col, i)
				}
			}
		}
		children[j] = nil
		slices.Sort(col)
		f.rows = append(f.rows, col...)
		f.colp[j+1] = len(f.rows)
		if len(f.rows) > capNNZ {
			return errFill
		}
		if len(col) > 0 {
			children[col[0]] = append(children[col[0]], int32(j))
		}
	}
	return nil
}

// newSpChol factors the Laplacian of g grounded at the nodes with
// ground[v] true, in the order given (the other nodes, each once).
func newSpChol(g *linalg.Graph, order []int, ground []bool, capNNZ int) (*spChol, error) {
	n := len(order)
	f := &spChol{n: n, perm: order, iperm: make([]int, g.N())}
	for v := range f.iperm {
		f.iperm[v] = -1
	}
	for k, v := range order {
		if ground[v] {
			panic("sparse factor: a grounded node in the order")
		}
		f.iperm[v] = k
	}
	if err := f.symbolic(g, capNNZ); err != nil {
		return nil, err
	}
	f.numeric(g)
	return f, nil
}

// numeric is the left-looking LDLᵀ: column j gathers the updates of the
// columns k < j with L_jk ≠ 0 (linked by their next pending row).
// O(Σ_j |struct(j)|²) flops.
func (f *spChol) numeric(g *linalg.Graph) {
	n := f.n
	f.val = make([]float64, len(f.rows))
	f.d = make([]float64, n)
	w := make([]float64, n)
	head := make([]int32, n) // linked list of columns whose next row is j
	link := make([]int32, n)
	pos := make([]int, n)
	for i := range head {
		head[i] = -1
	}
	for j := range n {
		v := f.perm[j]
		w[j] = float64(g.Degree(v))
		for _, u := range g.Neighbours(v) {
			if i := f.iperm[u]; i > j {
				w[i] = -1
			}
		}
		for k := head[j]; k >= 0; {
			nk := link[k]
			p := pos[k]
			ljk := f.val[p]
			fk := ljk * f.d[k]
			w[j] -= fk * ljk
			end := f.colp[k+1]
			for q := p + 1; q < end; q++ {
				w[f.rows[q]] -= fk * f.val[q]
			}
			pos[k] = p + 1
			if p+1 < end {
				r := f.rows[p+1]
				link[k] = head[r]
				head[r] = k
			}
			k = nk
		}
		dj := w[j]
		f.d[j] = dj
		w[j] = 0
		for q := f.colp[j]; q < f.colp[j+1]; q++ {
			r := f.rows[q]
			f.val[q] = w[r] / dj
			w[r] = 0
		}
		pos[j] = f.colp[j]
		if f.colp[j] < f.colp[j+1] {
			r := f.rows[f.colp[j]]
			link[j] = head[r]
			head[r] = int32(j)
		}
	}
}

// solve overwrites b (positions in the order) with A⁻¹b. O(nnz(L)).
func (f *spChol) solve(b []float64) {
	for j := range f.n {
		bj := b[j]
		for q := f.colp[j]; q < f.colp[j+1]; q++ {
			b[f.rows[q]] -= f.val[q] * bj
		}
	}
	for j := range f.n {
		b[j] /= f.d[j]
	}
	for j := f.n - 1; j >= 0; j-- {
		s := b[j]
		for q := f.colp[j]; q < f.colp[j+1]; q++ {
			s -= f.val[q] * b[f.rows[q]]
		}
		b[j] = s
	}
}

// solveNodes solves with a right-hand side indexed by node (grounded
// entries ignored, returned 0).
func (f *spChol) solveNodes(b []float64) []float64 {
	x := make([]float64, f.n)
	for k, v := range f.perm {
		x[k] = b[v]
	}
	f.solve(x)
	out := make([]float64, len(f.iperm))
	for k, v := range f.perm {
		out[v] = x[k]
	}
	return out
}

// selInv computes Z = A⁻¹ on L's pattern and its diagonal by Takahashi's
// equations, columns from last to first: Z_ij = −Σ_{k∈struct(j)} Z_ik L_kj
// (i ∈ struct(j)), Z_jj = 1/d_j − Σ_k L_kj Z_kj. Z_ik for i, k ∈ struct(j)
// lies on the pattern (struct(j) is a clique of the filled graph), found by
// walking column min(i, k). O(Σ_j Σ_{k∈struct(j)} |struct(k)|).
func (f *spChol) selInv() {
	n := f.n
	f.z = make([]float64, len(f.rows))
	f.zd = make([]float64, n)
	var y []float64
	for j := n - 1; j >= 0; j-- {
		s := f.rows[f.colp[j]:f.colp[j+1]]
		l := f.val[f.colp[j]:f.colp[j+1]]
		y = append(y[:0], make([]float64, len(s))...)
		for b, k := range s {
			y[b] += f.zd[k] * l[b]
			ks, ke := f.colp[k], f.colp[k+1]
			p := ks
			for a := b + 1; a < len(s); a++ {
				i := s[a]
				for f.rows[p] != i {
					p++
					if p >= ke {
						panic("sparse factor: pattern not closed")
					}
				}
				zik := f.z[p]
				y[a] += zik * l[b]
				y[b] += zik * l[a]
			}
		}
		zjj := 1 / f.d[j]
		for a := range s {
			f.z[f.colp[j]+a] = -y[a]
			zjj += l[a] * y[a]
		}
		f.zd[j] = zjj
	}
}

// pinvDiag returns the exact diagonal of L⁺ of the connected graph g and
// the factor (grounded at the last node of a nested-dissection order):
// L⁺ = ΠGΠ with G the grounded inverse padded with zeros, so L⁺_ii = G_ii
// − 2(G1)_i/n + 1ᵀG1/n² (G1 one solve).
func pinvDiag(g *linalg.Graph, order []int, capNNZ int) ([]float64, *spChol, error) {
	n := g.N()
	ground := make([]bool, n)
	ground[order[len(order)-1]] = true
	f, err := newSpChol(g, order[:len(order)-1], ground, capNNZ)
	if err != nil {
		return nil, nil, err
	}
	f.selInv()
	return f.diagFromSelInv(), f, nil
}

// diagFromSelInv is pinvDiag's last step, on a factor grounded at one node.
func (f *spChol) diagFromSelInv() []float64 {
	nn := len(f.iperm)
	ones := make([]float64, nn)
	for i := range ones {
		ones[i] = 1
	}
	g1 := f.solveNodes(ones)
	tot := 0.0
	for _, v := range g1 {
		tot += v
	}
	fn := float64(nn)
	out := make([]float64, nn)
	for v := range nn {
		gii := 0.0
		if k := f.iperm[v]; k >= 0 {
			gii = f.zd[k]
		}
		out[v] = gii - 2*g1[v]/fn + tot/(fn*fn)
	}
	return out
}

// pinvColumn returns L⁺e_a = Π G (e_a − 1/n) through the factor grounded
// at one node. O(nnz(L)).
func (f *spChol) pinvColumn(a int) []float64 {
	nn := len(f.iperm)
	b := make([]float64, nn)
	for i := range b {
		b[i] = -1 / float64(nn)
	}
	b[a] += 1
	x := f.solveNodes(b)
	mean := 0.0
	for _, v := range x {
		mean += v
	}
	mean /= float64(nn)
	for i := range x {
		x[i] -= mean
	}
	return x
}

// nnz is the factor's strictly lower nonzeros plus its diagonal.
func (f *spChol) nnz() int { return len(f.rows) + f.n }

// flops is the factor's multiply-adds, Σ_j |struct(j)|(|struct(j)|+3)/2.
func (f *spChol) flops() float64 {
	s := 0.0
	for j := range f.n {
		c := float64(f.colp[j+1] - f.colp[j])
		s += c * (c + 3) / 2
	}
	return s
}

var _ = math.Inf
