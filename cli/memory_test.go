package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
	"github.com/ohmgnn/ohm/rewire"
)

// Oversized graphs are refused with the memory they need (exit status 1)
// before anything large is allocated; OHM_MEMORY caps what ohm may use, so a
// regression fails here instead of exhausting the machine.
func TestResistanceRefusesOversizedGraphs(t *testing.T) {
	t.Setenv("OHM_MEMORY", "256M")
	var path, both strings.Builder
	path.WriteString("# num_nodes 60000\n")
	both.WriteString("# num_nodes 60000\n")
	for i := 0; i+1 < 60000; i++ {
		fmt.Fprintf(&path, "%d %d\n", i, i+1)
		fmt.Fprintf(&both, "%d %d\n%d %d\n", i, i+1, i+1, i)
	}
	npz := filepath.Join(t.TempDir(), "huge.npz")
	if err := graphio.WriteNPZ(npz, linalg.MaxNodes, []linalg.Edge{{U: 0, V: 1}}, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file string
		directed   bool
		msg        string
	}{
		{"100M nodes, one edge", writeFile(t, "n1e8.txt", "# num_nodes 100000000\n0 1\n"), false, "a graph of 100000000 nodes and 1 edges needs"},
		{"int32 max nodes, edge list", writeFile(t, "nmax.txt", "# num_nodes 2147483647\n0 1\n"), true, "a graph of 2147483647 nodes"},
		{"int32 max nodes, npz", npz, false, "a graph of 2147483647 nodes"},
		{"60000-node path", writeFile(t, "path.txt", path.String()), false, "the dense resistance engine on 60000 nodes needs"},
		{"60000-node directed path", writeFile(t, "path2.txt", both.String()), true, "the dense resistance engine on 60000 nodes needs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The dense engine asked for explicitly (auto would take the
			// sketch engine for the undirected path).
			args := []string{"resistance", "--graph", tc.file, "--engine", "incremental"}
			if tc.directed {
				args = append(args, "--directed")
			}
			code, _, errs := run(t, args...)
			if code != 1 || !strings.Contains(errs, tc.msg) || !strings.Contains(errs, "needs") ||
				!strings.Contains(errs, "is available (OHM_MEMORY=256M, ") {
				t.Fatalf("exit %d, stderr %q: want 1 and a memory refusal mentioning %q", code, errs, tc.msg)
			}
		})
	}
	// Beyond int32 ids: a format error naming the file and line.
	f := writeFile(t, "big.txt", "# num_nodes 2147483648\n0 1\n")
	code, _, errs := run(t, "resistance", "--graph", f)
	if code != 1 || !strings.Contains(errs, "big.txt:1") || !strings.Contains(errs, "2147483647") {
		t.Fatalf("num_nodes 2^31: exit %d, stderr %q", code, errs)
	}
}

// budgetAbove is an OHM_MEMORY that leaves extra bytes beyond what this
// test process holds now (OHM_MEMORY budgets the whole process, §7.1).
func budgetAbove(extra uint64) string {
	runtime.GC()
	return fmt.Sprint(sysmem.InUse() + extra)
}

var decisions = regexp.MustCompile(`,"score":[^}]*`)

