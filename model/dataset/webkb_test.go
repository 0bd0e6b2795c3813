package dataset

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/james-bowman/sparse"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

func TestWebKBRealData(t *testing.T) {
	root := datatest.Root(t, "cornell/raw/out1_graph_edges.txt", "texas/raw/out1_graph_edges.txt", "expected.json")
	expected := datatest.LoadExpected(t, root)
	loaded := map[string]*Dataset{}
	for _, name := range []string{"cornell", "texas"} {
		t.Run(name, func(t *testing.T) {
			want := expected[name]
			// Any case is accepted.
			d, err := LoadWebKB(filepath.Join(root, name, "raw"), strings.ToUpper(name[:1])+name[1:])
			if err != nil {
				t.Fatal(err)
			}
			loaded[name] = d
			g := d.Graph
			u := g.Undirected()
			checks := []struct {
				what      string
				got, want int
			}{
				{"name", webkbBoolInt(d.Name == name), 1},
				{"directed", webkbBoolInt(g.Directed()), 1},
				{"nodes", d.N(), want.Nodes},
				{"features", d.NumFeatures(), want.Features},
				{"classes", d.NumClasses, want.Classes},
				{"labels", len(d.Labels), want.Nodes},
				{"arcs", g.NumEdges() + g.NumSelfLoops(), want.Arcs},
				{"arcs (E0)", g.E0(), want.Arcs},
				{"arcs (Arcs())", len(g.Arcs()), want.Arcs},
				{"undirected edges", u.NumEdges(), want.UndirectedEdges},
				{"undirected edges incl self-loops", u.E0(), want.UndirectedEdgesInclSelfLoops},
				{"self-loops", g.NumSelfLoops(), want.SelfLoops},
				{"raw self-loops", g.NumSelfLoops(), want.RawSelfLoops},
				{"feature nnz", d.Features.NNZ(), want.FeatureNNZ},
				{"isolated nodes", webkbIsolated(u), want.IsolatedNodes},
				{"reciprocated pairs", webkbReciprocated(g), want.ReciprocatedPairs},
				{"splits", len(d.Splits), len(want.Splits)},
			}
			comps, largest, _ := datatest.Components(u)
			checks = append(checks,
				struct {
					what      string
					got, want int
				}{"components", comps, want.Components},
				struct {
					what      string
					got, want int
				}{"largest component", largest, want.LargestComponent})
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("%s = %d, want %d", c.what, c.got, c.want)
				}
			}
			if got := d.ClassCounts(); !slices.Equal(got, want.ClassCounts) {
				t.Errorf("class counts %v, want %v", got, want.ClassCounts)
			}
			webkbCheckCSR(t, d.Features, true)
			for i, s := range d.Splits {
				sizes := []int{len(s.Train), len(s.Val), len(s.Test)}
				if !slices.Equal(sizes, want.Splits[i]) {
					t.Errorf("split %d sizes %v, want %v", i, sizes, want.Splits[i])
				}
				webkbCheckPartition(t, i, s, d.N())
			}
			if s := d.Splits[0]; len(s.Train) != want.Train || len(s.Val) != want.Val || len(s.Test) != want.Test {
				t.Errorf("split 0 sizes %d/%d/%d, want %d/%d/%d", len(s.Train), len(s.Val), len(s.Test), want.Train, want.Val, want.Test)
			}
			webkbCheckArcsMatchFile(t, filepath.Join(root, name, "raw", "out1_graph_edges.txt"), g)
		})
	}
	c, x := loaded["cornell"], loaded["texas"]
	if c == nil || x == nil {
		return
	}
	if !slices.Equal(c.Labels, x.Labels) {
		t.Error("Cornell and Texas labels differ")
	}
	if !webkbCSREqual(c.Features, x.Features) {
		t.Error("Cornell and Texas features differ")
	}
	for i := range c.Splits {
		if slices.Equal(c.Splits[i].Train, x.Splits[i].Train) {
			t.Errorf("split %d: Cornell and Texas have the same training set", i)
		}
	}
}

func webkbBoolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func webkbIsolated(u *linalg.Graph) int {
	k := 0
	for v := range u.N() {
		if u.Degree(v) == 0 {
			k++
		}
	}
	return k
}

func webkbReciprocated(g *linalg.Graph) int {
	k := 0
	for _, e := range g.Edges() {
		if e.U < e.V && g.HasEdge(e.V, e.U) {
			k++
		}
	}
	return k
}

