package dataset

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

// TestRewiredArchive: graph 0 of tiny loses {1, 2} and gains {0, 2}: the
// kept arcs keep their rows and type 0, the added ones get the fill and
// type 1; the archive reads back to the same dataset.
func TestRewiredArchive(t *testing.T) {
	d, err := LoadTU(writeTU(t, "TINY", tiny), "TINY", TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gs := d.Graphs(false)
	gs[0].RemoveEdge(1, 2)
	gs[0].AddEdge(0, 2)
	for _, c := range []struct {
		fill []float64
		row  []float64
	}{{nil, []float64{0, 0}}, {[]float64{0.5}, []float64{0.5, 0.5}}, {[]float64{1, 0}, []float64{1, 0}}} {
		r, err := d.Rewired(gs, c.fill)
		if err != nil {
			t.Fatal(err)
		}
		want := &TUDataset{Name: "TINY", NodePtr: d.NodePtr, EdgePtr: []int{0, 4, 6, 6},
			Src: []int{0, 0, 1, 2, 0, 1}, Dst: []int{1, 2, 0, 0, 1, 0}, EdgeType: []int{0, 1, 0, 1, 0, 0},
			EdgeAttr: append(append(append([]float64{1, 0}, c.row...), 0, 1), append(c.row, 1, 0, 1, 0)...),
			X:        d.X, NumFeatures: 3, NumEdgeFeatures: 2, Y: d.Y, NumClasses: 2, NumNodeAttributes: 2, NumNodeLabels: 3, NumEdgeAttributes: 1, NumEdgeLabels: 2}
		if !reflect.DeepEqual(r, want) {
			t.Errorf("fill %v: rewired\n%+v\nwant\n%+v", c.fill, r, want)
		}
		path := filepath.Join(t.TempDir(), "r.npz")
		var buf bytes.Buffer
		if err := EncodeTUArchive(&buf, r); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(path, buf.Bytes(), 0o644)
		if !IsTUArchive(path) {
			t.Errorf("IsTUArchive(%s) = false", path)
		}
		back, err := ReadTUArchive(path, "TINY")
		if err != nil {
			t.Fatal(err)
		}
		back.NumNodeAttributes, back.NumNodeLabels, back.NumEdgeAttributes, back.NumEdgeLabels = 2, 3, 1, 2
		if !reflect.DeepEqual(back, r) {
			t.Errorf("fill %v: read back\n%+v\nwant\n%+v", c.fill, back, r)
		}
	}
	if _, err := d.Rewired(gs, []float64{1, 2, 3}); err == nil || !strings.Contains(err.Error(), "2 columns") {
		t.Errorf("fill of 3 values: error %v", err)
	}
	if _, err := d.Rewired([]*linalg.Graph{gs[0], gs[1], linalg.NewGraph(2, false)}, nil); err == nil {
		t.Errorf("graph of another size: no error")
	}
}

// TestReadTUArchiveRefuses: archives with inconsistent slices or ids are
// refused naming the member.
func TestReadTUArchiveRefuses(t *testing.T) {
	d, err := LoadTU(writeTU(t, "TINY", tiny), "TINY", TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		edit   func(d *TUDataset)
		member string
	}{
		{"ptr decreasing", func(d *TUDataset) { d.NodePtr = []int{0, 4, 3, 6} }, "ptr.npy"},
		{"arc beyond its graph", func(d *TUDataset) { d.Dst = []int{1, 0, 2, 1, 1, 2} }, "edge_index.npy"},
		{"edge type 2", func(d *TUDataset) { d.EdgeType = []int{0, 0, 2, 0, 0, 0} }, "edge_type.npy"},
	} {
		e := *d
		c.edit(&e)
		path := filepath.Join(t.TempDir(), "bad.npz")
		var buf bytes.Buffer
		if err := EncodeTUArchive(&buf, &e); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(path, buf.Bytes(), 0o644)
		if _, err := ReadTUArchive(path, "bad"); err == nil || !strings.Contains(err.Error(), c.member) {
			t.Errorf("%s: error %v, want one naming %s", c.name, err, c.member)
		}
	}
}
