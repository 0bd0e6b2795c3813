// Package sketch holds the resistance engine for graphs whose L⁺ does not
// fit in memory: undirected, for the operators err and res. It works in
// rounds. At the start of a round it builds the Laplacian solver of the
// current graph (laplace: conjugate gradients in mixed precision,
// preconditioned by IC(0) or, when a probe finds IC(0) slow, approximate
// Cholesky: laplace.Auto) and a Spielman–Srivastava sketch Z with k rows, R_ij ≈
// ‖Z e_i − Z e_j‖². From the sketch it draws the candidates:
//
//   - for additions, the nodes most likely to hold the farthest pair. A
//     first estimate of every node's eccentricity, ρ_i = max over anchors
//     a of R̂_ia (anchors: the 32 nodes of largest sketched L⁺_ii, the
//     extreme points of the embedding along each of its k coordinates,
//     then the 128 nodes of largest ρ), picks 64 exact anchors X, whose
//     full columns are solved and kept. D̂_i estimates L⁺_ii by
//     Hutchinson's method with a walk-series control variate
//     (laplace.EstimateDiag, Probes solves) combined with the sketch's
//     ‖Z e_i‖², σ_i its standard error. The bound on i's eccentricity
//     (bounds) is the larger of max over a in X of (D̂_i + L⁺_aa − 2L⁺_ai)
//     and D̂_i + max over j outside X of (D̂_j + 3σ_j) + 2δ (δ the most
//     negative anchor entry), plus 3σ_i; in small components (64 nodes or
//     fewer) L⁺ is dense and the eccentricity exact. The candidates are X,
//     the Candidates (default 64) nodes of largest bound and 32 random
//     nodes that calibrate the bound;
//   - for removals, the RemovalCandidates (default 2·Round) edges of
//     smallest sketched resistance that are not bridges (Tarjan), i.e.
//     their endpoints.
//
// It then solves L x = e_c exactly (relative residual Tol) for every
// candidate node c, keeping only the block M = L⁺[K, K] of the kept nodes
// K, |K|² floats. Inside the round every decision is exact among the
// candidates: MaxPair ranks all pairs of addition candidates by R_ij =
// M_ii + M_jj − 2M_ij with definitions §3.1's rule, MinEdge all edges with both ends
// in K, and every edit (both ends are kept) updates M by Sherman–Morrison,
// L⁺' = L⁺ ∓ u uᵀ / (1 ± R_ab) with u = L⁺(e_a − e_b) read from M's
// columns: exact, so M stays L⁺[K, K] of the current graph (the updates
// wait and M takes them in one pass every boundBatch edits, an entry read
// in between replaying its own: deferred.go, the same numbers). The error is
// in the choice of candidates only: the farthest pair is missed when one
// of its ends is not among them.
//
// The bounds follow the edits: each edit's full x = L⁺(e_a − e_b) (one
// solve to BoundTol; the round's solver takes the edits as rank-one
// updates, laplace.Solver.Update) updates the anchors' columns and every
// D̂_i by the same Sherman–Morrison identity. The edits' vectors are
// solved in batches (flushBounds: up to boundBatch edits, side by side on
// the graph before the first of them, on two cores when Workers allows,
// then carried forward by the earlier edits' updates). K grows inside a
// round (grow: one solve on the current graph per node, whose column joins
// the anchors while there are fewer than maxAnchors; M's new rows and
// columns are written in place while its row stride has room).
// MaxPair keeps more nodes before it decides
//
//   - while the best kept pair's R is below 0.98 of the cover, the largest
//     bound outside K (times the calibration's worst exact/bound ratio
//     when it exceeds 1): the next 32 nodes by bound;
//   - the neighbours case 2 of definitions §3.3 needs.
//
// A new round starts when the round's iterations are made or when an
// addition joins two components (L⁺ changes rank). It keeps the nodes kept
// before (largest new bound first, while fewer than carryKept are kept
// with its addition candidates) and reuses their entries of M, exact for
// the current graph, unless an addition joined components.
//
// When the nodes kept at a round's start, or those MaxPair would keep
// next, exceed Options.HandOff of the graph's nodes (default ½) and the
// dense state fits in memory, the engine hands the run to the exact
// incremental engine on the current graph (handoff.go, definitions
// §3.7.1): every later decision is exact.
package sketch
