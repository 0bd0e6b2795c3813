package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/rewire"
)

var summaryKeys = []string{"added", "added_net", "added_net_pct", "added_pct", "budget", "dataset", "e0", "engine", "fallbacks", "form", "handed_off_at", "handed_off_kept", "iterations",
	"method", "ohm_version", "passed_over", "removed", "removed_net", "removed_net_pct", "removed_pct", "rounds", "seconds", "solves", "stopped_early", "version"}

// rewireJSON runs `ohm rewire --json args…` and returns the summary, its
// keys (sorted) and the raw output.
func rewireJSON(t *testing.T, args ...string) (RewireSummary, []string) {
	t.Helper()
	var s RewireSummary
	keys := runJSON(t, &s, append([]string{"rewire", "--json"}, args...)...)
	return s, keys
}

// readLog parses a --log file, checking that every line is a JSON object with
// exactly the fields iteration, op, u, v, score.
func readLog(t *testing.T, path string) []rewire.Edit {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var log []rewire.Edit
	for k, line := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		if line == "" {
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %d: %v: %s", k+1, err, line)
		}
		var keys []string
		for key := range m {
			keys = append(keys, key)
		}
		slices.Sort(keys)
		if want := []string{"iteration", "op", "score", "u", "v"}; !slices.Equal(keys, want) {
			t.Fatalf("log line %d: fields %v, want %v", k+1, keys, want)
		}
		var e rewire.Edit
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			t.Fatalf("log line %d: %v", k+1, err)
		}
		log = append(log, e)
	}
	return log
}

func bottleneckGraph(t *testing.T, directed bool) *linalg.Graph {
	t.Helper()
	g := dataset.Bottleneck(dataset.SynthOptions{}).Graph
	if !directed {
		g = g.Undirected()
	}
	return g
}

// TestRewireOutputs: the summary has exactly the documented fields and
// agrees with the log, the npz holds the graph obtained by applying the log
// to the input and the log's added/removed pairs, and the run makes
// floor(0.05·368) = 18 iterations.
func TestRewireOutputs(t *testing.T) {
	dir := t.TempDir()
	logPath, outPath := filepath.Join(dir, "L.jsonl"), filepath.Join(dir, "O.npz")
	s, keys := rewireJSON(t, "--dataset", "bottleneck", "--method", "err", "--budget", "0.05", "--log", logPath, "--out", outPath)
	if !slices.Equal(keys, summaryKeys) {
		t.Fatalf("summary fields %v, want %v", keys, summaryKeys)
	}
	if s.Dataset != "bottleneck" || s.Form != "undirected" || s.Method != "err" || s.Budget != 0.05 ||
		s.E0 != 368 || s.Engine != "incremental" || s.Seconds < 0 {
		t.Errorf("summary %+v", s)
	}
	if s.StoppedEarly == nil && s.Iterations != 18 {
		t.Errorf("iterations %d, want 18", s.Iterations)
	}
	log := readLog(t, logPath)
	var added, removed []linalg.Edge
	last := 1
	for _, e := range log {
		if e.Iteration < last || e.Iteration > s.Iterations {
			t.Fatalf("iteration %d after %d (of %d)", e.Iteration, last, s.Iterations)
		}
		last = e.Iteration
		switch e.Op {
		case "add":
			added = append(added, linalg.Edge{U: e.U, V: e.V})
		case "remove":
			removed = append(removed, linalg.Edge{U: e.U, V: e.V})
		default:
			t.Fatalf("op %q", e.Op)
		}
		if e.U >= e.V {
			t.Errorf("undirected edit %+v: want u < v", e)
		}
	}
	if len(log) > 0 && log[0].Iteration != 1 {
		t.Errorf("first iteration %d, want 1", log[0].Iteration)
	}
	if s.Added != len(added) || s.Removed != len(removed) || s.Added == 0 || s.Removed == 0 {
		t.Errorf("summary added %d removed %d, log %d / %d", s.Added, s.Removed, len(added), len(removed))
	}
	if want := 100 * float64(s.Added) / 368; s.AddedPct != want {
		t.Errorf("added_pct %v, want %v", s.AddedPct, want)
	}
	if want := 100 * float64(s.Removed) / 368; s.RemovedPct != want {
		t.Errorf("removed_pct %v, want %v", s.RemovedPct, want)
	}

	g := bottleneckGraph(t, false)
	for _, e := range log {
		ok := false
		if e.Op == "add" {
			ok = g.AddEdge(e.U, e.V)
		} else {
			ok = g.RemoveEdge(e.U, e.V)
		}
		if !ok {
			t.Fatalf("edit %+v does not apply", e)
		}
	}
	z, err := graphio.OpenNPZ(outPath)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	n, err := z.NumNodes()
	if err != nil || n != 80 {
		t.Fatalf("num_nodes %d, %v", n, err)
	}
	for key, want := range map[string][]linalg.Edge{"edge_index": g.Arcs(), "added": added, "removed": removed} {
		a, err := z.Array(key)
		if err != nil {
			t.Fatal(err)
		}
		if a.TypeName() != "int64" || len(a.Shape) != 2 || a.Shape[0] != 2 || a.Shape[1] != len(want) {
			t.Errorf("%s: %s %s, want int64 (2, %d)", key, a.TypeName(), a.ShapeString(), len(want))
		}
		got, err := a.Edges(n)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s differs from the log:\n got %v\nwant %v", key, got, want)
		}
	}
}

