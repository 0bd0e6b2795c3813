package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// TestSweepGraph runs a small graph grid on MUTAG, resumes it (nothing to
// do) and reports it; flags of the node grid are refused with --task graph
// and the graph grid's without it.
func TestSweepGraph(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--task", "graph", "--results", "x.jsonl", "--datasets", "mutag", "--depths", "2"}, "--task graph takes --datasets"},
		{[]string{"sweep", "--task", "graph", "--results", "x.jsonl", "--datasets", "cora"}, "--datasets: \"cora\" is not a graph-classification"},
		{[]string{"sweep", "--task", "graph", "--results", "x.jsonl", "--datasets", "mutag", "--budgets", "1.5"}, "--budgets: budget \"1.5\""},
		{[]string{"sweep", "--results", "x.jsonl", "--datasets", "cora", "--trials", "3"}, "--trials, --layers and --choose-on apply to --task graph"},
		{[]string{"sweep", "--task", "graph", "--results", "x.jsonl", "--datasets", "mutag", "--trials", "0"}, "--trials 0: must be ≥ 1"},
		{[]string{"sweep", "--task", "graph", "--results", "x.jsonl", "--datasets", "mutag", "--layers", "0"}, "--layers 0: must be ≥ 1"},
		{[]string{"sweep", "--task", "graph", "--results", "x.jsonl", "--datasets", "mutag", "--epochs", "0"}, "--epochs 0: must be ≥ 1"},
	} {
		if code, _, errs := run(t, tc.args...); code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", tc.args, code, errs, tc.want)
		}
	}
	root := datatest.Root(t, "MUTAG/raw/MUTAG_A.txt")
	dir := t.TempDir()
	results := filepath.Join(dir, "g.jsonl")
	args := []string{"--data-dir", root, "--no-download", "-q", "sweep", "--task", "graph", "--results", results, "--datasets", "mutag",
		"--methods", "none,fosr", "--budgets", "1", "--models", "gcn", "--trials", "2", "--layers", "1", "--epochs", "2"}
	code, out, errs := run(t, args...)
	if code != 0 || !strings.Contains(out, "4 trials in the grid, 0 already there, 4 run now (datasets: 1 rewired, 0 from the cache)") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	code, out, _ = run(t, args...)
	if code != 0 || !strings.Contains(out, "4 trials in the grid, 4 already there, 0 run now") {
		t.Fatalf("resumed: exit %d: %s", code, out)
	}
	rep := filepath.Join(dir, "rep")
	code, out, errs = run(t, "report", results, "--out", rep)
	if code != 0 || !strings.Contains(out, "graph-classification.md (4 graph-classification trials)") {
		t.Fatalf("report: exit %d: %s %s", code, out, errs)
	}
	b, err := os.ReadFile(filepath.Join(rep, "graph-classification.md"))
	if err != nil || !strings.Contains(string(b), "## GCN") || !strings.Contains(string(b), "| fosr |") {
		t.Errorf("report: %v\n%s", err, b)
	}
}
