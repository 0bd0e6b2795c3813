package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// TestDataVerify: a copy of Cora with bytes of ind.cora.ty changed (its
// size the same: data list cannot see it) fails data verify, exit status
// 1, naming the file and both hashes; a truncated ind.cora.x shows in data
// list as a size that differs; the untouched copy verifies.
func TestDataVerify(t *testing.T) {
	src := datatest.Root(t, "Cora/raw/ind.cora.x")
	root := t.TempDir()
	raw := filepath.Join(root, "Cora", "raw")
	os.MkdirAll(raw, 0o755)
	es, err := os.ReadDir(filepath.Join(src, "Cora", "raw"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(src, "Cora", "raw", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(raw, e.Name()), b, 0o644)
	}
	t.Setenv("OHM_DATA", "")
	code, out, errs := run(t, "--data-dir", root, "data", "verify", "--datasets", "cora")
	if code != 0 || strings.Count(out, " ok\n") != 8 {
		t.Fatalf("untouched copy: exit %d\n%s%s", code, out, errs)
	}
	ty := filepath.Join(raw, "ind.cora.ty")
	b, _ := os.ReadFile(ty)
	for i := len(b) / 2; i < len(b)/2+40; i++ {
		b[i] ^= 1
	}
	os.WriteFile(ty, b, 0o644)
	code, out, errs = run(t, "--data-dir", root, "data", "list")
	if code != 0 || !strings.Contains(out, "cora        found in "+root+"\n") {
		t.Fatalf("data list after a change of the same size: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = run(t, "--data-dir", root, "data", "verify", "--datasets", "cora")
	if code != 1 || !strings.Contains(out, "Cora/raw/ind.cora.ty ") || !strings.Contains(out, " sha256 5") || !strings.Contains(out, ", not 41f5ac76596a1699") ||
		!strings.Contains(errs, "1 file(s) differ") {
		t.Fatalf("changed ind.cora.ty: exit %d\n%s%s", code, out, errs)
	}
	x := filepath.Join(raw, "ind.cora.x")
	b, _ = os.ReadFile(x)
	os.WriteFile(x, b[:len(b)-100], 0o644)
	code, out, _ = run(t, "--data-dir", root, "data", "list")
	if code != 0 || !strings.Contains(out, "but Cora/raw/ind.cora.x: ") || !strings.Contains(out, "bytes, not ") {
		t.Fatalf("truncated ind.cora.x: data list\n%s", out)
	}
}
