package graphio

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/internal/atomicfile"
	"github.com/ohmgnn/ohm/linalg"
)

func mustGraph(t *testing.T, n int, directed bool, edges ...linalg.Edge) *linalg.Graph {
	t.Helper()
	g, err := linalg.FromEdges(n, directed, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGraphioLoadSaveRoundTrip(t *testing.T) {
	graphs := map[string]*linalg.Graph{
		"empty":                      linalg.NewGraph(0, false),
		"isolated":                   linalg.NewGraph(4, true),
		"directed with self-loops":   mustGraph(t, 6, true, linalg.Edge{U: 0, V: 1}, linalg.Edge{U: 1, V: 0}, linalg.Edge{U: 2, V: 2}, linalg.Edge{U: 3, V: 4}, linalg.Edge{U: 4, V: 4}),
		"undirected with self-loops": mustGraph(t, 6, false, linalg.Edge{U: 0, V: 1}, linalg.Edge{U: 1, V: 2}, linalg.Edge{U: 2, V: 2}, linalg.Edge{U: 5, V: 3}, linalg.Edge{U: 0, V: 0}),
	}
	for name, g := range graphs {
		for _, ext := range []string{".npz", ".txt", ".edges", ".NPZ"} {
			t.Run(name+ext, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "g"+ext)
				if err := Save(path, g); err != nil {
					t.Fatal(err)
				}
				h, err := Load(path, 0, g.Directed())
				if err != nil {
					t.Fatal(err)
				}
				if !h.Equal(g) {
					t.Fatalf("loaded %v arcs, want %v", h.Arcs(), g.Arcs())
				}
				// The stated count is accepted; another count is refused.
				if _, err := Load(path, g.N(), g.Directed()); err != nil && g.N() > 0 {
					t.Fatal(err)
				}
				_, err = Load(path, g.N()+1, g.Directed())
				fe := asFormatError(t, err, path)
				if IsNPZ(path) && fe.Member != "num_nodes.npy" || !IsNPZ(path) && fe.Line != 1 {
					t.Errorf("count mismatch: %v", err)
				}
			})
		}
	}
}

func TestGraphioLoadUndirectedCollapses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(path, []byte("0 1\n1 0\n1 2\n2 2\n2 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u, err := Load(path, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if u.N() != 3 || u.NumEdges() != 2 || u.NumSelfLoops() != 1 {
		t.Errorf("undirected: n=%d edges=%d loops=%d, want 3 2 1", u.N(), u.NumEdges(), u.NumSelfLoops())
	}
	d, err := Load(path, 5, true)
	if err != nil {
		t.Fatal(err)
	}
	if d.N() != 5 || d.NumEdges() != 3 || d.NumSelfLoops() != 1 {
		t.Errorf("directed: n=%d arcs=%d loops=%d, want 5 3 1", d.N(), d.NumEdges(), d.NumSelfLoops())
	}
}

func TestGraphioLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, "none.npz"), 0, true); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing npz: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "none.txt"), 0, true); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing edge list: %v", err)
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("0 1\nx y\n"), 0o644)
	if fe := asFormatError(t, must(Load(bad, 0, true)), bad); fe.Line != 2 {
		t.Errorf("bad edge list: %v", fe)
	}
	if _, err := Load(bad, -1, true); err == nil {
		t.Error("negative count: no error")
	}
}

func must[T any](_ T, err error) error { return err }

// TestGraphioAtomicWrite checks that a failed write loses nothing already
// written: the previous file is intact and no temporary file is left.
func TestGraphioAtomicWrite(t *testing.T) {
	dir := t.TempDir()
	g := mustGraph(t, 3, true, linalg.Edge{U: 0, V: 1}, linalg.Edge{U: 1, V: 2})
	for _, name := range []string{"g.npz", "g.txt"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			if err := Save(path, g); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, 0o640); err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadFile(path)
			// An arc out of range fails half-way through the encoding.
			arcs := es(0, 1, 1, 2, 2, 7)
			var err error
			if IsNPZ(path) {
				err = WriteNPZ(path, 3, arcs, nil)
			} else {
				err = WriteEdgeList(path, 3, arcs)
			}
			if err == nil {
				t.Fatal("no error")
			}
			after, _ := os.ReadFile(path)
			if string(after) != string(before) {
				t.Error("failed write changed the existing file")
			}
			checkNoTemp(t, dir)
			// A successful write keeps the file's mode.
			if err := Save(path, mustGraph(t, 2, true, linalg.Edge{U: 1, V: 0})); err != nil {
				t.Fatal(err)
			}
			if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
				t.Errorf("mode %v, want 0640", st.Mode().Perm())
			}
			if h, err := Load(path, 0, true); err != nil || h.N() != 2 || !h.HasEdge(1, 0) {
				t.Errorf("rewritten file: %v %v", h, err)
			}
		})
	}
	t.Run("write error after partial output", func(t *testing.T) {
		path := filepath.Join(dir, "partial.txt")
		os.WriteFile(path, []byte("old content\n"), 0o644)
		boom := errors.New("boom")
		err := atomicfile.WriteFile(path, func(w io.Writer) error {
			w.Write([]byte(strings.Repeat("new content\n", 100000)))
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("got %v, want boom", err)
		}
		if b, _ := os.ReadFile(path); string(b) != "old content\n" {
			t.Error("failed write changed the existing file")
		}
		checkNoTemp(t, dir)
	})
	t.Run("new file in missing directory", func(t *testing.T) {
		path := filepath.Join(dir, "no", "such", "g.npz")
		if err := Save(path, g); err == nil {
			t.Fatal("no error")
		}
	})
	t.Run("target is a directory", func(t *testing.T) {
		sub := filepath.Join(dir, "sub.txt")
		os.Mkdir(sub, 0o755)
		if err := Save(sub, g); err == nil {
			t.Fatal("no error")
		}
		checkNoTemp(t, dir)
	})
}

func checkNoTemp(t *testing.T, dir string) {
	t.Helper()
	es, _ := os.ReadDir(dir)
	for _, e := range es {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}
