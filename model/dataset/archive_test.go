package dataset

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// sameDataset fails unless got holds exactly want's arcs, features,
// labels, classes and splits.
func sameDataset(t *testing.T, got, want *Dataset) {
	t.Helper()
	if got.N() != want.N() || !slices.Equal(got.Graph.Arcs(), want.Graph.Arcs()) {
		t.Errorf("graph: %d nodes %d arcs, want %d nodes %d arcs", got.N(), len(got.Graph.Arcs()), want.N(), len(want.Graph.Arcs()))
	}
	gr, wr := got.Features.RawMatrix(), want.Features.RawMatrix()
	if gr.I != wr.I || gr.J != wr.J || !slices.Equal(gr.Indptr, wr.Indptr) || !slices.Equal(gr.Ind, wr.Ind) || !slices.Equal(gr.Data, wr.Data) {
		t.Errorf("features differ: %d×%d nnz %d, want %d×%d nnz %d", gr.I, gr.J, len(gr.Data), wr.I, wr.J, len(wr.Data))
	}
	if !slices.Equal(got.Labels, want.Labels) || got.NumClasses != want.NumClasses {
		t.Errorf("labels differ (classes %d, want %d)", got.NumClasses, want.NumClasses)
	}
	if len(got.Splits) != len(want.Splits) {
		t.Fatalf("%d splits, want %d", len(got.Splits), len(want.Splits))
	}
	for k := range want.Splits {
		g, w := got.Splits[k], want.Splits[k]
		if !slices.Equal(g.Train, w.Train) || !slices.Equal(g.Val, w.Val) || !slices.Equal(g.Test, w.Test) {
			t.Errorf("split %d differs", k)
		}
	}
}

