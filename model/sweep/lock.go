package sweep

import (
	"fmt"
	"os"
)

// LockPath takes the exclusive lock a sweep takes on its results file, on
// the file at path (created if missing), without waiting: a second process
// asking for it gets an error naming the file. The returned function
// releases it. ohm demo locks its output folder this way, so that two demos
// on one folder cannot delete each other's files.
func LockPath(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	u, err := lockFile(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s is locked by another ohm process: %w", path, err)
	}
	return func() { u(); f.Close() }, nil
}

// LockFile takes the lock of LockPath on the open file f, without waiting:
// an error when another process holds it. The returned function releases
// it (f stays open).
func LockFile(f *os.File) (unlock func(), err error) { return lockFile(f) }
