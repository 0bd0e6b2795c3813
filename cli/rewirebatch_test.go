package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
	"github.com/ohmgnn/ohm/rewire"
)

// TestRewireTUThreads: for every method, rewiring all of MUTAG on one and
// on three threads writes byte-identical --out and --log; the archive
// holds, for each graph, the original graph with that graph's log lines
// replayed, the added arcs typed 1 with the fill as edge_attr and the kept
// arcs with their own rows.
func TestRewireTUThreads(t *testing.T) {
	root := datatest.Root(t, "MUTAG/raw/MUTAG_A.txt")
	orig, err := dataset.LoadTU(filepath.Join(root, "MUTAG", "raw"), "MUTAG", dataset.TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, m := range rewire.AllMethods {
		var outs, logs [2][]byte
		for k, threads := range []string{"1", "3"} {
			out, log := filepath.Join(dir, string(m)+threads+".npz"), filepath.Join(dir, string(m)+threads+".jsonl")
			code, _, errs := run(t, "--quiet", "--data-dir", root, "--threads", threads, "rewire", "--dataset", "mutag",
				"--method", string(m), "--budget", "0.2", "--edge-fill", "0.5", "--out", out, "--log", log)
			if code != 0 {
				t.Fatalf("%s threads %s: exit %d: %s", m, threads, code, errs)
			}
			outs[k], _ = os.ReadFile(out)
			logs[k], _ = os.ReadFile(log)
		}
		if !bytes.Equal(outs[0], outs[1]) || !bytes.Equal(logs[0], logs[1]) {
			t.Errorf("%s: outputs differ between 1 and 3 threads", m)
		}
		got, err := dataset.ReadTUArchive(filepath.Join(dir, string(m)+"1.npz"), "MUTAG")
		if err != nil {
			t.Fatal(err)
		}
		checkReplay(t, m, orig, got, logs[0])
	}
}

// checkReplay checks the archive got against orig with the log replayed.
func checkReplay(t *testing.T, m rewire.Method, orig, got *dataset.TUDataset, log []byte) {
	t.Helper()
	edits := make([][]rewire.Edit, orig.Len())
	sc := bufio.NewScanner(bytes.NewReader(log))
	for sc.Scan() {
		var e batchEdit
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		edits[e.Graph] = append(edits[e.Graph], e.Edit)
	}
	if !slices.Equal(got.Y, orig.Y) || !slices.Equal(got.X, orig.X) || !slices.Equal(got.NodePtr, orig.NodePtr) {
		t.Fatalf("%s: x, y or ptr changed", m)
	}
	for i := range orig.Len() {
		want := orig.Graph(i).Undirected()
		rewire.Replay(want, edits[i])
		if g := got.Graph(i); !slices.Equal(g.Arcs(), want.Arcs()) {
			t.Fatalf("%s graph %d: archive arcs differ from the log replayed", m, i)
		}
		o := orig.Graph(i)
		for k := got.EdgePtr[i]; k < got.EdgePtr[i+1]; k++ {
			row := got.EdgeAttr[k*4 : k*4+4]
			kept := o.HasEdge(got.Src[k], got.Dst[k])
			switch {
			case kept && got.EdgeType[k] != 0, !kept && got.EdgeType[k] != 1:
				t.Fatalf("%s graph %d arc %d: edge_type %d, kept %v", m, i, k, got.EdgeType[k], kept)
			case !kept && !slices.Equal(row, []float64{0.5, 0.5, 0.5, 0.5}):
				t.Fatalf("%s graph %d added arc %d: edge_attr %v, want the fill", m, i, k, row)
			case kept && !slices.Equal(row, origRow(orig, i, got.Src[k], got.Dst[k])):
				t.Fatalf("%s graph %d kept arc %d: edge_attr %v, want its own", m, i, k, row)
			}
		}
	}
}

// origRow is the edge_attr row of arc (u, v) of graph i.
func origRow(d *dataset.TUDataset, i, u, v int) []float64 {
	for k := d.EdgePtr[i]; k < d.EdgePtr[i+1]; k++ {
		if d.Src[k] == u && d.Dst[k] == v {
			return d.EdgeAttr[k*d.NumEdgeFeatures : (k+1)*d.NumEdgeFeatures]
		}
	}
	return nil
}

// TestRewireTURefuses: bad flags and bad files fail before anything is
// written, naming the flag or the file and line.
func TestRewireTURefuses(t *testing.T) {
	bad := t.TempDir()
	raw := filepath.Join(bad, "BAD", "raw")
	os.MkdirAll(raw, 0o755)
	for part, s := range map[string]string{"A": "1, 2\n2, 1\n2, x\n", "graph_indicator": "1\n1\n1\n", "graph_labels": "0\n"} {
		os.WriteFile(filepath.Join(raw, "BAD_"+part+".txt"), []byte(s), 0o644)
	}
	data := os.Getenv("OHM_DATA")
	out := filepath.Join(t.TempDir(), "out.npz")
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--data-dir", bad, "rewire", "-d", "BAD", "-m", "err", "-r", "0.1", "-o", out}, 1, "BAD_A.txt:3: \"x\" is not an integer"},
		{[]string{"--data-dir", bad, "rewire", "-d", "BAD", "-m", "err", "-r", "0.1", "--edits", "3", "-o", out}, 2, "--edits 3: give either"},
		{[]string{"--data-dir", bad, "rewire", "-d", "BAD", "-m", "err", "-o", out}, 2, "--budget 0: must lie in (0, 1]"},
		{[]string{"--data-dir", bad, "rewire", "-d", "BAD", "-m", "err", "-r", "0.1", "-o", filepath.Join(t.TempDir(), "x.txt")}, 2, "written as .npz"},
		{[]string{"rewire", "-d", "bottleneck", "-m", "err", "-r", "0.1", "--edge-fill", "1"}, 2, "apply to TU datasets"},
	} {
		code, _, errs := run(t, append([]string{"--quiet", "--no-download"}, c.args...)...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errs, c.code, c.msg)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: %s written", c.args, out)
		}
	}
	if data == "" || datatest.Root(t, "MUTAG/raw/MUTAG_A.txt") == "" {
		return
	}
	code, _, errs := run(t, "--quiet", "--data-dir", data, "rewire", "-d", "mutag", "-m", "res", "-r", "0.1", "--edge-fill", "1,2", "-o", out)
	if code != 2 || !strings.Contains(errs, "edge fill of 2 values") {
		t.Errorf("--edge-fill 1,2 on MUTAG: exit %d: %s", code, errs)
	}
}

