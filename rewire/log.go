package rewire

// Edit is one line of the edit log: an edge added or removed in an iteration
// (1-based). Undirected edges have U < V; a directed edit is the arc U→V.
// Score is what decided the edit: the method's score of the pair added (case
// 1), the resistance R_{u*v*} that the added edge leaves (case 2), or the
// resistance of the edge removed, all taken on the graph G(t) at the start of
// the iteration.
type Edit struct {
	Iteration int     `json:"iteration"`
	Op        string  `json:"op"` // "add" or "remove"
	U         int     `json:"u"`
	V         int     `json:"v"`
	Score     float64 `json:"score"`
}
