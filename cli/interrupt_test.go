package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startChildIgnoringINT is startChild with SIGINT ignored when the child
// starts, as a job started with & by a non-interactive shell has it.
func startChildIgnoringINT(t *testing.T, args []string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command("sh", "-c", `trap '' INT; exec "$0" -test.run='^TestRewireChild$'`, os.Args[0])
	cmd.Env = append(os.Environ(), "OHM_REWIRE_CHILD="+strings.Join(args, "\t"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stdout, &stderr
}

// longTraining is a training job of many short runs (about a millisecond
// each, half a minute in all), to interrupt.
var longTraining = []string{"--threads", "1", "train", "-d", "bottleneck", "-m", "gcn", "--layers", "1", "--epochs", "50",
	"--seeds", "30000", "--json"}

// waitForRuns waits until the child has trained a while.
func waitForRuns() { time.Sleep(1500 * time.Millisecond) }

// TestTrainInterrupted: SIGINT or SIGTERM — also a SIGINT the process
// inherited as ignored — lets the runs in flight finish and starts no
// other; the summary of the runs finished is printed and the command
// fails (status 1) saying how many they were.
func TestTrainInterrupted(t *testing.T) {
	for _, c := range []struct {
		name    string
		sig     os.Signal
		ignored bool
	}{{"SIGINT", os.Interrupt, false}, {"SIGTERM", syscall.SIGTERM, false}, {"SIGINT inherited ignored", os.Interrupt, true}} {
		t.Run(c.name, func(t *testing.T) {
			start := startChild
			if c.ignored {
				start = startChildIgnoringINT
			}
			cmd, stdout, stderr := start(t, longTraining)
			waitForRuns()
			t0 := time.Now()
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("exit: %v, want status 1 (%v after the signal)\n%s", err, time.Since(t0), stderr)
			}
			var out TrainOut
			if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
				t.Fatalf("summary: %v\n%s", err, stderr)
			}
			want := fmt.Sprintf("interrupted after %d of 30000 runs", len(out.Runs))
			if len(out.Runs) == 0 || len(out.Runs) >= 30000 || !strings.Contains(stderr.String(), want) {
				t.Fatalf("%d runs in the summary; stderr %q, want %q", len(out.Runs), stderr, want)
			}
			t.Logf("%d runs, %v after the signal", len(out.Runs), time.Since(t0))
		})
	}
}

// TestSecondSignalQuits: a second SIGINT quits at once: the process dies
// of it, or, when it started with SIGINT ignored, exits with 130. The
// first lets a rewiring finish its iteration in flight (the exact engine
// on a 1500-node SBM: a second or more an iteration); a training stops at
// once since issue 50.
func TestSecondSignalQuits(t *testing.T) {
	g := filepath.Join(t.TempDir(), "g.npz")
	if code, _, errs := run(t, "--quiet", "data", "synth", "--model", "sbm", "--nodes", "1500", "--avg-degree", "6", "--out", g); code != 0 {
		t.Fatal(errs)
	}
	for _, ignored := range []bool{false, true} {
		start := startChild
		if ignored {
			start = startChildIgnoringINT
		}
		log := filepath.Join(t.TempDir(), "l.jsonl")
		cmd, stdout, stderr := start(t, []string{"rewire", "--graph", g, "-m", "err", "-r", "0.05", "--engine", "exact", "--log", log})
		for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
			if st, err := os.Stat(log + ".partial"); err == nil && st.Size() > 0 {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("no iteration in two minutes\n%s", stderr)
			}
		}
		time.Sleep(100 * time.Millisecond)
		cmd.Process.Signal(os.Interrupt)
		time.Sleep(200 * time.Millisecond)
		cmd.Process.Signal(os.Interrupt)
		err := cmd.Wait()
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("ignored %v: %v", ignored, err)
		}
		ws, _ := exit.Sys().(syscall.WaitStatus)
		switch {
		case !ignored && !(ws.Signaled() && ws.Signal() == syscall.SIGINT):
			t.Errorf("not killed by the second SIGINT: %v\n%s", err, stderr)
		case ignored && exit.ExitCode() != 130:
			t.Errorf("SIGINT ignored at start: exit %v, want 130\n%s", err, stderr)
		}
		if stdout.Len() != 0 {
			t.Errorf("ignored %v: printed %d bytes", ignored, stdout.Len())
		}
	}
}
