// Package graphio reads and writes graphs in the two exchange formats of definitions §1
// (.npz with edge_index and num_nodes, and plain "u v" edge lists), and defines
// the FormatError that every ohm reader returns for malformed input.
package graphio

import "fmt"

// FormatError is malformed input in a file: it names the file, where in it the
// problem is (a 1-based line for text formats, a byte offset for binary ones, or
// a member name inside an archive) and what is wrong.
type FormatError struct {
	Path   string // file name as given by the caller
	Line   int    // 1-based line number; 0 when not line-based
	Offset int64  // byte offset; -1 when unknown or line-based
	Member string // archive member (e.g. "edge_index.npy"), if any
	Msg    string // what is wrong
	Err    error  // underlying error, if any
}

func (e *FormatError) Error() string {
	where := e.Path
	if e.Member != "" {
		where += "[" + e.Member + "]"
	}
	switch {
	case e.Line > 0:
		where = fmt.Sprintf("%s:%d", where, e.Line)
	case e.Offset >= 0:
		where = fmt.Sprintf("%s: offset %d", where, e.Offset)
	}
	s := where + ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *FormatError) Unwrap() error { return e.Err }
