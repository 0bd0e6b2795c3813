// Package gnn holds the graph neural networks of definitions §4 and their training:
// the GCN and DirGCN layers, PairNorm, ReLU and dropout, the softmax
// cross-entropy loss and the Adam optimiser, all with hand-written backward
// passes checked against finite differences in the tests.
//
// Everything is float64 and full-batch. Propagation matrices are
// github.com/james-bowman/sparse CSR matrices (built by Operators, read-only
// and shared by concurrent runs); weights, activations and gradients are
// gonum *mat.Dense. The products are hand-written loops over the raw CSR and
// row-major arrays rather than sparse.MulMatMat or mat.Dense.Mul: a CSR loop
// is about twice as fast as sparse.MulMatMat at Cora's size, mat.Dense.Mul
// with a sparse operand is ~1000× slower, and gonum's dense GEMM starts its
// own goroutines for tall matrices, whereas one run here stays on one
// goroutine so that runs can be spread over workers (TrainRuns) with results
// that do not depend on the worker count. The input features stay sparse:
// the first layer computes X·W from the CSR X (Cora's features are 1.3 %
// dense). On amd64 with AVX each product is one assembly loop over the
// whole matrix per block of 16 (or at most 8) columns — csrMul for P·H and
// X·W (bias fused), denseMul, denseMulTN and denseMulNT for the dense
// hidden products, Pᵀ·g as a gather over a transpose the layer keeps — with
// the terms and rounding order of the per-row Go loops, so results are bit
// for bit the same with or without AVX, and the same as before these
// kernels (TestTrainGolden).
//
// Shapes: n nodes, F input features, H hidden units, C classes. A model of
// depth L is conv → [PairNorm] → ReLU → dropout → … → conv, with dropout on
// the input features as well (Kipf & Welling; PyG's example).
//
// Graph classification (definitions §4.4–4.5) has its own types: a
// GraphSet of small graphs, GraphData with every graph's operators, a Batch
// of graphs as one block-diagonal operator, a GraphModel of GCN, GIN, R-GCN
// or R-GIN convolutions (with BatchNorm for GIN) and mean or sum pooling,
// trained by GraphTrainer with FoSR's protocol (mini-batches, Adam with
// Plateau, early stopping). Its layers reuse the kernels above; its outputs
// and gradients match PyTorch (testdata/graph_reference.py).
//
// Decisions where docs/definitions.md is silent are documented on the names they
// concern: self-loops in GCN normalisation (GCNOperator), PairNorm when all
// rows are equal (PairNorm), weight-decay scope (DecayScope), seeding and the
// dropout draw (NewTrainer, Model), epoch numbering and ties (Result), the
// standard deviation (MeanStd) and the per-dataset defaults (Defaults).
package gnn
