package gnn

import (
	"fmt"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Pool is how a graph model reduces node rows to one row per graph.
type Pool int

const (
	// PoolMean is PyG's global_mean_pool: the mean of a graph's rows (a
	// graph without nodes gives zeros).
	PoolMean Pool = iota
	// PoolSum is global_add_pool: the sum of a graph's rows.
	PoolSum
)

// String returns "mean" or "sum".
func (p Pool) String() string {
	if p == PoolSum {
		return "sum"
	}
	return "mean"
}

// ParsePool parses "mean" or "sum" (any case).
func ParsePool(s string) (Pool, error) {
	switch strings.ToLower(s) {
	case "mean":
		return PoolMean, nil
	case "sum", "add":
		return PoolSum, nil
	}
	return 0, fmt.Errorf("gnn: unknown pooling %q (want mean or sum)", s)
}

// pool sets dst (B×c) to the pooled rows of x (n×c), graph b owning rows
// ptr[b] … ptr[b+1]−1, summed in ascending row order. O(n·c).
func pool(dst, x *mat.Dense, ptr []int, p Pool) {
	_, c := x.Dims()
	d, xs := rawDense(dst), rawDense(x)
	clear(d)
	for b := range len(ptr) - 1 {
		row := d[b*c : b*c+c]
		for i := ptr[b]; i < ptr[b+1]; i++ {
			for k, v := range xs[i*c : i*c+c] {
				row[k] += v
			}
		}
		if cnt := ptr[b+1] - ptr[b]; p == PoolMean && cnt > 0 {
			for k := range row {
				row[k] /= float64(cnt)
			}
		}
	}
}

// unpool sets dx (n×c), the gradient of pool's input, from the gradient g
// (B×c) of its output: g_b (divided by the node count for PoolMean) on every
// row of graph b. O(n·c).
func unpool(dx, g *mat.Dense, ptr []int, p Pool) {
	_, c := g.Dims()
	d, gs := rawDense(dx), rawDense(g)
	for b := range len(ptr) - 1 {
		row := gs[b*c : b*c+c]
		f := 1.0
		if cnt := ptr[b+1] - ptr[b]; p == PoolMean && cnt > 0 {
			f = 1 / float64(cnt)
		}
		for i := ptr[b]; i < ptr[b+1]; i++ {
			for k, v := range row {
				d[i*c+k] = v * f
			}
		}
	}
}
