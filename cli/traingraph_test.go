package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// fakeTU writes a TU dataset under root/NAME/raw: graphs of a triangle
// (class label from labels) and returns root.
func fakeTU(t *testing.T, name string, labels []string) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, name, "raw")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var a, ind, nl strings.Builder
	for g := range labels {
		o := 3 * g
		for _, e := range [][2]int{{1, 2}, {2, 1}, {2, 3}, {3, 2}, {1, 3}, {3, 1}} {
			a.WriteString(strings.Join([]string{itoa(o + e[0]), itoa(o + e[1])}, ", ") + "\n")
		}
		for k := range 3 {
			ind.WriteString(itoa(g+1) + "\n")
			nl.WriteString(itoa(k%2) + "\n")
		}
	}
	for part, s := range map[string]string{"A": a.String(), "graph_indicator": ind.String(),
		"graph_labels": strings.Join(labels, "\n") + "\n", "node_labels": nl.String()} {
		if err := os.WriteFile(filepath.Join(dir, name+"_"+part+".txt"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestTrainGraphBadInput: --task graph on a single-graph dataset, a node
// task on a TU dataset, a one-class dataset and a split without a class in
// training are refused with the flag named.
func TestTrainGraphBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "--dataset", "ring", "--task", "graph", "--model", "gin"}, "--task graph: --dataset ring is a single graph"},
		{[]string{"train", "--dataset", "mutag", "--model", "gcn"}, "--dataset mutag: a graph-classification dataset"},
		{[]string{"train", "--dataset", "mutag", "--task", "graph", "--model", "dirgcn"}, "--model: unknown graph model"},
		{[]string{"train", "--dataset", "mutag", "--task", "graph", "--model", "gin", "--pairnorm"}, "--pairnorm"},
		{[]string{"train", "--dataset", "cora", "--model", "gcn", "--trials", "3"}, "--trials: applies to --task graph"},
	} {
		code, _, errs := run(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", tc.args, code, errs, tc.want)
		}
	}
	one := fakeTU(t, "NCI1", []string{"1", "1", "1", "1", "1", "1"})
	// NCI1: a TU name whose files ohm has no checksum of, so that the fake
	// files are taken as they are.
	t.Setenv("OHM_DATA", one)
	code, out, errs := run(t, "--data-dir", one, "--no-download", "train", "--dataset", "nci1", "--task", "graph", "--model", "gcn")
	if code == 0 || out != "" || !strings.Contains(errs, "--dataset nci1") || !strings.Contains(errs, "1 class") {
		t.Errorf("one class: exit %d, %q", code, errs)
	}
	// 20 graphs, one of class 1: seed 0..9's training parts cannot all hold it.
	labels := make([]string, 20)
	for i := range labels {
		labels[i] = "0"
	}
	labels[7] = "1"
	rare := fakeTU(t, "NCI1", labels)
	t.Setenv("OHM_DATA", rare)
	code, out, errs = run(t, "--data-dir", rare, "--no-download", "train", "--dataset", "nci1", "--task", "graph", "--model", "gcn", "--epochs", "1")
	if code != 2 || out != "" || !strings.Contains(errs, "--trials:") || !strings.Contains(errs, "leaves class 1 out of training") {
		t.Errorf("class out of training: exit %d, %q", code, errs)
	}
	// A learning rate of 1e300 overflows the weights after the first step.
	for i := range labels {
		labels[i] = itoa(i % 2)
	}
	two := fakeTU(t, "NCI1", labels)
	t.Setenv("OHM_DATA", two)
	code, out, errs = run(t, "--data-dir", two, "--no-download", "train", "--dataset", "nci1", "--task", "graph", "--model", "gcn",
		"--lr", "1e300", "--batch-size", "4", "--trials", "1")
	if code == 0 || out != "" || !strings.Contains(errs, "epoch 1, batch 2: loss is not finite") || !strings.Contains(errs, "nothing recorded") {
		t.Errorf("NaN loss: exit %d, %q", code, errs)
	}
}

// TestTrainGraphMUTAG runs two short GIN trials on MUTAG: the JSON output's
// fields, and the same numbers with one thread and two — two trials on a
// thread each, and the first trial alone on two threads (the work of its
// batches split between them).
func TestTrainGraphMUTAG(t *testing.T) {
	root := datatest.Root(t, "MUTAG/raw/MUTAG_A.txt")
	var one, two, lone GraphTrainOut
	args := []string{"--data-dir", root, "--no-download", "train", "--dataset", "mutag", "--task", "graph", "--model", "gin",
		"--layers", "2", "--hidden", "16", "--epochs", "4", "--json"}
	runJSON(t, &one, append([]string{"--threads", "1"}, append(args, "--trials", "2")...)...)
	runJSON(t, &two, append([]string{"--threads", "2"}, append(args, "--trials", "2")...)...)
	runJSON(t, &lone, append([]string{"--threads", "2"}, append(args, "--trials", "1")...)...)
	if len(lone.Runs) != 1 || lone.Runs[0] != one.Runs[0] {
		t.Errorf("trial 0 alone on two threads %+v, on one %+v", lone.Runs, one.Runs[0])
	}
	if one.Trials != 2 || len(one.Runs) != 2 || one.Dataset != "MUTAG" || one.Model != "gin" || one.Task != "graph" {
		t.Fatalf("%+v", one)
	}
	for i := range one.Runs {
		if one.Runs[i] != two.Runs[i] {
			t.Errorf("trial %d: one thread %+v, two %+v", i, one.Runs[i], two.Runs[i])
		}
		if one.Runs[i].Epochs != 4 {
			t.Errorf("trial %d ran %d epochs, want 4", i, one.Runs[i].Epochs)
		}
	}
}

// TestTrainGraphRewired trains R-GCN on a collated archive of MUTAG with one
// added edge per graph (--graph), and refuses an archive of other graphs
// naming --graph.
func TestTrainGraphRewired(t *testing.T) {
	root := datatest.Root(t, "MUTAG/raw/MUTAG_A.txt")
	d, err := dataset.LoadTU(filepath.Join(root, "MUTAG", "raw"), "MUTAG", dataset.TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gs := d.Graphs(false)
	for _, g := range gs {
		if n := g.N(); n > 1 && !g.HasEdge(0, n-1) {
			g.AddEdge(0, n-1)
		}
	}
	r, err := d.Rewired(gs, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mutag-plus.npz")
	var buf bytes.Buffer
	if err := dataset.EncodeTUArchive(&buf, r); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out GraphTrainOut
	runJSON(t, &out, "--data-dir", root, "--no-download", "train", "--dataset", "mutag", "--task", "graph", "--model", "rgcn",
		"--graph", path, "--layers", "1", "--hidden", "8", "--trials", "1", "--epochs", "2", "--json")
	if out.Graph != "mutag-plus.npz" || out.Trials != 1 || out.Runs[0].Epochs != 2 {
		t.Errorf("%+v", out)
	}
	// Another dataset's graphs: refused, naming --graph.
	r.Y = slices.Clone(r.Y)
	r.Y[3] = 1 - r.Y[3]
	buf.Reset()
	if err := dataset.EncodeTUArchive(&buf, r); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := run(t, "--data-dir", root, "--no-download", "train", "--dataset", "mutag", "--task", "graph", "--model", "rgcn",
		"--graph", path, "--trials", "1", "--epochs", "1")
	if code == 0 || stdout != "" || !strings.Contains(errs, "--graph "+path+" is not a rewiring of MUTAG: graph 3 differs") {
		t.Errorf("exit %d, %q", code, errs)
	}
}