// TestDataInfoTU: `ohm data info --json` of the shared TU datasets gives
// expected.json's counts.
func TestDataInfoTU(t *testing.T) {
	root := datatest.Root(t, "MUTAG/raw/MUTAG_A.txt", "ENZYMES/raw/ENZYMES_A.txt", "PROTEINS/raw/PROTEINS_A.txt", "expected.json")
	want := datatest.LoadExpected(t, root)
	for _, name := range []string{"mutag", "enzymes", "proteins"} {
		var info TUInfo
		runJSON(t, &info, "--data-dir", root, "data", "info", "--dataset", name, "--json")
		e := want[name]
		got := []int{info.Graphs, info.TotalNodes, info.TotalArcs, info.Features, info.Classes, info.Nodes.Max, info.Disconnected, info.IsolatedNodes}
		exp := []int{e.Graphs, e.Nodes, e.Arcs, e.Features, e.Classes, e.MaxNodes, e.DisconnectedGraphs, e.IsolatedNodes}
		if !slices.Equal(got, exp) || !slices.Equal(info.ClassCounts, e.ClassCounts) {
			t.Errorf("%s: %v %v, want %v %v", name, got, info.ClassCounts, exp, e.ClassCounts)
		}
	}
	var info TUInfo
	runJSON(t, &info, "--data-dir", root, "data", "info", "--dataset", "enzymes", "--node-attr", "--json")
	if info.Features != 21 {
		t.Errorf("enzymes --node-attr: %d features, want 18 attributes + 3 labels", info.Features)
	}
}
