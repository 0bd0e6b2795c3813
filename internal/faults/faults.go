// Package faults injects file-system faults into the files ohm writes, for
// tests: a rule armed for a file makes creating it fail, its writes fail
// after a number of bytes (a short write, as a full disk or a failing
// device gives one) or its rename into place fail. Every file ohm writes
// passes its target path through Create, Writer or Rename; with no rule
// armed each is one atomic load, so production code pays nothing.
package faults

import (
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// Op is the file operation a rule breaks.
type Op int

const (
	// OpCreate: creating the file (or the temporary file beside it, or the
	// probe that checks its folder is writable) fails.
	OpCreate Op = iota
	// OpWrite: the writes succeed for After bytes, then the one that crosses
	// it writes what fits and fails.
	OpWrite
	// OpRename: renaming a completed temporary file over the target fails.
	OpRename
)

func (o Op) String() string {
	switch o {
	case OpCreate:
		return "open"
	case OpWrite:
		return "write"
	}
	return "rename"
}

// Rule is one armed fault.
type Rule struct {
	// Match selects the files: a filepath.Match pattern on the target's
	// base name ("*.jsonl", "l.jsonl.partial", "*") or on its whole path
	// when it holds a separator.
	Match string
	Op    Op
	// After is the number of bytes an OpWrite rule lets through to each file
	// it matches before failing.
	After int64
	// Err is the error: syscall.ENOSPC, syscall.EIO, syscall.EACCES, …
	Err error
}

func (r *Rule) matches(path string) bool {
	name := filepath.Base(path)
	if filepath.Base(r.Match) != r.Match {
		name = path
	}
	ok, _ := filepath.Match(r.Match, name)
	return ok
}

var (
	armed atomic.Pointer[[]Rule]
	mu    sync.Mutex // serializes Arm and disarm
)

// Arm arms rules (replacing any armed before) and returns the function
// that disarms them. Tests that arm rules must not run in parallel.
func Arm(rules ...Rule) (disarm func()) {
	mu.Lock()
	defer mu.Unlock()
	rs := append([]Rule(nil), rules...)
	armed.Store(&rs)
	return func() {
		mu.Lock()
		defer mu.Unlock()
		armed.Store(nil)
	}
}

func find(op Op, path string) *Rule {
	rs := armed.Load()
	if rs == nil {
		return nil
	}
	for i := range *rs {
		if r := &(*rs)[i]; r.Op == op && r.matches(path) {
			return r
		}
	}
	return nil
}

// Create returns the armed fault of creating the file path (as a
// *os.PathError), or nil.
func Create(path string) error {
	if r := find(OpCreate, path); r != nil {
		return &os.PathError{Op: "open", Path: path, Err: r.Err}
	}
	return nil
}

// Rename returns the armed fault of renaming a file over path, or nil.
func Rename(path string) error {
	if r := find(OpRename, path); r != nil {
		return &os.PathError{Op: "rename", Path: path, Err: r.Err}
	}
	return nil
}

// Writer returns w, or, when an OpWrite rule is armed for path, a writer that
// passes the rule's first After bytes to w and then fails: the write that
// crosses After writes what fits and returns the short count with the
// rule's error, as write(2) on a full disk does.
func Writer(path string, w io.Writer) io.Writer {
	if r := find(OpWrite, path); r != nil {
		return &faultyWriter{w: w, path: path, left: r.After, err: r.Err}
	}
	return w
}

type faultyWriter struct {
	w    io.Writer
	path string
	left int64
	err  error
}

func (f *faultyWriter) Write(p []byte) (int, error) {
	if int64(len(p)) <= f.left {
		n, err := f.w.Write(p)
		f.left -= int64(n)
		return n, err
	}
	n, err := f.w.Write(p[:f.left])
	f.left -= int64(n)
	if err == nil {
		err = &os.PathError{Op: "write", Path: f.path, Err: f.err}
	}
	return n, err
}
