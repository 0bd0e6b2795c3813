package graphio

import (
	"fmt"
	"os"

	"github.com/sbinet/npyio/npy"
)

// ReadVector reads a one-dimensional float64 array of n entries from a .npy
// file (numpy.save of a float64 vector), e.g. FoSR's start vector. A file
// that is not such an array, or of another length, is an error naming it.
// O(n).
func ReadVector(path string, n int) ([]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := npy.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: not a .npy file: %w", path, err)
	}
	if len(r.Header.Descr.Shape) != 1 || r.Header.Descr.Shape[0] != n {
		return nil, fmt.Errorf("%s: shape %v, want (%d,): one float64 per node", path, r.Header.Descr.Shape, n)
	}
	var v []float64
	if err := r.Read(&v); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}
