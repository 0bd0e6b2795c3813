package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbinet/npyio"
)

// TestExitStatusTable walks the table of docs/cli.md ("Exit status and
// errors") command by command: for each row that applies to a command, one
// invocation that falls under it, its exit status and a piece of its
// message. Status 1: an unreadable (missing, a folder) or malformed input
// file, missing data, an output folder that does not exist, a graph too
// large for the memory; status 2: an unknown command, flag, dataset or
// method, a value out of range (a negative one included), an empty list
// item, flags that exclude each other. (A full disk and interrupts have
// their own tests: faults_test.go, interrupt_test.go.) Only built-in
// datasets and files made here: no data, no network.
func TestExitStatusTable(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	// Missing data: no root but the empty --data-dir holds a dataset.
	t.Setenv("OHM_DATA", "")
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("HOME", dir)
	write := func(name, content string) {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("bad.npz", "not a zip\n")
	write("bad.jsonl", `{"dataset":`+"\n")
	write("bad.json", `{"datasets": [`)
	write("unknown.json", `{"datasets": ["ring"], "bogus": 1}`)
	write("edges.txt", "0 1\n1 2\n")
	if err := os.Mkdir("empty", 0o755); err != nil {
		t.Fatal(err)
	}
	zeros, err := os.Create("zeros.npy") // FoSR's power iteration vanishes on it
	if err != nil {
		t.Fatal(err)
	}
	if err := npyio.Write(zeros, make([]float64, 80)); err != nil || zeros.Close() != nil {
		t.Fatal(err)
	}
	nodata := []string{"--no-download", "--data-dir", "empty"}
	type row struct {
		args []string
		code int
		msg  string
	}
	a := strings.Fields
	cases := map[string][]row{
		"(none)": {
			{a("nosuch"), 2, "unexpected argument nosuch"},
			{a("--nosuch version"), 2, "unknown flag --nosuch"},
			{a("--threads -1 version"), 2, "--threads -1: must be ≥ 0"},
			{a("--cpuprofile nodir/x.prof version"), 1, "nodir"},
		},
		"version": {
			{a("version"), 0, ""},
			{a("version --nosuch"), 2, "unknown flag --nosuch"},
		},
		"data list": {
			{a("data list"), 0, ""},
		},
		"data info": {
			{a("data info --dataset nosuch.npz"), 1, "nosuch.npz"},
			{a("data info --dataset bad.npz"), 1, "not an .npz"},
			{append(nodata, a("data info --dataset cornell")...), 1, "--data-dir DIR"},
			{a("data info --dataset nosuch"), 2, `unknown dataset "nosuch"`},
			{a("data info --dataset ring --split 5"), 2, "--split 5"},
		},
		"data export": {
			{a("data export --dataset ring --out nodir/x.npz"), 1, "--out"},
			{append(nodata, a("data export --dataset texas --out x.npz")...), 1, "--data-dir DIR"},
			{a("data export --dataset nosuch --out x.npz"), 2, `unknown dataset "nosuch"`},
		},
		"data synth": {
			{a("data synth --model sbm --nodes 100 --out nodir/x.npz"), 1, "--out"},
			{a("data synth --model nosuch --out x.npz"), 2, "--model"},
			{a("data synth --model sbm --nodes -5 --out x.npz"), 2, "--nodes -5"},
		},
		"resistance": {
			{a("resistance --graph nosuch.npz"), 1, "nosuch.npz: no such file"},
			{a("resistance --graph empty"), 1, "is a folder"},
			{a("resistance --graph bad.npz"), 1, "not an .npz"},
			{a("resistance --dataset ring --pairs nosuch.txt"), 1, "nosuch.txt: no such file"},
			{append(nodata, a("resistance --dataset cora")...), 1, "--data-dir DIR"},
			{a("resistance --dataset nosuch"), 2, `unknown dataset "nosuch"`},
			{a("resistance --dataset ring --top -1"), 2, "--top -1"},
			{a("resistance --dataset ring --engine nosuch"), 2, "--engine"},
			{a("resistance --dataset ring --graph edges.txt"), 2, "can't be used together"},
		},
		"rewire": {
			{a("rewire --graph nosuch.npz --method err --budget 0.1"), 1, "nosuch.npz: no such file"},
			{a("rewire --graph bad.npz --method err --budget 0.1"), 1, "not an .npz"},
			{a("rewire --dataset ring --method fosr --budget 0.1 --fosr-x0 nosuch.npy"), 1, "nosuch.npy: no such file"},
			{a("rewire --dataset ring --method err --budget 0.1 --out nodir/x.npz"), 1, "--out"},
			{a("rewire --dataset ring --method err --budget 0.1 --log nodir/x.jsonl"), 1, "--log"},
			{append(nodata, a("rewire --dataset cora --method err --budget 0.1")...), 1, "--data-dir DIR"},
			{a("rewire --dataset ring --method nosuch --budget 0.1"), 2, "--method nosuch"},
			{a("rewire --dataset ring --method err --budget 2"), 2, "--budget 2"},
			{a("rewire --dataset ring --method err --budget -1"), 2, "--budget -1"},
			{a("rewire --dataset ring --graph edges.txt --method err --budget 0.1"), 2, "can't be used together"},
			{a("rewire --dataset ring --method fosr --budget 0.1 --fosr-x0 zeros.npy"), 1, "--fosr-x0: fosr's power iteration vanished"},
			{a("rewire --dataset ring --method fosr --budget 0.1 --fosr-x0 zeros.npy --out x.npz"), 1, "x.npz as it was"},
		},
		"stats": {
			{a("stats --datasets ring --budgets 0.1 --methods err --markdown nodir/x.md"), 1, "--markdown"},
			{append(nodata, a("stats --datasets cora --budgets 0.1 --methods err")...), 1, "--data-dir DIR"},
			{a("stats --datasets nosuch --budgets 0.1 --methods err"), 2, `unknown dataset "nosuch"`},
			{a("stats --datasets ring --budgets 0.1, --methods err"), 2, "empty item"},
		},
		"train": {
			{a("train --dataset ring --model gcn --graph nosuch.npz"), 1, "nosuch.npz: no such file"},
			{a("train --dataset ring --model gcn --graph bad.npz"), 1, "not an .npz"},
			{a("train --dataset bad.npz --model gcn"), 1, "not an .npz"},
			{append(nodata, a("train --dataset cornell --model gcn")...), 1, "--data-dir DIR"},
			{a("train --dataset ring --model nosuch"), 2, `unknown model "nosuch"`},
			{a("train --dataset nosuch --model gcn"), 2, `unknown dataset "nosuch"`},
			{a("train --dataset ring --model gcn --layers 0"), 2, "--layers 0"},
			{a("train --dataset ring --model gcn --epochs -1"), 2, "--epochs -1"},
		},
		"curvature": {
			{a("curvature --graph nosuch.npz"), 1, "nosuch.npz: no such file"},
			{a("curvature --graph bad.npz"), 1, "not an .npz"},
			{a("curvature --dataset ring --out nodir/x.csv"), 1, "--out"},
			{a("curvature --dataset ring --alpha 2"), 2, "--alpha 2"},
		},
		"diagnose": {
			{a("diagnose --datasets ring --methods err --budget 0.1 --depths 1 --out nodir"), 1, "--out"},
			{append(nodata, a("diagnose --datasets cora --methods err --budget 0.1 --depths 1")...), 1, "--data-dir DIR"},
			{a("diagnose --datasets ring --methods nosuch --budget 0.1 --depths 1"), 2, "nosuch"},
			{a("diagnose --datasets ring --methods err --budget 0.1 --depths 1,"), 2, "empty item"},
		},
		"sweep": {
			{a("sweep --results r.jsonl --graph nosuch.npz --split-rule random:0.6,0.2,0.2"), 1, "nosuch.npz: no such file"},
			{a("sweep --results r.jsonl --graph bad.npz --split-rule random:0.6,0.2,0.2"), 1, "not an .npz"},
			{a("sweep --results r.jsonl --config nosuch.json"), 1, "nosuch.json: no such file"},
			{a("sweep --results r.jsonl --config bad.json"), 1, "--config"},
			{a("sweep --results bad.jsonl --datasets ring --methods none --depths 1 --epochs 1"), 1, "line 1"},
			{a("sweep --results nodir/r.jsonl --datasets ring"), 1, "--results"},
			{append(nodata, a("sweep --results r.jsonl --datasets cora --methods none --depths 1")...), 1, "--data-dir DIR"},
			{a("sweep --results r.jsonl --config unknown.json"), 2, `unknown field "bogus"`},
			{a("sweep --results r.jsonl --datasets nosuch"), 2, "nosuch"},
			{a("sweep --results r.jsonl --datasets ring --methods nosuch"), 2, "nosuch"},
			{a("sweep --results r.jsonl --datasets ring --budgets 0.1,"), 2, "empty item"},
			{a("sweep --results r.jsonl --datasets ring --graph edges.txt"), 2, "can't be used together"},
		},
		"report": {
			{a("report nosuch.jsonl --out rep"), 1, "nosuch.jsonl: no such file"},
			{a("report bad.jsonl --out rep"), 1, "line 1"},
			{a("report bad.jsonl --out rep --diagnostics nosuch.json"), 1, "nosuch.json"},
			{a("report bad.jsonl --out rep --methods nosuch"), 2, `unknown method "nosuch"`},
			{a("report bad.jsonl --out rep --methods err,"), 2, "empty item"},
		},
		"demo": {
			{a("demo --dataset nosuch"), 2, "nosuch"},
			{a("demo --epochs 0"), 2, "--epochs 0"},
		},
	}
	for cmd, rows := range cases {
		for _, r := range rows {
			t.Run(cmd+"/"+strings.Join(r.args, "_"), func(t *testing.T) {
				code, _, errs := run(t, append([]string{"--quiet"}, r.args...)...)
				if code != r.code || !strings.Contains(errs, r.msg) {
					t.Errorf("ohm %s: exit %d, want %d; stderr %q, want it to hold %q", strings.Join(r.args, " "), code, r.code, errs, r.msg)
				}
				if code != 0 && !strings.HasPrefix(errs, "ohm: ") {
					t.Errorf("ohm %s: stderr %q does not start with \"ohm: \"", strings.Join(r.args, " "), errs)
				}
				if _, err := os.Stat(filepath.Join(dir, "nodir")); err == nil {
					t.Fatalf("ohm %s made nodir", strings.Join(r.args, " "))
				}
			})
		}
	}
	// Every command of the tree has a row.
	_, help, _ := run(t, "--help")
	for _, l := range strings.Split(help, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || !strings.HasPrefix(l, "  ") || strings.HasPrefix(f[0], "-") {
			continue
		}
		name := f[0]
		if len(f) > 1 && !strings.HasPrefix(f[1], "-") && !strings.HasPrefix(f[1], "[") && !strings.HasPrefix(f[1], "<") && cases[name+" "+f[1]] != nil {
			name += " " + f[1]
		}
		if _, ok := cases[name]; !ok && cmdNames[name] {
			t.Errorf("command %q has no row in the exit-status table", name)
		}
	}
}

// cmdNames are the commands of ohm --help that TestExitStatusTable must
// walk.
var cmdNames = map[string]bool{"data list": true, "data info": true, "data export": true, "data synth": true,
	"resistance": true, "rewire": true, "stats": true, "train": true, "curvature": true, "diagnose": true,
	"sweep": true, "report": true, "version": true, "demo": true}
