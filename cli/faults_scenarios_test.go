package cli

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/internal/faults"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// The scenarios of `make faults` (OHM_FAULTS=1): every defect of issues 38
// and 36.4 (numbered by their items) and of issue 50 (50.N,
// faults_scenarios50_test.go), run as the ohm command line runs — a child process, real
// signals — on a real full disk (a 2 MiB tmpfs with 4 KiB left) and a real
// read-only folder (a tmpfs mounted read-only) when mount works (as root),
// else with the fault writer of package faults in the child. Each checks
// its outcome and adds a row to the table written to $OHM_FAULTS_TABLE:
// the fault, the outputs before and after, the exit status, the message.

// faultRule is a faults.Rule as the child reads it from OHM_FAULT_RULES.
type faultRule struct {
	Match string
	Op    faults.Op
	After int64
	Errno int
}

// TestFaultChild is the child process of TestFaultScenarios: `ohm` with the
// arguments in $OHM_FAULT_CHILD (tab-separated), the rules of
// $OHM_FAULT_RULES (JSON) armed.
func TestFaultChild(t *testing.T) {
	args := os.Getenv("OHM_FAULT_CHILD")
	if args == "" {
		t.Skip("child process of TestFaultScenarios")
	}
	var rs []faultRule
	if s := os.Getenv("OHM_FAULT_RULES"); s != "" {
		if err := json.Unmarshal([]byte(s), &rs); err != nil {
			t.Fatal(err)
		}
	}
	var rules []faults.Rule
	for _, r := range rs {
		rules = append(rules, faults.Rule{Match: r.Match, Op: r.Op, After: r.After, Err: syscall.Errno(r.Errno)})
	}
	faults.Arm(rules...)
	os.Exit(Run(strings.Split(args, "\t"), os.Stdout, os.Stderr))
}

// scenEnv is one scenario's folder: dir holds room/ (a folder with room),
// full/ (a full disk) and ro/ (a read-only folder).
type scenEnv struct {
	t    *testing.T
	dir  string
	real bool      // full/ and ro/ are real tmpfs mounts
	note string    // what a check found, for the table
	bg   *exec.Cmd // a process the setup started (cleanup ends it)
}

func (e *scenEnv) path(rel string) string { return filepath.Join(e.dir, filepath.FromSlash(rel)) }

// write creates the file rel (folders too) with content.
func (e *scenEnv) write(rel, content string) {
	p := e.path(rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// sigPlan sends sigs to the child, the first after `after`, the others
// 300 ms apart; ignored starts the child with SIGINT ignored.
type sigPlan struct {
	after   time.Duration
	sigs    []os.Signal
	ignored bool
	waitFor string // relative to dir: wait until this file is not empty, then after
}

type scenario struct {
	name, fault string
	setup       func(e *scenEnv) // before full/ is filled and ro/ made read-only
	args        func(e *scenEnv) []string
	env         []string
	sig         *sigPlan
	outputs     []string // relative to dir
	left        int64    // bytes left on full/ (4 KiB for the journal's scenario, else none)
	code        int
	msg         string // in stderr
	same        bool   // outputs as they were
	check       func(e *scenEnv, stdout, stderr string) error
	ulimitKB    int64                      // the child's address-space limit (ulimit -v), 0: none
	cmd         func(e *scenEnv) *exec.Cmd // a child other than ohm (Python), instead of args
	cleanup     func(e *scenEnv)           // after the child, before the outputs are compared
	within      time.Duration              // the child ends at most this long after its (last) signal
	maxTook     time.Duration              // the child ends within this time (a check made before any work)
}

// fileState describes a file for the table: absent, or its size and hash.
type fileState struct {
	exists bool
	size   int64
	sum    string
}

func stateOf(p string) fileState {
	b, err := os.ReadFile(p)
	if err != nil {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return fileState{exists: true, sum: "dir:" + dirSum(p)}
		}
		return fileState{}
	}
	h := sha256.Sum256(b)
	return fileState{exists: true, size: int64(len(b)), sum: hex.EncodeToString(h[:4])}
}

// dirSum hashes a folder's files (names and contents).
func dirSum(dir string) string {
	h := sha256.New()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			fmt.Fprintf(h, "%s %d\n", p, len(b))
			h.Write(b)
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil)[:4])
}

