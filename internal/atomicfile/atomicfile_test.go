package atomicfile

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/internal/faults"
)

// listDir returns the names in dir (temporary files included).
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// TestStageFaults: a write that fails after N bytes (a full disk, a
// failing device) leaves the target as it was and no temporary file; the
// error is the fault's.
func TestStageFaults(t *testing.T) {
	for _, fault := range []error{syscall.ENOSPC, syscall.EIO} {
		dir := t.TempDir()
		path := filepath.Join(dir, "out.txt")
		os.WriteFile(path, []byte("old\n"), 0o644)
		disarm := faults.Arm(faults.Rule{Match: path, Op: faults.OpWrite, After: 10, Err: fault})
		err := WriteFile(path, writeString(strings.Repeat("new line\n", 1000)))
		disarm()
		if !errors.Is(err, fault) {
			t.Fatalf("%v: error %v", fault, err)
		}
		if b, _ := os.ReadFile(path); string(b) != "old\n" {
			t.Fatalf("%v: target now %q", fault, b)
		}
		if names := listDir(t, dir); len(names) != 1 {
			t.Fatalf("%v: left %v", fault, names)
		}
	}
}

// TestCommitAll: files staged together appear together; a failure while
// staging one leaves every target as it was, and so does a rename that
// fails midway (not for space: an I/O error).
func TestCommitAll(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("old a"), 0o644)
	os.WriteFile(b, []byte("old b"), 0o644)
	read := func(p string) string { s, _ := os.ReadFile(p); return string(s) }

	pa, err := Stage(a, writeString("new a"))
	if err != nil {
		t.Fatal(err)
	}
	disarm := faults.Arm(faults.Rule{Match: "b.txt", Op: faults.OpWrite, After: 2, Err: syscall.ENOSPC})
	_, err = Stage(b, writeString("new b"))
	disarm()
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("staging b: %v", err)
	}
	DiscardAll(pa)
	if read(a) != "old a" || read(b) != "old b" || len(listDir(t, dir)) != 2 {
		t.Fatalf("after a failed staging: a %q, b %q, files %v", read(a), read(b), listDir(t, dir))
	}

	pa, _ = Stage(a, writeString("new a"))
	pb, _ := Stage(b, writeString("new b"))
	if err := CommitAll(pa, nil, pb); err != nil {
		t.Fatal(err)
	}
	if read(a) != "new a" || read(b) != "new b" || len(listDir(t, dir)) != 2 {
		t.Fatalf("after CommitAll: a %q, b %q, files %v", read(a), read(b), listDir(t, dir))
	}

	// A rename that fails midway (an I/O error, or a target that cannot be
	// replaced) puts back what was replaced: all or none.
	pa, _ = Stage(a, writeString("newer a"))
	pb, _ = Stage(b, writeString("newer b"))
	disarm = faults.Arm(faults.Rule{Match: "b.txt", Op: faults.OpRename, Err: syscall.EIO})
	err = CommitAll(pa, pb)
	disarm()
	if !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), "nothing put in place") {
		t.Fatalf("rename failing: %v", err)
	}
	if read(a) != "new a" || read(b) != "new b" || len(listDir(t, dir)) != 2 {
		t.Fatalf("after a failed rename: a %q, b %q, files %v", read(a), read(b), listDir(t, dir))
	}
	// A new target (none before) is removed again.
	c := filepath.Join(dir, "c.txt")
	pc, _ := Stage(c, writeString("new c"))
	pb, _ = Stage(b, writeString("newer b"))
	disarm = faults.Arm(faults.Rule{Match: "b.txt", Op: faults.OpRename, Err: syscall.EPERM})
	err = CommitAll(pc, pb)
	disarm()
	if !errors.Is(err, syscall.EPERM) || read(b) != "new b" || len(listDir(t, dir)) != 2 {
		t.Fatalf("new c, b failing: %v; b %q, files %v", err, read(b), listDir(t, dir))
	}
}

// TestCommitAllImmutable: a target made immutable (chattr +i, as root on
// a file system that has the flag) cannot be replaced: CommitAll fails and
// the file committed before it is back as it was.
func TestCommitAllImmutable(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("old a"), 0o644)
	os.WriteFile(b, []byte("old b"), 0o644)
	if out, err := exec.Command("chattr", "+i", b).CombinedOutput(); err != nil {
		t.Skipf("chattr +i: %v %s (needs root and a file system with the flag)", err, out)
	}
	defer exec.Command("chattr", "-i", b).Run()
	pa, _ := Stage(a, writeString("new a"))
	pb, _ := Stage(b, writeString("new b"))
	err := CommitAll(pa, pb)
	read := func(p string) string { s, _ := os.ReadFile(p); return string(s) }
	if err == nil || read(a) != "old a" || read(b) != "old b" || len(listDir(t, dir)) != 2 {
		t.Fatalf("immutable b: %v; a %q, b %q, files %v", err, read(a), read(b), listDir(t, dir))
	}
}

// TestCheckWritable: the checks made before any work find a folder that
// is missing, a parent that is a regular file, a target that is a folder
// and a folder where no file can be created (EACCES, read-only), and leave
// nothing behind.
func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, c := range []struct {
		path  string
		mkdir bool
		want  string
	}{
		{filepath.Join(dir, "out.txt"), false, ""},
		{file, false, ""},
		{filepath.Join(dir, "no", "out.txt"), false, "no such file or directory"},
		{filepath.Join(dir, "no", "deeper", "out.txt"), true, ""},
		{filepath.Join(file, "out.txt"), false, "is not a directory"},
		{filepath.Join(file, "sub", "out.txt"), true, "is not a directory"},
		{dir, false, "exists and is not a regular file"},
	} {
		err := CheckWritable(c.path, c.mkdir)
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckWritable(%s, %v) = %v, want %q", c.path, c.mkdir, err, c.want)
		}
	}
	for _, fault := range []error{syscall.EACCES, syscall.EROFS} {
		disarm := faults.Arm(faults.Rule{Match: "out.txt", Op: faults.OpCreate, Err: fault})
		err := CheckWritable(filepath.Join(dir, "out.txt"), false)
		disarm()
		if !errors.Is(err, fault) {
			t.Errorf("%v: %v", fault, err)
		}
	}
	if names := listDir(t, dir); len(names) != 1 {
		t.Errorf("left %v", names)
	}
}

// TestStageContext: cancelled while write still runs, StageContext returns
// at once and leaves no file behind, even once write ends; not cancelled,
// it is Stage.
func TestStageContext(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	finished := make(chan struct{})
	time.AfterFunc(50*time.Millisecond, cancel)
	t0 := time.Now()
	p, err := StageContext(ctx, path, func(w io.Writer) error {
		defer close(finished)
		io.WriteString(w, "partial")
		<-release // a write that does not stop by itself
		return nil
	})
	if p != nil || !errors.Is(err, context.Canceled) || time.Since(t0) > 2*time.Second {
		t.Fatalf("cancelled: %v, %v after %v", p, err, time.Since(t0))
	}
	if names := listDir(t, dir); len(names) != 0 {
		t.Fatalf("left while write runs: %v", names)
	}
	close(release)
	<-finished
	time.Sleep(50 * time.Millisecond)
	if names := listDir(t, dir); len(names) != 0 {
		t.Fatalf("left after write ended: %v", names)
	}
	p, err = StageContext(context.Background(), path, writeString("whole"))
	if err != nil || p.Commit() != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "whole" {
		t.Fatalf("content %q", b)
	}
}