// webkbCheckPartition checks that a split's lists are ascending, disjoint and
// cover all n nodes.
func webkbCheckPartition(t *testing.T, i int, s Split, n int) {
	t.Helper()
	owner := make([]int, n)
	for k, ids := range [][]int{s.Train, s.Val, s.Test} {
		if !slices.IsSorted(ids) {
			t.Errorf("split %d list %d not ascending", i, k)
		}
		for _, v := range ids {
			if owner[v] != 0 {
				t.Errorf("split %d: node %d in two sets", i, v)
			}
			owner[v] = k + 1
		}
	}
	if slices.Contains(owner, 0) {
		t.Errorf("split %d: node %d in no set", i, slices.Index(owner, 0))
	}
}

// webkbCheckCSR checks that column indices are ascending and unique in every row
// and, if binary, that every stored value is 1.
func webkbCheckCSR(t *testing.T, m *sparse.CSR, binary bool) {
	t.Helper()
	raw := m.RawMatrix()
	for r := range raw.I {
		cols := raw.Ind[raw.Indptr[r]:raw.Indptr[r+1]]
		for k := 1; k < len(cols); k++ {
			if cols[k] <= cols[k-1] {
				t.Fatalf("row %d: columns %v not ascending and unique", r, cols)
			}
		}
	}
	for _, v := range raw.Data {
		if v == 0 || binary && v != 1 {
			t.Fatalf("stored value %v", v)
		}
	}
}

func webkbCSREqual(a, b *sparse.CSR) bool {
	ra, rb := a.RawMatrix(), b.RawMatrix()
	return ra.I == rb.I && ra.J == rb.J && slices.Equal(ra.Indptr, rb.Indptr) &&
		slices.Equal(ra.Ind, rb.Ind) && slices.Equal(ra.Data, rb.Data)
}

// webkbCheckArcsMatchFile checks that the graph's arcs are exactly the distinct
// lines of the edge file.
func webkbCheckArcsMatchFile(t *testing.T, path string, g *linalg.Graph) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	set := map[linalg.Edge]bool{}
	for _, l := range lines[1 : len(lines)-1] {
		var e linalg.Edge
		if _, err := fmt.Sscanf(l, "%d\t%d", &e.U, &e.V); err != nil {
			t.Fatal(err)
		}
		set[e] = true
	}
	arcs := g.Arcs()
	if len(arcs) != len(set) {
		t.Fatalf("%d arcs, file has %d distinct lines", len(arcs), len(set))
	}
	for _, e := range arcs {
		if !set[e] {
			t.Fatalf("arc %v not in the file", e)
		}
	}
}

// The tiny hand-made WebKB folder testdata/webkb/tiny: 6 nodes in line order
// (the id column runs 5..0 to show it is ignored), 4 features, labels
// 2 0 1 2 0 3; 9 edge lines with a duplicate (0,1) and self-loops on 2 and 5.
const webkbTinyDir = "testdata/webkb/tiny"

// webkbTinySplit is split i of the tiny folder: node v goes to train, val or test
// by (v - i) mod 6 in {0,1,2}, {3,4} or {5}.
func webkbTinySplit(i int) (train, val, test []bool) {
	train, val, test = make([]bool, 6), make([]bool, 6), make([]bool, 6)
	for v := range 6 {
		switch r := ((v-i)%6 + 6) % 6; {
		case r < 3:
			train[v] = true
		case r < 5:
			val[v] = true
		default:
			test[v] = true
		}
	}
	return
}

// webkbTinySplitDescr is the mask dtype of split i: bool for 4, 5, 6 (as in
// Cornell), uint8 otherwise.
func webkbTinySplitDescr(i int) string {
	if i >= 4 && i <= 6 {
		return "|b1"
	}
	return "|u1"
}

