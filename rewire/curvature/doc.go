// Package curvature computes Ollivier–Ricci curvature and keeps it up to
// date under edge edits, for the curvature rewiring baseline of definitions §3.
//
// κ(x,y) = 1 − W1(μx, μy) of an edge, with the lazy measures
// μx = α·δx + (1−α)/deg(x)·Σ_{z∈N(x)} δz and W1 the exact earth-mover
// distance with the shortest-path ground distance: Curvatures computes it
// for every edge, Transport is the exact W1 solver underneath. State is the
// incremental κ of the baseline operator: the graph being rewired, κ of
// every edge recomputed only near each edit, and the operator's choices of
// an addition and a removal (package rewire runs the loop).
//
// A directed graph is read through its underlying undirected graph.
package curvature