// TestRewireTextOutputs: the text summary names every field that applies
// to an undirected dense run that made its B iterations (all but
// stopped_early, rounds and solves — TestRewireTextSummaryOnlyWhatApplies —
// fallbacks, which only a directed run prints, and ohm_version, which is
// for the machine-readable output: `ohm version` prints it for a reader),
// and --out .txt is an
// edge list of the rewired graph.
func TestRewireTextOutputs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "g.txt")
	code, stdout, errs := run(t, "rewire", "--dataset", "bottleneck", "--method", "res", "--budget", "0.02", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, k := range summaryKeys {
		if k == "stopped_early" || k == "rounds" || k == "solves" || k == "fallbacks" || k == "handed_off_at" || k == "handed_off_kept" || k == "ohm_version" {
			continue
		}
		if !strings.Contains(stdout, "\n"+k+" ") && !strings.HasPrefix(stdout, k+" ") {
			t.Errorf("text summary lacks %s:\n%s", k, stdout)
		}
	}
	g, err := graphio.Load(out, 80, false)
	if err != nil {
		t.Fatal(err)
	}
	// res adds only: floor(0.02·368) = 7 iterations, at least one edge each.
	if g.E0() < 368+7 {
		t.Errorf("rewired graph has %d edges", g.E0())
	}
}

// TestRewireDeterministic: the same run twice, and with 1 or 2 threads,
// writes byte-identical logs and graphs.
func TestRewireDeterministic(t *testing.T) {
	dir := t.TempDir()
	var logs, outs [][]byte
	for k, threads := range []string{"2", "2", "1"} {
		l := filepath.Join(dir, "log"+string(rune('a'+k)))
		o := filepath.Join(dir, "out"+string(rune('a'+k))+".npz")
		rewireJSON(t, "--threads", threads, "--dataset", "bottleneck", "--method", "err-hop", "--budget", "0.05", "--log", l, "--out", o)
		lb, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		ob, err := os.ReadFile(o)
		if err != nil {
			t.Fatal(err)
		}
		logs, outs = append(logs, lb), append(outs, ob)
	}
	if len(logs[0]) == 0 {
		t.Fatal("empty log")
	}
	for k := 1; k < len(logs); k++ {
		if !bytes.Equal(logs[0], logs[k]) || !bytes.Equal(outs[0], outs[k]) {
			t.Errorf("run %d differs from run 0", k)
		}
	}
}

