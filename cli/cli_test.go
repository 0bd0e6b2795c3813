package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// run runs the CLI with args and returns exit status, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// runJSON runs the CLI with args, which must succeed and print one JSON
// object; it decodes the object into dst and returns its top-level keys,
// sorted.
func runJSON(t *testing.T, dst any, args ...string) []string {
	t.Helper()
	code, out, errs := run(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	if err := json.Unmarshal([]byte(out), dst); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestDataInfoExpected checks `ohm data info --json` against every number of
// expected.json, for the four datasets, both forms and every WebKB split.
func TestDataInfoExpected(t *testing.T) {
	root := datatest.Root(t, "Cora/raw/ind.cora.x", "CiteSeer/raw/ind.citeseer.x",
		"cornell/raw/out1_graph_edges.txt", "texas/raw/out1_graph_edges.txt", "expected.json")
	want := datatest.LoadExpected(t, root)
	for _, name := range []string{"cora", "citeseer", "cornell", "texas"} {
		e := want[name]
		for _, directed := range []bool{false, true} {
			splits := e.Splits
			if splits == nil {
				splits = [][]int{{e.Train, e.Val, e.Test}}
			}
			for k, sp := range splits {
				args := []string{"--data-dir", root, "data", "info", "--dataset", name, "--json", "--split", fmt.Sprint(k)}
				if directed {
					args = append(args, "--directed")
				}
				code, out, errs := run(t, args...)
				if code != 0 {
					t.Fatalf("%v: exit %d: %s", args, code, errs)
				}
				var got DataInfo
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatalf("%v: %v\n%s", args, err, out)
				}
				w := DataInfo{
					Dataset: name, Form: "undirected", Nodes: e.Nodes, Edges: e.UndirectedEdgesInclSelfLoops,
					SelfLoops: e.SelfLoops, Features: e.Features, FeatureNNZ: e.FeatureNNZ,
					Classes: e.Classes, ClassCounts: e.ClassCounts,
					Components: e.Components, LargestComponent: e.LargestComponent,
					Train: sp[0], Val: sp[1], Test: sp[2], Split: k,
				}
				if directed {
					w.Form, w.Edges = "directed", e.Arcs
					// Planetoid arcs are symmetric: SCCs are the components.
					if e.SCCCount > 0 {
						w.Components, w.LargestComponent = e.SCCCount, e.LargestSCC
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(w) {
					t.Errorf("%s %s split %d:\n got %+v\nwant %+v", name, w.Form, k, got, w)
				}
				if !directed && got.Edges-got.SelfLoops != e.UndirectedEdges {
					t.Errorf("%s: edges without self-loops %d, want %d", name, got.Edges-got.SelfLoops, e.UndirectedEdges)
				}
			}
		}
	}
}

// TestDataInfoJSONFields pins the field names of `data info --json`.
func TestDataInfoJSONFields(t *testing.T) {
	var m map[string]any
	keys := runJSON(t, &m, "data", "info", "--dataset", "bottleneck", "--json")
	want := []string{"class_counts", "classes", "components", "dataset", "edges", "feature_nnz", "features",
		"form", "largest_component", "nodes", "self_loops", "split", "test", "train", "val"}
	if !slices.Equal(keys, want) {
		t.Fatalf("fields %v, want %v", keys, want)
	}
	// The bottleneck graph: 80 nodes, 8·45 clique edges + 8 ring edges, one
	// component.
	if m["nodes"].(float64) != 80 || m["edges"].(float64) != 368 || m["components"].(float64) != 1 {
		t.Fatalf("bottleneck info %v", m)
	}
}

func TestDataInfoText(t *testing.T) {
	code, out, _ := run(t, "data", "info", "--dataset", "bottleneck", "--directed")
	if code != 0 || !strings.Contains(out, "edges (E0)  736") || !strings.Contains(out, "SCCs") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestBadUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"data", "info", "--dataset", "pubmed"}, 2, `unknown dataset "pubmed" (known: cora, citeseer, cornell, texas, bottleneck, ring, sbm, sbm-heterophilic)`},
		{[]string{"data", "info", "--dataset", "bottleneck", "--split", "3"}, 2, "--split 3: bottleneck has 1 split, 0..0"},
		{[]string{"data", "info"}, 2, "missing flags: --dataset"},
		{[]string{"data", "export", "--dataset", "bottleneck", "--out", "g.csv"}, 2, `unknown extension ".csv"`},
		{[]string{"data", "frobnicate"}, 2, "unexpected argument frobnicate"},
		{[]string{"--threads", "x", "data", "list"}, 2, "--threads"},
	} {
		code, _, errs := run(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errs, tc.code, tc.msg)
		}
	}
}

