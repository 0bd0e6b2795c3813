package dataset

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

var updatePlanetoid = flag.Bool("update-planetoid", false,
	"rewrite testdata/planetoid/tiny and the FuzzPlanetoidPickle seed files")

// The tiny Planetoid set in testdata/planetoid/tiny (prefix "tiny"): 7 nodes,
// 5 features, 3 classes. Nodes 0-3 are the allx nodes (0-1 also x/y: the
// training nodes, 2-3 the clamped validation split), test.index lists 6 then
// 4, so tx row 0 is node 6 and row 1 node 4; node 5 is in the test range but
// unlisted: zero features, label 0, in no split. The graph has a duplicate
// entry (0->1 twice), a self-loop (2->2) and duplicate single-neighbour
// lists (6: [5, 5]).
var (
	planetoidTinyAllx = [][]float64{{1, 1, 3, 1}, {0, 1}, {4, 2.5}, {2, 1, 4, 1}} // (col, value) pairs
	planetoidTinyTx   = [][]float64{{0, 1, 4, 1}, {3, 1}}
	planetoidTinyAlly = []int{2, 0, 1, 1}
	planetoidTinyTy   = []int{1, 2}
	planetoidTinyTest = "6\n4\n"
	planetoidTinyKeys = []int{0, 1, 2, 3, 4, 5, 6}
	planetoidTinyAdj  = [][]int{{1, 2, 1}, {0}, {0, 2}, {4}, {3}, {6}, {5, 5}}
)

// planetoidTinyFiles returns the eight tiny files by kind.
func planetoidTinyFiles() map[string][]byte {
	return map[string][]byte{
		"x":          csrRowsPickle(5, planetoidTinyAllx[:2]...),
		"tx":         csrRowsPickle(5, planetoidTinyTx...),
		"allx":       csrRowsPickle(5, planetoidTinyAllx...),
		"y":          oneHotPickle(3, planetoidTinyAlly[:2]...),
		"ty":         oneHotPickle(3, planetoidTinyTy...),
		"ally":       oneHotPickle(3, planetoidTinyAlly...),
		"graph":      graphPickle(planetoidTinyKeys, planetoidTinyAdj),
		"test.index": []byte(planetoidTinyTest),
	}
}

const planetoidTinyDir = "testdata/planetoid/tiny"

// planetoidWriteTiny writes the tiny files (with replacements) into dir.
func planetoidWriteTiny(t *testing.T, dir string, replace map[string][]byte) {
	t.Helper()
	for kind, b := range planetoidTinyFiles() {
		if r, ok := replace[kind]; ok {
			b = r
		}
		if b == nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, "ind.tiny."+kind), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// planetoidFuzzSeeds are the FuzzPlanetoidPickle seed inputs checked in under
// testdata/fuzz/FuzzPlanetoidPickle.
func planetoidFuzzSeeds() map[string][]byte {
	f := planetoidTinyFiles()
	return map[string][]byte{
		"tiny_x":           f["x"],
		"tiny_y":           f["y"],
		"tiny_graph":       f["graph"],
		"tiny_test_index":  f["test.index"],
		"unexpected_class": []byte("\x80\x02cos\nsystem\n(U\x02lstR."),
		"huge_binstring":   []byte("\x80\x02T\xff\xff\xff\x7fabc"),
	}
}

// TestPlanetoidTestdata checks that the checked-in tiny files and fuzz seeds
// are what the generators produce (go test -run TestPlanetoidTestdata
// -update-planetoid rewrites them).
func TestPlanetoidTestdata(t *testing.T) {
	want := map[string][]byte{}
	for kind, b := range planetoidTinyFiles() {
		want[filepath.Join(planetoidTinyDir, "ind.tiny."+kind)] = b
	}
	for name, b := range planetoidFuzzSeeds() {
		want[filepath.Join("testdata/fuzz/FuzzPlanetoidPickle", name)] =
			fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\n", b)
	}
	total := 0
	for path, b := range want {
		total += len(b)
		if *updatePlanetoid {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update-planetoid to create it)", err)
		}
		if !bytes.Equal(got, b) {
			t.Errorf("%s differs from its generator (run with -update-planetoid)", path)
		}
	}
	if total > 20<<10 {
		t.Errorf("testdata is %d bytes, keep it under 20 KiB", total)
	}
}

