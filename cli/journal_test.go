package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// TestJournalLeftIsNotEmptied: a journal left by a run killed outright
// (edits in LOG.partial) makes a new run with that --log refuse before any
// work, saying what it holds and how to keep it; the journal, --log and
// --out stay byte for byte. A folder where the journal goes is refused too.
func TestJournalLeftIsNotEmptied(t *testing.T) {
	dir := t.TempDir()
	logPath, out := filepath.Join(dir, "l.jsonl"), filepath.Join(dir, "o.txt")
	left := `{"iteration":1,"op":"add","u":0,"v":5,"score":1.5}` + "\n" + `{"iteration":2,"op":"remove","u":1,"v":2,"score":0.5}` + "\n"
	os.WriteFile(logPath+".partial", []byte(left), 0o644)
	os.WriteFile(logPath, []byte("old log\n"), 0o644)
	code, _, errs := run(t, "rewire", "-d", "bottleneck", "-m", "err", "-r", "0.2", "--log", logPath, "--out", out)
	if code != 1 || !strings.Contains(errs, "holds the journal of an earlier run that did not finish (2 edits, iterations 1–2, 105 B)") ||
		!strings.Contains(errs, "mv "+logPath+".partial "+logPath) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(logPath + ".partial"); string(b) != left {
		t.Fatalf("journal now %q", b)
	}
	if b, _ := os.ReadFile(logPath); string(b) != "old log\n" {
		t.Fatalf("--log now %q", b)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("--out written")
	}
	// An empty journal (a run stopped before its first edit was made,
	// killed) is taken over.
	os.WriteFile(logPath+".partial", nil, 0o644)
	if code, _, errs := run(t, "--quiet", "rewire", "-d", "bottleneck", "-m", "err", "-r", "0.2", "--log", logPath); code != 0 {
		t.Fatalf("empty journal: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(logPath + ".partial"); err == nil {
		t.Fatal("journal left after a run that ended")
	}
	os.Mkdir(logPath+".partial", 0o755)
	code, _, errs = run(t, "rewire", "-d", "bottleneck", "-m", "err", "-r", "0.2", "--log", logPath)
	if code != 1 || !strings.Contains(errs, "the journal's place "+logPath+".partial exists and is not a regular file") {
		t.Fatalf("journal a folder: exit %d: %s", code, errs)
	}
}

// TestJournalLocked: a second rewire given the --log of a run in progress
// is refused at once (the journal is locked as the sweep locks its results
// file), and the first run's journal and log are whole.
func TestJournalLocked(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "l.jsonl")
	args := []string{"--quiet", "rewire", "--dataset", "sbm", "--method", "err", "--budget", "1", "--engine", "exact", "--log", logPath}
	cmd, _, stderr := startChild(t, args)
	defer cmd.Process.Kill()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if st, err := os.Stat(logPath + ".partial"); err == nil && st.Size() > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no journal after a minute\n%s", stderr)
		}
	}
	code, _, errs := run(t, "rewire", "--dataset", "sbm", "--method", "err", "--budget", "0.01", "--log", logPath)
	if code != 1 || !strings.Contains(errs, "another ohm process is writing the journal "+logPath+".partial") {
		t.Fatalf("second writer: exit %d: %s", code, errs)
	}
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	got := readLog(t, logPath) // whole lines, iterations in order
	for i := 1; i < len(got); i++ {
		if got[i].Iteration < got[i-1].Iteration {
			t.Fatalf("iterations go backwards at edit %d", i)
		}
	}
	if _, err := os.Stat(logPath + ".partial"); err == nil {
		t.Fatal("journal left")
	}
}

// TestInterruptedBeforeFirstIteration: SIGINT while a rewire sets up (Cora's
// L⁺ takes seconds) writes nothing: --log and --out stay as they were.
func TestInterruptedBeforeFirstIteration(t *testing.T) {
	datatest.Root(t, "Cora/raw/ind.cora.x")
	dir := t.TempDir()
	logPath, out := filepath.Join(dir, "l.jsonl"), filepath.Join(dir, "o.txt")
	os.WriteFile(logPath, []byte("good log\n"), 0o644)
	os.WriteFile(out, []byte("good graph\n"), 0o644)
	cmd, _, stderr := startChild(t, []string{"rewire", "-d", "cora", "-m", "err", "-r", "0.01", "--engine", "incremental", "--log", logPath, "--out", out})
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), "interrupted before the first of 52 iterations; nothing written") {
		t.Fatalf("%v: %s", err, stderr)
	}
	for p, want := range map[string]string{logPath: "good log\n", out: "good graph\n"} {
		if b, _ := os.ReadFile(p); string(b) != want {
			t.Errorf("%s now %q", p, b)
		}
	}
	if _, err := os.Stat(logPath + ".partial"); err == nil {
		t.Error("journal left")
	}
}
