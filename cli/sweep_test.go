package cli

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/model/report"
	"github.com/ohmgnn/ohm/model/sweep"
)

// tinySweep is the grid of the tests: 2 methods × 1 budget × depths 1–2 ×
// 2 seeds on the built-in bottleneck, 20 epochs: 8 runs.
func tinySweep(results string) []string {
	return []string{"--quiet", "sweep", "--results", results, "--datasets", "bottleneck", "--methods", "none,res",
		"--budgets", "0.1", "--depths", "1-2", "--seeds", "2", "--pairnorm", "no", "--epochs", "20"}
}

// readLines returns the results file's lines and fails on a line that is
// not a record or a file not ending in a newline.
func readLines(t *testing.T, path string) []sweep.Record {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		t.Fatalf("%s does not end with a newline", path)
	}
	var recs []sweep.Record
	for i, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if l == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(l))
		dec.DisallowUnknownFields()
		var r sweep.Record
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("line %d: %v: %q", i+1, err, l)
		}
		recs = append(recs, r)
	}
	return recs
}

// checkOnce checks that every key appears once and returns the key set.
func checkOnce(t *testing.T, recs []sweep.Record) map[sweep.Key]bool {
	t.Helper()
	seen := map[sweep.Key]bool{}
	for _, r := range recs {
		if seen[r.Key()] {
			t.Errorf("run %s recorded twice", r.Key())
		}
		seen[r.Key()] = true
	}
	return seen
}