// TestArchiveRoundTripCornell: Cornell's 10 splits (n×10 masks), float32
// features, labels and arcs read back exactly; the hash depends on the
// arrays only.
func TestArchiveRoundTripCornell(t *testing.T) {
	root := datatest.Root(t, "cornell/raw/out1_graph_edges.txt")
	d, err := LoadWebKB(filepath.Join(root, "cornell", "raw"), "cornell")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cornell.npz")
	if err := WriteArchive(path, d, nil); err != nil {
		t.Fatal(err)
	}
	a, err := ReadArchive(path, "cornell")
	if err != nil {
		t.Fatal(err)
	}
	sameDataset(t, a.Dataset, d)
	if !a.HasSplits || len(a.SHA256) != 64 {
		t.Errorf("HasSplits %v, SHA256 %q", a.HasSplits, a.SHA256)
	}
	z, err := graphio.OpenNPZ(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	want := map[string]string{"edge_index": "<i8 (2, 298)", "num_nodes": "<i8 ()", "x": "<f4 (183, 1703)", "y": "<i8 (183,)",
		"train_mask": "|b1 (183, 10)", "val_mask": "|b1 (183, 10)", "test_mask": "|b1 (183, 10)"}
	for k, w := range want {
		arr, err := z.Array(k)
		if err != nil {
			t.Fatal(err)
		}
		if got := arr.Descr + " " + arr.ShapeString(); got != w {
			t.Errorf("%s: %s, want %s", k, got, w)
		}
	}
	// The same arrays written again (other bytes of the ZIP would not
	// matter either) give the same hash.
	again := filepath.Join(t.TempDir(), "other-name.npz")
	if err := WriteArchive(again, d, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := ReadArchive(again, "x"); b == nil || b.SHA256 != a.SHA256 {
		t.Error("the same arrays gave another hash")
	}
}

// TestArchiveOneSplitAndHash: a dataset of one split writes (n,) masks; a
// changed label changes the hash; a ZIP stored instead of deflated keeps it.
func TestArchiveOneSplitAndHash(t *testing.T) {
	d := Bottleneck(SynthOptions{})
	dir := t.TempDir()
	path := filepath.Join(dir, "b.npz")
	if err := WriteArchive(path, d, d.Graph.Undirected()); err != nil {
		t.Fatal(err)
	}
	a, err := ReadArchive(path, "b")
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Splits) != 1 || a.Name != "b" {
		t.Fatalf("%d splits, name %q", len(a.Splits), a.Name)
	}
	want := *d
	want.Graph = d.Graph.Undirected()
	got := *a.Dataset
	got.Graph = a.Graph.Undirected()
	sameDataset(t, &got, &want)

	// Stored (not deflated) members, same arrays: same hash.
	z, _ := graphio.OpenNPZ(path)
	var arrays []*graphio.Array
	for _, k := range ArchiveKeys {
		arr, err := z.Array(k)
		if err != nil {
			t.Fatal(err)
		}
		arrays = append(arrays, arr)
	}
	z.Close()
	var buf bytes.Buffer
	if err := graphio.EncodeNPZArrays(&buf, arrays...); err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(dir, "copy.npz")
	os.WriteFile(copyPath, buf.Bytes(), 0o644)
	if c, err := ReadArchive(copyPath, "b"); err != nil || c.SHA256 != a.SHA256 {
		t.Errorf("copy: %v, hash equal %v", err, c != nil && c.SHA256 == a.SHA256)
	}
	d2 := *d
	d2.Labels = slices.Clone(d.Labels)
	d2.Labels[0] = 1 - d2.Labels[0]
	if err := WriteArchive(path, &d2, d.Graph.Undirected()); err != nil {
		t.Fatal(err)
	}
	if c, err := ReadArchive(path, "b"); err != nil || c.SHA256 == a.SHA256 {
		t.Errorf("changed label: %v, same hash %v", err, c != nil && c.SHA256 == a.SHA256)
	}
}

// TestArchiveErrors: what is missing or malformed is named with its member.
func TestArchiveErrors(t *testing.T) {
	dir := t.TempDir()
	n := 4
	g := linalg.NewGraph(n, true)
	g.AddEdge(0, 1)
	x := graphio.NewFloatArray(KeyX, "<f4", []int{n, 2}, []float64{1, 0, 0, 1, 1, 1, 0, 0})
	y := graphio.NewInt64Array(KeyY, []int{n}, []int64{0, 1, 0, 1})
	mask := func(k string, v ...bool) *graphio.Array { return graphio.NewMaskArray(k, "|b1", v) }
	tr, va, te := mask(KeyTrainMask, true, false, false, false), mask(KeyValMask, false, true, false, false), mask(KeyTestMask, false, false, true, true)
	for _, tc := range []struct {
		name   string
		arrays []*graphio.Array
		msg    string
	}{
		{"no x", []*graphio.Array{y, tr, va, te}, "missing array x"},
		{"no y", []*graphio.Array{x}, "missing array y"},
		{"x 1-d", []*graphio.Array{graphio.NewFloatArray(KeyX, "<f8", []int{n}, []float64{1, 2, 3, 4}), y}, "x.npy]: shape (4,): want (4, d)"},
		{"x ints", []*graphio.Array{graphio.NewInt64Array(KeyX, []int{n, 1}, []int64{1, 2, 3, 4}), y}, "want float32 or float64"},
		{"y short", []*graphio.Array{x, graphio.NewInt64Array(KeyY, []int{3}, []int64{0, 1, 0})}, "y.npy]: shape (3,): want (4,)"},
		{"y negative", []*graphio.Array{x, graphio.NewInt64Array(KeyY, []int{n}, []int64{0, -1, 0, 1})}, "label -1 of node 1"},
		{"two masks", []*graphio.Array{x, y, tr, va}, "but not all of train_mask, val_mask and test_mask"},
		{"empty test", []*graphio.Array{x, y, tr, va, mask(KeyTestMask, false, false, false, false)}, "test_mask selects no node (split 0)"},
		{"shapes differ", []*graphio.Array{x, y, tr, va, graphio.NewBoolArray(KeyTestMask, []int{n, 1}, []bool{true, true, true, true})}, "shape (4, 1) differs from train_mask's (4,)"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".npz")
		if err := graphio.WriteGraphNPZ(path, n, g.Arcs(), tc.arrays...); err != nil {
			t.Fatal(err)
		}
		_, err := ReadArchive(path, "g")
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.msg)
		}
	}
	// A valid one without masks: no splits.
	path := filepath.Join(dir, "ok.npz")
	graphio.WriteGraphNPZ(path, n, g.Arcs(), x, y)
	a, err := ReadArchive(path, "g")
	if err != nil || a.HasSplits || a.Splits != nil || a.NumClasses != 2 || a.Features.NNZ() != 4 {
		t.Fatalf("%v %+v", err, a)
	}
}