func TestMissingDataNamesFilesAndFolders(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OHM_DATA", "")
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("HOME", dir)
	code, _, errs := run(t, "--no-download", "--data-dir", dir, "data", "info", "--dataset", "cornell")
	// One short paragraph (issue 53): how many, the first, where, what to do.
	for _, want := range []string{"12 raw files missing", "cornell/raw/out1_graph_edges.txt", dir, "--data-dir DIR or OHM_DATA=DIR"} {
		if code != 1 || !strings.Contains(errs, want) {
			t.Errorf("exit %d, stderr %q lacks %q", code, errs, want)
		}
	}
}

func TestExportRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		file     string
		directed bool
	}{{"b.npz", false}, {"b.txt", false}, {"bd.npz", true}, {"bd.txt", true}} {
		args := []string{"--quiet", "data", "export", "--dataset", "bottleneck", "--out", filepath.Join(dir, tc.file)}
		if tc.directed {
			args = append(args, "--directed")
		}
		if code, _, errs := run(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
		n, arcs, err := readGraphFile(filepath.Join(dir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		// Both forms of the symmetric bottleneck graph export 736 arcs.
		if n != 80 || arcs != 736 {
			t.Fatalf("%s: %d nodes %d arcs", tc.file, n, arcs)
		}
	}
}

func readGraphFile(path string) (int, int, error) {
	if strings.HasSuffix(path, ".npz") {
		n, arcs, err := graphio.ReadNPZ(path)
		return n, len(arcs), err
	}
	n, arcs, err := graphio.ReadEdgeList(path, 0)
	return n, len(arcs), err
}

func TestProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof")
	if code, _, errs := run(t, "--cpuprofile", cpu, "--memprofile", mem, "data", "info", "--dataset", "sbm"); code != 0 {
		t.Fatal(errs)
	}
	// A profile is a gzipped protocol buffer whose string table names its
	// sample types: cpu/nanoseconds, or the heap's alloc_space and
	// inuse_space.
	for p, types := range map[string][]string{cpu: {"cpu", "nanoseconds"}, mem: {"alloc_space", "inuse_space"}} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("profile %s: %v", p, err)
		}
		raw, err := io.ReadAll(zr)
		f.Close()
		if err != nil {
			t.Fatalf("profile %s: %v", p, err)
		}
		for _, ty := range types {
			if !bytes.Contains(raw, []byte(ty)) {
				t.Errorf("profile %s: no sample type %q", p, ty)
			}
		}
	}
}

func TestDataList(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OHM_DATA", "")
	code, out, errs := run(t, "--data-dir", dir, "data", "list", "--json")
	if code != 0 {
		t.Fatal(errs)
	}
	var es []dataListEntry
	if err := json.Unmarshal([]byte(out), &es); err != nil {
		t.Fatal(err)
	}
	if len(es) != 10 || es[0].Dataset != "cora" || es[0].Found || len(es[0].Missing) != 8 || !es[4].Found || !es[4].Builtin ||
		es[7].Dataset != "mutag" || es[7].Found || len(es[7].Missing) != 5 || es[9].Dataset != "proteins" {
		t.Fatalf("%+v", es)
	}
}