// TestRewireExactEqualsIncremental: both engines make the same decisions,
// with the same logged scores, for every method, undirected and directed.
// The cases run in parallel: the exact directed per-hop runs take seconds.
func TestRewireExactEqualsIncremental(t *testing.T) {
	for _, form := range []string{"undirected", "directed"} {
		for _, m := range rewire.Methods {
			t.Run(form+"/"+string(m), func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				var logs [2][]rewire.Edit
				for k, engine := range []string{"incremental", "exact"} {
					l := filepath.Join(dir, engine)
					args := []string{"--threads", "1", "--dataset", "bottleneck", "--method", string(m), "--budget", "0.05", "--engine", engine, "--log", l}
					if form == "directed" {
						args = append(args, "--directed")
					}
					s, _ := rewireJSON(t, args...)
					if s.Engine != engine || s.Form != form {
						t.Errorf("%v: %+v", args, s)
					}
					logs[k] = readLog(t, l)
				}
				if len(logs[0]) == 0 || len(logs[0]) != len(logs[1]) {
					t.Fatalf("%d vs %d edits", len(logs[0]), len(logs[1]))
				}
				for i := range logs[0] {
					a, b := logs[0][i], logs[1][i]
					if a.Iteration != b.Iteration || a.Op != b.Op || a.U != b.U || a.V != b.V ||
						!(abs(a.Score-b.Score) <= 1e-8*max(1, abs(a.Score))) {
						t.Errorf("edit %d: incremental %+v, exact %+v", i, a, b)
					}
				}
			})
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestRewireBadInput: every bad input fails with a clear message and the
// right exit status, before anything is written; an existing --out file is
// left as it was.
func TestRewireBadInput(t *testing.T) {
	badIDs := writeFile(t, "bad.txt", "# num_nodes 3\n0 1\n1 5\n")
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"budget zero", []string{"--dataset", "bottleneck", "--method", "err", "--budget", "0"}, 2, "(0, 1]"},
		{"budget above one", []string{"--dataset", "bottleneck", "--method", "err", "--budget", "1.5"}, 2, "(0, 1]"},
		{"budget negative", []string{"--dataset", "bottleneck", "--method", "err", "--budget=-0.1"}, 2, "(0, 1]"},
		{"unknown method", []string{"--dataset", "bottleneck", "--method", "foo", "--budget", "0.05"}, 2, "res, res-hop, err, err-hop"},
		{"within directed", []string{"--dataset", "bottleneck", "--method", "err", "--budget", "0.05", "--directed", "--within-components"}, 2, "--within-components"},
		{"unknown engine", []string{"--dataset", "bottleneck", "--method", "err", "--budget", "0.05", "--engine", "fast"}, 2, "--engine fast: unknown"},
		{"bad extension", []string{"--dataset", "bottleneck", "--method", "err", "--budget", "0.05", "--out", "OUT.csv"}, 2, ".csv"},
		{"id beyond num_nodes", []string{"--graph", badIDs, "--method", "err", "--budget", "0.05"}, 1, "5"},
		{"no such folder", []string{"--dataset", "bottleneck", "--method", "err", "--budget", "0.05", "--out", "nodir/x.npz"}, 1, "nodir"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out, logPath := filepath.Join(dir, "out.npz"), filepath.Join(dir, "log.jsonl")
			args := append([]string{"rewire"}, c.args...)
			hasOut := slices.Contains(args, "--out")
			for k, a := range args {
				if k > 0 && args[k-1] == "--out" {
					args[k] = filepath.Join(dir, a)
					out = args[k]
				}
			}
			if !hasOut {
				args = append(args, "--out", out)
			}
			args = append(args, "--log", logPath)
			code, stdout, errs := run(t, args...)
			if code != c.code || !strings.Contains(errs, c.msg) {
				t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", args, code, c.code, errs, c.msg)
			}
			if stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
			for _, p := range []string{out, logPath} {
				if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s exists after a failed run (%v)", p, err)
				}
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("files left behind: %v", ents)
			}
		})
	}

	// A pre-existing --out is untouched by a run that fails validation.
	out := writeFile(t, "keep.npz", "old content")
	code, _, _ := run(t, "rewire", "--dataset", "bottleneck", "--method", "nope", "--budget", "0.05", "--out", out)
	if b, err := os.ReadFile(out); code != 2 || err != nil || string(b) != "old content" {
		t.Errorf("exit %d; --out now %q, %v", code, b, err)
	}
	code, _, _ = run(t, "rewire", "--dataset", "bottleneck", "--method", "err", "--budget", "2", "--out", out)
	if b, err := os.ReadFile(out); code != 2 || err != nil || string(b) != "old content" {
		t.Errorf("exit %d; --out now %q, %v", code, b, err)
	}
}

