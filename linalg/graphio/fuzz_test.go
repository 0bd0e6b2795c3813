package graphio

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

// npzSeeds are valid and near-valid archives for FuzzReadNPZ.
func npzSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	for _, g := range []struct {
		n     int
		arcs  []linalg.Edge
		extra map[string][]linalg.Edge
	}{
		{0, nil, nil},
		{3, es(0, 1, 1, 2, 2, 2), nil},
		{5, es(4, 0, 0, 4), map[string][]linalg.Edge{"added": es(1, 2), "removed": nil}},
	} {
		var b bytes.Buffer
		if err := EncodeNPZ(&b, g.n, g.arcs, g.extra); err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, b.Bytes())
	}
	ei := le64(0, 2, 1, 1, 0, 1)
	seeds = append(seeds,
		zipOf(t, false, member{"edge_index.npy", rawNPY(dict("<i4", "(2, 3)"), le32(0, 2, 1, 1, 0, 1))}, numNodesNPY(3)),
		zipOf(t, false, member{"edge_index.npy", rawNPY("{'descr': '<i8', 'fortran_order': True, 'shape': (2, 3), }", ei)},
			member{"num_nodes.npy", rawNPY(dict("|u1", "(1,)"), []byte{3})}),
		zipOf(t, false, member{"edge_index", rawNPYv2(`{"shape": (2L, 3L), "descr": ">i8", "fortran_order": False}`, be64(0, 2, 1, 1, 0, 1))}, numNodesNPY(3)),
		zipOf(t, true, member{"edge_index.npy", rawNPY(dict("<i8", "(2, 3)"), ei)}, numNodesNPY(2)),
		zipOf(t, false, member{"edge_index.npy", rawNPY(dict("<f8", "(2, 3)"), ei)}, numNodesNPY(3)),
		zipOf(t, false, member{"edge_index.npy", rawNPY(dict("<i8", "(2, 3)"), ei[:40])}, numNodesNPY(3)),
	)
	return seeds
}

// FuzzReadNPZ: DecodeNPZ never panics; it returns a graph whose ids are in
// range and that survives a write/read round trip, or a *FormatError.
func FuzzReadNPZ(f *testing.F) {
	for _, s := range npzSeeds(f) {
		f.Add(s)
	}
	for _, s := range npySeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// The input as a whole archive, and (since mutations rarely get
		// past the ZIP checksums) as the raw edge_index.npy member of an
		// otherwise valid one.
		checkDecodeNPZ(t, data)
		checkDecodeNPZ(t, zipOf(t, false, member{"edge_index.npy", data}, numNodesNPY(4)))
	})
}

