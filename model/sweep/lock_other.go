//go:build !unix

package sweep

import "os"

// lockFile does nothing where flock is not available.
func lockFile(*os.File) (func(), error) { return func() {}, nil }
