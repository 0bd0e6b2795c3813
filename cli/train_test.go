package cli

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// trainJSON runs `ohm train … --json` and decodes the output.
func trainJSON(t *testing.T, args ...string) TrainOut {
	t.Helper()
	args = append([]string{"train", "--json"}, args...)
	code, out, errs := run(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var o TrainOut
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return o
}

// withoutTimes returns o with its wall-time fields zeroed.
func withoutTimes(o TrainOut) TrainOut {
	o.Seconds, o.EpochMs = 0, 0
	return o
}

// TestTrainJSONFields: exactly the documented fields, runs in (split, seed)
// order, accuracies as fractions.
func TestTrainJSONFields(t *testing.T) {
	code, out, errs := run(t, "train", "-d", "bottleneck", "-m", "gcn", "--epochs", "30", "--seeds", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	want := []string{"dataset", "model", "layers", "pairnorm", "features", "graph", "test_acc_mean", "test_acc_std",
		"val_acc_mean", "runs", "seconds", "epoch_ms", "ohm_version"}
	if got := sortedKeys(raw); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Fatalf("fields %v, want %v", got, want)
	}
	var runs []map[string]json.RawMessage
	if err := json.Unmarshal(raw["runs"], &runs); err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if got := sortedKeys(r); !slices.Equal(got, []string{"best_epoch", "seed", "split", "test_acc", "val_acc"}) {
			t.Fatalf("run fields %v", got)
		}
	}
	var o TrainOut
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	if o.Dataset != "bottleneck" || o.Model != "gcn" || o.Layers != 2 || o.PairNorm || o.Graph != "original" || len(o.Runs) != 3 {
		t.Fatalf("summary %+v", o)
	}
	for i, r := range o.Runs {
		if r.Seed != uint64(i) || r.Split != 0 || r.BestEpoch < 1 || r.BestEpoch > 30 ||
			r.ValAcc < 0 || r.ValAcc > 1 || r.TestAcc < 0 || r.TestAcc > 1 {
			t.Fatalf("run %d: %+v", i, r)
		}
	}
	if o.TestAccMean < 0 || o.TestAccMean > 1 || o.TestAccStd < 0 || o.Seconds <= 0 || o.EpochMs <= 0 {
		t.Fatalf("summary %+v", o)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// TestTrainDeterministic: the same flags give the same numbers, whatever
// --threads is; another seed count extends the runs without changing the
// first ones.
func TestTrainDeterministic(t *testing.T) {
	for _, model := range []string{"gcn", "dirgcn"} {
		t.Run(model, func(t *testing.T) {
			args := []string{"-d", "sbm", "-m", model, "--directed", "--layers", "3", "--pairnorm", "--epochs", "25", "--seeds", "3"}
			a := withoutTimes(trainJSON(t, append([]string{"--threads", "1"}, args...)...))
			b := withoutTimes(trainJSON(t, append([]string{"--threads", "1"}, args...)...))
			c := withoutTimes(trainJSON(t, append([]string{"--threads", "2"}, args...)...))
			if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
				t.Fatalf("not reproducible:\n%+v\n%+v\n%+v", a, b, c)
			}
			more := trainJSON(t, append([]string{"--threads", "2"}, append(args, "--seeds", "4")...)...)
			if !reflect.DeepEqual(more.Runs[:3], a.Runs) {
				t.Fatalf("runs of seeds 0..2 changed with --seeds 4:\n%+v\n%+v", more.Runs[:3], a.Runs)
			}
		})
	}
}

// TestTrainGraphFile: --graph with the dataset's own graph gives the same
// numbers as without it, under the file's name; another graph on the same
// nodes (here: no edges at all) changes them.
func TestTrainGraphFile(t *testing.T) {
	d := dataset.SBM(dataset.SynthOptions{})
	dir := t.TempDir()
	same := filepath.Join(dir, "same.npz")
	if err := graphio.Save(same, d.Graph); err != nil {
		t.Fatal(err)
	}
	empty := writeFile(t, "empty.txt", "# num_nodes 400\n")
	for _, model := range []string{"gcn", "dirgcn"} {
		args := []string{"-d", "sbm", "-m", model, "--directed", "--epochs", "20", "--seeds", "2"}
		orig := withoutTimes(trainJSON(t, args...))
		file := withoutTimes(trainJSON(t, append(args, "--graph", same)...))
		if file.Graph != "same.npz" {
			t.Fatalf("graph %q", file.Graph)
		}
		file.Graph = "original"
		if !reflect.DeepEqual(orig, file) {
			t.Fatalf("%s: same graph from a file gave other numbers:\n%+v\n%+v", model, orig, file)
		}
		other := withoutTimes(trainJSON(t, append(args, "--graph", empty)...))
		if other.Graph != "empty.txt" || reflect.DeepEqual(other.Runs, orig.Runs) {
			t.Fatalf("%s: --graph %s had no effect: %+v", model, empty, other)
		}
	}
}

// TestTrainBadInput: bad flags exit with status 2, bad graph files with 1;
// each names the problem and prints nothing on standard output.
func TestTrainBadInput(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.npz")
	if err := graphio.WriteNPZ(small, 5, []linalg.Edge{{U: 0, V: 1}, {U: 1, V: 0}}, nil); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.npz")
	if err := graphio.WriteNPZ(big, 81, []linalg.Edge{{U: 0, V: 80}}, nil); err != nil {
		t.Fatal(err)
	}
	badID := writeFile(t, "bad.txt", "0 1\n1 80\n")
	headed := writeFile(t, "headed.txt", "# num_nodes 79\n0 1\n")
	base := []string{"train", "-d", "bottleneck", "--epochs", "5"}
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no model", nil, 2, "--model"},
		{"unknown model", []string{"-m", "gat"}, 2, `unknown model "gat"`},
		{"layers 0", []string{"-m", "gcn", "--layers", "0"}, 2, "--layers 0"},
		{"layers negative", []string{"-m", "gcn", "--layers=-2"}, 2, "--layers -2"},
		{"hidden 0", []string{"-m", "gcn", "--hidden", "0"}, 2, "--hidden 0"},
		{"hidden negative", []string{"-m", "gcn", "--hidden=-4"}, 2, "--hidden -4"},
		{"dropout 1", []string{"-m", "gcn", "--dropout", "1"}, 2, "--dropout 1"},
		{"dropout negative", []string{"-m", "gcn", "--dropout=-0.5"}, 2, "--dropout -0.5"},
		{"lr negative", []string{"-m", "gcn", "--lr=-0.01"}, 2, "--lr -0.01"},
		{"lr 0", []string{"-m", "gcn", "--lr", "0"}, 2, "--lr 0"},
		{"weight decay negative", []string{"-m", "gcn", "--weight-decay=-1e-4"}, 2, "--weight-decay -0.0001"},
		{"weight decay NaN", []string{"-m", "gcn", "--weight-decay", "NaN"}, 2, "--weight-decay NaN"},
		{"scope", []string{"-m", "gcn", "--weight-decay-scope", "last"}, 2, "--weight-decay-scope"},
		{"epochs 0", []string{"-m", "gcn", "--epochs", "0"}, 2, "--epochs 0"},
		{"seeds 0", []string{"-m", "gcn", "--seeds", "0"}, 2, "--seeds 0"},
		{"pairnorm scale", []string{"-m", "gcn", "--pairnorm", "--pairnorm-scale", "0"}, 2, "--pairnorm-scale 0"},
		{"split word", []string{"-m", "gcn", "--split", "first"}, 2, `--split "first"`},
		{"split out of range", []string{"-m", "gcn", "--split", "1"}, 2, "bottleneck has 1 split"},
		{"unknown dataset", []string{"-m", "gcn", "-d", "pubmed"}, 2, "pubmed"},
		{"graph with fewer nodes", []string{"-m", "gcn", "--graph", small}, 1, "num_nodes is 5 but 80 nodes were expected"},
		{"graph with more nodes", []string{"-m", "dirgcn", "--directed", "--graph", big}, 1, "num_nodes is 81"},
		{"edge list id beyond", []string{"-m", "gcn", "--graph", badID}, 1, "80"},
		{"edge list header", []string{"-m", "gcn", "--graph", headed}, 1, "79"},
		{"graph missing", []string{"-m", "gcn", "--graph", filepath.Join(dir, "none.npz")}, 1, "none.npz: no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, append(slices.Clone(base), tc.args...)...)
			if code != tc.code || !strings.Contains(errs, tc.msg) || out != "" {
				t.Fatalf("exit %d (want %d), stderr %q (want %q), stdout %q", code, tc.code, errs, tc.msg, out)
			}
			if tc.code == 1 && strings.Contains(tc.name, "graph") && tc.name != "graph missing" && !strings.Contains(errs, "dataset bottleneck has 80 nodes") {
				t.Fatalf("graph error does not give the dataset's node count: %s", errs)
			}
		})
	}
}