func webkbWriteTinySplits(t *testing.T, dir string) {
	t.Helper()
	for i := range WebKBSplits {
		tr, va, te := webkbTinySplit(i)
		d := webkbTinySplitDescr(i)
		path := filepath.Join(dir, fmt.Sprintf("tiny_split_0.6_0.2_%d.npz", i))
		if err := graphio.WriteNPZArrays(path, graphio.NewMaskArray("train_mask", d, tr),
			graphio.NewMaskArray("val_mask", d, va), graphio.NewMaskArray("test_mask", d, te)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWebKBTinyFixtures checks the checked-in split archives against their
// definition (webkbTinySplit); OHM_UPDATE_WEBKB_TINY=1 rewrites them.
func TestWebKBTinyFixtures(t *testing.T) {
	if os.Getenv("OHM_UPDATE_WEBKB_TINY") == "1" {
		webkbWriteTinySplits(t, webkbTinyDir)
	}
	tmp := t.TempDir()
	webkbWriteTinySplits(t, tmp)
	for i := range WebKBSplits {
		name := fmt.Sprintf("tiny_split_0.6_0.2_%d.npz", i)
		want, err := os.ReadFile(filepath.Join(tmp, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(webkbTinyDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from its definition (OHM_UPDATE_WEBKB_TINY=1 rewrites it)", name)
		}
	}
}

func TestWebKBTiny(t *testing.T) {
	d, err := loadWebKBFiles(webkbTinyDir, "tiny")
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "tiny" || d.N() != 6 || d.NumFeatures() != 4 || d.NumClasses != 4 {
		t.Fatalf("name %q n %d features %d classes %d", d.Name, d.N(), d.NumFeatures(), d.NumClasses)
	}
	if want := []int{2, 0, 1, 2, 0, 3}; !slices.Equal(d.Labels, want) {
		t.Errorf("labels %v, want %v", d.Labels, want)
	}
	if want := []int{2, 1, 2, 1}; !slices.Equal(d.ClassCounts(), want) {
		t.Errorf("class counts %v, want %v", d.ClassCounts(), want)
	}
	wantX := [][]float64{{1, 0, 0, 1}, {0, 0, 0, 0}, {0, 1, 1, 0}, {1, 1, 1, 1}, {0, 0, 1, 0}, {0, 0, 0, 1}}
	for r, row := range wantX {
		for c, v := range row {
			if got := d.Features.At(r, c); got != v {
				t.Errorf("X[%d,%d] = %v, want %v", r, c, got, v)
			}
		}
	}
	if d.Features.NNZ() != 10 {
		t.Errorf("nnz %d, want 10", d.Features.NNZ())
	}
	webkbCheckCSR(t, d.Features, true)
	g := d.Graph
	wantArcs := []linalg.Edge{{U: 0, V: 1}, {U: 1, V: 0}, {U: 1, V: 2}, {U: 2, V: 2}, {U: 2, V: 5}, {U: 3, V: 4}, {U: 4, V: 3}, {U: 5, V: 5}}
	if got := g.Arcs(); !g.Directed() || !slices.Equal(got, wantArcs) {
		t.Errorf("arcs %v, want %v", got, wantArcs)
	}
	if g.NumEdges() != 6 || g.NumSelfLoops() != 2 || g.E0() != 8 {
		t.Errorf("arcs %d self-loops %d E0 %d, want 6 2 8", g.NumEdges(), g.NumSelfLoops(), g.E0())
	}
	if u := g.Undirected(); u.NumEdges() != 4 || u.E0() != 6 {
		t.Errorf("undirected edges %d E0 %d, want 4 6", u.NumEdges(), u.E0())
	}
	if len(d.Splits) != WebKBSplits {
		t.Fatalf("%d splits", len(d.Splits))
	}
	for i, s := range d.Splits {
		tr, va, te := webkbTinySplit(i)
		if !slices.Equal(s.Train, maskToIDs(tr)) || !slices.Equal(s.Val, maskToIDs(va)) || !slices.Equal(s.Test, maskToIDs(te)) {
			t.Errorf("split %d = %v", i, s)
		}
		webkbCheckPartition(t, i, s, 6)
	}
	if s := d.Splits[1]; !slices.Equal(s.Train, []int{1, 2, 3}) || !slices.Equal(s.Val, []int{4, 5}) || !slices.Equal(s.Test, []int{0}) {
		t.Errorf("split 1 = %v, want train 1 2 3, val 4 5, test 0", s)
	}
}

func TestWebKBUnknownName(t *testing.T) {
	if _, err := LoadWebKB(webkbTinyDir, "tiny"); err == nil || !strings.Contains(err.Error(), "unknown WebKB dataset") {
		t.Errorf("got %v", err)
	}
}

// webkbCopyTiny copies the tiny folder into a temporary one.
func webkbCopyTiny(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	es, err := os.ReadDir(webkbTinyDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(webkbTinyDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	webkbTinyFeatures = "node_id\tfeature\tlabel\n5\t1,0,0,1\t2\n4\t0,0,0,0\t0\n3\t0,1,1,0\t1\n2\t1,1,1,1\t2\n1\t0,0,1,0\t0\n0\t0,0,0,1\t3\n"
	webkbTinyEdges    = "node_id\tnode_id\n0\t1\n1\t0\n1\t2\n2\t2\n3\t4\n0\t1\n5\t5\n4\t3\n2\t5\n"
)

func TestWebKBTextErrors(t *testing.T) {
	const feat, edge = "out1_node_feature_label.txt", "out1_graph_edges.txt"
	cases := []struct {
		name, file, content string
		line                int
		msg                 string
	}{
		{"edges: bad header", edge, "src\tdst\n0\t1\n", 1, `bad header "src\tdst": want "node_id\tnode_id"`},
		{"edges: missing header", edge, "0\t1\n1\t2\n", 1, "bad header"},
		{"edges: empty file", edge, "", 1, "empty file"},
		{"edges: one field", edge, "node_id\tnode_id\n0\t1\n2 3\n", 3, "want 2 tab-separated fields \"src<TAB>dst\", got 1"},
		{"edges: three fields", edge, "node_id\tnode_id\n0\t1\t\n", 2, "got 3"},
		{"edges: non-integer", edge, "node_id\tnode_id\n0\t1\n1\tx\n", 3, `target node id "x" is not an integer`},
		{"edges: negative", edge, "node_id\tnode_id\n-1\t1\n", 2, "source node id -1 is outside [0, 2147483647)"},
		{"edges: leading tab", edge, "node_id\tnode_id\n0\t1\n\t6\t0\n", 3, "got 3"},
		{"edges: id >= number of nodes", edge, "node_id\tnode_id\n0\t1\n1\t2\n6\t0\n", 4, "node id 6 is not below the number of nodes 6"},
		{"edges: empty line", edge, "node_id\tnode_id\n0\t1\n\n1\t2\n", 3, "empty line"},
		{"edges: trailing empty line", edge, "node_id\tnode_id\n0\t1\n\n", 3, "empty line"},
		{"features: bad header", feat, "id\tf\tl\n0\t1\t0\n", 1, "bad header"},
		{"features: two fields", feat, "node_id\tfeature\tlabel\n0\t1,0\t1\n1\t1,0\n", 3, "want 3 tab-separated fields"},
		{"features: non-integer feature", feat, "node_id\tfeature\tlabel\n0\t1,0\t1\n1\t1,0.5\t0\n", 3, `feature 1 "0.5" is not an integer`},
		{"features: no features", feat, "node_id\tfeature\tlabel\n0\t\t1\n", 2, `feature 0 "" is not an integer`},
		{"features: count differs", feat, "node_id\tfeature\tlabel\n0\t1,0\t1\n1\t1,0,1\t0\n", 3, "3 features, but line 2 has 2"},
		{"features: non-integer label", feat, "node_id\tfeature\tlabel\n0\t1,0\tcat\n", 2, `label "cat" is not an integer`},
		{"features: negative label", feat, "node_id\tfeature\tlabel\n0\t1,0\t-1\n", 2, "label -1 is outside [0, 65535]"},
		{"features: huge label", feat, "node_id\tfeature\tlabel\n0\t1,0\t99999999\n", 2, "label 99999999 is outside"},
		{"features: no nodes", feat, "node_id\tfeature\tlabel\n", 2, "no node lines after the header"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := webkbCopyTiny(t)
			path := filepath.Join(dir, c.file)
			if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := loadWebKBFiles(dir, "tiny")
			var fe *graphio.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *graphio.FormatError", err, err)
			}
			if fe.Path != path || fe.Line != c.line || fe.Member != "" {
				t.Errorf("path %q line %d member %q, want %q line %d (%v)", fe.Path, fe.Line, fe.Member, path, c.line, err)
			}
			if !strings.Contains(fe.Msg, c.msg) {
				t.Errorf("Msg %q, want it to contain %q", fe.Msg, c.msg)
			}
		})
	}
}

// TestWebKBTolerated checks inputs PyG reads too: CRLF line ends, blanks
// around fields, integer features other than 0/1; and a missing final
// newline (where PyG would drop the last line).
func TestWebKBTolerated(t *testing.T) {
	dir := webkbCopyTiny(t)
	feat := strings.ReplaceAll(webkbTinyFeatures, "\n", "\r\n")
	feat = strings.Replace(feat, "1,1,1,1\t2", " 1, 2,1 ,1\t 2 ", 1)
	edges := strings.TrimSuffix(webkbTinyEdges, "\n")
	os.WriteFile(filepath.Join(dir, "out1_node_feature_label.txt"), []byte(feat), 0o644)
	os.WriteFile(filepath.Join(dir, "out1_graph_edges.txt"), []byte(edges), 0o644)
	d, err := loadWebKBFiles(dir, "tiny")
	if err != nil {
		t.Fatal(err)
	}
	if d.Features.At(3, 1) != 2 || d.Labels[3] != 2 || !d.Graph.HasEdge(2, 5) || d.Graph.E0() != 8 {
		t.Errorf("X[3,1]=%v label %d arc (2,5) %v E0 %d", d.Features.At(3, 1), d.Labels[3], d.Graph.HasEdge(2, 5), d.Graph.E0())
	}
}

func TestWebKBSplitErrors(t *testing.T) {
	split3 := "tiny_split_0.6_0.2_3.npz"
	ok := make([]bool, 6)
	cases := []struct {
		name   string
		arrays []*graphio.Array
		raw    []byte
		member string
		msg    string
	}{
		{name: "missing val_mask", arrays: []*graphio.Array{graphio.NewMaskArray("train_mask", "|u1", ok), graphio.NewMaskArray("test_mask", "|u1", ok)},
			member: "val_mask.npy", msg: "missing array val_mask (archive holds train_mask, test_mask)"},
		{name: "wrong length", arrays: []*graphio.Array{graphio.NewMaskArray("train_mask", "|u1", ok), graphio.NewMaskArray("val_mask", "|b1", make([]bool, 5)), graphio.NewMaskArray("test_mask", "|u1", ok)},
			member: "val_mask.npy", msg: "mask of length 5, want 6 (one per node)"},
		{name: "int64 mask", arrays: []*graphio.Array{graphio.NewInt64Array("train_mask", []int{6}, make([]int64, 6))},
			member: "train_mask.npy", msg: "want a mask of bool (|b1) or uint8 (|u1)"},
		{name: "not a zip", raw: []byte("train_mask\n"), member: "", msg: "not an .npz (ZIP) archive"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := webkbCopyTiny(t)
			path := filepath.Join(dir, split3)
			if c.raw != nil {
				os.WriteFile(path, c.raw, 0o644)
			} else if err := graphio.WriteNPZArrays(path, c.arrays...); err != nil {
				t.Fatal(err)
			}
			_, err := loadWebKBFiles(dir, "tiny")
			var fe *graphio.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *graphio.FormatError", err, err)
			}
			if fe.Path != path || fe.Member != c.member || fe.Line != 0 {
				t.Errorf("path %q member %q line %d, want %q %q (%v)", fe.Path, fe.Member, fe.Line, path, c.member, err)
			}
			if !strings.Contains(fe.Msg, c.msg) {
				t.Errorf("Msg %q, want it to contain %q", fe.Msg, c.msg)
			}
		})
	}
	t.Run("value 2", func(t *testing.T) {
		dir := webkbCopyTiny(t)
		path := filepath.Join(dir, split3)
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for k, data := range [][]byte{{1, 1, 1, 0, 0, 0}, {0, 0, 0, 1, 1, 0}, {0, 0, 0, 0, 2, 1}} {
			w, err := zw.Create([]string{"train_mask.npy", "val_mask.npy", "test_mask.npy"}[k])
			if err != nil {
				t.Fatal(err)
			}
			w.Write(webkbRawMaskNPY("|b1", data))
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(path, buf.Bytes(), 0o644)
		_, err := loadWebKBFiles(dir, "tiny")
		var fe *graphio.FormatError
		if !errors.As(err, &fe) || fe.Path != path || fe.Member != "test_mask.npy" ||
			!strings.Contains(fe.Msg, "value 2 at index 4 is not 0 or 1") || fe.Offset != 128+4 {
			t.Errorf("got %v", err)
		}
	})
}

// webkbRawMaskNPY returns a format 1.0 .npy member holding a 1-D mask of raw bytes.
func webkbRawMaskNPY(descr string, data []byte) []byte {
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }", descr, len(data))
	pad := (64 - (10+len(dict)+1)%64) % 64
	h := dict + strings.Repeat(" ", pad) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), byte(len(h)>>8))
	b = append(b, h...)
	return append(b, data...)
}

func TestWebKBMissingFiles(t *testing.T) {
	for _, f := range []string{"out1_node_feature_label.txt", "out1_graph_edges.txt", "tiny_split_0.6_0.2_9.npz"} {
		t.Run(f, func(t *testing.T) {
			dir := webkbCopyTiny(t)
			path := filepath.Join(dir, f)
			os.Remove(path)
			_, err := loadWebKBFiles(dir, "tiny")
			if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), path) {
				t.Errorf("got %v, want a not-exist error naming %s", err, path)
			}
		})
	}
}

