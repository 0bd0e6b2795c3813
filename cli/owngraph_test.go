package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
	"github.com/ohmgnn/ohm/model/sweep"
)

// outcome is what a run found, without the dataset's identity and times.
type outcome struct {
	TestAcc, ValAcc                  float64
	BestEpoch, E0, Iterations, Added int
	Removed, AddedNet, RemovedNet    int
	Hidden                           int
}

// outcomes maps each run (its key without the dataset's identity) to what
// it found.
func outcomes(recs []sweep.Record) map[sweep.Key]outcome {
	m := map[sweep.Key]outcome{}
	for _, r := range recs {
		k := r.Key()
		k.Dataset, k.GraphSHA256 = "", ""
		m[k] = outcome{r.TestAcc, r.ValAcc, r.BestEpoch, r.E0, r.Iterations, r.Added, r.Removed, r.AddedNet, r.RemovedNet, r.Hidden}
	}
	return m
}

// TestSweepGraphRoundTripCornell: Cornell exported (x, y, its 10 masks) and
// swept with --graph gives exactly the accuracies and edits of --datasets
// cornell, in both forms; the records carry the file's hash; a second run
// does nothing.
func TestSweepGraphRoundTripCornell(t *testing.T) {
	root := datatest.Root(t, "cornell/raw/out1_graph_edges.txt")
	dir := t.TempDir()
	grid := []string{"--methods", "none,err", "--budgets", "0.05", "--depths", "1,2", "--splits", "0,1", "--pairnorm", "no", "--epochs", "20"}
	for _, form := range []string{"undirected", "directed"} {
		file := filepath.Join(dir, form, "cornell.npz")
		os.MkdirAll(filepath.Dir(file), 0o755)
		export := []string{"--quiet", "--data-dir", root, "data", "export", "--dataset", "cornell", "--out", file}
		if form == "directed" {
			export = append(export, "--directed")
		}
		if code, _, errs := run(t, export...); code != 0 {
			t.Fatalf("export: %s", errs)
		}
		builtin, own := filepath.Join(dir, form, "builtin.jsonl"), filepath.Join(dir, form, "own.jsonl")
		args := append([]string{"--quiet", "--data-dir", root, "sweep", "--forms", form}, grid...)
		if code, _, errs := run(t, append(slices.Clone(args), "--results", builtin, "--datasets", "cornell")...); code != 0 {
			t.Fatalf("sweep --datasets: %s", errs)
		}
		ownArgs := append(slices.Clone(args), "--results", own, "--graph", file)
		if code, _, errs := run(t, ownArgs...); code != 0 {
			t.Fatalf("sweep --graph: %s", errs)
		}
		b, o := readLines(t, builtin), readLines(t, own)
		if len(b) != 8 || len(o) != 8 {
			t.Fatalf("%s: %d and %d records, want 8 (2 methods × 2 depths × 2 splits)", form, len(b), len(o))
		}
		for _, r := range b {
			if r.GraphSHA256 != "" {
				t.Errorf("built-in record with a graph hash: %+v", r)
			}
		}
		for _, r := range o {
			if r.Dataset != "cornell" || len(r.GraphSHA256) != 64 || r.GraphSHA256 != o[0].GraphSHA256 || r.SplitRule != "" {
				t.Errorf("graph record %+v", r)
			}
		}
		if ob, oo := outcomes(b), outcomes(o); !sameOutcomes(ob, oo) {
			t.Errorf("%s: --graph differs from --datasets cornell:\n%v\n%v", form, oo, ob)
		}
		code, out, errs := run(t, ownArgs[1:]...)
		if code != 0 || !strings.Contains(out, "8 runs in the grid, 8 already there, 0 run now") || !strings.Contains(errs, "resuming") {
			t.Errorf("rerun: exit %d: %s %s", code, out, errs)
		}
		if len(readLines(t, own)) != 8 {
			t.Error("rerun added records")
		}
	}
}

func sameOutcomes(a, b map[sweep.Key]outcome) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// writeBottleneck writes the built-in bottleneck as a dataset archive,
// with its labels changed by change (nil: none) and without masks when
// noMasks.
func writeBottleneck(t *testing.T, path string, change func([]int), noMasks bool) {
	t.Helper()
	d := dataset.Bottleneck(dataset.SynthOptions{})
	d.Labels = slices.Clone(d.Labels)
	if change != nil {
		change(d.Labels)
	}
	if noMasks {
		d.Splits = nil
	}
	if err := dataset.WriteArchive(path, d, nil); err != nil {
		t.Fatal(err)
	}
}

