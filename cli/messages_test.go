package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset"
)

// TestMissingDataMessage: missing dataset files are one short paragraph —
// how many files, two of them, where ohm looked, why nothing was
// downloaded, and --data-dir DIR / OHM_DATA=DIR — not a list of every file.
func TestMissingDataMessage(t *testing.T) {
	missing, _ := dataset.RelFiles("cornell")
	e := &dataset.MissingError{Dataset: "cornell", Missing: missing, Searched: []string{"/data", "/home/u/.cache/ohm"}}
	head := "dataset cornell: 12 raw files missing (cornell/raw/out1_graph_edges.txt, cornell/raw/out1_node_feature_label.txt and 10 more) in /data and /home/u/.cache/ohm"
	tail := ".\nGive a PyTorch Geometric data root that holds cornell/raw/: --data-dir DIR or OHM_DATA=DIR ('ohm data list' shows what is found where)"
	for _, tc := range []struct {
		download   error
		noDownload bool
		want       string
	}{
		{nil, true, head + "; not downloaded (--no-download)" + tail + ", or leave out --no-download to download them"},
		{errors.New("dial tcp: no such host"), false, head + "; the download into /data failed: dial tcp: no such host" + tail + ", or retry with network access"},
	} {
		e.Download = tc.download
		got := errorMessage(fmt.Errorf("sweep: %w", e), tc.noDownload)
		if got != tc.want {
			t.Errorf("got\n%s\nwant\n%s", got, tc.want)
		}
		if strings.Count(got, "\n") != 1 || strings.Contains(got, "cornell_split_0.6_0.2_5") {
			t.Errorf("not one short paragraph:\n%s", got)
		}
	}
	one := &dataset.MissingError{Dataset: "cora", Missing: []string{"Cora/raw/ind.cora.x"}, Searched: []string{"/data"}}
	if got := missingDataMessage(one, true); !strings.HasPrefix(got, "dataset cora: 1 raw file missing (Cora/raw/ind.cora.x) in /data;") ||
		!strings.Contains(got, "holds Cora/raw/") {
		t.Errorf("one file: %s", got)
	}
}

// TestNoCommandPointsToHelp: bare `ohm` (also with global flags only) and a
// command group without its subcommand point to --help, with status 2.
func TestNoCommandPointsToHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, `ohm: no command given: run 'ohm --help' for the commands ("data", "resistance", "rewire", "stats", "train", ...)` + "\n"},
		{[]string{"-q"}, `ohm: no command given: run 'ohm --help' for the commands ("data", "resistance", "rewire", "stats", "train", ...)` + "\n"},
		{[]string{"data"}, `ohm: no command given: run 'ohm data --help' for the commands ("list", "verify", "info", "export", "synth")` + "\n"},
	} {
		if code, out, errs := run(t, tc.args...); code != 2 || errs != tc.want || out != "" {
			t.Errorf("ohm %v: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
}

// TestPlurals: counts agree with their nouns ("1 component", "2 figures"),
// in the helper and in a command's output.
func TestPlurals(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
		noun string
	}{{0, "0 figures", "figure"}, {1, "1 figure", "figure"}, {2, "2 figures", "figure"}, {7, "7 classes", "class"}, {1, "1 class", "class"}} {
		if got := plural(tc.n, tc.noun); got != tc.want {
			t.Errorf("plural(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	code, out, errs := run(t, "-q", "resistance", "--dataset", "ring")
	if code != 0 || !strings.Contains(out, "ring (undirected), 80 nodes, 1 component\n") {
		t.Errorf("exit %d, stdout %q, stderr %q: want \"80 nodes, 1 component\"", code, out, errs)
	}
}

// TestDataInfoGraphFile: `ohm data info` on a graph file without node data
// (ohm rewire --out) describes the graph and names the arrays it holds,
// instead of failing on the missing x; the counts are those of the graph
// the file holds (the built-in ring's, with the rewiring's net change).
func TestDataInfoGraphFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "ring-err.npz")
	var s RewireSummary
	runJSON(t, &s, "-q", "rewire", "--dataset", "ring", "--method", "err", "--budget", "0.05", "--out", out, "--json")
	var ring DataInfo
	runJSON(t, &ring, "data", "info", "--dataset", "ring", "--json")
	code, text, errs := run(t, "data", "info", "--dataset", out)
	wantArrays := fmt.Sprintf("edge_index (2, %d), num_nodes (), added (2, %d), removed (2, %d)", 2*(ring.Edges+s.AddedNet-s.RemovedNet), s.Added, s.Removed)
	for _, want := range []string{"ring-err (undirected): a graph file without node data (no x, y)", "arrays      " + wantArrays,
		fmt.Sprintf("edges (E0)  %d (self-loops 0)", ring.Edges+s.AddedNet-s.RemovedNet), "--graph FILE"} {
		if code != 0 || !strings.Contains(text, want) {
			t.Errorf("exit %d, stderr %q, stdout lacks %q:\n%s", code, errs, want, text)
		}
	}
	var info DataInfo
	runJSON(t, &info, "data", "info", "--dataset", out, "--json")
	if info.Nodes != ring.Nodes || info.Components != 1 || len(info.Arrays) != 4 || info.Features != 0 {
		t.Errorf("--json: %+v", info)
	}
	if len(ring.Arrays) != 0 {
		t.Errorf("a dataset's info lists arrays: %v", ring.Arrays)
	}
}
