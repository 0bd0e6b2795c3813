package laplace

// The memory the solver's parts take, for callers that refuse a graph
// before they allocate (the sketch engine's estimate of its peak). Each
// figure counts what the code beside it allocates, by capacity (an
// address-space limit counts capacity, not the pages touched). O(1) each.

// SolverBytes estimates the peak memory of New on a graph of n nodes and m
// edges (undirected, self-loops excluded) and what the solver keeps: per
// node its component, grounding, degrees and the factor's row starts and
// diagonal (60 bytes), per edge the neighbour lists of the residual and
// the two triangles of the IC(0) factor (24 bytes); while New runs, the
// breadth-first search, the grounded pattern and the factor in float64 (48
// bytes a node and 24 an edge more); and, as Auto may build it beside
// IC(0)'s, the approximate Cholesky factor: its elimination's lists (48
// bytes an edge), columns (at most acMaxFill entries an edge, 12 bytes
// each), triangles (16 bytes an entry) and per-node order, heap and
// scratch (about 75 bytes a node).
func SolverBytes(n, m int) uint64 {
	nn, mm := uint64(n), uint64(m)
	kept := 60*nn + 24*mm
	building := 48*nn + 24*mm
	ac := 75*nn + 48*mm + (12+16)*acMaxFill*mm
	return kept + building + ac + 4*prefetchAhead*4*3
}

// SolveBytes estimates the work vectors the solves on up to workers
// goroutines (0: 1) keep for the solver's life (spares): per worker the
// block's right-hand sides, solution and columns, the residual, the float32
// correction and its direction and, on an ill-conditioned graph, their
// float64 counterparts (seven float64 vectors of Block sides), and two more
// for Solve's single side.
func SolveBytes(n, workers int) uint64 {
	block := uint64(n) * wide * 8
	return (7*uint64(max(1, workers)) + 2) * block
}

// SketchBytes is the memory of a Sketch of k rows on n nodes (k·n
// float64).
func SketchBytes(n, k int) uint64 { return 8 * uint64(k) * uint64(n) }

// DiagBytes estimates the memory EstimateDiag takes beyond the solves'
// (SolveBytes): the sums and the walk series' diagonal (five n-vectors) and,
// per worker, two blocks of probes in flight with their signs, walks and
// the series' four work blocks (7 float64 vectors of 8 sides each, twice)
// and the two-hop row of the series' set-up.
func DiagBytes(n, workers int) uint64 {
	nn, w := uint64(n), uint64(max(1, workers))
	return 5*8*nn + w*(2*7*block*8*nn+8*nn)
}