// FuzzWebKBEdges: decodeWebKBEdges never panics; it returns non-negative
// ids on increasing lines, or a *graphio.FormatError with a line.
func FuzzWebKBEdges(f *testing.F) {
	for _, s := range webkbEdgeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		arcs, err := decodeWebKBEdges("e.txt", bytes.NewReader(data))
		if err != nil {
			var fe *graphio.FormatError
			if !errors.As(err, &fe) || fe.Path != "e.txt" || fe.Line < 1 {
				t.Fatalf("error %v (%T) is not a *graphio.FormatError with a line", err, err)
			}
			return
		}
		last := 1
		for _, a := range arcs {
			if a.u < 0 || a.v < 0 || a.u >= graphio.MaxNodes || a.v >= graphio.MaxNodes || a.line <= last {
				t.Fatalf("bad arc %+v after line %d", a, last)
			}
			last = a.line
		}
	})
}

// FuzzWebKBFeatures: decodeWebKBFeatures never panics; it returns a CSR
// with one row per label and ascending unique columns, or a
// *graphio.FormatError with a line.
func FuzzWebKBFeatures(f *testing.F) {
	for _, s := range webkbFeatureSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		x, labels, err := decodeWebKBFeatures("f.txt", bytes.NewReader(data))
		if err != nil {
			var fe *graphio.FormatError
			if !errors.As(err, &fe) || fe.Path != "f.txt" || fe.Line < 1 {
				t.Fatalf("error %v (%T) is not a *graphio.FormatError with a line", err, err)
			}
			return
		}
		r, c := x.Dims()
		if r != len(labels) || r == 0 || c == 0 {
			t.Fatalf("dims %d×%d for %d labels", r, c, len(labels))
		}
		for _, y := range labels {
			if y < 0 || y > maxWebKBLabel {
				t.Fatalf("label %d", y)
			}
		}
		raw := x.RawMatrix()
		for i := range r {
			cols := raw.Ind[raw.Indptr[i]:raw.Indptr[i+1]]
			for k := range cols {
				if cols[k] < 0 || cols[k] >= c || k > 0 && cols[k] <= cols[k-1] {
					t.Fatalf("row %d columns %v", i, cols)
				}
			}
		}
	})
}

