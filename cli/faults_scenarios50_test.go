package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
)

// The scenarios of issue 50, numbered by its items: 1 memory, 2 the
// journal, 3 two writers, 4 stopping, 5 Python, 6 records, 7 data.

// bigGraph writes an .npz declaring n nodes and two edges.
func bigGraph(e *scenEnv, rel string, n int) {
	if err := graphio.WriteNPZ(e.path(rel), n, []linalg.Edge{{U: 0, V: 1}, {U: 1, V: 2}}, nil); err != nil {
		e.t.Fatal(err)
	}
}

// pyCmd runs a Python script with the package of python/ and the built
// bin/ohm, its temporary folders under tmp/ of the scenario.
func pyCmd(script string) func(e *scenEnv) *exec.Cmd {
	return func(e *scenEnv) *exec.Cmd {
		py, _ := filepath.Abs(filepath.Join("..", "python"))
		bin, _ := filepath.Abs(filepath.Join("..", "bin", "ohm"))
		if _, err := os.Stat(bin); err != nil {
			e.t.Fatalf("%s missing: make faults builds it", bin)
		}
		os.MkdirAll(e.path("tmp"), 0o755)
		cmd := exec.Command("/usr/bin/python3", "-c", "import sys\nsys.path.insert(0, "+fmt.Sprintf("%q", py)+")\n"+script)
		cmd.Env = append(os.Environ(), "TMPDIR="+e.path("tmp"), "OHM_BIN="+bin)
		return cmd
	}
}

// pyRefused is a script that calls f and prints the ValueError it raises
// (exit status 1), or exits 0.
func pyRefused(call string) func(e *scenEnv) *exec.Cmd {
	return pyCmd(`import numpy as np, ohm
ei = np.array([[0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6]])
n = 7
try:
    ` + call + `
except ValueError as e:
    print("ValueError:", e, file=sys.stderr)
    sys.exit(1)
`)
}

// ohmChildren are the live ohm processes whose command line holds marker.
func ohmChildren(marker string) []string {
	var pids []string
	ds, _ := os.ReadDir("/proc")
	for _, d := range ds {
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(b), marker) || !strings.Contains(string(b), "rewire") {
			continue
		}
		if st, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat")); err == nil && strings.Contains(string(st), ") Z ") {
			continue
		}
		pids = append(pids, d.Name())
	}
	return pids
}

// changeLabels moves 300 labels of Cora's ind.cora.ty (one-hot rows) to the
// next class in a copy of Cora under room/data, keeping the file's size.
func changeLabels(e *scenEnv) {
	src := filepath.Join(os.Getenv("OHM_DATA"), "Cora", "raw")
	dst := e.path("room/data/Cora/raw")
	os.MkdirAll(dst, 0o755)
	es, _ := os.ReadDir(src)
	for _, f := range es {
		b, err := os.ReadFile(filepath.Join(src, f.Name()))
		if err != nil {
			e.t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dst, f.Name()), b, 0o644)
	}
	script := `import pickle, sys, numpy as np
p = sys.argv[1]
raw = open(p, "rb").read()
a = pickle.loads(raw, encoding="latin1")
b = a.copy()
b[:300] = np.roll(a[:300], 1, axis=1)
old, new = a.tobytes(), b.tobytes()
assert raw.count(old) == 1
open(p, "wb").write(raw.replace(old, new))
`
	if out, err := exec.Command("/usr/bin/python3", "-c", script, filepath.Join(dst, "ind.cora.ty")).CombinedOutput(); err != nil {
		e.t.Fatalf("changing labels: %v %s", err, out)
	}
}

// startWriter starts `ohm rewire` on the built-in sbm with the exact
// engine (minutes) and --log rel, and waits for its journal's first
// lines; cleanup interrupts it.
func startWriter(e *scenEnv, rel string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestFaultChild$")
	cmd.Env = append(os.Environ(), "OHM_FAULT_CHILD="+strings.Join([]string{"--quiet", "rewire", "--dataset", "sbm", "--method", "err",
		"--budget", "1", "--engine", "exact", "--log", e.path(rel)}, "\t"))
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if st, err := os.Stat(e.path(rel) + ".partial"); err == nil && st.Size() > 0 {
			return cmd
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			e.t.Fatal("the first writer made no journal in a minute")
		}
	}
}