func (s fileState) String() string {
	switch {
	case !s.exists:
		return "absent"
	case strings.HasPrefix(s.sum, "dir:"):
		return "folder " + strings.TrimPrefix(s.sum, "dir:")
	}
	return fmt.Sprintf("%d B %s", s.size, s.sum)
}

// ciFaults are the scenarios make test runs (without OHM_FAULTS): one of
// each kind that takes seconds, with the fault writer (no mounts).
var ciFaults = `^(1 disk full while --log|3 train, SIGINT after|4 report, conflicting|5 edge list|6 --out in a read-only|7 data synth --out)`

func TestFaultScenarios(t *testing.T) {
	all := os.Getenv("OHM_FAULTS") != ""
	pick := os.Getenv("OHM_FAULTS_ONLY") // a subset, by name
	if !all && pick == "" {
		pick = ciFaults
		t.Log("make test's subset of the fault scenarios, with the fault writer; make faults runs them all")
	}
	datatest.Root(t, "Cora/raw/ind.cora.x", "CiteSeer/raw/ind.citeseer.x")
	real := all && canMount(t)
	mode := "real tmpfs mounts (full: a 2 MiB tmpfs filled up, 4 KiB left in scenario 1; ro: a tmpfs mounted read-only)"
	switch {
	case !all:
		mode = "the fault writer (make test's subset, no mounts: ENOSPC after the bytes a 4 KiB disk holds, EROFS at creation)"
	case !real:
		mode = "the fault writer (mount refused: ENOSPC after the bytes a 4 KiB disk holds, EROFS at creation)"
	}
	var table strings.Builder
	fmt.Fprintf(&table, "# make faults\n\nFaults made with %s. Outputs: size and SHA-256 prefix, before → after.\n\n", mode)
	table.WriteString("| # | scenario | fault | outputs before → after | exit | message |\n|---|---|---|---|---|---|\n")
	only := regexp.MustCompile(pick)
	ran, ok := 0, 0
	for i, sc := range append(scenarios(), scenarios50()...) {
		if !only.MatchString(sc.name) {
			continue
		}
		row := runScenario(t, sc, real)
		ran++
		if !strings.Contains(row, "**FAIL") {
			ok++
		}
		fmt.Fprintf(&table, "| %d | %s |\n", i+1, row)
	}
	fmt.Fprintf(&table, "\n%d scenarios, %d ok.\n", ran, ok)
	if p := os.Getenv("OHM_FAULTS_TABLE"); p != "" {
		if err := os.WriteFile(p, []byte(table.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	} else {
		t.Log("\n" + table.String())
	}
}

// canMount reports whether a tmpfs can be mounted here (as root), unless
// OHM_FAULTS_NOMOUNT asks for the fault writer.
func canMount(t *testing.T) bool {
	if os.Getenv("OHM_FAULTS_NOMOUNT") != "" {
		return false
	}
	dir := t.TempDir()
	if err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir).Run(); err != nil {
		return false
	}
	exec.Command("umount", dir).Run()
	return true
}

// prepare makes full/ and ro/: real mounts, or plain folders whose faults
// the child's rules make.
func (e *scenEnv) prepare(left int64) {
	full, ro := e.path("full"), e.path("ro")
	if !e.real {
		return
	}
	// The files setup put in full/ and ro/ move onto the mounts.
	for _, m := range []struct {
		dir, opts string
	}{{full, "size=2m"}, {ro, "size=1m"}} {
		keep := e.path(".keep-" + filepath.Base(m.dir))
		os.Rename(m.dir, keep)
		os.MkdirAll(m.dir, 0o755)
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", m.opts, "tmpfs", m.dir).CombinedOutput(); err != nil {
			e.t.Fatalf("mount %s: %v %s", m.dir, err, out)
		}
		e.t.Cleanup(func() { exec.Command("umount", "-l", m.dir).Run() })
		if _, err := os.Stat(keep); err == nil {
			exec.Command("cp", "-a", keep+"/.", m.dir).Run()
			os.RemoveAll(keep)
		}
	}
	if out, err := exec.Command("mount", "-o", "remount,ro", ro).CombinedOutput(); err != nil {
		e.t.Fatalf("remount ro: %v %s", err, out)
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(full, &st); err != nil {
		e.t.Fatal(err)
	}
	if free := int64(st.Bavail) * int64(st.Bsize); free > left {
		if err := os.WriteFile(filepath.Join(full, ".fill"), make([]byte, free-left), 0o644); err != nil {
			e.t.Fatal(err)
		}
	}
}

// rules are the child's faults without real mounts: a disk that takes
// 4 KiB (the journal, the first file written) and then nothing, and a
// read-only folder.
func (e *scenEnv) rules() []faultRule {
	if e.real {
		return nil
	}
	enospc, erofs := int(syscall.ENOSPC), int(syscall.EROFS)
	var rs []faultRule
	for _, pat := range []string{"full/*.partial"} {
		rs = append(rs, faultRule{Match: e.path(pat), Op: faults.OpWrite, After: 4096, Errno: enospc})
	}
	for _, pat := range []string{"full/*", "full/*/*", "full/*/*/*"} {
		rs = append(rs, faultRule{Match: e.path(pat), Op: faults.OpWrite, After: 0, Errno: enospc})
	}
	for _, pat := range []string{"ro/*", "ro/*/*"} {
		rs = append(rs, faultRule{Match: e.path(pat), Op: faults.OpCreate, Errno: erofs})
	}
	return rs
}

// runScenario runs sc and returns its table row (without the number).
func runScenario(t *testing.T, sc scenario, real bool) string {
	e := &scenEnv{t: t, dir: t.TempDir(), real: real}
	for _, d := range []string{"room", "full", "ro"} {
		os.MkdirAll(e.path(d), 0o755)
	}
	if sc.setup != nil {
		sc.setup(e)
	}
	e.prepare(sc.left)
	before := map[string]fileState{}
	for _, o := range sc.outputs {
		before[o] = stateOf(e.path(o))
	}
	code, signaled, stdout, stderr, took := runChild(t, e, sc)
	if sc.cleanup != nil {
		sc.cleanup(e)
	}
	var changes []string
	same := true
	for _, o := range sc.outputs {
		a, b := before[o], stateOf(e.path(o))
		if a != b {
			same = false
			changes = append(changes, fmt.Sprintf("%s: %v → %v", o, a, b))
		} else {
			changes = append(changes, fmt.Sprintf("%s: %v → unchanged", o, a))
		}
	}
	if len(sc.outputs) == 0 {
		changes = append(changes, fmt.Sprintf("stdout: %d lines", strings.Count(stdout, "\n")))
	}
	var problems []string
	if code != sc.code {
		problems = append(problems, fmt.Sprintf("exit %d, want %d", code, sc.code))
	}
	if !strings.Contains(stderr, sc.msg) {
		problems = append(problems, fmt.Sprintf("stderr lacks %q", sc.msg))
	}
	if sc.same && !same {
		problems = append(problems, "outputs changed")
	}
	if sc.check != nil {
		if err := sc.check(e, stdout, stderr); err != nil {
			problems = append(problems, err.Error())
		}
	}
	if sc.maxTook > 0 && took > sc.maxTook {
		problems = append(problems, fmt.Sprintf("took %.1f s, want at most %v", took.Seconds(), sc.maxTook))
	}
	if sc.within > 0 && sc.sig != nil {
		last := sc.sig.after + time.Duration(len(sc.sig.sigs)-1)*300*time.Millisecond
		if took-last > sc.within {
			problems = append(problems, fmt.Sprintf("ended %.1f s after the signal, want at most %v", (took-last).Seconds(), sc.within))
		}
	}
	msg := lastLines(withoutProgress(strings.ReplaceAll(stderr, e.dir+"/", "")), 2)
	if e.note != "" { // first: a long message is cut in the table
		msg = "[" + strings.ReplaceAll(e.note, e.dir+"/", "") + "]\n" + msg
	}
	exit := fmt.Sprint(code)
	if signaled {
		exit = fmt.Sprintf("%d (killed by signal %d)", code, code-128)
	}
	if len(problems) > 0 {
		t.Errorf("%s: %s\nstdout: %s\nstderr: %s", sc.name, strings.Join(problems, "; "), lastLines(stdout, 5), stderr)
		exit += " **FAIL: " + strings.Join(problems, "; ") + "**"
	}
	t.Logf("%s: exit %d in %v", sc.name, code, took.Round(time.Millisecond))
	return fmt.Sprintf("%s | %s | %s | %s | %s", sc.name, sc.fault, cell(strings.Join(changes, "<br>")), exit,
		cell(fmt.Sprintf("%s (%.1f s)", msg, took.Seconds())))
}

// cell makes s fit a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\n", "<br>")
	if len(s) > 600 {
		s = s[:600] + "…"
	}
	return s
}

