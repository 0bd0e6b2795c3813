package gnn

import (
	"math/rand/v2"
	"slices"

	"github.com/james-bowman/sparse"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset"
)

// synthPlanetoid returns a random dataset shaped like Cora (seed fixes it):
// n nodes, f binary bag-of-words features (about perNode stored ones per
// row, a few rows empty), c classes, a directed graph of arcs random arcs
// (about 80 % inside a class, some self-loops and reciprocal pairs), and
// the Planetoid split: 20 training nodes per class, then 500 validation and
// 1000 test nodes (fewer when n is small). O(n·perNode + arcs).
func synthPlanetoid(n, f, c, perNode, arcs int, seed uint64) *dataset.Dataset {
	rng := rand.New(rand.NewPCG(seed, 7))
	labels := make([]int, n)
	byClass := make([][]int, c)
	for i := range labels {
		labels[i] = rng.IntN(c)
		byClass[labels[i]] = append(byClass[labels[i]], i)
	}
	// Features: class-dependent vocabulary, 0/1 entries, sorted columns.
	ia := make([]int, n+1)
	var ja []int
	for i := range n {
		if i%97 == 5 { // empty rows occur (CiteSeer)
			ia[i+1] = len(ja)
			continue
		}
		k := 1 + rng.IntN(2*perNode-1)
		cols := map[int]bool{}
		for len(cols) < min(k, f) {
			j := rng.IntN(f)
			if rng.IntN(2) == 0 {
				j = (labels[i]*f/c + rng.IntN(f/c)) % f
			}
			cols[j] = true
		}
		row := make([]int, 0, len(cols))
		for j := range cols {
			row = append(row, j)
		}
		slices.Sort(row)
		ja = append(ja, row...)
		ia[i+1] = len(ja)
	}
	data := make([]float64, len(ja))
	for k := range data {
		data[k] = 1
	}
	g := linalg.NewGraph(n, true)
	for g.NumEdges() < arcs {
		u := rng.IntN(n)
		v := rng.IntN(n)
		if rng.Float64() < 0.8 {
			cl := byClass[labels[u]]
			v = cl[rng.IntN(len(cl))]
		}
		g.AddEdge(u, v)
		if rng.IntN(2) == 0 && g.NumEdges() < arcs {
			g.AddEdge(v, u)
		}
	}
	var sp dataset.Split
	perm := rng.Perm(n)
	taken := make([]int, c)
	used := make([]bool, n)
	for _, i := range perm {
		if taken[labels[i]] < 20 {
			taken[labels[i]]++
			sp.Train = append(sp.Train, i)
			used[i] = true
		}
	}
	rest := make([]int, 0, n)
	for _, i := range perm {
		if !used[i] {
			rest = append(rest, i)
		}
	}
	nv := min(500, len(rest)/3)
	nt := min(1000, len(rest)-nv)
	sp.Val, sp.Test = append([]int(nil), rest[:nv]...), append([]int(nil), rest[nv:nv+nt]...)
	for _, s := range [][]int{sp.Train, sp.Val, sp.Test} {
		slices.Sort(s)
	}
	return &dataset.Dataset{Name: "cora", Graph: g, Features: sparse.NewCSR(n, f, ia, ja, data),
		Labels: labels, NumClasses: c, Splits: []dataset.Split{sp}}
}

// synthCora is synthPlanetoid at Cora's size: 2708 nodes, 1433 features
// (18 per node on average), 7 classes, 10556 arcs.
func synthCora(seed uint64) *dataset.Dataset {
	return synthPlanetoid(2708, 1433, 7, 18, 10556, seed)
}
