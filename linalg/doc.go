// Package linalg is the bottom layer of ohm: graphs stored as adjacency sets and
// exported as sparse matrices (adjacency, Laplacian), and the dense linear algebra
// the resistance engines are built on.
//
// Node ids are 0..n-1 in dataset order. Self-loops are stored apart from the other
// edges (definitions §1): they are kept, counted in E0 and exported, but they never appear
// in neighbour lists or Laplacians, and nothing in ohm adds or removes them while
// rewiring.
package linalg
