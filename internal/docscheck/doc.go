// Package docscheck holds no code: its tests keep the repository's code and
// its spec of record, docs/definitions.md, in step.
package docscheck