// TestSweepGraphChangedFile: another file under the same name does not reuse
// the first file's runs or rewired graphs; the report keeps them apart.
func TestSweepGraphChangedFile(t *testing.T) {
	dir := t.TempDir()
	file, results := filepath.Join(dir, "g.npz"), filepath.Join(dir, "r.jsonl")
	args := []string{"--quiet", "sweep", "--results", results, "--graph", file, "--methods", "none,res", "--budgets", "0.1",
		"--depths", "1", "--pairnorm", "no", "--epochs", "10"}
	writeBottleneck(t, file, nil, false)
	if code, out, errs := run(t, args...); code != 0 || !strings.Contains(out, "2 runs in the grid, 0 already there, 2 run now (graphs: 1 rewired") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	writeBottleneck(t, file, func(y []int) { y[0], y[1] = y[1], y[0]+1 }, false)
	code, out, errs := run(t, args...)
	if code != 0 || !strings.Contains(out, "2 runs in the grid, 0 already there, 2 run now (graphs: 1 rewired, 0 from the cache)") {
		t.Fatalf("changed file: exit %d: %s %s", code, out, errs)
	}
	recs := readLines(t, results)
	checkOnce(t, recs)
	hashes := map[string]int{}
	for _, r := range recs {
		hashes[r.GraphSHA256]++
	}
	if len(recs) != 4 || len(hashes) != 2 {
		t.Fatalf("%d records of %d graphs, want 4 of 2", len(recs), len(hashes))
	}
	if cached, _ := filepath.Glob(filepath.Join(sweep.CacheDir(results), "*.npz")); len(cached) != 2 {
		t.Errorf("cache %v, want two graphs", cached)
	}
	rep := filepath.Join(dir, "rep")
	if code, _, errs := run(t, "report", results, "--out", rep); code != 0 {
		t.Fatal(errs)
	}
	md, _ := os.ReadFile(filepath.Join(rep, "report.md"))
	for h := range hashes {
		if !strings.Contains(string(md), "### g@"+h[:8]+", undirected form") || !strings.Contains(string(md), h) {
			t.Errorf("report lacks g@%s:\n%s", h[:8], md)
		}
	}
}

// TestSweepGraphSplitRules: a file without masks needs a split rule; rules
// that do not parse or do not fit are usage errors naming --split-rule; a
// rule's splits are recorded and another seed is another run.
func TestSweepGraphSplitRules(t *testing.T) {
	dir := t.TempDir()
	file, results := filepath.Join(dir, "nomasks.npz"), filepath.Join(dir, "r.jsonl")
	writeBottleneck(t, file, nil, true)
	base := []string{"--quiet", "sweep", "--results", results, "--graph", file, "--methods", "none", "--depths", "1", "--pairnorm", "no", "--epochs", "5"}
	for _, tc := range []struct {
		extra []string
		msg   string
	}{
		{nil, "--split-rule: " + file + " holds no split masks (train_mask, val_mask, test_mask): state a split rule"},
		{[]string{"--split-rule", "halves"}, `--split-rule: "halves": want random:TRAIN,VAL,TEST`},
		{[]string{"--split-rule", "random:0.6,0.3,0.2"}, "the fractions sum to 1.1, more than 1"},
		{[]string{"--split-rule", "per-class:0,5,5"}, `"0" is not a count ≥ 1`},
		{[]string{"--split-rule", "per-class:20,500,1000"}, "--split-rule: split rule per-class:20,500,1000 on nomasks (80 nodes):"},
		{[]string{"--split-rule", "random:0.6,0.2,0.2", "--splits", "all"}, "--splits: all: a split rule makes the splits asked by number"},
		{[]string{"--split-seed", "2"}, "--split-seed: seeds a split rule, and none is given"},
		{[]string{"--name", "my graph"}, `--name: "my graph": a graph file's dataset name holds letters`},
		{[]string{"--datasets", "cora"}, "--datasets and --graph can't be used together"},
	} {
		code, _, errs := run(t, append(slices.Clone(base), tc.extra...)...)
		if code != 2 || !strings.Contains(errs, tc.msg) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d: %q, want status 2 and %q", tc.extra, code, errs, tc.msg)
		}
	}
	if code, _, errs := run(t, "sweep", "--results", results, "--datasets", "bottleneck", "--split-rule", "random:0.6,0.2,0.2"); code != 2 ||
		!strings.Contains(errs, "--split-rule: splits a graph file's nodes, and no graph file is given") {
		t.Errorf("--split-rule without --graph: exit %d: %s", code, errs)
	}
	rule := append(slices.Clone(base), "--split-rule", "random:0.6,0.2,0.2", "--splits", "0,1", "--name", "b")
	if code, _, errs := run(t, rule...); code != 0 {
		t.Fatal(errs)
	}
	if code, out, errs := run(t, append(slices.Clone(rule), "--split-seed", "1")...); code != 0 || !strings.Contains(out, "2 runs in the grid, 0 already there") {
		t.Fatalf("another seed: exit %d: %s %s", code, out, errs)
	}
	recs := readLines(t, results)
	checkOnce(t, recs)
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4", len(recs))
	}
	got := map[[2]int]bool{}
	for i, r := range recs {
		if r.Dataset != "b" || r.SplitRule != "random:0.6,0.2,0.2" || r.SplitSeed != uint64(i/2) {
			t.Errorf("record %d: %+v", i, r)
		}
		got[[2]int{int(r.SplitSeed), r.Split}] = true
	}
	if len(got) != 4 {
		t.Errorf("(split seed, split) of the records: %v", got)
	}
	if code, out, _ := run(t, rule...); code != 0 || !strings.Contains(out, "2 already there") {
		t.Errorf("rerun: %s", out)
	}
}