// TestRewireGraphFile: --graph names the run after the file, and a small
// path graph with res adds one edge per iteration.
func TestRewireGraphFile(t *testing.T) {
	g := writeFile(t, "path.txt", "0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 8\n8 9\n9 10\n")
	s, _ := rewireJSON(t, "--graph", g, "--method", "res", "--budget", "0.3")
	if s.Dataset != "path.txt" || s.E0 != 10 || s.Iterations != 3 || s.Added != 3 || s.Removed != 0 || s.StoppedEarly != nil {
		t.Errorf("%+v", s)
	}
}

// TestRewireChild is the child process of TestRewireInterrupted: `ohm
// rewire` with the arguments in $OHM_REWIRE_CHILD (tab-separated).
func TestRewireChild(t *testing.T) {
	args := os.Getenv("OHM_REWIRE_CHILD")
	if args == "" {
		t.Skip("child process of TestRewireInterrupted")
	}
	os.Exit(Run(strings.Split(args, "\t"), os.Stdout, os.Stderr))
}

// startChild runs `ohm args` in a child process (TestRewireChild), its
// standard output and error captured.
func startChild(t *testing.T, args []string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestRewireChild$")
	cmd.Env = append(os.Environ(), "OHM_REWIRE_CHILD="+strings.Join(args, "\t"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stdout, &stderr
}

// TestRewireKilled: a rewire killed outright (SIGKILL: nothing of ohm runs)
// leaves --log as it was and, beside it, the journal LOG.partial with the
// edits of every iteration it finished, whole iterations only: the log of
// a run with --max-iterations at its last iteration. A run that ends
// removes its journal.
func TestRewireKilled(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "log.jsonl")
	const before = "an earlier run's log\n"
	if err := os.WriteFile(logPath, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--quiet", "rewire", "--dataset", "sbm", "--method", "err", "--budget", "1", "--engine", "exact", "--log", logPath}
	cmd, _, stderr := startChild(t, args)
	journalPath := logPath + ".partial"
	// Wait for the journal's first lines (the exact engine takes a fraction
	// of a second an iteration), then kill.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if st, err := os.Stat(journalPath); err == nil && st.Size() > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no journal after a minute\n%s", stderr)
		}
	}
	time.Sleep(300 * time.Millisecond)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if b, err := os.ReadFile(logPath); err != nil || string(b) != before {
		t.Fatalf("--log after the kill: %q, %v; want it as it was", b, err)
	}
	got := readLog(t, journalPath)
	last := got[len(got)-1].Iteration
	ref := filepath.Join(dir, "ref.jsonl")
	if code, _, errs := run(t, "--quiet", "rewire", "--dataset", "sbm", "--method", "err", "--budget", "1", "--engine", "exact",
		"--max-iterations", strconv.Itoa(last), "--log", ref); code != 0 {
		t.Fatalf("reference run: exit %d: %s", code, errs)
	}
	if want := readLog(t, ref); !slices.Equal(got, want) {
		t.Fatalf("journal: %d edits up to iteration %d, want the %d of --max-iterations %d", len(got), last, len(want), last)
	}
	if _, err := os.Stat(ref + ".partial"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a finished run left its journal: %v", err)
	}
	t.Logf("killed after %d whole iterations in the journal", last)
}

