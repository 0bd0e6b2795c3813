// Package sweep runs experiment grids (definitions §6): datasets × graph form ×
// rewiring method × budget × model × PairNorm × depth × seeds and splits.
//
// Every finished training run is appended at once to a results file as one
// JSON line (Record) holding all its inputs and outputs. The file is the
// sweep's only state: on start it is read, a truncated last line (a crash in
// the middle of a write) is cut off, and the runs already present (by Key)
// are skipped, so a sweep interrupted at any moment resumes without losing or
// repeating a finished run. Rewired graphs are cached by their inputs in a
// folder next to the results file (CacheDir), so a resumed sweep does not
// rewire again.
//
// Besides the built-in datasets, a sweep takes a dataset archive of the
// user's (Spec.Graph: edge_index, num_nodes, x, y and split masks, or a
// split rule), identified in records, resume keys and cache names by the
// SHA-256 of its arrays; the built-in datasets' records and keys are
// unchanged by it.
//
// It is where rewiring meets learning: it imports rewire for the graphs and
// model/gnn for the training runs (neither imports it, so there is no cycle).
package sweep