// TestVersion: ohm version and ohm --version print the same line (module
// version, Go version, BLAS backend); --json has every field.
func TestVersion(t *testing.T) {
	code, out, errs := run(t, "version")
	if code != 0 || !strings.HasPrefix(out, "ohm ") || !strings.Contains(out, runtime.Version()) || !strings.Contains(out, linalg.Backend()) {
		t.Fatalf("version: exit %d\n%s%s", code, out, errs)
	}
	code2, out2, _ := run(t, "--version")
	if code2 != 0 || out2 != out {
		t.Fatalf("--version: exit %d %q, version printed %q", code2, out2, out)
	}
	var v map[string]any
	_, js, _ := run(t, "version", "--json")
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"module", "version", "commit", "time", "modified", "go", "backend"} {
		if _, ok := v[k]; !ok {
			t.Errorf("version --json lacks %q: %s", k, js)
		}
	}
}

// TestOversizedGraphRefused: ohm resistance on a file stating 10⁸ nodes, or
// on a graph whose dense engine would not fit, exits 1 with the size needed
// (under a 512 MiB ceiling, so a regression cannot take the machine down).
func TestOversizedGraphRefused(t *testing.T) {
	t.Setenv("OHM_MEMORY", "512M")
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.txt")
	if err := os.WriteFile(huge, []byte("# num_nodes 100000000\n0 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "resistance", "--graph", huge)
	if code != 1 || !strings.Contains(errs, "a graph of 100000000 nodes and 1 edges needs") {
		t.Fatalf("10⁸ nodes: exit %d: %s", code, errs)
	}
	var b strings.Builder
	b.WriteString("# num_nodes 20000\n")
	for i := 1; i < 20000; i++ {
		fmt.Fprintf(&b, "%d %d\n", i-1, i)
	}
	path := filepath.Join(dir, "path.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = run(t, "resistance", "--graph", path, "--engine", "incremental")
	if code != 1 || !strings.Contains(errs, "the dense resistance engine on 20000 nodes needs") || !strings.Contains(errs, "the sketch engine") {
		t.Fatalf("20000-node path: exit %d: %s", code, errs)
	}
}

// TestNegativeFlagValues: "--budget -1" reaches the flag's own check.
func TestNegativeFlagValues(t *testing.T) {
	code, _, errs := run(t, "rewire", "--dataset", "bottleneck", "--method", "err", "--budget", "-1")
	if code != 2 || !strings.Contains(errs, "--budget -1: must lie in (0, 1]") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// TestEmptyListItems: an empty item anywhere in a list flag — leading,
// trailing or doubled — is a usage error in every command.
func TestEmptyListItems(t *testing.T) {
	for _, args := range [][]string{
		{"stats", "--datasets", "bottleneck", "--budgets", "0.1,"},
		{"stats", "--datasets", "bottleneck", "--budgets", ",0.1"},
		{"stats", "--datasets=bottleneck,,sbm"},
		{"sweep", "--results", filepath.Join(t.TempDir(), "r.jsonl"), "--datasets", "bottleneck,"},
		{"sweep", "--results", filepath.Join(t.TempDir(), "r.jsonl"), "--datasets", "bottleneck", "--splits", "0,,1"},
		{"report", "--diagnostics", "a.json,", "r.jsonl"},
		{"diagnose", "--datasets", "bottleneck", "--methods", "err", "--budget", "0.1", "--depths", "2", "--pairnorm", "no,"},
	} {
		code, _, errs := run(t, args...)
		if code != 2 || !strings.Contains(errs, "empty item in") {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
	code, _, errs := run(t, "stats", "--datasets", "bottleneck", "--budgets", "0.1", "--budgets", "0.2,0.1")
	if code != 2 || !strings.Contains(errs, "--budgets: 0.1 given twice") {
		t.Errorf("a repeated item: exit %d: %s", code, errs)
	}
}

// TestEveryListFlagIsCommaList: every flag of every command whose value is
// a list, or whose help speaks of a comma-separated list, has the type
// commaList (or numberList, a vector of numbers), so that kong decodes it
// through their checks.
func TestEveryListFlagIsCommaList(t *testing.T) {
	parser, err := kong.New(&commandLine{}, kong.Exit(func(int) {}))
	if err != nil {
		t.Fatal(err)
	}
	lists := 0
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		for _, f := range n.Flags {
			isList := f.Target.Type() == reflect.TypeOf(commaList{}) || f.Target.Type() == reflect.TypeOf(numberList{})
			if isList {
				lists++
			}
			if !isList && (f.Target.Kind() == reflect.Slice || strings.Contains(strings.ToLower(f.Help), "comma-separated")) {
				t.Errorf("%s --%s: a list flag of type %s, not commaList", n.Path(), f.Name, f.Target.Type())
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(parser.Model.Node)
	if lists < 10 {
		t.Fatalf("%d commaList flags found: the walk missed the commands", lists)
	}
}

// TestWarnings: a budget that gives B = 0 and a --graph with almost no
// edges succeed with a warning on standard error.
func TestWarnings(t *testing.T) {
	code, _, errs := run(t, "--quiet", "rewire", "--dataset", "bottleneck", "--method", "err", "--budget", "0.001")
	if code != 0 || !strings.Contains(errs, "gives B = floor(0.001·368) = 0 iterations") {
		t.Fatalf("B = 0: exit %d: %q", code, errs)
	}
	empty := filepath.Join(t.TempDir(), "empty.txt")
	os.WriteFile(empty, []byte("# num_nodes 80\n0 1\n"), 0o644)
	code, _, errs = run(t, "--quiet", "train", "--dataset", "bottleneck", "--model", "gcn", "--graph", empty, "--epochs", "2")
	if code != 0 || !strings.Contains(errs, "has 1 edges") {
		t.Fatalf("nearly empty graph: exit %d: %q", code, errs)
	}
}

// TestExitCodes: one rule in every command — 2 for a usage error (an
// unknown dataset included), 1 for a failure.
func TestExitCodes(t *testing.T) {
	for _, args := range [][]string{
		{"rewire", "-d", "bogus", "-m", "err", "-r", "0.1"},
		{"train", "-d", "bogus", "--model", "gcn"},
		{"data", "info", "-d", "bogus"},
		{"resistance", "-d", "bogus"},
		{"curvature", "-d", "bogus"},
		{"stats", "--datasets", "bogus"},
		{"sweep", "--results", filepath.Join(t.TempDir(), "r.jsonl"), "--datasets", "bogus"},
		{"diagnose", "--datasets", "bogus", "--methods", "err", "--budget", "0.1", "--depths", "2"},
	} {
		if code, _, errs := run(t, args...); code != 2 || !strings.Contains(errs, `unknown`) {
			t.Errorf("%v: exit %d, want 2: %s", args, code, errs)
		}
	}
	missing := filepath.Join(t.TempDir(), "nothing.npz")
	if err := os.WriteFile(missing, []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "resistance", "--graph", missing); code != 1 || !strings.Contains(errs, missing) {
		t.Errorf("unreadable graph: exit %d, want 1 and the file named: %s", code, errs)
	}
}

// TestDataSynth: ohm data synth writes a graph ohm reads back with its
// labels, reproducibly from the seed.
func TestDataSynth(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.npz"), filepath.Join(dir, "b.npz")
	for _, p := range []string{a, b} {
		if code, _, errs := run(t, "-q", "data", "synth", "--model", "sbm", "--nodes", "500", "--avg-degree", "8", "--seed", "3", "--out", p); code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
	}
	x, _ := os.ReadFile(a)
	y, _ := os.ReadFile(b)
	if !bytes.Equal(x, y) {
		t.Fatal("same seed, different files")
	}
	g, err := graphio.Load(a, 0, false)
	if err != nil || g.N() != 500 || g.NumEdges() < 1500 || g.NumEdges() > 2500 {
		t.Fatalf("read back: %v, %d nodes, %d edges (mean degree 8 → about 2000)", err, g.N(), g.NumEdges())
	}
	z, err := graphio.OpenNPZ(a)
	if err != nil || !z.Has("y") {
		t.Fatalf("labels y missing: %v", err)
	}
	z.Close()
	if code, _, _ := run(t, "data", "synth", "--model", "sbm", "--nodes", "0", "--out", a); code != 2 {
		t.Fatalf("--nodes 0: exit %d", code)
	}
}