// TestTrainText: the text summary names the setup and lists every run.
func TestTrainText(t *testing.T) {
	code, out, errs := run(t, "train", "-d", "bottleneck", "-m", "dirgcn", "--directed", "--layers", "3",
		"--pairnorm", "--pairnorm-at", "pre", "--features", "raw", "--epochs", "10", "--seeds", "2", "--hidden", "8", "--weight-decay-scope", "all")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, s := range []string{"bottleneck (directed form, graph original)", "dirgcn, 3 layers, hidden 8, pairnorm on (s = 1, before the ReLU)",
		"features       as loaded", "weight decay 0.0005 (all)", "test accuracy", "best_epoch"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	if n := strings.Count(out, "\n"); n != 12 {
		t.Errorf("%d lines, want 8 summary + blank + header + 2 runs:\n%s", n, out)
	}
	// One unit: the runs' test accuracies (%) average to the summary's (%).
	var mean float64
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, "test accuracy"); ok {
			fmt.Sscanf(strings.TrimSpace(v), "%f", &mean)
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.Contains(lines[len(lines)-3], "test_acc %") {
		t.Errorf("run header %q does not say %%", lines[len(lines)-3])
	}
	sum := 0.0
	for _, l := range lines[len(lines)-2:] {
		f := strings.Fields(l)
		v, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil {
			t.Fatalf("run line %q: %v", l, err)
		}
		sum += v
	}
	if math.Abs(sum/2-mean) > 0.011 {
		t.Errorf("runs' test accuracies average %.3f, summary says %.2f: units differ", sum/2, mean)
	}
}

// TestTrainWebKBSplits: --split all runs every Geom-GCN split, and the
// summary is the mean and population std of the runs.
func TestTrainWebKBSplits(t *testing.T) {
	root := datatest.Root(t, "texas/raw/out1_graph_edges.txt")
	o := trainJSON(t, "--data-dir", root, "-d", "texas", "-m", "gcn", "--split", "all", "--epochs", "20", "--seeds", "2")
	if len(o.Runs) != 20 {
		t.Fatalf("%d runs, want 10 splits × 2 seeds", len(o.Runs))
	}
	var sum, sq float64
	for i, r := range o.Runs {
		if r.Split != i/2 || r.Seed != uint64(i%2) {
			t.Fatalf("run %d is split %d seed %d", i, r.Split, r.Seed)
		}
		sum += r.TestAcc
	}
	mean := sum / 20
	for _, r := range o.Runs {
		sq += (r.TestAcc - mean) * (r.TestAcc - mean)
	}
	if math.Abs(o.TestAccMean-mean) > 1e-12 || math.Abs(o.TestAccStd-math.Sqrt(sq/20)) > 1e-12 {
		t.Fatalf("mean %v std %v, want %v %v", o.TestAccMean, o.TestAccStd, mean, math.Sqrt(sq/20))
	}
}
