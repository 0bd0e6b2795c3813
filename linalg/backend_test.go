package linalg

import (
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
	blasgonum "gonum.org/v1/gonum/blas/gonum"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
)

// TestBackend checks that Backend names the implementation actually in use:
// in the default build gonum's pure-Go BLAS and LAPACK everywhere, with the
// openblas tag neither of them.
func TestBackend(t *testing.T) {
	_, pureBLAS := blas64.Implementation().(blasgonum.Implementation)
	_, pureSchur := lapackImpl.(lapackgonum.Implementation)
	t.Logf("backend %q (pure-Go BLAS %v, pure-Go Schur %v)", Backend(), pureBLAS, pureSchur)
	switch Backend() {
	case "gonum (pure Go)":
		if !pureBLAS || !pureSchur {
			t.Errorf("Backend() = %q but pure-Go BLAS %v, pure-Go Schur %v", Backend(), pureBLAS, pureSchur)
		}
	case "openblas":
		if pureBLAS || pureSchur {
			t.Errorf("Backend() = %q but pure-Go BLAS %v, pure-Go Schur %v", Backend(), pureBLAS, pureSchur)
		}
	default:
		t.Errorf("unknown Backend() %q", Backend())
	}
}
