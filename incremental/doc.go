// Package incremental holds ohm's resistance engines: they keep the Laplacian
// pseudoinverse L⁺ (undirected) or the matrix X of Young, Scardovi & Leonard
// (directed) exact while edges are added and removed, so that a rewiring loop
// never recomputes them from scratch (definitions §2).
//
// The undirected engine applies rank-one Sherman–Morrison updates for edits
// inside a component and the double-centering formula of definitions §2.1 when an
// edge joins two components, and fuses every O(n²) update with the scan for
// the most resistant pair. Bridges and strong-connectivity questions are
// answered by the Tarjan module (package incremental/tarjan), never by a
// floating-point comparison.
//
// Engine is the one interface the rewiring operators and the command line
// use: Undirected and Directed implement it here, the sketch engine for
// graphs beyond memory in package incremental/sketch, the exact from-scratch
// oracle in package incremental/exact. Every ranking follows definitions §3.1's rule through
// package incremental/rank. In GTR mode (Options.GTR) the undirected engine
// also keeps (L⁺)² and scores pairs by the drop of total resistance.
package incremental