func TestLoadPlanetoidTiny(t *testing.T) {
	d, err := loadPlanetoidFiles(planetoidTinyDir, "tiny")
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "tiny" || d.N() != 7 || d.NumFeatures() != 5 || d.NumClasses != 3 {
		t.Fatalf("name %q, %d nodes, %d features, %d classes; want tiny, 7, 5, 3",
			d.Name, d.N(), d.NumFeatures(), d.NumClasses)
	}
	wantX := [][]float64{
		{0, 1, 0, 1, 0},   // allx 0
		{1, 0, 0, 0, 0},   // allx 1
		{0, 0, 0, 0, 2.5}, // allx 2
		{0, 0, 1, 0, 1},   // allx 3
		{0, 0, 0, 1, 0},   // tx 1 (test.index line 2)
		{0, 0, 0, 0, 0},   // unlisted
		{1, 0, 0, 0, 1},   // tx 0 (test.index line 1)
	}
	for i, row := range wantX {
		for j, v := range row {
			if got := d.Features.At(i, j); got != v {
				t.Errorf("X[%d][%d] = %g, want %g", i, j, got, v)
			}
		}
	}
	if d.Features.NNZ() != 9 {
		t.Errorf("NNZ = %d, want 9", d.Features.NNZ())
	}
	if want := []int{2, 0, 1, 1, 2, 0, 1}; !slices.Equal(d.Labels, want) {
		t.Errorf("labels %v, want %v", d.Labels, want)
	}
	var wantArcs []linalg.Edge
	for _, a := range [][2]int{{0, 1}, {0, 2}, {1, 0}, {2, 0}, {3, 4}, {4, 3}, {5, 6}, {6, 5}} {
		wantArcs = append(wantArcs, linalg.Edge{U: a[0], V: a[1]})
	}
	if got := d.Graph.Arcs(); !d.Graph.Directed() || !slices.Equal(got, wantArcs) {
		t.Errorf("arcs %v (directed %v), want %v", got, d.Graph.Directed(), wantArcs)
	}
	want := []Split{{Train: []int{0, 1}, Val: []int{2, 3}, Test: []int{4, 6}}}
	if len(d.Splits) != 1 || !slices.Equal(d.Splits[0].Train, want[0].Train) ||
		!slices.Equal(d.Splits[0].Val, want[0].Val) || !slices.Equal(d.Splits[0].Test, want[0].Test) {
		t.Errorf("splits %+v, want %+v", d.Splits, want)
	}
}

