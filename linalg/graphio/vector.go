package graphio

import (
	"fmt"
	"math"
	"os"

	"github.com/sbinet/npyio/npy"
)

// ReadVector reads a one-dimensional float64 array of n entries from a .npy
// file (numpy.save of a float64 vector), e.g. FoSR's start vector. A file
// that is not such an array, of another length, or with a NaN or infinite
// entry is an error naming it (and the entry).
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
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%s: entry %d is %v: a start vector must be finite", path, i, x)
		}
	}
	return v, nil
}
