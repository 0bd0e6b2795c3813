package incremental

import (
	"errors"
	"fmt"
)

// Reasons an edit is refused. An EditError wraps one of them; test with
// errors.Is. A refused edit leaves the engine unchanged.
var (
	ErrNodeRange   = errors.New("node id out of range")
	ErrSelfLoop    = errors.New("self-loops are never rewired")
	ErrEdgeExists  = errors.New("edge already present")
	ErrNoEdge      = errors.New("edge not present")
	ErrBridge      = errors.New("edge is a bridge: removing it would split its component")
	ErrSplitsSCC   = errors.New("removing the arc would split its strongly connected component")
	ErrAcrossSCC   = errors.New("the arc is not inside one strongly connected component")
	ErrNotResolved = errors.New("pair is not in one component")
)

// EditError is a refused edit: the operation, the pair and the reason.
type EditError struct {
	Op     string // "add" or "remove"
	U, V   int
	Reason error
}

func (e *EditError) Error() string {
	return fmt.Sprintf("incremental: %s (%d, %d): %v", e.Op, e.U, e.V, e.Reason)
}

func (e *EditError) Unwrap() error { return e.Reason }