// journalKept checks that rel.partial holds whole edit-log lines and that
// the message says it is kept.
func journalKept(rel string) func(e *scenEnv, _, stderr string) error {
	return func(e *scenEnv, _, stderr string) error {
		b, err := os.ReadFile(e.path(rel + ".partial"))
		if err != nil {
			return fmt.Errorf("the journal is gone: %v", err)
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		for _, l := range lines {
			var m map[string]any
			if json.Unmarshal([]byte(l), &m) != nil {
				return fmt.Errorf("the journal holds a torn line %q", l)
			}
		}
		e.note = fmt.Sprintf("journal kept: %d edits", len(lines))
		return contains(stderr, "the journal "+e.path(rel+".partial")+" keeps", "the message")
	}
}

// ulimitTries runs `ohm rewire -d cora -m err -r 0.01` under 22 address-
// space limits from 0.9 to 1.9 GiB: none may die of Go's out-of-memory
// error in ohm's allocations (a limit too small for Go's runtime to start,
// or to create a thread — a cgo thread reserves an 8 MiB stack — kills it
// outside ohm's code, and is counted apart).
func ulimitTries(e *scenEnv, _, _ string) error {
	refused, ran, start := 0, 0, 0
	var bad []string
	for i := range 22 {
		kb := 943718 + int64(i)*(1992294-943718)/21
		cmd := exec.Command("sh", "-c", fmt.Sprintf(`ulimit -v %d && exec "$0" -test.run='^TestFaultChild$'`, kb), os.Args[0])
		cmd.Env = append(os.Environ(), "OHM_FAULT_CHILD="+strings.Join([]string{"--quiet", "rewire", "-d", "cora", "-m", "err", "-r", "0.01"}, "\t"))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		switch {
		case err == nil:
			ran++
		case errors.As(err, &exit) && exit.ExitCode() == 1 && strings.Contains(stderr.String(), "needs"):
			refused++
		case strings.Contains(stderr.String(), "runtime/cgo: pthread_create failed") ||
			errors.As(err, &exit) && exit.ExitCode() == 2 && !strings.Contains(stderr.String(), "github.com/ohmgnn/ohm/cli.Run("):
			start++ // Go's runtime cannot start (before ohm's code runs), or create a thread, in what its own reservations leave
		default:
			bad = append(bad, fmt.Sprintf("%d KiB: %v %.200s", kb, err, stderr.String()))
		}
	}
	e.note = fmt.Sprintf("22 limits: %d refused (exit 1), %d ran, %d where Go's runtime could not start before ohm's code, or make a thread (exit 2), %d died in ohm's code", refused, ran, start, len(bad))
	if len(bad) > 0 {
		return fmt.Errorf("died: %s", strings.Join(bad, "; "))
	}
	return nil
}

func scenarios50() []scenario {
	train := func(extra ...string) func(e *scenEnv) []string {
		return func(e *scenEnv) []string {
			return append([]string{"train", "-d", "cora", "-m", "gcn", "--epochs", "1"}, extra...)
		}
	}
	rewireBig := func(method string) func(e *scenEnv) []string {
		return func(e *scenEnv) []string {
			return []string{"rewire", "--graph", e.path("room/big.npz"), "-m", method, "-r", "1"}
		}
	}
	big := func(e *scenEnv) { bigGraph(e, "room/big.npz", 100_000_000) }
	sweepSmall := func(rel, methods string) func(e *scenEnv) []string {
		return func(e *scenEnv) []string {
			return []string{"sweep", "--results", e.path(rel), "--datasets", "bottleneck", "--methods", methods,
				"--budgets", "0.1", "--depths", "1,2", "--pairnorm", "no", "--epochs", "5"}
		}
	}
	report := func(e *scenEnv) []string {
		return []string{"report", e.path("room/r.jsonl"), "--out", e.path("room/rep")}
	}
	editRecords := func(from, to string) func(e *scenEnv) {
		return func(e *scenEnv) {
			smallGrid(e, "room/r.jsonl", "none")
			b, _ := os.ReadFile(e.path("room/r.jsonl"))
			e.write("room/r.jsonl", strings.Replace(string(b), from, to, 1))
		}
	}
	newerField := func(e *scenEnv) {
		smallGrid(e, "room/r.jsonl", "none")
		b, _ := os.ReadFile(e.path("room/r.jsonl"))
		e.write("room/r.jsonl", strings.ReplaceAll(string(b), `"finished"`, `"graph_task":"node","finished"`))
	}
	pySigterm := pyCmd(`import numpy as np, ohm
n = 400
ei = np.array([list(range(n - 1)), list(range(1, n))])
ohm.rewire(ei, n, method="err", budget=1.0, engine="exact")
`)
	return []scenario{
		// 1. Memory.
		{name: "50.1 train --hidden 1000000", fault: "a million hidden units", args: train("--hidden", "1000000"), code: 1,
			msg: "hidden width 1000000, on 2708 nodes needs 244.7 GiB of memory, only", maxTook: 3 * time.Second,
			check: func(_ *scenEnv, _, stderr string) error {
				return contains(stderr, "set by --hidden, --layers, --threads", "the flags")
			}},
		{name: "50.1 train --layers 1000000", fault: "a million layers", args: train("--layers", "1000000"), code: 1,
			msg: "a gcn of 1000000 layers, hidden width 16, on 2708 nodes needs", maxTook: 3 * time.Second},
		{name: "50.1 train --hidden 100000 under OHM_MEMORY=1G", fault: "OHM_MEMORY=1G", env: []string{"OHM_MEMORY=1G"},
			args: train("--hidden", "100000"), code: 1, msg: "needs 24.5 GiB of memory, only", maxTook: 3 * time.Second,
			check: func(_ *scenEnv, _, stderr string) error { return contains(stderr, "(OHM_MEMORY=1G, ", "the budget") }},
		{name: "50.1 rewire -m curvature, 10⁸ nodes, ulimit -v 7 GiB", fault: "ulimit -v 7340032", setup: big, ulimitKB: 7340032,
			args: rewireBig("curvature"), code: 1, msg: "needs", maxTook: 5 * time.Second,
			check: func(_ *scenEnv, _, stderr string) error {
				return contains(stderr, "the address-space limit (ulimit -v) of 7.0 GiB", "the limit")
			}},
		{name: "50.1 rewire -m fosr, 10⁸ nodes, ulimit -v 7 GiB", fault: "ulimit -v 7340032", setup: big, ulimitKB: 7340032,
			args: rewireBig("fosr"), code: 1, msg: "needs", maxTook: 5 * time.Second,
			check: func(_ *scenEnv, _, stderr string) error {
				return contains(stderr, "the address-space limit (ulimit -v) of 7.0 GiB", "the limit")
			}},
		{name: "50.1 rewire -m curvature, 10⁸ nodes, OHM_MEMORY=5G", fault: "OHM_MEMORY=5G", setup: big, env: []string{"OHM_MEMORY=5G"},
			args: rewireBig("curvature"), code: 1, msg: "the curvature rewiring on 100000000 nodes and 2 edges needs"},
		{name: "50.1 rewire -m fosr, 10⁸ nodes, OHM_MEMORY=5G", fault: "OHM_MEMORY=5G", setup: big, env: []string{"OHM_MEMORY=5G"},
			args: rewireBig("fosr"), code: 1, msg: "the fosr rewiring on 100000000 nodes and 2 edges needs"},
		{name: "50.1 data synth sbm, 10¹⁰ nodes", fault: "--nodes 10000000000", args: func(e *scenEnv) []string {
			return []string{"data", "synth", "--model", "sbm", "--nodes", "10000000000", "--out", e.path("room/s.npz")}
		}, outputs: []string{"room/s.npz"}, same: true, code: 1, msg: "sbm: a graph of 10000000000 nodes and about 5e+10 edges needs 6.2 TiB of memory", maxTook: 2 * time.Second,
			check: func(_ *scenEnv, _, stderr string) error {
				return contains(stderr, "set by --nodes, --avg-degree", "the flags")
			}},
		{name: "50.1 data synth ring 1000×2000, OHM_MEMORY=2G", fault: "OHM_MEMORY=2G", env: []string{"OHM_MEMORY=2G"}, args: func(e *scenEnv) []string {
			return []string{"data", "synth", "--model", "ring", "--cliques", "1000", "--clique-size", "2000", "--out", e.path("room/s.npz")}
		}, outputs: []string{"room/s.npz"}, same: true, code: 1, msg: "ring of cliques: a graph of 2000000 nodes and about 1.999e+09 edges needs", maxTook: 2 * time.Second},
		{name: "50.1 rewire cora err under ulimit -v 0.9–1.9 GiB", fault: "22 address-space limits", ulimitKB: 1887436,
			args: func(e *scenEnv) []string { return []string{"rewire", "-d", "cora", "-m", "err", "-r", "0.01"} },
			code: 1, msg: "needs", check: ulimitTries},
		{name: "50.1 OHM_MEMORY=\"16 GiB\" is read", fault: `OHM_MEMORY="16 GiB"`, env: []string{"OHM_MEMORY=16 GiB"},
			args: train("--hidden", "100000"), code: 1, msg: "(OHM_MEMORY=16 GiB, "},
		{name: "50.1 OHM_MEMORY=lots is refused", fault: "OHM_MEMORY=lots", env: []string{"OHM_MEMORY=lots"},
			args: train(), code: 2, msg: `OHM_MEMORY: invalid byte count "lots"`},
		// 2. The journal.
		{name: "50.2 outputs on a full disk (12 KiB free): the journal stays", fault: "ENOSPC: 12 KiB left", left: 12 << 10,
			args: rewireCora("full/a.npz", "full/a.log"), outputs: []string{"full/a.npz", "full/a.log"}, same: true, code: 1,
			msg: "nothing written", check: journalKept("full/a.log")},
		{name: "50.2 re-run after kill -9 keeps the old journal", fault: "kill -9, then the same command", setup: func(e *scenEnv) {
			w := startWriter(e, "room/l.jsonl")
			time.Sleep(300 * time.Millisecond)
			w.Process.Kill()
			w.Wait()
		}, args: func(e *scenEnv) []string {
			return []string{"rewire", "--dataset", "sbm", "--method", "err", "--budget", "1", "--engine", "exact", "--log", e.path("room/l.jsonl")}
		}, outputs: []string{"room/l.jsonl.partial", "room/l.jsonl"}, same: true, code: 1, msg: "holds the journal of an earlier run that did not finish"},
		{name: "50.2 SIGINT while a re-run sets up", fault: "SIGINT after 0.3 s", setup: oldIn("room/o.txt", "room/l.jsonl"),
			args: func(e *scenEnv) []string {
				return []string{"rewire", "-d", "cora", "-m", "err", "-r", "0.01", "--engine", "incremental", "--out", e.path("room/o.txt"), "--log", e.path("room/l.jsonl")}
			}, sig: &sigPlan{after: 300 * time.Millisecond, sigs: []os.Signal{os.Interrupt}}, within: 2 * time.Second,
			outputs: []string{"room/o.txt", "room/l.jsonl", "room/l.jsonl.partial"}, same: true, code: 1, msg: "interrupted before the first of 52 iterations; nothing written"},
		{name: "50.2 immutable --out: all or none", fault: "chattr +i --out", setup: func(e *scenEnv) {
			oldIn("room/o.txt", "room/l.jsonl")(e)
			if out, err := exec.Command("chattr", "+i", e.path("room/o.txt")).CombinedOutput(); err != nil {
				e.t.Fatalf("chattr +i (make faults runs as root): %v %s", err, out)
			}
		}, cleanup: func(e *scenEnv) { exec.Command("chattr", "-i", e.path("room/o.txt")).Run() },
			args: rewireCora("room/o.txt", "room/l.jsonl"), outputs: []string{"room/o.txt", "room/l.jsonl"}, same: true, code: 1,
			msg: "back as they were", check: journalKept("room/l.jsonl")},
		{name: "50.2 sweep: r.jsonl.cache is a file", fault: "a file where the cache folder goes", setup: oldIn("room/r.jsonl.cache"),
			args: sweepSmall("room/r.jsonl", "err"), outputs: []string{"room/r.jsonl", "room/r.jsonl.cache"}, same: true, code: 1,
			msg: "exists and is not a folder", maxTook: time.Second},
		{name: "50.2 rewire: x.log.partial is a folder", fault: "a folder where the journal goes",
			setup: func(e *scenEnv) { os.MkdirAll(e.path("room/x.log.partial"), 0o755) },
			args:  rewireCora("room/o.txt", "room/x.log"), outputs: []string{"room/o.txt", "room/x.log", "room/x.log.partial"}, same: true, code: 1,
			msg: "exists and is not a regular file", maxTook: time.Second},
		// 3. Two writers.
		{name: "50.3 two rewire runs, one --log", fault: "a second writer", setup: func(e *scenEnv) {
			e.bg = startWriter(e, "room/l.jsonl")
		}, cleanup: func(e *scenEnv) {
			e.bg.Process.Signal(os.Interrupt)
			e.bg.Wait()
		}, args: func(e *scenEnv) []string {
			return []string{"rewire", "--dataset", "sbm", "--method", "err", "--budget", "0.01", "--log", e.path("room/l.jsonl")}
		}, code: 1, msg: "another ohm process is writing the journal",
			check: func(e *scenEnv, _, _ string) error {
				b, err := os.ReadFile(e.path("room/l.jsonl"))
				if err != nil {
					return err
				}
				last := 0
				for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
					var ed struct{ Iteration int }
					if json.Unmarshal([]byte(l), &ed) != nil || ed.Iteration < last {
						return fmt.Errorf("the first writer's log is torn or goes backwards at %q", l)
					}
					last = ed.Iteration
				}
				e.note = fmt.Sprintf("the first writer's log: iterations 1–%d, whole", last)
				return nil
			}},
		// 4. Stopping.
		{name: "50.4 sweep, SIGINT while it rewires", fault: "SIGINT after 10 s", args: func(e *scenEnv) []string {
			return []string{"sweep", "--results", e.path("room/r.jsonl"), "--datasets", "citeseer", "--methods", "err-hop",
				"--budgets", "0.15", "--depths", "1", "--pairnorm", "no", "--epochs", "50"}
		}, sig: &sigPlan{after: 10 * time.Second, sigs: []os.Signal{os.Interrupt}}, within: 3 * time.Second, code: 1,
			msg: "stopping now: a rewiring or a training in progress is dropped"},
		{name: "50.4 diagnose, SIGINT", fault: "SIGINT after 4 s", setup: oldIn("room/" + diagnosticsFile), args: func(e *scenEnv) []string {
			return []string{"diagnose", "--datasets", "citeseer", "--methods", "none,err-hop", "--budget", "0.1", "--depths", "1,2,3", "--seeds", "3", "--out", e.path("room")}
		}, sig: &sigPlan{after: 4 * time.Second, sigs: []os.Signal{os.Interrupt}}, within: 2 * time.Second,
			outputs: []string{"room/" + diagnosticsFile}, same: true, code: 1, msg: "stopping now; nothing is written"},
		{name: "50.4 data synth, SIGTERM", fault: "SIGTERM after 3 s", setup: oldIn("room/s.npz"), args: func(e *scenEnv) []string {
			return []string{"data", "synth", "--model", "sbm", "--nodes", "2000000", "--out", e.path("room/s.npz")}
		}, sig: &sigPlan{after: 3 * time.Second, sigs: []os.Signal{syscall.SIGTERM}}, within: 2 * time.Second,
			outputs: []string{"room/s.npz"}, same: true, code: 1, msg: "nothing written"},
		{name: "50.4 train, SIGINT in a long run", fault: "SIGINT after 3 s", args: func(e *scenEnv) []string {
			return []string{"--threads", "1", "train", "-d", "cora", "-m", "gcn", "--layers", "8", "--hidden", "64", "--epochs", "100000", "--seeds", "1"}
		}, sig: &sigPlan{after: 3 * time.Second, sigs: []os.Signal{os.Interrupt}}, within: 2 * time.Second, code: 1,
			msg: "before any of the 1 runs finished"},
		// 5. Python.
		{name: "50.5 python: SIGTERM inside ohm.rewire", fault: "SIGTERM after 2 s", cmd: pySigterm,
			sig: &sigPlan{after: 2 * time.Second, sigs: []os.Signal{syscall.SIGTERM}}, code: 128 + 15, msg: "",
			check: func(e *scenEnv, _, _ string) error {
				time.Sleep(500 * time.Millisecond)
				if pids := ohmChildren(e.path("tmp")); len(pids) > 0 {
					return fmt.Errorf("ohm child %v outlives its parent", pids)
				}
				left, _ := filepath.Glob(e.path("tmp/ohm-*"))
				e.note = fmt.Sprintf("ohm children left: 0; temporary folders left: %d", len(left))
				if len(left) > 0 {
					return fmt.Errorf("temporary folders left: %v", left)
				}
				return nil
			}},
		{name: "50.5 python: 2×2 pairs", fault: "pairs=[[0,5],[1,6]]", cmd: pyRefused(`ohm.resistance(ei, n, pairs=np.array([[0, 5], [1, 6]]))`),
			code: 1, msg: "pairs: a 2×2 array is ambiguous: say pairs_layout='rows'"},
		{name: "50.5 python: directed=\"no\"", fault: `directed="no"`, cmd: pyRefused(`ohm.rewire(ei, n, directed="no")`),
			code: 1, msg: "directed='no': must be True or False"},
		{name: "50.5 python: num_nodes 2**40", fault: "num_nodes=2**40", cmd: pyRefused(`ohm.rewire(ei, 2**40)`),
			code: 1, msg: "ValueError: num_nodes=1099511627776: must be in [0, 2147483647]"},
		{name: "50.5 python: NaN fosr_x0", fault: "fosr_x0 with a NaN", cmd: pyRefused(`x0 = np.ones(n); x0[2] = np.nan; ohm.rewire(ei, n, method="fosr", fosr_x0=x0)`),
			code: 1, msg: "fosr_x0: entry 2 is nan (NaN or infinite"},
		// 6. Records.
		{name: "50.6 report, test_acc 7.5", fault: `"test_acc": 7.5`, setup: editRecords(`"test_acc":0.`, `"test_acc":7.5,"x":0.`),
			args: report, outputs: []string{"room/rep"}, same: true, code: 1, msg: ": not a sensible result: test_acc 7.5 outside [0, 1]",
			check: func(_ *scenEnv, _, stderr string) error { return contains(stderr, "r.jsonl line ", "the line") }},
		{name: "50.6 sweep, test_acc 7.5", fault: `"test_acc": 7.5`, setup: editRecords(`"test_acc":0.`, `"test_acc":7.5,"x":0.`),
			args: sweepSmall("room/r.jsonl", "none"), outputs: []string{"room/r.jsonl"}, same: true, code: 1, msg: "test_acc 7.5 outside [0, 1]"},
		{name: "50.6 report, a field of a newer ohm", fault: `"graph_task"`, setup: newerField, args: report, code: 0,
			msg: "fields this version of ohm does not know (written by a newer ohm?): graph_task; read past"},
		{name: "50.6 sweep, a field of a newer ohm", fault: `"graph_task"`, setup: newerField, args: sweepSmall("room/r.jsonl", "none"), code: 0,
			msg: "fields this version of ohm does not know (written by a newer ohm?): graph_task; read past"},
		// 7. Data.
		{name: "50.7 data verify, 300 labels of ind.cora.ty changed", fault: "300 labels moved (size kept)", setup: changeLabels,
			args: func(e *scenEnv) []string {
				return []string{"--data-dir", e.path("room/data"), "data", "verify", "--datasets", "cora"}
			}, env: []string{"OHM_DATA="}, code: 1, msg: "1 file(s) differ",
			check: func(_ *scenEnv, stdout, _ string) error {
				if !regexp.MustCompile(`Cora/raw/ind.cora.ty +sha256 [0-9a-f]{64}, not 41f5ac76`).MatchString(stdout) {
					return errors.New("ind.cora.ty not named with both hashes")
				}
				return nil
			}},
		{name: "50.7 data list, ind.cora.x cut short", fault: "100 bytes cut", setup: func(e *scenEnv) {
			changeLabels(e)
			p := e.path("room/data/Cora/raw/ind.cora.x")
			b, _ := os.ReadFile(p)
			os.WriteFile(p, b[:len(b)-100], 0o644)
		}, args: func(e *scenEnv) []string { return []string{"--data-dir", e.path("room/data"), "data", "list"} },
			env: []string{"OHM_DATA="}, code: 0, msg: "",
			check: func(_ *scenEnv, stdout, _ string) error {
				return contains(stdout, "but Cora/raw/ind.cora.x: 22019 bytes, not 22119", "data list")
			}},
	}
}