// TestReportTrainJSON: ohm report takes the output of ohm train --json (one
// or several appended) and writes a table of the trainings and their runs.
func TestReportTrainJSON(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "train.json")
	var all string
	for _, l := range []string{"1", "2"} {
		code, out, errs := run(t, "--quiet", "train", "-d", "bottleneck", "-m", "gcn", "--layers", l, "--epochs", "10", "--seeds", "2", "--json")
		if code != 0 {
			t.Fatal(errs)
		}
		all += out
	}
	os.WriteFile(file, []byte(all), 0o644)
	rep := filepath.Join(dir, "rep")
	code, out, errs := run(t, "report", file, "--out", rep)
	if code != 0 || !strings.Contains(out, "2 trainings of ohm train --json, 4 runs") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	md, _ := os.ReadFile(filepath.Join(rep, "report.md"))
	var first TrainOut
	json.NewDecoder(strings.NewReader(all)).Decode(&first)
	for _, want := range []string{"2 trainings (4 runs) of `ohm train --json`", "| bottleneck | original | gcn | 1 | no | 2 |",
		"| bottleneck | original | gcn | 2 | no | 2 |", "| bottleneck | original | gcn | 1 | no | 1 | 0 |", "run `ohm sweep --results FILE …`"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if code, _, errs := run(t, "report", file, "--out", rep, "--methods", "none"); code != 2 || !strings.Contains(errs, "holds the output of 'ohm train --json'") {
		t.Errorf("--methods on train output: exit %d: %s", code, errs)
	}
}

// TestTrainDatasetArchive: ohm train on an exported archive trains exactly
// as on the dataset; an archive without masks needs --split-rule.
func TestTrainDatasetArchive(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bottleneck.npz")
	if code, _, errs := run(t, "--quiet", "data", "export", "-d", "bottleneck", "-o", file); code != 0 {
		t.Fatal(errs)
	}
	args := []string{"-m", "gcn", "--epochs", "15", "--seeds", "2"}
	want := withoutTimes(trainJSON(t, append([]string{"-d", "bottleneck"}, args...)...))
	got := withoutTimes(trainJSON(t, append([]string{"-d", file}, args...)...))
	if got.TestAccMean != want.TestAccMean || got.Dataset != "bottleneck" || len(got.Runs) != 2 || got.Runs[1] != want.Runs[1] {
		t.Errorf("archive %+v\ndataset %+v", got, want)
	}
	bare := filepath.Join(dir, "bare.npz")
	writeBottleneck(t, bare, nil, true)
	if code, out, errs := run(t, "data", "info", "-d", bare); code != 0 || !strings.Contains(out, "bare (undirected)") ||
		!strings.Contains(out, "none (no split masks") {
		t.Errorf("data info of an archive without masks: exit %d: %s %s", code, out, errs)
	}
	code, _, errs := run(t, append([]string{"train", "-d", bare}, args...)...)
	if code != 2 || !strings.Contains(errs, "holds no split masks") {
		t.Errorf("no masks: exit %d: %s", code, errs)
	}
	o := trainJSON(t, append([]string{"-d", bare, "--split-rule", "per-class:5,10,20", "--split", "1"}, args...)...)
	if o.Dataset != "bare" || o.Runs[0].Split != 1 {
		t.Errorf("%+v", o)
	}
	code, _, errs = run(t, append([]string{"train", "-d", "bottleneck", "--split-rule", "random:0.6,0.2,0.2"}, args...)...)
	if code != 2 || !strings.Contains(errs, "--split-rule: splits a dataset archive") {
		t.Errorf("rule on a dataset: exit %d: %s", code, errs)
	}
}