// TestAutoEngineChoosesSketch: with too little memory for L⁺, the default
// engine (auto) says it takes the sketch engine and runs it (Cora under
// 190 MiB: L⁺ would take 205 MB, the sketch engine estimates 172 MB); with
// too little for either (Cornell under 700 KiB: the sketch's vectors of
// several kB a node outweigh L⁺ on 183 nodes) the sketch engine refuses
// with its estimate. On Cornell, small enough that the sketch keeps every
// node, the sketch engine's log is the incremental engine's.
func TestAutoEngineChoosesSketch(t *testing.T) {
	datatest.Root(t, filepath.FromSlash("cornell/raw/out1_graph_edges.txt"))
	datatest.Root(t, filepath.FromSlash("Cora/raw/ind.cora.graph"))
	dir := t.TempDir()
	logs := map[string]string{}
	for _, engine := range []string{"incremental", "sketch"} {
		log := filepath.Join(dir, engine+".jsonl")
		code, out, errs := run(t, "rewire", "--dataset", "cornell", "--method", "err", "--budget", "0.05", "--engine", engine, "--log", log, "--json")
		version := map[string]string{"incremental": `"version": "rewire-1"`, "sketch": `"version": "rewire-1+sketch-` + rewire.SketchVersion + `"`}[engine]
		if code != 0 || !strings.Contains(out, `"engine": "`+engine+`"`) || !strings.Contains(out, version) {
			t.Fatalf("%s: exit %d, stderr %q, stdout %s", engine, code, errs, out)
		}
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		// The decisions; the scores agree to the solver's tolerance.
		logs[engine] = decisions.ReplaceAllString(string(b), "")
	}
	if logs["sketch"] != logs["incremental"] {
		t.Fatalf("logs differ:\n%s\nvs\n%s", logs["sketch"], logs["incremental"])
	}
	t.Setenv("OHM_MEMORY", budgetAbove(190<<20))
	code, out, errs := run(t, "rewire", "--dataset", "cora", "--method", "err", "--budget", "0.01", "--json")
	if code != 0 || !strings.Contains(errs, "engine auto: sketch") || !strings.Contains(out, `"engine": "sketch"`) ||
		!strings.Contains(out, `"version": "rewire-1+sketch-`+rewire.SketchVersion+`"`) {
		t.Fatalf("Cora under 190 MiB: exit %d, stderr %q, stdout %s", code, errs, out)
	}
	t.Setenv("OHM_MEMORY", budgetAbove(700<<10))
	code, _, errs = run(t, "rewire", "--dataset", "cornell", "--method", "err", "--budget", "0.05")
	if code != 1 || !strings.Contains(errs, "engine auto: sketch") || !strings.Contains(errs, "the sketch resistance engine on 183 nodes") ||
		!strings.Contains(errs, "is available (OHM_MEMORY=") {
		t.Fatalf("Cornell under 700 KiB: exit %d, stderr %q", code, errs)
	}
}

// TestSketchRefusedUnderAddressSpaceLimit: under an address-space limit
// of 8 GiB (ulimit -v), a graph declaring 10⁷ nodes is refused by the
// sketch engine — asked for, or chosen by auto — with the memory it
// estimates and the limit's share left (or OHM_MEMORY's), and one of 10⁸
// nodes already when it is read (4.7 GiB of lists, more than a third of
// the 6.4 GiB left), exit status 1, before anything is allocated (it ran
// out of memory in its sketch at 10⁷ and in the solver's components at
// 10⁸, exit status 2).
func TestSketchRefusedUnderAddressSpaceLimit(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		nodes          int
		engine, memory string
		have           string
		graph          bool // the graph itself refused
	}{
		{10_000_000, "auto", "", "GiB is available (the address-space limit (ulimit -v) of 8.0 GiB", false},
		{10_000_000, "sketch", "1G", "is available (OHM_MEMORY=1G, ", false},
		{100_000_000, "auto", "", "GiB is available (the address-space limit (ulimit -v) of 8.0 GiB", true},
		{100_000_000, "sketch", "", "GiB is available (the address-space limit (ulimit -v) of 8.0 GiB", true},
	} {
		t.Run(fmt.Sprintf("%d nodes, %s, OHM_MEMORY=%q", tc.nodes, tc.engine, tc.memory), func(t *testing.T) {
			f := filepath.Join(dir, fmt.Sprintf("n%d.txt", tc.nodes))
			if err := os.WriteFile(f, fmt.Appendf(nil, "# num_nodes %d\n0 1\n", tc.nodes), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("sh", "-c", `ulimit -v 8388608 && exec "$0" -test.run='^TestRewireChild$'`, os.Args[0])
			var env []string
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "OHM_MEMORY=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") {
					env = append(env, kv)
				}
			}
			if tc.memory != "" {
				env = append(env, "OHM_MEMORY="+tc.memory)
			}
			cmd.Env = append(env, "OHM_REWIRE_CHILD="+strings.Join([]string{"resistance", "--graph", f, "--engine", tc.engine}, "\t"))
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			want := fmt.Sprintf("the sketch resistance engine on %d nodes and 1 edges needs", tc.nodes)
			if tc.graph {
				want = fmt.Sprintf("a graph of %d nodes and 1 edges needs", tc.nodes)
			}
			if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), want) ||
				!strings.Contains(stderr.String(), tc.have) {
				t.Fatalf("%v, stderr %q: want exit status 1 and %q … %q", err, stderr.String(), want, tc.have)
			}
		})
	}
}