func TestSweepTinyEndToEnd(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results.jsonl")
	code, out, errs := run(t, tinySweep(results)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	recs := readLines(t, results)
	if len(recs) != 8 {
		t.Fatalf("%d lines, want 8 (2 methods × 2 depths × 2 seeds)\n%s", len(recs), out)
	}
	checkOnce(t, recs)
	for _, r := range recs {
		if r.Method == "res" && (r.Added == 0 || r.AddedNet != r.Added || r.RemovedNet != 0) {
			t.Errorf("res record without its net counts: %+v", r)
		}
		if r.Dataset != "bottleneck" || r.Form != "undirected" || r.Model != "gcn" || r.Epochs != 20 || r.E0 != 368 ||
			r.TestAcc < 0 || r.TestAcc > 1 || r.BestEpoch < 1 || r.BestEpoch > 20 || r.Version != sweep.CodeVersion(r.Method, r.Form) {
			t.Errorf("bad record %+v", r)
		}
		switch r.Method {
		case "none":
			if r.Budget != 0 || r.Added != 0 || r.Removed != 0 {
				t.Errorf("baseline record %+v", r)
			}
		case "res":
			if r.Budget != 0.1 || r.Added == 0 || r.Removed != 0 || r.Iterations != 36 {
				t.Errorf("res record %+v", r)
			}
		}
	}
	// The rewired graph is cached: one npz + json.
	cached, _ := filepath.Glob(filepath.Join(sweep.CacheDir(results), "*.npz"))
	if len(cached) != 1 {
		t.Errorf("cache holds %v, want one graph", cached)
	}
	// Rerunning adds nothing.
	code, out, errs = run(t, tinySweep(results)...)
	if code != 0 {
		t.Fatalf("rerun: exit %d: %s", code, errs)
	}
	if got := readLines(t, results); len(got) != 8 {
		t.Fatalf("rerun: %d lines, want 8", len(got))
	}
	if !strings.Contains(out, "8 runs in the grid, 8 already there, 0 run now") {
		t.Errorf("rerun summary: %q", out)
	}
	// A bigger grid reuses the cached graph and adds only the new runs.
	more := append(tinySweep(results)[:len(tinySweep(results))-4], "--pairnorm", "no,yes", "--epochs", "20")
	code, out, errs = run(t, more...)
	if code != 0 {
		t.Fatalf("grow: exit %d: %s", code, errs)
	}
	if got := readLines(t, results); len(got) != 16 {
		t.Fatalf("grow: %d lines, want 16", len(got))
	}
	if !strings.Contains(out, "0 rewired, 1 from the cache") {
		t.Errorf("grow summary: %q", out)
	}
}

func TestSweepTruncatedLineRepaired(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results.jsonl")
	if code, _, errs := run(t, tinySweep(results)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, _ := os.ReadFile(results)
	cut := b[:len(b)-25] // the last line loses its end and its newline
	if err := os.WriteFile(results, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	lost := readLinesLenient(cut)
	code, out, errs := run(t, tinySweep(results)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "8 runs in the grid, 7 already there, 1 run now") {
		t.Errorf("summary: %q (lines before: %d)", out, lost)
	}
	recs := readLines(t, results)
	if len(recs) != 8 || len(checkOnce(t, recs)) != 8 {
		t.Fatalf("%d lines after the repair, want 8", len(recs))
	}
	// ReadResults ignores a truncated last line.
	if err := os.WriteFile(results, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := sweep.ReadResults(results); err != nil || len(got) != 7 {
		t.Errorf("ReadResults: %d records, %v; want 7", len(got), err)
	}
}

func readLinesLenient(b []byte) int { return bytes.Count(b, []byte{'\n'}) }

// killGrid is the grid of the kill test: 2 methods × 2 PairNorm × 6 depths ×
// 4 seeds = 96 runs.
func killGrid(results string) []string {
	return []string{"--quiet", "--threads", "2", "sweep", "--results", results, "--datasets", "bottleneck",
		"--methods", "none,err", "--budgets", "0.1", "--depths", "1-6", "--seeds", "4", "--pairnorm", "no,yes", "--epochs", "60"}
}

// TestSweepChild is the child process of TestSweepKillResume: it runs the
// kill grid into $OHM_SWEEP_CHILD.
func TestSweepChild(t *testing.T) {
	results := os.Getenv("OHM_SWEEP_CHILD")
	if results == "" {
		t.Skip("child process of TestSweepKillResume")
	}
	os.Exit(Run(killGrid(results), os.Stdout, os.Stderr))
}

func TestSweepKillResume(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results.jsonl")
	for round := range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSweepChild$")
		cmd.Env = append(os.Environ(), "OHM_SWEEP_CHILD="+results)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		before := 0
		if b, err := os.ReadFile(results); err == nil {
			before = bytes.Count(b, []byte{'\n'})
		}
		deadline := time.Now().Add(20 * time.Second)
		for {
			b, _ := os.ReadFile(results)
			if bytes.Count(b, []byte{'\n'}) >= before+5 || time.Now().After(deadline) {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		b, _ := os.ReadFile(results)
		n := bytes.Count(b, []byte{'\n'})
		if n >= 96 {
			t.Fatalf("round %d: the child finished before it was killed; make the grid bigger", round)
		}
		t.Logf("round %d: killed after %d lines", round, n)
	}
	code, out, errs := run(t, killGrid(results)...)
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	recs := readLines(t, results)
	if len(recs) != 96 || len(checkOnce(t, recs)) != 96 {
		t.Fatalf("after resume: %d lines, want every one of the 96 runs once\n%s", len(recs), out)
	}
}

func TestSweepConfigFile(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "grid.json")
	os.WriteFile(cfg, []byte(`{"datasets": ["bottleneck"], "methods": ["none", "curvature"], "budgets": [0.05],
		"pairnorm": [true], "depths": [2], "seeds": 1, "splits": "all", "epochs": 5}`), 0o644)
	results := filepath.Join(dir, "r.jsonl")
	code, _, errs := run(t, "--quiet", "sweep", "--config", cfg, "--results", results, "--seeds", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	recs := readLines(t, results)
	if len(recs) != 4 {
		t.Fatalf("%d lines, want 4", len(recs))
	}
	for _, r := range recs {
		if !r.PairNorm || r.Layers != 2 || r.Epochs != 5 || (r.Method == "curvature" && (r.Alpha != 0.5 || r.Budget != 0.05)) {
			t.Errorf("record %+v", r)
		}
	}
	os.WriteFile(cfg, []byte(`{"datasets": ["bottleneck"], "depth": [2]}`), 0o644)
	if code, _, errs := run(t, "sweep", "--config", cfg, "--results", results); code != 2 || !strings.Contains(errs, "depth") {
		t.Errorf("unknown field: exit %d, %s", code, errs)
	}
	for _, args := range [][]string{
		{"--datasets", "nope"}, {"--datasets", "bottleneck", "--methods", "foo"},
		{"--datasets", "bottleneck", "--budgets", "2"}, {"--datasets", "bottleneck", "--depths", "0"},
		{"--datasets", "bottleneck", "--pairnorm", "maybe"}, {"--datasets", "bottleneck", "--models", "dirgcn"},
		{"--methods", "none"},
	} {
		a := append([]string{"sweep", "--results", results}, args...)
		if code, _, _ := run(t, a...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	// The library's field errors come out with the flags' names where the
	// user must give a flag.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--budgets", "x"}, `ohm: --budgets: "x" is not a number` + "\n"},
		{[]string{"--depths", "0"}, `ohm: --depths: "0": want depths ≥ 1 or ranges like 1-12` + "\n"},
		{[]string{"--pairnorm", "maybe"}, `ohm: --pairnorm: "maybe": want no or yes` + "\n"},
		{[]string{"--budgets", "2"}, "ohm: budgets: 2 outside (0, 1] (a fraction of E0, e.g. 0.05)\n"},
		{[]string{"--methods", "gtr", "--forms", "directed"}, "ohm: methods: gtr rewires undirected graphs only; sweep it with --forms undirected\n"},
	} {
		a := append([]string{"sweep", "--results", results, "--datasets", "bottleneck"}, c.args...)
		if code, _, errs := run(t, a...); code != 2 || errs != c.want {
			t.Errorf("%v: exit %d, %q; want 2, %q", c.args, code, errs, c.want)
		}
	}
}

func TestReportAndDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 144 small models")
	}
	dir := t.TempDir()
	t0 := time.Now()
	code, out, errs := run(t, "--quiet", "demo", "--dataset", "bottleneck", "--epochs", "20", "--seeds", "2", "--out", dir)
	if code != 0 {
		t.Fatalf("demo: exit %d: %s", code, errs)
	}
	t.Logf("demo (20 epochs, 2 seeds): %v; %s", time.Since(t0), out)
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Best layer / max accuracy", "## Realized edits", "## Accuracy versus depth",
		"## Cosine similarity per layer", "## Linear probes", "## CKA to the curvature model", "## Overlap of the added edges"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	pngs, _ := filepath.Glob(filepath.Join(dir, report.FigureDir, "*.png"))
	if len(pngs) != 6 {
		t.Errorf("%d PNG figures, want 6: %v", len(pngs), pngs)
	}
	for _, p := range pngs {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if b := img.Bounds(); b.Dx() != report.PixelWidth || b.Dy() != report.PixelHeight {
			t.Errorf("%s: %v, want %d×%d", p, b, report.PixelWidth, report.PixelHeight)
		}
	}
	// The demo's report command reproduces the same report.
	code, out, errs = run(t, "report", filepath.Join(dir, "results.jsonl"), "--out", filepath.Join(dir, "again"),
		"--diagnostics", filepath.Join(dir, diagnosticsFile))
	if code != 0 || !strings.Contains(out, "6 figures") {
		t.Fatalf("report: exit %d: %s %s", code, out, errs)
	}
	again, _ := os.ReadFile(filepath.Join(dir, "again", "report.md"))
	// The headers name results.jsonl relative to each report's folder.
	if !strings.Contains(string(again), "runs from `../results.jsonl`.") || !strings.Contains(string(md), "runs from `results.jsonl`.") {
		t.Errorf("headers do not name results.jsonl relative to the report")
	}
	body := func(s []byte) string { _, b, _ := strings.Cut(string(s), "\n## "); return b }
	if body(again) != body(md) {
		t.Errorf("ohm report and ohm demo disagree")
	}
	// A diagnostics file named twice (the same dataset and setting in
	// both) or a missing one fails, naming it, and nothing is written.
	// A path named twice is refused by the flag itself.
	diag, diag2 := filepath.Join(dir, diagnosticsFile), filepath.Join(dir, "copy-"+diagnosticsFile)
	if raw, err := os.ReadFile(diag); err != nil {
		t.Fatal(err)
	} else if err := os.WriteFile(diag2, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ files, want string }{
		{diag + "," + diag2, "both hold the diagnostics of bottleneck"},
		{filepath.Join(dir, "missing.json"), "missing.json"},
		{diag + "," + diag, diag + " given twice"},
	} {
		bad := filepath.Join(dir, "bad")
		code, _, errs = run(t, "report", filepath.Join(dir, "results.jsonl"), "--out", bad, "--diagnostics", c.files)
		if code == 0 || !strings.Contains(errs, "--diagnostics: ") || !strings.Contains(errs, c.want) {
			t.Errorf("--diagnostics %s: exit %d: %s", c.files, code, errs)
		}
		if _, err := os.Stat(filepath.Join(bad, "report.md")); err == nil {
			t.Errorf("--diagnostics %s: report.md written", c.files)
		}
	}
	// A resumed demo runs nothing new.
	code, _, errs = run(t, "demo", "--dataset", "bottleneck", "--epochs", "20", "--seeds", "2", "--out", dir, "--resume")
	if code != 0 || !strings.Contains(errs, "(0 new)") {
		t.Errorf("resume: exit %d: %s", code, errs)
	}
}

// TestSweepVersionBump: records of older rewiring code (here: res-hop runs
// rewritten to carry the version before the per-hop tie rule) do not count
// as done — a resumed sweep runs them again with the current code — and the
// report leaves them out, saying so.
func TestSweepVersionBump(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results.jsonl")
	args := []string{"--quiet", "sweep", "--results", results, "--datasets", "bottleneck", "--methods", "none,res,res-hop",
		"--budgets", "0.1", "--depths", "1", "--seeds", "2", "--pairnorm", "no", "--epochs", "5"}
	if code, _, errs := run(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	recs := readLines(t, results)
	if len(recs) != 6 {
		t.Fatalf("%d records, want 6", len(recs))
	}
	// Pretend the res-hop runs were made by the older code.
	var b bytes.Buffer
	old := 0
	for _, r := range recs {
		if r.Method == "res-hop" {
			r.Version = "rewire-1"
			old++
		}
		line, _ := json.Marshal(r)
		b.Write(append(line, '\n'))
	}
	if old != 2 || sweep.CodeVersion("res-hop", "undirected") == "rewire-1" {
		t.Fatalf("%d res-hop runs; version %s", old, sweep.CodeVersion("res-hop", "undirected"))
	}
	if err := os.WriteFile(results, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, args...); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	recs = readLines(t, results)
	if len(recs) != 8 {
		t.Fatalf("after the resume %d records, want 8 (the 2 old res-hop runs redone)", len(recs))
	}
	cur, stale := sweep.CurrentRecords(recs)
	if len(cur) != 6 || len(stale) != 1 {
		t.Fatalf("current %d, stale %v", len(cur), stale)
	}
	code, out, errs := run(t, "report", results, "--out", filepath.Join(dir, "report"))
	if code != 0 || !strings.Contains(errs, "left out 2 runs of older rewiring code: res-hop (undirected) rewire-1") || !strings.Contains(out, "6 runs") {
		t.Fatalf("report: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestFilterRecords: report --methods and --forms keep exactly the records
// asked for and refuse unknown names.
func TestFilterRecords(t *testing.T) {
	recs := []sweep.Record{{Method: "none", Form: "undirected"}, {Method: "gtr", Form: "undirected"},
		{Method: "err", Form: "directed"}, {Method: "err", Form: "undirected"}}
	for _, tc := range []struct {
		methods, forms []string
		want           []string // method/form of the records kept, in order
		bad            string   // the error names it
	}{
		{nil, nil, []string{"none/undirected", "gtr/undirected", "err/directed", "err/undirected"}, ""},
		{[]string{"none", "gtr"}, nil, []string{"none/undirected", "gtr/undirected"}, ""},
		{nil, []string{"directed"}, []string{"err/directed"}, ""},
		{[]string{"err"}, []string{"undirected"}, []string{"err/undirected"}, ""},
		{[]string{"bogus"}, nil, nil, "bogus"},
		{nil, []string{"sideways"}, nil, "sideways"},
	} {
		got, err := filterRecords(slices.Clone(recs), tc.methods, tc.forms)
		var kept []string
		for _, r := range got {
			kept = append(kept, r.Method+"/"+r.Form)
		}
		if tc.bad != "" {
			if err == nil || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("methods %v forms %v: err %v, want one naming %q", tc.methods, tc.forms, err, tc.bad)
			}
			continue
		}
		if err != nil || !slices.Equal(kept, tc.want) {
			t.Errorf("methods %v forms %v: kept %v, err %v; want %v", tc.methods, tc.forms, kept, err, tc.want)
		}
	}
}

// TestSweepRejectsZeroAndStrangers: --seeds 0 and --epochs 0 (flags or
// config) are usage errors, not the defaults; a JSON line that is not a
// record is refused by sweep and report with its line number.
func TestSweepRejectsZeroAndStrangers(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "r.jsonl")
	base := []string{"sweep", "--results", results, "--datasets", "bottleneck", "--methods", "none", "--depths", "1"}
	for _, extra := range [][]string{{"--seeds", "0"}, {"--epochs", "0"}, {"--seeds", "-2"}} {
		code, _, errs := run(t, append(slices.Clone(base), extra...)...)
		if code != 2 || !strings.Contains(errs, extra[0]+" "+extra[1]+": must be ≥ 1") {
			t.Errorf("%v: exit %d: %s", extra, code, errs)
		}
	}
	cfg := filepath.Join(dir, "c.json")
	for _, k := range []string{"seeds", "epochs"} {
		os.WriteFile(cfg, []byte(`{"datasets":["bottleneck"],"`+k+`":0}`), 0o644)
		code, _, errs := run(t, "sweep", "--results", results, "--config", cfg)
		if code != 2 || !strings.Contains(errs, k+" 0: must be ≥ 1") {
			t.Errorf("config %s 0: exit %d: %s", k, code, errs)
		}
	}
	os.WriteFile(results, []byte("{\"hello\":1}\n"), 0o644)
	code, _, errs := run(t, "report", results, "--out", filepath.Join(dir, "rep"))
	if code != 1 || !strings.Contains(errs, "line 1: not a result record") {
		t.Errorf("report of {\"hello\":1}: exit %d: %s", code, errs)
	}
	code, _, errs = run(t, append(slices.Clone(base), "--epochs", "2")...)
	if code != 1 || !strings.Contains(errs, "line 1: not a result record") {
		t.Errorf("sweep on {\"hello\":1}: exit %d: %s", code, errs)
	}
}

// TestDemoLocked: while another process holds a demo folder, ohm demo on it
// refuses at once and deletes nothing.
func TestDemoLocked(t *testing.T) {
	dir := t.TempDir()
	unlock, err := sweep.LockPath(filepath.Join(dir, ".ohm-demo.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	keep := filepath.Join(dir, "results.jsonl")
	os.WriteFile(keep, []byte("{}\n"), 0o644)
	code, _, errs := run(t, "demo", "--out", dir)
	if code != 1 || !strings.Contains(errs, "is another ohm demo writing there?") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "{}\n" {
		t.Fatalf("the other demo's results.jsonl was touched: %q %v", b, err)
	}
}
