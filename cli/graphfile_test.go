package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEdgeListOneBased: a 1-based edge list read as it is gains an isolated
// node 0, and the command warns, naming --one-based; with --one-based it is
// the same graph as its 0-based copy (the same resistances, no warning). A
// weighted line says how to drop the weights; --one-based with an .npz or
// without --graph is a usage error.
func TestEdgeListOneBased(t *testing.T) {
	dir := t.TempDir()
	one, zero := filepath.Join(dir, "one.txt"), filepath.Join(dir, "zero.txt")
	os.WriteFile(one, []byte("1 2\n2 3\n3 4\n4 1\n1 3\n"), 0o644)
	os.WriteFile(zero, []byte("0 1\n1 2\n2 3\n3 0\n0 2\n"), 0o644)
	var asIs, based, ref ResistanceOut
	code, out, errs := run(t, "-q", "resistance", "--graph", one, "--json")
	if code != 0 || !strings.Contains(errs, "ohm: warning: --graph "+one+": node 0 has no edge and the ids start at 1: read from 0, the graph has 5 nodes, node 0 isolated; if the file counts from 1, give --one-based\n") {
		t.Fatalf("read from 0: exit %d, stderr %q", code, errs)
	}
	if err := json.Unmarshal([]byte(out), &asIs); err != nil || asIs.Nodes != 5 || asIs.Components != 2 {
		t.Errorf("read from 0: %+v %v", asIs, err)
	}
	code, out, errs = run(t, "-q", "resistance", "--graph", one, "--one-based", "--json")
	if code != 0 || errs != "" {
		t.Fatalf("--one-based: exit %d, stderr %q", code, errs)
	}
	runJSON(t, &ref, "-q", "resistance", "--graph", zero, "--json")
	if err := json.Unmarshal([]byte(out), &based); err != nil || based.Nodes != 4 || based.Components != 1 ||
		*based.MaxPair.R != *ref.MaxPair.R || based.MaxPair.U != ref.MaxPair.U || based.MaxPair.V != ref.MaxPair.V {
		t.Errorf("--one-based: %+v, the 0-based copy: %+v (%v)", based, ref, err)
	}
	// rewire and train take it too; the rewired graph is written from 0.
	rewired := filepath.Join(dir, "r.npz")
	if code, _, errs := run(t, "-q", "rewire", "--graph", one, "--one-based", "--method", "res", "--budget", "0.2", "--out", rewired); code != 0 || errs != "" {
		t.Errorf("rewire --one-based: exit %d, stderr %q", code, errs)
	}
	weighted := filepath.Join(dir, "w.txt")
	os.WriteFile(weighted, []byte("0 1 1.0\n1 2 0.5\n"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"resistance", "--graph", weighted}, 1, "w.txt:1: 3 fields \"0 1 1.0\": edge weights are not supported (ohm's graphs are unweighted); drop the third column first, e.g. cut -d' ' -f1,2 " + weighted + " > EDGES"},
		{[]string{"resistance", "--graph", rewired, "--one-based"}, 2, "--one-based: --graph " + rewired + " is an .npz archive, whose edge_index counts from 0"},
		{[]string{"resistance", "--dataset", "ring", "--one-based"}, 2, "--one-based: applies to --graph FILE"},
		{[]string{"train", "--dataset", "ring", "-m", "gcn", "--one-based"}, 2, "--one-based: applies to --graph FILE"},
		{[]string{"resistance", "--graph", zero, "--one-based"}, 1, "zero.txt:1: node id 0 in an edge list read 1-based"},
	} {
		if code, _, errs := run(t, tc.args...); code != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errs, tc.code, tc.msg)
		}
	}
}