func checkDecodeNPZ(t *testing.T, data []byte) {
	n, arcs, err := DecodeNPZ("fuzz.npz", bytes.NewReader(data), int64(len(data)))
	if err != nil {
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Path != "fuzz.npz" {
			t.Fatalf("error %v (%T) is not a *FormatError for fuzz.npz", err, err)
		}
		return
	}
	checkGraph(t, n, arcs)
	var b bytes.Buffer
	if err := EncodeNPZ(&b, n, arcs, nil); err != nil {
		t.Fatal(err)
	}
	n2, arcs2, err := DecodeNPZ("again.npz", bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil || n2 != n || !slices.Equal(arcs2, arcs) {
		t.Fatalf("round trip: %d %v %v, want %d %v", n2, arcs2, err, n, arcs)
	}
}

// npySeeds are raw .npy members for the second half of FuzzReadNPZ.
var npySeeds = [][]byte{
	rawNPY(dict("<i8", "(2, 3)"), le64(0, 2, 1, 1, 0, 3)),
	rawNPY(dict("<i4", "(2, 2)"), le32(0, 1, 3, 2)),
	rawNPY("{'descr': '>i8', 'fortran_order': True, 'shape': (2, 2), }", be64(0, 1, 3, 2)),
	rawNPYv2(`{"shape": (2L, 0L), "descr": "<i8", "fortran_order": False}`, nil),
	rawNPY(dict("<i8", "(2, 1)"), le64(0, 9)),
	rawNPY(dict("<f8", "(2,)"), le64(0, 9)),
}

func checkGraph(t *testing.T, n int, arcs []linalg.Edge) {
	t.Helper()
	if n < 0 || n > MaxNodes {
		t.Fatalf("node count %d", n)
	}
	for _, e := range arcs {
		if e.U < 0 || e.U >= n || e.V < 0 || e.V >= n {
			t.Fatalf("arc %v out of range [0, %d)", e, n)
		}
	}
}

// edgeListSeeds are inputs for FuzzReadEdgeList.
var edgeListSeeds = []struct {
	data     string
	numNodes int
}{
	{"# num_nodes 4\n0 1\n1 2\n3 3\n", 0},
	{"0 1\n2 5\n", 0},
	{"0\t1\r\n\n# comment\n 2  2 \n", 7},
	{"\ufeff# num_nodes 3\n0 1\n", 3},
	{"0 1\n1 2\na 3\n", 0},
	{"0,1\n", 0},
	{"# num_nodes 2\n0 5\n", 0},
	{"0 -1\n", 0},
	{"0 1\n# num_nodes 5\n", 0},
	{"0 99999999999999999999\n", 0},
	{"", 0},
}

// FuzzReadEdgeList: DecodeEdgeList never panics; it returns ids in range that
// survive a write/read round trip, or a *FormatError.
func FuzzReadEdgeList(f *testing.F) {
	for _, s := range edgeListSeeds {
		f.Add([]byte(s.data), s.numNodes)
	}
	f.Fuzz(func(t *testing.T, data []byte, numNodes int) {
		n, arcs, err := DecodeEdgeList("fuzz.txt", bytes.NewReader(data), numNodes)
		if numNodes < 0 {
			if err == nil {
				t.Fatal("negative numNodes accepted")
			}
			return
		}
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Path != "fuzz.txt" || fe.Line < 1 {
				t.Fatalf("error %v (%T) is not a *FormatError with a line for fuzz.txt", err, err)
			}
			return
		}
		checkGraph(t, n, arcs)
		if numNodes > 0 && n != numNodes {
			t.Fatalf("n = %d, caller said %d", n, numNodes)
		}
		var b bytes.Buffer
		if err := EncodeEdgeList(&b, n, arcs); err != nil {
			t.Fatal(err)
		}
		n2, arcs2, err := DecodeEdgeList("again.txt", &b, 0)
		if err != nil || n2 != n || !slices.Equal(arcs2, arcs) {
			t.Fatalf("round trip: %d %v %v, want %d %v", n2, arcs2, err, n, arcs)
		}
	})
}

// TestWriteFuzzCorpus rewrites the checked-in seed corpus under
// testdata/fuzz from the seeds above when OHM_WRITE_FUZZ_CORPUS=1.
func TestWriteFuzzCorpus(t *testing.T) {
	if os.Getenv("OHM_WRITE_FUZZ_CORPUS") != "1" {
		t.Skip("set OHM_WRITE_FUZZ_CORPUS=1 to rewrite testdata/fuzz")
	}
	write := func(name string, i int, body string) {
		dir := filepath.Join("testdata", "fuzz", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, fmt.Sprintf("seed%02d", i))
		if err := os.WriteFile(file, []byte("go test fuzz v1\n"+body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, s := range append(npzSeeds(t), npySeeds...) {
		write("FuzzReadNPZ", i, "[]byte("+strconv.Quote(string(s))+")\n")
	}
	for i, s := range edgeListSeeds {
		write("FuzzReadEdgeList", i, "[]byte("+strconv.Quote(s.data)+")\nint("+strconv.Itoa(s.numNodes)+")\n")
	}
}
