package cli

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// TestEditLogsUnchanged: the edit logs in testdata/editlogs, recorded with
// the build before the restructuring of the packages (every method on the
// four datasets at 15 %, both forms, and the sketch engine on a generated
// 10⁴-node SBM at 1 %), are what `ohm rewire --log` writes today, byte for
// byte: a change of code that moves no decision leaves them as they are.
// Cora and CiteSeer take minutes (the directed ones an hour): they run with
// OHM_LONG=1. A file is named FORM-DATASET-METHOD.jsonl.gz, or
// sketch-sbm1e4-METHOD.jsonl.gz. On another backend than gonum's pure Go
// (the openblas build) the scores may differ in the last bits: there the
// edits must be the same and the scores within backendScoreTol
// (sameDecisions).
func TestEditLogsUnchanged(t *testing.T) {
	files, err := filepath.Glob("testdata/editlogs/*.jsonl.gz")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded edit logs: %v", err)
	}
	root := datatest.Root(t, "Cora", "CiteSeer", "cornell", "texas")
	long := os.Getenv("OHM_LONG") != ""
	sbm, dir := "", t.TempDir()
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl.gz")
		parts := strings.SplitN(name, "-", 3)
		form, data, method := parts[0], parts[1], parts[2]
		t.Run(name, func(t *testing.T) {
			if !long && (data == "cora" || data == "citeseer") {
				t.Skip("Cora and CiteSeer: set OHM_LONG=1")
			}
			args := []string{"--threads", "2", "-q", "--data-dir", root, "rewire", "--method", method}
			switch form {
			case "sketch":
				if sbm == "" {
					sbm = filepath.Join(dir, "sbm1e4.npz")
					if code, _, errs := run(t, "-q", "data", "synth", "--model", "sbm", "--nodes", "10000", "--avg-degree", "10", "--seed", "1", "--out", sbm); code != 0 {
						t.Fatalf("data synth: exit %d: %s", code, errs)
					}
				}
				args = append(args, "--graph", sbm, "--budget", "0.01", "--engine", "sketch")
			case "directed":
				args = append(args, "--dataset", data, "--directed", "--budget", "0.15")
			default:
				args = append(args, "--dataset", data, "--budget", "0.15")
			}
			out := filepath.Join(t.TempDir(), "log.jsonl")
			if code, _, errs := run(t, append(args, "--log", out)...); code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errs)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			want := gunzip(t, f)
			if !bytes.Equal(got, want) {
				if pureGoBackend() {
					t.Fatalf("%v: the edit log differs from the recorded one (%d bytes vs %d); first difference in line %d", args, len(got), len(want), firstDiffLine(got, want))
				}
				// Another backend (the openblas build) rounds differently:
				// the same decisions, the scores within backendScoreTol.
				if err := sameDecisions(got, want); err != nil {
					t.Fatalf("%v: backend %s: the edit log differs from the recorded one: %v", args, linalg.Backend(), err)
				}
			}
		})
	}
}

func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// firstDiffLine is the 1-based line where a and b first differ.
func firstDiffLine(a, b []byte) int {
	line := 1
	for i := 0; i < len(a) && i < len(b) && a[i] == b[i]; i++ {
		if a[i] == '\n' {
			line++
		}
	}
	return line
}