var blankRun = regexp.MustCompile(`\n+`)

// progressLine matches the progress lines a command writes on standard
// error when it is not a terminal ("rewire cora err: done, 52/52 …").
var progressLine = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9 .=-]*: (done, |stopped at |\d+ \w+ planned|\d+/\d+ |writing |generating |building |computing )|^[a-z].* …$`)

// withoutProgress drops the progress lines of s: the table shows messages.
func withoutProgress(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !progressLine.MatchString(l) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(blankRun.ReplaceAllString(s, "\n")), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// runChild runs sc's command in a child process and returns its exit
// status (128 + n when killed by signal n, and signaled), output and
// duration.
func runChild(t *testing.T, e *scenEnv, sc scenario) (code int, signaled bool, stdout_, stderr_ string, took time.Duration) {
	rules, _ := json.Marshal(e.rules())
	var cmd *exec.Cmd
	switch {
	case sc.cmd != nil:
		cmd = sc.cmd(e)
	case sc.sig != nil && sc.sig.ignored:
		cmd = exec.Command("sh", "-c", `trap '' INT; exec "$0" -test.run='^TestFaultChild$'`, os.Args[0])
	case sc.ulimitKB > 0:
		cmd = exec.Command("sh", "-c", fmt.Sprintf(`ulimit -v %d && exec "$0" -test.run='^TestFaultChild$'`, sc.ulimitKB), os.Args[0])
	default:
		cmd = exec.Command(os.Args[0], "-test.run=^TestFaultChild$")
	}
	cmd.Dir = e.dir
	if sc.cmd == nil {
		cmd.Env = append(append(os.Environ(), sc.env...), "OHM_FAULT_CHILD="+strings.Join(sc.args(e), "\t"), "OHM_FAULT_RULES="+string(rules))
	} else if cmd.Env == nil {
		cmd.Env = append(os.Environ(), sc.env...)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if sc.sig != nil {
		for deadline := time.Now().Add(2 * time.Minute); sc.sig.waitFor != "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if st, err := os.Stat(e.path(sc.sig.waitFor)); err == nil && st.Size() > 0 {
				break
			}
		}
		time.Sleep(sc.sig.after)
		for i, s := range sc.sig.sigs {
			if i > 0 {
				time.Sleep(300 * time.Millisecond)
			}
			cmd.Process.Signal(s)
		}
	}
	err := cmd.Wait()
	took = time.Since(t0)
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code, signaled = 128+int(ws.Signal()), true
		}
	} else if err != nil {
		t.Fatal(err)
	}
	return code, signaled, stdout.String(), stderr.String(), took
}

// rewireCora is the rewire of issue 38: Cora, err, 1 % (52 iterations).
func rewireCora(out, log string) func(e *scenEnv) []string {
	return func(e *scenEnv) []string {
		return []string{"rewire", "-d", "cora", "-m", "err", "-r", "0.01", "--out", e.path(out), "--log", e.path(log)}
	}
}

func contains(s, sub, what string) error {
	if !strings.Contains(s, sub) {
		return fmt.Errorf("%s lacks %q", what, sub)
	}
	return nil
}

// oldIn writes "old NAME" files.
func oldIn(names ...string) func(e *scenEnv) {
	return func(e *scenEnv) {
		for _, n := range names {
			e.write(n, "old "+n+"\n")
		}
	}
}

// smallGrid records a small sweep into rel.
func smallGrid(e *scenEnv, rel string, methods string) {
	code, _, errs := run(e.t, "--quiet", "sweep", "--results", e.path(rel), "--datasets", "bottleneck", "--methods", methods,
		"--budgets", "0.1", "--depths", "1,2", "--pairnorm", "no", "--epochs", "5")
	if code != 0 {
		e.t.Fatalf("sweep: %s", errs)
	}
}

func scenarios() []scenario {
	// 200 seeds: more than a quiet machine trains in the 3 s before the
	// signal; a loaded one may not finish any in that time, so both stops
	// are the interrupted run's (with 20, a quiet machine finished them all).
	train := func(e *scenEnv) []string { return []string{"train", "-d", "cora", "-m", "gcn", "--seeds", "200"} }
	trainInterrupted := func(e *scenEnv, stdout, stderr string) error {
		if strings.Contains(stderr, "interrupted before any of the 200 runs finished") {
			if stdout != "" {
				return fmt.Errorf("printed %q after no run finished", stdout)
			}
			return nil
		}
		m := regexp.MustCompile(`interrupted after (\d+) of 200 runs`).FindStringSubmatch(stderr)
		if m == nil {
			return errors.New("no 'interrupted after K of 200 runs' nor 'before any'")
		}
		return contains(stdout, "runs           "+m[1]+"\n", "the summary")
	}
	paper, _ := filepath.Abs(filepath.Join("..", "docs", "paper", "results.jsonl"))
	dupSetup := func(conflict bool) func(e *scenEnv) {
		return func(e *scenEnv) {
			smallGrid(e, "room/r.jsonl", "none")
			b, _ := os.ReadFile(e.path("room/r.jsonl"))
			first := strings.SplitAfter(string(b), "\n")[0]
			again := regexp.MustCompile(`"train_seconds":[0-9.e-]+`).ReplaceAllString(first, `"train_seconds":9.5`)
			if conflict {
				again = regexp.MustCompile(`"test_acc":[0-9.e-]+`).ReplaceAllString(first, `"test_acc":0.999`)
			}
			e.write("room/r.jsonl", string(b)+again)
		}
	}
	sweepSmall := func(rel, methods string) func(e *scenEnv) []string {
		return func(e *scenEnv) []string {
			return []string{"sweep", "--results", e.path(rel), "--datasets", "bottleneck", "--methods", methods,
				"--budgets", "0.1", "--depths", "1,2", "--pairnorm", "no", "--epochs", "5"}
		}
	}
	return []scenario{
		{name: "1 disk full while --log is written", fault: "ENOSPC: 4 KiB left", left: 4096,
			args: rewireCora("full/o.txt", "full/l.jsonl"), outputs: []string{"full/o.txt", "full/l.jsonl"},
			code: 1, msg: "nothing written", same: true,
			check: func(e *scenEnv, stdout, stderr string) error {
				if err := contains(stderr, "cut back to the", "the warning"); err != nil {
					return err
				}
				return journalKept("full/l.jsonl")(e, stdout, stderr) // issue 50: the journal stays
			}},
		{name: "2 --out on a full disk, old --log with room", fault: "ENOSPC on --out",
			setup: oldIn("full/o.txt", "room/l.jsonl"), args: rewireCora("full/o.txt", "room/l.jsonl"),
			outputs: []string{"full/o.txt", "room/l.jsonl"}, code: 1, msg: "nothing written", same: true,
			check: journalKept("room/l.jsonl")}, // issue 50: the journal stays
		{name: "3 train, SIGINT after 3 s", fault: "SIGINT", args: train, sig: &sigPlan{after: 3 * time.Second, sigs: []os.Signal{os.Interrupt}},
			code: 1, msg: "interrupted", check: trainInterrupted},
		{name: "3 train, SIGTERM after 3 s", fault: "SIGTERM", args: train, sig: &sigPlan{after: 3 * time.Second, sigs: []os.Signal{syscall.SIGTERM}},
			code: 1, msg: "interrupted", check: trainInterrupted},
		{name: "3 train, SIGINT inherited ignored", fault: "SIGINT (trap '' INT)", args: train,
			sig: &sigPlan{after: 3 * time.Second, sigs: []os.Signal{os.Interrupt}, ignored: true}, code: 1, msg: "interrupted after", check: trainInterrupted},
		// A Ctrl-C lets the iteration in flight finish (the exact engine on
		// Cora: seconds an iteration); the second quits at once. (A training
		// stops at once since issue 50: nothing of it is finished.)
		{name: "3 rewire, second SIGINT", fault: "SIGINT ×2", args: func(e *scenEnv) []string {
			return []string{"rewire", "-d", "cora", "-m", "err", "-r", "0.01", "--engine", "exact", "--log", e.path("room/l.jsonl")}
		}, sig: &sigPlan{after: 100 * time.Millisecond, sigs: []os.Signal{os.Interrupt, os.Interrupt}, waitFor: "room/l.jsonl.partial"}, code: 130, msg: "Ctrl-C again"},
		{name: "3 rewire, second SIGINT, ignored at start", fault: "SIGINT ×2 (trap '' INT)", args: func(e *scenEnv) []string {
			return []string{"rewire", "-d", "cora", "-m", "err", "-r", "0.01", "--engine", "exact", "--log", e.path("room/l.jsonl")}
		}, sig: &sigPlan{after: 100 * time.Millisecond, sigs: []os.Signal{os.Interrupt, os.Interrupt}, ignored: true, waitFor: "room/l.jsonl.partial"}, code: 130, msg: "Ctrl-C again"},
		{name: "3 stats, SIGINT", fault: "SIGINT", setup: oldIn("room/m.md"), args: func(e *scenEnv) []string {
			return []string{"stats", "--datasets", "cora,citeseer", "--methods", "err,res", "--budgets", "0.05,0.1", "--markdown", e.path("room/m.md")}
		}, sig: &sigPlan{after: 4 * time.Second, sigs: []os.Signal{os.Interrupt}}, outputs: []string{"room/m.md"}, code: 1, msg: "table holds what was made",
			check: func(e *scenEnv, stdout, _ string) error { return contains(stdout, "interrupted after", "the table") }},
		{name: "3 diagnose, SIGINT", fault: "SIGINT", setup: oldIn("room/" + diagnosticsFile), args: func(e *scenEnv) []string {
			return []string{"diagnose", "--datasets", "cora", "--methods", "none,err", "--budget", "0.1", "--depths", "1,2,3", "--seeds", "3", "--out", e.path("room")}
		}, sig: &sigPlan{after: 4 * time.Second, sigs: []os.Signal{os.Interrupt}}, outputs: []string{"room/" + diagnosticsFile}, code: 1, msg: "nothing written", same: true},
		{name: "3 report, SIGINT", fault: "SIGINT", setup: func(e *scenEnv) { e.write("room/rep/report.md", "old report\n") },
			args: func(e *scenEnv) []string { return []string{"report", paper, "--out", e.path("room/rep")} },
			sig:  &sigPlan{after: 2 * time.Second, sigs: []os.Signal{os.Interrupt}}, outputs: []string{"room/rep"}, code: 1, msg: "nothing written", same: true},
		{name: "3 data synth, SIGINT", fault: "SIGINT", setup: oldIn("room/s.npz"), args: func(e *scenEnv) []string {
			return []string{"data", "synth", "--model", "sbm", "--nodes", "2000000", "--out", e.path("room/s.npz")}
		}, sig: &sigPlan{after: time.Second, sigs: []os.Signal{os.Interrupt}}, outputs: []string{"room/s.npz"}, code: 1, msg: "nothing written", same: true},
		{name: "3 resistance, SIGINT", fault: "SIGINT", setup: func(e *scenEnv) {
			// 4000 nodes: L⁺ takes many seconds.
			if code, _, errs := run(e.t, "--quiet", "data", "synth", "--model", "sbm", "--nodes", "4000", "--avg-degree", "6", "--out", e.path("room/g.npz")); code != 0 {
				e.t.Fatal(errs)
			}
		}, args: func(e *scenEnv) []string {
			return []string{"resistance", "--graph", e.path("room/g.npz"), "--top", "5"}
		},
			sig: &sigPlan{after: 1500 * time.Millisecond, sigs: []os.Signal{os.Interrupt}}, code: 1, msg: "nothing printed",
			check: func(_ *scenEnv, stdout, _ string) error {
				if stdout != "" {
					return errors.New("printed")
				}
				return nil
			}},
		{name: "4 report, conflicting duplicates", fault: "two results of one run", setup: dupSetup(true),
			args: func(e *scenEnv) []string {
				return []string{"report", e.path("room/r.jsonl"), "--out", e.path("room/rep")}
			},
			outputs: []string{"room/rep"}, code: 1, msg: "lines 1 and 3: two different results", same: true},
		{name: "4 sweep, conflicting duplicates", fault: "two results of one run", setup: dupSetup(true), args: sweepSmall("room/r.jsonl", "none"),
			outputs: []string{"room/r.jsonl"}, code: 1, msg: "lines 1 and 3: two different results", same: true},
		{name: "4 report, identical duplicates", fault: "one run twice (times differ)", setup: dupSetup(false),
			args: func(e *scenEnv) []string {
				return []string{"report", e.path("room/r.jsonl"), "--out", e.path("room/rep")}
			},
			outputs: []string{"room/rep"}, code: 0, msg: "",
			check: func(e *scenEnv, stdout, _ string) error {
				md, _ := os.ReadFile(e.path("room/rep/report.md"))
				if err := contains(stdout, "(2 runs,", "the command's count"); err != nil {
					return err
				}
				return contains(string(md), "2 runs from", "report.md's count")
			}},
		{name: "4 sweep, identical duplicates", fault: "one run twice (times differ)", setup: dupSetup(false), args: sweepSmall("room/r.jsonl", "none"),
			outputs: []string{"room/r.jsonl"}, code: 0, msg: "", same: true,
			check: func(_ *scenEnv, stdout, _ string) error {
				return contains(stdout, "2 runs in the grid, 2 already there, 0 run now", "the summary")
			}},
		{name: "5 report, a newer code version", fault: "version rewire-9", setup: func(e *scenEnv) {
			smallGrid(e, "room/r.jsonl", "none,err")
			b, _ := os.ReadFile(e.path("room/r.jsonl"))
			e.write("room/r.jsonl", regexp.MustCompile(`("method":"err".*)"version":"[^"]*"`).ReplaceAllString(string(b), `$1"version":"rewire-9"`))
		}, args: func(e *scenEnv) []string {
			return []string{"report", e.path("room/r.jsonl"), "--out", e.path("room/rep")}
		},
			code: 0, msg: "of newer rewiring code: err (undirected) rewire-9"},
		{name: "5 sweep, a newer code version", fault: "version rewire-9", setup: func(e *scenEnv) {
			smallGrid(e, "room/r.jsonl", "err")
			b, _ := os.ReadFile(e.path("room/r.jsonl"))
			e.write("room/r.jsonl", regexp.MustCompile(`"version":"[^"]*"`).ReplaceAllString(string(b), `"version":"rewire-9"`))
		}, args: sweepSmall("room/r.jsonl", "err"), code: 0, msg: "runs of newer rewiring code (err (undirected) rewire-9"},
		{name: "5 memory sizes", fault: "OHM_MEMORY=8G, 60 000 nodes", setup: func(e *scenEnv) {
			if code, _, errs := run(e.t, "--quiet", "data", "synth", "--model", "sbm", "--nodes", "60000", "--avg-degree", "4", "--out", e.path("room/big.npz")); code != 0 {
				e.t.Fatal(errs)
			}
		}, env: []string{"OHM_MEMORY=8G"}, args: func(e *scenEnv) []string {
			return []string{"rewire", "--graph", e.path("room/big.npz"), "-m", "err", "-r", "0.00001", "--engine", "incremental"}
		}, code: 1, msg: "needs 93.9 GiB of memory, only ",
			check: func(e *scenEnv, _, _ string) error {
				// engine auto says which engine it takes, then runs it:
				// the line is read, the run killed.
				cmd := exec.Command(os.Args[0], "-test.run=^TestFaultChild$")
				cmd.Env = append(os.Environ(), "OHM_MEMORY=8G", "OHM_FAULT_CHILD="+strings.Join([]string{"rewire", "--graph", e.path("room/big.npz"),
					"-m", "err", "-r", "0.00001", "--engine", "auto"}, "\t"))
				pipe, _ := cmd.StderrPipe()
				if err := cmd.Start(); err != nil {
					return err
				}
				defer cmd.Wait()
				defer cmd.Process.Kill()
				sc := bufio.NewScanner(pipe)
				for sc.Scan() {
					if strings.HasPrefix(sc.Text(), "engine auto") {
						return contains(sc.Text(), "engine auto: sketch (the dense state would need 93.9 GiB", "the engine auto message")
					}
				}
				return errors.New("no engine auto message")
			}},
		{name: "5 edge list with +1", fault: "'0 +1'", setup: func(e *scenEnv) { e.write("room/plus.txt", "0 +1\n1 2\n") },
			args: func(e *scenEnv) []string { return []string{"resistance", "--graph", e.path("room/plus.txt")} },
			code: 1, msg: `plus.txt:1: "+1" is not an integer node id`},
		{name: "6 --out in a read-only folder", fault: "EROFS", args: rewireCora("ro/o.txt", "room/l.jsonl"),
			outputs: []string{"room/l.jsonl", "room/l.jsonl.partial"}, code: 1, msg: "read-only file system", same: true},
		{name: "6 --out under a regular file", fault: "ENOTDIR", setup: oldIn("room/file"), args: rewireCora("room/file/o.txt", "room/l.jsonl"),
			outputs: []string{"room/l.jsonl", "room/l.jsonl.partial"}, code: 1, msg: "is not a directory", same: true},
		{name: "7 sweep --results on a full disk", fault: "ENOSPC", setup: func(e *scenEnv) { smallGrid(e, "full/r.jsonl", "none") },
			args: sweepSmall("full/r.jsonl", "none,err"), outputs: []string{"full/r.jsonl"}, code: 1, msg: "no space left on device",
			check: func(e *scenEnv, _, _ string) error {
				b, _ := os.ReadFile(e.path("full/r.jsonl"))
				if len(b) == 0 || b[len(b)-1] != '\n' {
					return errors.New("the results file does not end on a whole record")
				}
				return nil
			}},
		{name: "7 report --out on a full disk", fault: "ENOSPC", setup: func(e *scenEnv) {
			smallGrid(e, "room/r.jsonl", "none,err")
			if code, _, errs := run(e.t, "report", e.path("room/r.jsonl"), "--out", e.path("full/rep")); code != 0 {
				e.t.Fatal(errs)
			}
			smallGrid(e, "room/r.jsonl", "none,err,res")
		}, args: func(e *scenEnv) []string {
			return []string{"report", e.path("room/r.jsonl"), "--out", e.path("full/rep")}
		},
			outputs: []string{"full/rep"}, code: 1, msg: "nothing written", same: true},
		{name: "7 diagnose --out on a full disk", fault: "ENOSPC", setup: oldIn("full/" + diagnosticsFile), args: func(e *scenEnv) []string {
			return []string{"diagnose", "--datasets", "bottleneck", "--methods", "none,err", "--budget", "0.1", "--depths", "1,2", "--seeds", "1", "--out", e.path("full")}
		}, outputs: []string{"full/" + diagnosticsFile}, code: 1, msg: "no space left on device", same: true},
		{name: "7 stats --markdown on a full disk", fault: "ENOSPC", setup: oldIn("full/m.md"), args: func(e *scenEnv) []string {
			return []string{"stats", "--datasets", "cornell,texas", "--methods", "err", "--budgets", "0.1", "--markdown", e.path("full/m.md")}
		}, outputs: []string{"full/m.md"}, code: 1, msg: "no space left on device", same: true},
		{name: "7 curvature --out on a full disk", fault: "ENOSPC", setup: oldIn("full/c.csv"), args: func(e *scenEnv) []string {
			return []string{"curvature", "-d", "cora", "--out", e.path("full/c.csv")}
		}, outputs: []string{"full/c.csv"}, code: 1, msg: "no space left on device", same: true},
		{name: "7 data synth --out on a full disk", fault: "ENOSPC", setup: oldIn("full/s.npz"), args: func(e *scenEnv) []string {
			return []string{"data", "synth", "--model", "sbm", "--nodes", "20000", "--out", e.path("full/s.npz")}
		}, outputs: []string{"full/s.npz"}, code: 1, msg: "no space left on device", same: true},
		{name: "7 data export --out on a full disk", fault: "ENOSPC", setup: oldIn("full/e.npz"), args: func(e *scenEnv) []string {
			return []string{"data", "export", "-d", "citeseer", "--out", e.path("full/e.npz")}
		}, outputs: []string{"full/e.npz"}, code: 1, msg: "no space left on device", same: true},
		{name: "7 --cpuprofile on a full disk", fault: "ENOSPC", setup: oldIn("full/cpu.prof"), args: func(e *scenEnv) []string {
			return []string{"--cpuprofile", e.path("full/cpu.prof"), "train", "-d", "cora", "-m", "gcn", "--seeds", "2"}
		}, outputs: []string{"full/cpu.prof"}, code: 1, msg: "no space left on device", same: true},
	}
}