var webkbEdgeSeeds = []string{
	webkbTinyEdges,
	"node_id\tnode_id\r\n0\t1\r\n 2 \t 3 \r\n",
	"node_id\tnode_id\n0\t1",
	"node_id\tnode_id\n0\t1\n\n",
	"node_id\tnode_id\n0 1\n",
	"node_id\tnode_id\n-1\t99999999999999999999\n",
	"src\tdst\n0\t1\n",
	"",
}

var webkbFeatureSeeds = []string{
	webkbTinyFeatures,
	"node_id\tfeature\tlabel\r\n0\t 1, 2,0 \t 1 \r\n1\t0,0,0\t0",
	"node_id\tfeature\tlabel\n0\t1,0\t1\n1\t1,0,1\t0\n",
	"node_id\tfeature\tlabel\n0\t\t1\n",
	"node_id\tfeature\tlabel\n0\t1,0\t-1\n",
	"node_id\tfeature\tlabel\n",
	"",
}

// TestWriteWebKBFuzzCorpus rewrites testdata/fuzz/FuzzWebKB*/ from the seeds
// above when OHM_WRITE_FUZZ_CORPUS=1.
func TestWriteWebKBFuzzCorpus(t *testing.T) {
	if os.Getenv("OHM_WRITE_FUZZ_CORPUS") != "1" {
		t.Skip("set OHM_WRITE_FUZZ_CORPUS=1 to rewrite testdata/fuzz/FuzzWebKB*")
	}
	for name, seeds := range map[string][]string{"FuzzWebKBEdges": webkbEdgeSeeds, "FuzzWebKBFeatures": webkbFeatureSeeds} {
		dir := filepath.Join("testdata", "fuzz", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, s := range seeds {
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%02d", i)), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
