package linalg

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
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

// TestNoCgoWithAssembly checks, in any build, that no package of the module
// would have both cgo files and Go assembly in the openblas build, which Go
// refuses to build ("package using cgo has Go assembly file"): linalg's cgo
// backend (backend_openblas.go) and the AVX kernels must stay in different
// packages (linalg/internal/axpy holds AddScaledRows' kernel). It asks
// go list for linux/amd64, where the assembly is, and for the host.
func TestNoCgoWithAssembly(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH")
	}
	root, err := exec.Command(gobin, "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	for _, platform := range [][2]string{{"linux", "amd64"}, {"", ""}} {
		cmd := exec.Command(gobin, "list", "-e", "-tags", "openblas", "-json=ImportPath,CgoFiles,SFiles,Error", "./...")
		cmd.Dir = strings.TrimSpace(string(root))
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		if platform[0] != "" {
			cmd.Env = append(cmd.Env, "GOOS="+platform[0], "GOARCH="+platform[1])
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -tags openblas (GOOS=%q GOARCH=%q): %v\n%s", platform[0], platform[1], err, stderr.String())
		}
		cgo := 0
		for dec := json.NewDecoder(bytes.NewReader(out)); ; {
			var p struct {
				ImportPath       string
				CgoFiles, SFiles []string
				Error            *struct{ Err string }
			}
			if err := dec.Decode(&p); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("go list -json: %v", err)
			}
			if len(p.CgoFiles) > 0 {
				cgo++
			}
			if len(p.CgoFiles) > 0 && len(p.SFiles) > 0 {
				t.Errorf("GOOS=%q GOARCH=%q: %s has cgo files %v and Go assembly %v in the openblas build", platform[0], platform[1], p.ImportPath, p.CgoFiles, p.SFiles)
			}
			if p.Error != nil && strings.Contains(p.Error.Err, "cgo") {
				t.Errorf("GOOS=%q GOARCH=%q: %s: %s", platform[0], platform[1], p.ImportPath, p.Error.Err)
			}
		}
		if cgo == 0 {
			t.Errorf("GOOS=%q GOARCH=%q: no package has cgo files in the openblas build; the check checks nothing", platform[0], platform[1])
		}
	}
}
