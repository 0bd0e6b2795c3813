// Package model is the learning half of ohm. Its sub-package dataset loads the
// graphs (Planetoid, WebKB and the built-in synthetic ones) exactly as PyTorch
// Geometric builds them; the models (GCN, DirGCN, PairNorm), their training and
// the representation diagnostics of definitions §4–5 build on it. Sub-package sweep
// runs the experiment grids of definitions §6 (rewiring, then training) and report
// turns their results into tables and figures.
package model