// TestRewireInterrupted: SIGINT stops a long rewire after the iteration in
// flight; the command fails, saying how many iterations it made, and its
// --log, --out and summary hold exactly those: the log is the one of a run
// with --max-iterations at that count.
func TestRewireInterrupted(t *testing.T) {
	dir := t.TempDir()
	logPath, outPath := filepath.Join(dir, "log.jsonl"), filepath.Join(dir, "out.npz")
	// The exact engine recomputes L⁺ every iteration: 1 611 iterations
	// take far longer than the signal's delay.
	args := []string{"--quiet", "rewire", "--dataset", "sbm", "--method", "err", "--budget", "1", "--engine", "exact",
		"--log", logPath, "--out", outPath, "--json"}
	cmd, stdout, stderr := startChild(t, args)
	time.Sleep(1500 * time.Millisecond) // the child loads a built-in graph in milliseconds
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("exit: %v, want status 1\n%s", err, stderr.String())
	}
	var s RewireSummary
	if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
		t.Fatalf("summary: %v\n%s", err, stdout.String())
	}
	want := fmt.Sprintf("interrupted after %d of 1611 iterations", s.Iterations)
	if s.Iterations >= 1611 || s.StoppedEarly == nil || *s.StoppedEarly != fmt.Sprintf("interrupted after %d iterations", s.Iterations) ||
		!strings.Contains(stderr.String(), want) {
		t.Fatalf("summary: %d iterations, stopped early %v; stderr %q, want %q", s.Iterations, s.StoppedEarly, stderr.String(), want)
	}
	got := readLog(t, logPath)
	if s.Iterations > 0 {
		ref := filepath.Join(dir, "ref.jsonl")
		if code, _, errs := run(t, "--quiet", "rewire", "--dataset", "sbm", "--method", "err", "--budget", "1", "--engine", "exact",
			"--max-iterations", strconv.Itoa(s.Iterations), "--log", ref); code != 0 {
			t.Fatalf("reference run: exit %d: %s", code, errs)
		}
		if want := readLog(t, ref); !slices.Equal(got, want) {
			t.Fatalf("interrupted log: %d edits, want the %d of --max-iterations %d", len(got), len(want), s.Iterations)
		}
	} else if len(got) != 0 {
		t.Fatalf("no iteration made, %d edits logged", len(got))
	}
	if _, err := os.Stat(logPath + ".partial"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the journal outlives the written log: %v", err)
	}
	if _, arcs, err := graphio.ReadNPZ(outPath); err != nil {
		t.Fatalf("--out: %v", err)
	} else {
		t.Logf("interrupted after %d iterations; --out has %d arcs", s.Iterations, len(arcs))
	}
}

// TestRewireTextSummaryOnlyWhatApplies: the text summary leaves out what
// does not apply — stopped_early when the run made its B iterations, the
// sketch's rounds and solves under a dense engine — and shows them where
// they do; --json keeps every field.
func TestRewireTextSummaryOnlyWhatApplies(t *testing.T) {
	fields := func(args ...string) map[string]string {
		t.Helper()
		code, out, errs := run(t, append([]string{"-q", "rewire", "--dataset", "ring", "--method", "err", "--budget", "0.05"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		m := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			k, v, _ := strings.Cut(l, " ")
			m[k] = strings.TrimSpace(v)
		}
		return m
	}
	dense := fields()
	for _, k := range []string{"stopped_early", "rounds", "solves"} {
		if v, ok := dense[k]; ok {
			t.Errorf("dense engine, all B iterations: prints %s %q", k, v)
		}
	}
	if dense["engine"] != "incremental" || dense["iterations"] != "18" {
		t.Errorf("dense summary %v", dense)
	}
	if s := fields("--max-iterations", "2"); s["stopped_early"] != "stopped after 2 iterations (max iterations)" {
		t.Errorf("stopped early: stopped_early %q", s["stopped_early"])
	}
	sk := fields("--engine", "sketch")
	if sk["engine"] != "sketch" || sk["rounds"] == "" || sk["solves"] == "" || sk["solves"] == "0" {
		t.Errorf("sketch summary %v: want rounds and solves", sk)
	}
	if _, keys := rewireJSON(t, "--dataset", "ring", "--method", "err", "--budget", "0.05"); !slices.Equal(keys, summaryKeys) {
		t.Errorf("--json keys %v, want %v", keys, summaryKeys)
	}
}