func TestLoadPlanetoidErrors(t *testing.T) {
	tests := []struct {
		name    string
		replace map[string][]byte
		kind    string // file the error must name
		off     int64  // -2: the BUILD before STOP; -3: any
		line    int
		msg     string
	}{
		{"x vs y rows", map[string][]byte{"y": oneHotPickle(3, 2, 0, 1)}, "y", -2, 0, "y has 3 rows but x has 2"},
		{"tx vs ty rows", map[string][]byte{"ty": oneHotPickle(3, 1)}, "ty", -2, 0, "ty has 1 rows but tx has 2"},
		{"allx vs ally rows", map[string][]byte{"ally": oneHotPickle(3, 2, 0, 1)}, "ally", -2, 0, "ally has 3 rows but allx has 4"},
		{"classes", map[string][]byte{"ty": oneHotPickle(4, 1, 2)}, "ty", -2, 0, "ty has 4 columns but y has 3"},
		{"features", map[string][]byte{"tx": csrRowsPickle(6, planetoidTinyTx...)}, "tx", -2, 0, "tx has 6 columns but x has 5"},
		{"test.index vs tx, too few", map[string][]byte{"test.index": []byte("6\n")}, "test.index", 0, 2, "test.index lists 1 node ids but tx has 2 rows"},
		{"test.index vs tx, too many", map[string][]byte{"test.index": []byte("6\n4\n5\n")}, "test.index", 0, 3, "test.index lists 3 node ids but tx has 2 rows"},
		{"test.index bad line", map[string][]byte{"test.index": []byte("6\nfour\n")}, "test.index", 0, 2, `invalid node id "four"`},
		{"test.index empty line", map[string][]byte{"test.index": []byte("6\n\n4\n")}, "test.index", 0, 2, `invalid node id ""`},
		{"test.index negative", map[string][]byte{"test.index": []byte("6\n-4\n")}, "test.index", 0, 2, "negative node id -4"},
		{"test.index repeated", map[string][]byte{"test.index": []byte("6\n6\n")}, "test.index", 0, 2, "node id 6 repeated (first on line 1)"},
		{"test.index too large", map[string][]byte{"test.index": []byte("6\n99999999999\n")}, "test.index", 0, 2, "exceeds the limit"},
		{"test id among allx", map[string][]byte{"test.index": []byte("6\n3\n")}, "test.index", 0, 2, "node id 3 lies among the 4 allx nodes"},
		{"graph neighbour out of range", map[string][]byte{"graph": graphPickle([]int{0, 1}, [][]int{{1}, {0, 7}})}, "graph", -3, 0, "node id 7 (a neighbour of node 1) out of range [0, 7)"},
		{"graph key out of range", map[string][]byte{"graph": graphPickle([]int{0, 9}, [][]int{{1}, {0}})}, "graph", -3, 0, "node id 9 out of range [0, 7)"},
		{"graph negative key", map[string][]byte{"graph": graphPickle([]int{0, -1}, [][]int{{1}, {0}})}, "graph", -3, 0, "node id -1 out of range"},
		{"truncated ally", map[string][]byte{"ally": oneHotPickle(3, planetoidTinyAlly...)[:50]}, "ally", 50, 0, "truncated pickle: unexpected end of data"},
		{"unexpected class in graph", map[string][]byte{"graph": []byte("\x80\x02cposix\nsystem\n.")}, "graph", 2, 0, "unexpected class posix.system"},
		{"graph is an array", map[string][]byte{"graph": oneHotPickle(3, 1)}, "graph", int64(len(oneHotPickle(3, 1)) - 1), 0, "want a collections.defaultdict(list)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			planetoidWriteTiny(t, dir, tc.replace)
			_, err := loadPlanetoidFiles(dir, "tiny")
			if err == nil {
				t.Fatal("no error")
			}
			path := filepath.Join(dir, "ind.tiny."+tc.kind)
			switch tc.off {
			case -2:
				tc.off = int64(len(tc.replace[tc.kind]) - 2)
			case -3:
				var fe *graphio.FormatError
				if errors.As(err, &fe) {
					if fe.Offset <= 0 || fe.Offset >= int64(len(tc.replace[tc.kind])) {
						t.Errorf("Offset = %d outside the file", fe.Offset)
					}
					tc.off = fe.Offset
				}
			}
			pickleWantFormatError(t, err, path, tc.off, tc.line, tc.msg)
		})
	}
}

func TestLoadPlanetoidMissingFile(t *testing.T) {
	dir := t.TempDir()
	planetoidWriteTiny(t, dir, map[string][]byte{"graph": nil})
	_, err := loadPlanetoidFiles(dir, "tiny")
	path := filepath.Join(dir, "ind.tiny.graph")
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(fmt.Sprint(err), path) {
		t.Errorf("error %v: want one wrapping os.ErrNotExist and naming %s", err, path)
	}
	if _, err := LoadPlanetoid(dir, "cora"); !errors.Is(err, os.ErrNotExist) ||
		!strings.Contains(err.Error(), filepath.Join(dir, "ind.cora.x")) {
		t.Errorf("LoadPlanetoid(empty dir): %v, want os.ErrNotExist naming ind.cora.x", err)
	}
	if _, err := LoadPlanetoid(dir, "pubmed"); err == nil || !strings.Contains(err.Error(), "unknown Planetoid dataset") {
		t.Errorf("LoadPlanetoid(pubmed): %v, want an unknown-dataset error", err)
	}
}

