package report

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/ohmgnn/ohm/internal/faults"
	"github.com/ohmgnn/ohm/model/sweep"
)

// tree returns every file under dir with its content (temporary files
// included).
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		}
		if err == nil && d.IsDir() {
			out[p+"/"] = ""
		}
		return nil
	})
	return out
}

func sameTree(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestWriteWholeOrNothing: a report that fails — a full disk at the
// tenth figure or at report.md, an I/O error, the folder unwritable, the
// context done — leaves its folder exactly as it was: the report of an
// earlier run stays, no figure is half-replaced, no temporary file or
// created folder remains.
func TestWriteWholeOrNothing(t *testing.T) {
	var recs []sweep.Record
	for _, r := range synthetic() {
		if r.Dataset == "cora" {
			recs = append(recs, r)
		}
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "rep")
	if _, err := Write(recs[:len(recs)/2], Options{Out: dir}); err != nil {
		t.Fatal(err)
	}
	before := tree(t, parent)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		rule *faults.Rule
		ctx  context.Context
		want error
	}{
		{"ENOSPC at a figure", &faults.Rule{Match: "acc_cora_directed_dirgcn_b0p1_pnyes.svg", Op: faults.OpWrite, After: 100, Err: syscall.ENOSPC}, nil, syscall.ENOSPC},
		{"EIO at report.md", &faults.Rule{Match: "report.md", Op: faults.OpWrite, After: 10, Err: syscall.EIO}, nil, syscall.EIO},
		{"EACCES in figures", &faults.Rule{Match: "*.png", Op: faults.OpCreate, Err: syscall.EACCES}, nil, syscall.EACCES},
		{"rename fails", &faults.Rule{Match: "report.md", Op: faults.OpRename, Err: syscall.EIO}, nil, syscall.EIO},
		{"interrupted", nil, cancelled, context.Canceled},
	} {
		disarm := func() {}
		if c.rule != nil {
			disarm = faults.Arm(*c.rule)
		}
		_, err := Write(recs, Options{Out: dir, Diagnostics: syntheticDiagnostics(), Context: c.ctx})
		disarm()
		if !errors.Is(err, c.want) {
			t.Fatalf("%s: error %v, want %v", c.name, err, c.want)
		}
		// A rename that fails puts back what was renamed before it (the
		// figures renamed before report.md): all or none.
		if c.name == "rename fails" && !strings.Contains(err.Error(), "back as they were") {
			t.Errorf("%s: %v", c.name, err)
		}
		if after := tree(t, parent); !sameTree(before, after) {
			t.Errorf("%s: the folder changed: %d entries before, %d after", c.name, len(before), len(after))
		}
	}
	// A new folder that receives nothing is removed again.
	fresh := filepath.Join(parent, "new", "deeper")
	disarm := faults.Arm(faults.Rule{Match: "report.md", Op: faults.OpWrite, After: 0, Err: syscall.ENOSPC})
	_, err := Write(recs, Options{Out: fresh})
	disarm()
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(parent, "new")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the folders made for a failed report stay: %v", err)
	}
}

// TestWriteDuplicates: report.Write counts a run recorded twice once, and
// refuses two different results of one run (sweep.Unique's rule).
func TestWriteDuplicates(t *testing.T) {
	recs := synthetic()
	dir := t.TempDir()
	twice := append(append([]sweep.Record{}, recs...), recs[0])
	if _, err := Write(twice, Options{Out: dir}); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if want := strconv.Itoa(len(recs)) + " runs from"; !strings.Contains(string(md), want) {
		t.Errorf("report.md does not say %q", want)
	}
	other := recs[0]
	other.TestAcc += 0.1
	var ce *sweep.ConflictError
	if _, err := Write(append(append([]sweep.Record{}, recs...), other), Options{Out: dir}); !errors.As(err, &ce) {
		t.Fatalf("conflicting duplicate: %v", err)
	}
}
