package cli

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/internal/faults"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
	"github.com/ohmgnn/ohm/rewire"
)

// snapshot is every file under a folder with its content, temporary files
// and folders included: what a failed command must leave as it was.
type snapshot map[string]string

func snap(t *testing.T, dir string) snapshot {
	t.Helper()
	s := snapshot{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			s[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		s[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// diff says how after differs from s ("" when equal).
func (s snapshot) diff(after snapshot) string {
	var d []string
	for k, v := range s {
		if w, ok := after[k]; !ok {
			d = append(d, "removed "+k)
		} else if w != v {
			d = append(d, "changed "+k)
		}
	}
	for k := range after {
		if _, ok := s[k]; !ok {
			d = append(d, "new "+k)
		}
	}
	slices.Sort(d)
	return strings.Join(d, ", ")
}

// faultCase is one output of one command under one fault. In dir, setup
// (if any) makes the command's inputs and earlier outputs; the command
// then runs with args, the faults armed (their Match paths taken relative
// to dir), and must fail with status 1, a message holding want, and dir
// exactly as before.
type faultCase struct {
	name  string
	setup func(t *testing.T, dir string)
	args  func(dir string) []string
	rules []faults.Rule
	want  string
	// grows names a results file that may gain whole records (runs
	// finished before the fault are recorded, as they should be), and its
	// cache whole graphs (.npz with its .json).
	grows string
}

// arm arms c's rules in dir.
func (c *faultCase) arm(dir string) func() {
	rs := slices.Clone(c.rules)
	for i := range rs {
		rs[i].Match = filepath.Join(dir, filepath.FromSlash(rs[i].Match))
	}
	return faults.Arm(rs...)
}

// create reports whether c's faults strike at creation (found before any
// work).
func (c *faultCase) create() bool { return c.rules[0].Op == faults.OpCreate }

// oldFiles returns a setup writing "old NAME\n" into each named file.
func oldFiles(names ...string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		for _, n := range names {
			p := filepath.Join(dir, n)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte("old "+n+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// ohm runs the CLI in dir's terms and fails the test unless it succeeds.
func ohm(t *testing.T, args ...string) {
	t.Helper()
	if code, _, errs := run(t, args...); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
}

// recordTiny records a small grid on the built-in bottleneck dataset into
// DIR/r.jsonl (methods none and err: the cache holds a graph).
func recordTiny(t *testing.T, dir string) {
	ohm(t, "--quiet", "sweep", "--results", filepath.Join(dir, "r.jsonl"), "--datasets", "bottleneck",
		"--methods", "none,err", "--budgets", "0.1", "--depths", "1", "--pairnorm", "no", "--epochs", "3")
}

var sweepMore = []string{"--quiet", "sweep", "--datasets", "bottleneck", "--methods", "none,err,res", "--budgets", "0.1",
	"--depths", "1,2", "--pairnorm", "no", "--epochs", "3"}

func rewireArgs(out, log string) func(string) []string {
	return func(dir string) []string {
		return []string{"--quiet", "rewire", "-d", "bottleneck", "-m", "err", "-r", "0.2",
			"--out", filepath.Join(dir, out), "--log", filepath.Join(dir, log)}
	}
}

// faultCases: every output kind of every command, under a full disk
// (ENOSPC after some bytes), a failing device (EIO) and a folder that
// refuses new files (EACCES at creation, found before any work).
func faultCases() []faultCase {
	enospc := func(after int64, match ...string) []faults.Rule {
		var rs []faults.Rule
		for _, m := range match {
			rs = append(rs, faults.Rule{Match: m, Op: faults.OpWrite, After: after, Err: syscall.ENOSPC})
		}
		return rs
	}
	eio := func(match string, after int64) []faults.Rule {
		return []faults.Rule{{Match: match, Op: faults.OpWrite, After: after, Err: syscall.EIO}}
	}
	eacces := func(match string) []faults.Rule {
		return []faults.Rule{{Match: match, Op: faults.OpCreate, Err: syscall.EACCES}}
	}
	const noSpace, ioErr, denied = "no space left on device", "input/output error", "permission denied"
	report := func(dir string) []string {
		return []string{"report", filepath.Join(dir, "r.jsonl"), "--out", filepath.Join(dir, "rep")}
	}
	reportSetup := func(t *testing.T, dir string) {
		recordTiny(t, dir)
		ohm(t, append(slices.Clone(sweepMore), "--results", filepath.Join(dir, "r.jsonl"))...)
		ohm(t, "report", filepath.Join(dir, "r.jsonl"), "--out", filepath.Join(dir, "rep"))
		// The report of fewer runs stays: rewrite it from the first grid.
		recs := filepath.Join(dir, "r.jsonl")
		b, _ := os.ReadFile(recs)
		lines := bytes.SplitAfter(b, []byte("\n"))
		os.WriteFile(filepath.Join(dir, "few.jsonl"), bytes.Join(lines[:2], nil), 0o644)
		ohm(t, "report", filepath.Join(dir, "few.jsonl"), "--out", filepath.Join(dir, "rep"))
	}
	diagnose := func(dir string) []string {
		return []string{"--quiet", "diagnose", "--datasets", "bottleneck", "--methods", "none,err", "--budget", "0.1",
			"--depths", "1", "--seeds", "1", "--out", dir}
	}
	stats := func(dir string) []string {
		return []string{"--quiet", "stats", "--datasets", "bottleneck", "--methods", "err", "--budgets", "0.1",
			"--markdown", filepath.Join(dir, "m.md")}
	}
	return []faultCase{
		{"rewire --out full", oldFiles("o.txt", "l.jsonl"), rewireArgs("o.txt", "l.jsonl"), enospc(100, "o.txt"), noSpace, ""},
		{"rewire --out .npz EIO", oldFiles("o.npz", "l.jsonl"), rewireArgs("o.npz", "l.jsonl"), eio("o.npz", 100), ioErr, ""},
		{"rewire --log full", oldFiles("o.txt", "l.jsonl"), rewireArgs("o.txt", "l.jsonl"), enospc(100, "l.jsonl"), noSpace, ""},
		{"rewire --log and journal full", oldFiles("o.txt", "l.jsonl"), rewireArgs("o.txt", "l.jsonl"), enospc(300, "l.jsonl", "l.jsonl.partial"), noSpace, ""},
		{"rewire --out denied", oldFiles("o.txt", "l.jsonl"), rewireArgs("o.txt", "l.jsonl"), eacces("o.txt"), denied, ""},
		{"rewire --log denied", oldFiles("o.txt"), rewireArgs("o.txt", "l.jsonl"), eacces("l.jsonl"), denied, ""},
		{"sweep --results full", recordTiny, func(dir string) []string {
			return append(slices.Clone(sweepMore), "--results", filepath.Join(dir, "r.jsonl"))
		}, enospc(10, "r.jsonl"), noSpace, "r.jsonl"},
		{"sweep cache full", recordTiny, func(dir string) []string {
			return append(slices.Clone(sweepMore), "--results", filepath.Join(dir, "r.jsonl"))
		}, enospc(50, "r.jsonl.cache/*.npz"), noSpace, "r.jsonl"},
		{"sweep --results denied", recordTiny, func(dir string) []string {
			return append(slices.Clone(sweepMore), "--results", filepath.Join(dir, "r.jsonl"))
		}, eacces("r.jsonl"), denied, ""},
		{"report figure full", reportSetup, report, enospc(200, "rep/figures/acc_bottleneck_undirected_gcn_b0p1_pnno.svg"), noSpace, ""},
		{"report.md EIO", reportSetup, report, eio("rep/report.md", 50), ioErr, ""},
		{"report --out denied", reportSetup, report, eacces("rep/report.md"), denied, ""},
		{"diagnose full", oldFiles(diagnosticsFile), diagnose, enospc(100, diagnosticsFile), noSpace, ""},
		{"diagnose denied", oldFiles(diagnosticsFile), diagnose, eacces(diagnosticsFile), denied, ""},
		{"stats --markdown full", oldFiles("m.md"), stats, enospc(10, "m.md"), noSpace, ""},
		{"stats --markdown denied", oldFiles("m.md"), stats, eacces("m.md"), denied, ""},
		{"curvature --out EIO", oldFiles("c.csv"), func(dir string) []string {
			return []string{"--quiet", "curvature", "-d", "bottleneck", "--out", filepath.Join(dir, "c.csv")}
		}, eio("c.csv", 100), ioErr, ""},
		{"data synth --out full", oldFiles("s.npz"), func(dir string) []string {
			return []string{"--quiet", "data", "synth", "--model", "ring", "--out", filepath.Join(dir, "s.npz")}
		}, enospc(100, "s.npz"), noSpace, ""},
		{"data export --out full", oldFiles("e.txt"), func(dir string) []string {
			return []string{"--quiet", "data", "export", "-d", "bottleneck", "--out", filepath.Join(dir, "e.txt")}
		}, enospc(100, "e.txt"), noSpace, ""},
		{"data export --out denied", oldFiles("e.txt"), func(dir string) []string {
			return []string{"--quiet", "data", "export", "-d", "bottleneck", "--out", filepath.Join(dir, "e.txt")}
		}, eacces("e.txt"), denied, ""},
		{"--cpuprofile full", oldFiles("cpu.prof"), func(dir string) []string {
			return []string{"--cpuprofile", filepath.Join(dir, "cpu.prof"), "data", "info", "-d", "bottleneck"}
		}, enospc(10, "cpu.prof"), noSpace, ""},
		{"--memprofile EIO", oldFiles("mem.prof"), func(dir string) []string {
			return []string{"--memprofile", filepath.Join(dir, "mem.prof"), "data", "info", "-d", "bottleneck"}
		}, eio("mem.prof", 10), ioErr, ""},
		{"--cpuprofile denied", oldFiles("cpu.prof"), func(dir string) []string {
			return []string{"--cpuprofile", filepath.Join(dir, "cpu.prof"), "data", "info", "-d", "bottleneck"}
		}, eacces("cpu.prof"), denied, ""},
	}
}

// TestOutputFaults: under every fault of faultCases the command fails with
// status 1 and a message naming the fault, and every file it would have
// written is as it was before (no temporary file left, no journal).
func TestOutputFaults(t *testing.T) {
	for _, c := range faultCases() {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.setup != nil {
				c.setup(t, dir)
			}
			before := snap(t, dir)
			disarm := c.arm(dir)
			t0 := time.Now()
			code, _, errs := run(t, c.args(dir)...)
			took := time.Since(t0)
			disarm()
			if code != 1 || !strings.Contains(errs, c.want) {
				t.Fatalf("exit %d, want 1 with %q:\n%s", code, c.want, errs)
			}
			after := snap(t, dir)
			if c.grows != "" {
				old, now := before[c.grows], after[c.grows]
				if !strings.HasPrefix(now, old) || !strings.HasSuffix(now, "\n") {
					t.Fatalf("%s: not the old content and whole records", c.grows)
				}
				readLines(t, filepath.Join(dir, c.grows)) // every line a record
				after[c.grows] = old
				cache := c.grows + ".cache" + string(filepath.Separator)
				var cached []string
				for k := range after {
					if _, had := before[k]; !had && strings.HasPrefix(k, cache) {
						cached = append(cached, k)
					}
				}
				for _, k := range cached {
					other := strings.TrimSuffix(k, ".npz") + ".json"
					if strings.HasSuffix(k, ".json") {
						other = strings.TrimSuffix(k, ".json") + ".npz"
					}
					if _, ok := after[other]; !ok {
						t.Fatalf("cache: %s without %s", k, other)
					}
				}
				for _, k := range cached {
					delete(after, k) // whole graphs, cached
				}
			}
			// A run whose outputs could not be written keeps its journal
			// (whole iterations, the message saying so): never the casualty.
			for k := range after {
				if _, had := before[k]; !had && strings.HasSuffix(k, ".partial") {
					p := filepath.Join(dir, k)
					if !strings.Contains(errs, "the journal "+p+" keeps") || len(readLog(t, p)) == 0 {
						t.Fatalf("journal %s kept without a word, or empty:\n%s", k, errs)
					}
					delete(after, k)
				}
			}
			if d := before.diff(after); d != "" {
				t.Fatalf("the failed run changed its folder: %s\n%s", d, errs)
			}
			if c.create() && took > time.Second {
				t.Errorf("an output that cannot be created failed after %v, not before the work", took)
			}
			t.Logf("%s", strings.TrimSpace(errs))
		})
	}
}

// TestRewireRenameFails: a rename failing (an I/O error: a rename writes
// no data, so a full disk cannot make it fail) after --log was put in
// place puts --log back: all or none. The journal stays, saying so.
func TestRewireRenameFails(t *testing.T) {
	dir := t.TempDir()
	oldFiles("o.txt", "l.jsonl")(t, dir)
	disarm := faults.Arm(faults.Rule{Match: filepath.Join(dir, "o.txt"), Op: faults.OpRename, Err: syscall.EIO})
	code, _, errs := run(t, rewireArgs("o.txt", "l.jsonl")(dir)...)
	disarm()
	if code != 1 || !strings.Contains(errs, "nothing put in place: the files replaced before it are back as they were") ||
		!strings.Contains(errs, "keeps all 146 edits of the run") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, f := range []string{"o.txt", "l.jsonl"} {
		if b, _ := os.ReadFile(filepath.Join(dir, f)); string(b) != "old "+f+"\n" {
			t.Errorf("%s changed: %q", f, b)
		}
	}
	if names := listNames(t, dir); !slices.Equal(names, []string{"l.jsonl", "l.jsonl.partial", "o.txt"}) {
		t.Errorf("files left: %v", names)
	}
}

func listNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestJournalShortWrite: a journal write that stops short (a full disk
// after N bytes) is cut back at once: the journal ends on the last whole
// iteration, its edits those of a run stopped there, and it stops; the
// run goes on and writes the whole --log.
func TestJournalShortWrite(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "l.jsonl")
	edits := func(it int) []rewire.Edit {
		return []rewire.Edit{{Iteration: it, Op: "add", U: it, V: it + 10, Score: 1.5}, {Iteration: it, Op: "remove", U: it, V: it + 1, Score: 0.25}}
	}
	var whole bytes.Buffer
	encodeEditLog(&whole, append(edits(1), edits(2)...))
	// The third iteration's write fails in its middle.
	disarm := faults.Arm(faults.Rule{Match: logPath + ".partial", Op: faults.OpWrite, After: int64(whole.Len()) + 30, Err: syscall.ENOSPC})
	var warn bytes.Buffer
	jr, err := openJournal(logPath, &warn)
	if err != nil {
		t.Fatal(err)
	}
	for it := 1; it <= 5; it++ {
		jr.record(edits(it))
	}
	disarm()
	b, _ := os.ReadFile(jr.path)
	if string(b) != whole.String() {
		t.Fatalf("journal after the short write:\n%s\nwant the two whole iterations:\n%s", b, whole.String())
	}
	if !strings.Contains(warn.String(), "cut back to the 4 edits of iterations 1–2") {
		t.Errorf("warning: %s", warn.String())
	}
	if !jr.close(false) {
		t.Error("the journal of two iterations is not kept")
	}

	// In a run: the journal fails, the run goes on, --log is whole.
	os.Remove(jr.path)
	ref := filepath.Join(dir, "ref.jsonl")
	ohm(t, "--quiet", "rewire", "-d", "bottleneck", "-m", "err", "-r", "0.2", "--log", ref)
	disarm = faults.Arm(faults.Rule{Match: logPath + ".partial", Op: faults.OpWrite, After: 200, Err: syscall.ENOSPC})
	code, _, errs := run(t, "--quiet", "rewire", "-d", "bottleneck", "-m", "err", "-r", "0.2", "--log", logPath)
	disarm()
	if code != 0 || !strings.Contains(errs, "cut back to") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if got, want := readLog(t, logPath), readLog(t, ref); !slices.Equal(got, want) {
		t.Fatalf("--log after a journal fault: %d edits, want %d", len(got), len(want))
	}
	if _, err := os.Stat(logPath + ".partial"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("journal left: %v", err)
	}
}

// TestUnwritableOutFast: on Cora, an --out that cannot be written (its
// parent a regular file, or a folder that refuses new files) fails before
// the graph is loaded — in well under a second — and leaves no --log.
func TestUnwritableOutFast(t *testing.T) {
	datatest.Root(t, "Cora/raw/ind.cora.x")
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	logPath := filepath.Join(dir, "l.jsonl")
	for _, c := range []struct {
		out  string
		rule *faults.Rule
		want string
	}{
		{filepath.Join(file, "o.txt"), nil, "is not a directory"},
		{filepath.Join(dir, "ro", "o.txt"), &faults.Rule{Match: filepath.Join(dir, "ro", "o.txt"), Op: faults.OpCreate, Err: syscall.EROFS}, "read-only file system"},
	} {
		os.MkdirAll(filepath.Join(dir, "ro"), 0o755)
		disarm := func() {}
		if c.rule != nil {
			disarm = faults.Arm(*c.rule)
		}
		t0 := time.Now()
		code, _, errs := run(t, "rewire", "-d", "cora", "-m", "err", "-r", "0.01", "--out", c.out, "--log", logPath)
		took := time.Since(t0)
		disarm()
		if code != 1 || !strings.Contains(errs, c.want) || took > 500*time.Millisecond {
			t.Errorf("--out %s: exit %d after %v: %s", c.out, code, took, errs)
		}
		for _, p := range []string{logPath, logPath + ".partial"} {
			if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("--out %s: %s exists", c.out, p)
			}
		}
		t.Logf("failed after %v: %s", took, strings.TrimSpace(errs))
	}
}