func TestLoadPlanetoidReal(t *testing.T) {
	root := datatest.Root(t, "Cora/raw/ind.cora.x", "CiteSeer/raw/ind.citeseer.x", "expected.json")
	expected := datatest.LoadExpected(t, root)
	for _, tc := range []struct{ dir, name string }{{"Cora", "cora"}, {"CiteSeer", "citeseer"}} {
		t.Run(tc.name, func(t *testing.T) {
			want, ok := expected[tc.name]
			if !ok || want.Nodes == 0 {
				t.Fatalf("expected.json has no %s entry", tc.name)
			}
			raw := filepath.Join(root, tc.dir, "raw")
			start := time.Now()
			d, err := LoadPlanetoid(raw, tc.name)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("LoadPlanetoid(%s): %v", tc.name, time.Since(start))
			u := d.Graph.Undirected()
			comps, largest, isolated := datatest.Components(u)
			for _, c := range []struct {
				what      string
				got, want int
			}{
				{"nodes", d.N(), want.Nodes},
				{"features", d.NumFeatures(), want.Features},
				{"classes", d.NumClasses, want.Classes},
				{"arcs", d.Graph.NumEdges() + d.Graph.NumSelfLoops(), want.Arcs},
				{"undirected edges", u.NumEdges(), want.UndirectedEdges},
				{"undirected edges incl. self-loops", u.NumEdges() + u.NumSelfLoops(), want.UndirectedEdgesInclSelfLoops},
				{"self loops", d.Graph.NumSelfLoops(), want.SelfLoops},
				{"components", comps, want.Components},
				{"largest component", largest, want.LargestComponent},
				{"isolated nodes", isolated, want.IsolatedNodes},
				{"train", len(d.Splits[0].Train), want.Train},
				{"val", len(d.Splits[0].Val), want.Val},
				{"test", len(d.Splits[0].Test), want.Test},
				{"feature nnz", d.Features.NNZ(), want.FeatureNNZ},
				{"splits", len(d.Splits), 1},
				{"labels", len(d.Labels), want.Nodes},
			} {
				if c.got != c.want {
					t.Errorf("%s = %d, want %d", c.what, c.got, c.want)
				}
			}
			if d.Name != tc.name || !d.Graph.Directed() {
				t.Errorf("name %q directed %v, want %q, true", d.Name, d.Graph.Directed(), tc.name)
			}
			if got := d.ClassCounts(); !slices.Equal(got, want.ClassCounts) {
				t.Errorf("class counts %v, want %v", got, want.ClassCounts)
			}

			// Every arc's reverse is present.
			for _, a := range d.Graph.Arcs() {
				if !d.Graph.HasEdge(a.V, a.U) {
					t.Fatalf("arc %v has no reverse", a)
				}
			}

			// Features: zero rows are exactly the missing test nodes, every
			// stored value is 1.0, columns sorted within rows.
			raw2 := d.Features.RawMatrix()
			var zeroRows []int
			for i := range d.N() {
				lo, hi := raw2.Indptr[i], raw2.Indptr[i+1]
				if lo == hi {
					zeroRows = append(zeroRows, i)
				}
				for k := lo; k < hi; k++ {
					if raw2.Data[k] != 1 || (k > lo && raw2.Ind[k] <= raw2.Ind[k-1]) {
						t.Fatalf("row %d: entry %d (col %d) = %g", i, k, raw2.Ind[k], raw2.Data[k])
					}
				}
			}
			if len(zeroRows) != want.ZeroFeatureRows || !slices.Equal(zeroRows, planetoidNonNil(want.MissingTestNodes)) {
				t.Errorf("zero feature rows %v, want the missing test nodes %v", zeroRows, want.MissingTestNodes)
			}
			nnz0 := raw2.Indptr[1]
			if nnz0 == 0 || d.Features.At(0, raw2.Ind[0]) != 1 || d.Features.At(d.N()-1, raw2.Ind[len(raw2.Ind)-1]) != 1 {
				t.Errorf("first/last stored features are not 1.0")
			}

			// Missing test nodes: label 0, in no split; splits disjoint.
			inSplit := make([]int, d.N())
			s := d.Splits[0]
			for _, l := range [][]int{s.Train, s.Val, s.Test} {
				if !slices.IsSorted(l) {
					t.Errorf("split list not sorted")
				}
				for _, i := range l {
					inSplit[i]++
				}
			}
			for i, c := range inSplit {
				if c > 1 {
					t.Fatalf("node %d in %d splits", i, c)
				}
			}
			for _, i := range want.MissingTestNodes {
				if d.Labels[i] != 0 || inSplit[i] != 0 {
					t.Errorf("missing test node %d: label %d, in %d splits; want 0, 0", i, d.Labels[i], inSplit[i])
				}
			}
			if s.Train[0] != 0 || s.Train[len(s.Train)-1] != want.Train-1 || s.Val[0] != want.Train ||
				s.Val[len(s.Val)-1] != want.Train+want.Val-1 || s.Test[len(s.Test)-1] != want.Nodes-1 {
				t.Errorf("split ranges: train %d..%d val %d..%d test ..%d", s.Train[0], s.Train[len(s.Train)-1],
					s.Val[0], s.Val[len(s.Val)-1], s.Test[len(s.Test)-1])
			}

			// Raw graph: entry and duplicate counts, self-loops.
			f, err := os.Open(filepath.Join(raw, "ind."+tc.name+".graph"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			adj, err := decodeAdjacency(f.Name(), f)
			if err != nil {
				t.Fatal(err)
			}
			entries, dups, loopNodes := 0, 0, 0
			for i, k := range adj.keys {
				seen := map[int]bool{}
				for _, v := range adj.lists[i] {
					entries++
					if v == k {
						if !seen[v] {
							loopNodes++
						}
					} else if seen[v] {
						dups++
					}
					seen[v] = true
				}
			}
			// expected.json's duplicates exclude self-loop entries (the arcs
			// are entries - duplicates - self-loop entries).
			if entries != want.RawGraphEntries || dups != want.RawDuplicateEntries || loopNodes != want.RawSelfLoops {
				t.Errorf("raw graph: %d entries, %d duplicates, %d nodes with self-loops; want %d, %d, %d",
					entries, dups, loopNodes, want.RawGraphEntries, want.RawDuplicateEntries, want.RawSelfLoops)
			}
		})
	}
}

func planetoidNonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// TestPlanetoidPickleRoundTrip decodes every real pickle and re-encodes it
// with the test writer, which follows the README's layout: the bytes must be
// identical, so the decoder has read every opcode as the writer meant it.
func TestPlanetoidPickleRoundTrip(t *testing.T) {
	root := datatest.Root(t, "Cora/raw/ind.cora.x", "CiteSeer/raw/ind.citeseer.x")
	for _, ds := range []struct{ dir, name string }{{"Cora", "cora"}, {"CiteSeer", "citeseer"}} {
		for _, kind := range []string{"x", "tx", "allx", "y", "ty", "ally", "graph"} {
			path := filepath.Join(root, ds.dir, "raw", "ind."+ds.name+"."+kind)
			t.Run(ds.name+"."+kind, func(t *testing.T) {
				in, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				var out []byte
				switch kind {
				case "x", "tx", "allx":
					m, err := decodeCSR(path, bytes.NewReader(in))
					if err != nil {
						t.Fatal(err)
					}
					out = csrPickle(m.rows, m.cols, m.indptr, m.indices, m.data)
				case "y", "ty", "ally":
					m, err := decodeDense(path, bytes.NewReader(in))
					if err != nil {
						t.Fatal(err)
					}
					vals := make([]int, len(m.vals))
					for i, v := range m.vals {
						vals[i] = int(v)
					}
					out = densePickle(m.rows, m.cols, vals...)
				case "graph":
					a, err := decodeAdjacency(path, bytes.NewReader(in))
					if err != nil {
						t.Fatal(err)
					}
					out = graphPickle(a.keys, a.lists)
				}
				if !bytes.Equal(in, out) {
					n := 0
					for n < min(len(in), len(out)) && in[n] == out[n] {
						n++
					}
					t.Errorf("re-encoded pickle differs from the file at byte %d (lengths %d, %d)", n, len(out), len(in))
				}
			})
		}
	}
}

// FuzzPlanetoidPickle decodes arbitrary bytes as each kind of Planetoid file:
// it must never panic and must return a value or a *graphio.FormatError
// naming the file and a position inside the input.
func FuzzPlanetoidPickle(f *testing.F) {
	for _, b := range planetoidTinyFiles() {
		f.Add(b)
	}
	f.Add(oneHotPickle(7, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2))
	f.Add([]byte("\x80\x02ccollections\nOrderedDict\n)R."))
	f.Fuzz(func(t *testing.T, data []byte) {
		const path = "fuzz.pkl"
		check := func(kind string, err error) {
			if err == nil {
				return
			}
			var fe *graphio.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("%s: error %v (%T) is not a *graphio.FormatError", kind, err, err)
			}
			if fe.Path != path || fe.Msg == "" || strings.Contains(fe.Msg, "internal decoder error") {
				t.Fatalf("%s: bad error %+v", kind, fe)
			}
			if kind == "test.index" {
				if fe.Line < 1 {
					t.Fatalf("%s: error without a line: %v", kind, err)
				}
			} else if fe.Offset < 0 || fe.Offset > int64(len(data)) {
				t.Fatalf("%s: offset %d outside the %d-byte input: %v", kind, fe.Offset, len(data), err)
			}
		}
		m, err := decodeCSR(path, bytes.NewReader(data))
		check("csr", err)
		if err == nil {
			if len(m.indptr) != m.rows+1 || m.indptr[0] != 0 || m.indptr[m.rows] != len(m.indices) ||
				len(m.data) != len(m.indices) {
				t.Fatalf("inconsistent csr %+v", m)
			}
			for r := range m.rows {
				for k := m.indptr[r]; k < m.indptr[r+1]; k++ {
					if m.indices[k] < 0 || m.indices[k] >= m.cols || (k > m.indptr[r] && m.indices[k] <= m.indices[k-1]) || m.data[k] == 0 {
						t.Fatalf("csr row %d entry %d: col %d value %g", r, k, m.indices[k], m.data[k])
					}
				}
			}
		}
		dm, err := decodeDense(path, bytes.NewReader(data))
		check("dense", err)
		if err == nil && len(dm.vals) != dm.rows*dm.cols {
			t.Fatalf("dense %d×%d with %d values", dm.rows, dm.cols, len(dm.vals))
		}
		a, err := decodeAdjacency(path, bytes.NewReader(data))
		check("graph", err)
		if err == nil && (len(a.keys) != len(a.lists) || len(a.keys) != len(a.offs)) {
			t.Fatalf("graph with %d keys, %d lists", len(a.keys), len(a.lists))
		}
		_, err = decodeTestIndex(path, bytes.NewReader(data))
		check("test.index", err)
	})
}

func BenchmarkLoadPlanetoid(b *testing.B) {
	root := datatest.Root(b, "Cora/raw/ind.cora.x", "CiteSeer/raw/ind.citeseer.x")
	for _, ds := range []struct{ dir, name string }{{"Cora", "cora"}, {"CiteSeer", "citeseer"}} {
		b.Run(ds.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := LoadPlanetoid(filepath.Join(root, ds.dir, "raw"), ds.name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