// TestMemoryRefusedUnderAddressSpaceLimit: under an address-space limit of
// 6 GiB (ulimit -v), the commands whose memory grows with a flag or a file
// refuse before they allocate, exit status 1, naming what needs how much,
// the limit and (for flags) the flags that set the size: curvature and
// FoSR on a file declaring 2·10⁷ nodes (each died with Go's fatal out of
// memory, exit status 2), data synth's ring of 2·10⁹ edges, and training
// with a million hidden units or layers (grew to 24 GB before), and data
// synth's SBM of 10¹⁰ nodes (fatal out of memory in 0.1 s before).
func TestMemoryRefusedUnderAddressSpaceLimit(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "n2e7.npz")
	if err := graphio.WriteNPZ(big, 20_000_000, []linalg.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, nil); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "s.npz")
	limit := "GiB is available (the address-space limit (ulimit -v) of 6.0 GiB"
	cases := []struct {
		name string
		args []string
		code int
		msg  []string
		data bool
	}{
		{"curvature", []string{"rewire", "--graph", big, "-m", "curvature", "-r", "1"}, 1,
			[]string{"the curvature rewiring on 20000000 nodes and 2 edges needs", limit}, false},
		{"fosr", []string{"rewire", "--graph", big, "-m", "fosr", "-r", "1"}, 1,
			[]string{"the fosr rewiring on 20000000 nodes and 2 edges needs", limit}, false},
		{"synth ring", []string{"data", "synth", "--model", "ring", "--cliques", "1000", "--clique-size", "2000", "--out", out}, 1,
			[]string{"ring of cliques: a graph of 2000000 nodes and about 1.999e+09 edges needs 238.", limit, "set by --cliques, --clique-size"}, false},
		{"synth sbm 10¹⁰ nodes", []string{"data", "synth", "--model", "sbm", "--nodes", "10000000000", "--out", out}, 1,
			[]string{"sbm: a graph of 10000000000 nodes and about 5e+10 edges needs 6.2 TiB", limit, "set by --nodes, --avg-degree"}, false},
		{"train --hidden", []string{"train", "-d", "cora", "-m", "gcn", "--epochs", "1", "--hidden", "1000000"}, 1,
			[]string{"a gcn of 2 layers, hidden width 1000000, on 2708 nodes needs", limit, "set by --hidden, --layers, --threads"}, true},
		{"train --layers", []string{"train", "-d", "cora", "-m", "gcn", "--epochs", "1", "--layers", "1000000"}, 1,
			[]string{"a gcn of 1000000 layers, hidden width 16, on 2708 nodes needs", limit}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.data {
				datatest.Root(t, filepath.FromSlash("Cora/raw/ind.cora.graph"))
			}
			cmd := exec.Command("sh", "-c", `ulimit -v 6291456 && exec "$0" -test.run='^TestRewireChild$'`, os.Args[0])
			var env []string
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "OHM_MEMORY=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") {
					env = append(env, kv)
				}
			}
			cmd.Env = append(env, "OHM_REWIRE_CHILD="+strings.Join(tc.args, "\t"))
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tc.code {
				t.Fatalf("%v, stderr %q: want exit status %d", err, stderr.String(), tc.code)
			}
			for _, m := range tc.msg {
				if !strings.Contains(stderr.String(), m) {
					t.Fatalf("stderr %q lacks %q", stderr.String(), m)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Fatalf("%s written", out)
			}
		})
	}
}
