//go:build unix

package sweep

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock (flock) on f without waiting.
func lockFile(f *os.File) (func(), error) {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return nil, err
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }, nil
}
