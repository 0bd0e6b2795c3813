package dataset

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

func TestUnknownDatasetListsKnown(t *testing.T) {
	l := &Locator{}
	_, err := l.Load("pubmed", SynthOptions{})
	if err == nil || !strings.Contains(err.Error(), `unknown dataset "pubmed"`) {
		t.Fatalf("err = %v", err)
	}
	for _, n := range Names() {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not list %s", err, n)
		}
	}
}

func TestLocatorOrder(t *testing.T) {
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	l := &Locator{DataDir: a, Env: b, Cache: c}
	if got := l.Roots(); strings.Join(got, ",") != strings.Join([]string{a, b, c}, ",") {
		t.Fatalf("roots %v", got)
	}
	rel, _ := RelFiles("cornell")
	put := func(root string) {
		for _, f := range rel {
			p := filepath.Join(root, f)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte("x"), 0o644)
		}
	}
	// Complete copies in the env and cache roots: the env one wins.
	put(b)
	put(c)
	if root, _, _ := l.Find("cornell"); root != b {
		t.Fatalf("found in %s, want %s", root, b)
	}
	// An incomplete data-dir does not shadow a complete later root.
	os.MkdirAll(filepath.Join(a, "cornell", "raw"), 0o755)
	os.WriteFile(filepath.Join(a, rel[0]), []byte("x"), 0o644)
	if root, _, _ := l.Find("cornell"); root != b {
		t.Fatalf("found in %s, want %s", root, b)
	}
	put(a)
	if root, _, _ := l.Find("Cornell"); root != a {
		t.Fatalf("found in %s, want %s", root, a)
	}
}

func TestMissingFilesNoNetwork(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	// A server that is already closed stands in for an unreachable network.
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	f := DefaultFetcher()
	f.PlanetoidBase, f.GeomGCNBase = srv.URL+"/p/", srv.URL+"/g/"
	l := &Locator{DataDir: a, Env: b, Fetch: f}
	_, err := l.Load("cora", SynthOptions{})
	var me *MissingError
	if !errors.As(err, &me) {
		t.Fatalf("err = %v, want *MissingError", err)
	}
	msg := err.Error()
	for _, want := range []string{"Cora/raw/ind.cora.x", "Cora/raw/ind.cora.test.index", a, b, "download failed"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	// Nothing half-written is left behind.
	if ents, _ := os.ReadDir(filepath.Join(a, "Cora", "raw")); len(ents) != 0 {
		t.Errorf("left %d files after a failed download", len(ents))
	}
}

func TestNoRoots(t *testing.T) {
	_, err := (&Locator{}).Load("texas", SynthOptions{})
	// A library error names no flag: the CLI says --data-dir.
	if err == nil || !strings.Contains(err.Error(), "no data folder to search") || strings.Contains(err.Error(), "--") {
		t.Fatalf("err = %v", err)
	}
}

// TestDownload serves the real files from a loopback server that mimics PyG's
// sources and checks that a download lands them, verified, where they load.
func TestDownload(t *testing.T) {
	data := datatest.Root(t, "texas/raw/out1_graph_edges.txt")
	var got []string
	corrupt := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.URL.Path)
		name := filepath.Base(r.URL.Path)
		if corrupt {
			w.Write([]byte("not the file"))
			return
		}
		switch {
		case strings.HasPrefix(r.URL.Path, "/g/splits/"), strings.HasPrefix(r.URL.Path, "/g/new_data/texas/"):
			http.ServeFile(w, r, filepath.Join(data, "texas", "raw", name))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	f := DefaultFetcher()
	f.PlanetoidBase, f.GeomGCNBase = srv.URL+"/p/", srv.URL+"/g/"

	dst := t.TempDir()
	corrupt = true
	if _, err := (&Locator{DataDir: dst, Fetch: f}).Load("texas", SynthOptions{}); err == nil ||
		!strings.Contains(err.Error(), "checksum mismatch") {
		t.Fatalf("corrupt download: err = %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(dst, "texas", "raw")); len(ents) != 0 {
		t.Fatalf("corrupt download left %d files", len(ents))
	}
	corrupt, got = false, nil
	d, err := (&Locator{DataDir: dst, Fetch: f}).Load("texas", SynthOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 12 || d.N() != 183 || d.Graph.E0() != 325 {
		t.Fatalf("requests %v; nodes %d arcs %d", got, d.N(), d.Graph.E0())
	}
	if !strings.HasPrefix(got[0], "/g/new_data/texas/") || !strings.HasPrefix(got[2], "/g/splits/texas_split_0.6_0.2_0.npz") {
		t.Fatalf("unexpected URLs %v", got)
	}
}

func TestChecksumsCoverEveryFile(t *testing.T) {
	for _, s := range sources {
		rel, _ := RelFiles(s.name)
		for _, f := range rel {
			if len(checksums[f]) != 64 {
				t.Errorf("no checksum for %s", f)
			}
		}
	}
}

// TestBuiltinLoad: a built-in name, in any case, loads the dataset its
// constructor builds with the same options: the same name, graph,
// labels, features and splits.
func TestBuiltinLoad(t *testing.T) {
	opt := SynthOptions{Seed: 7}
	for name, build := range map[string]func(SynthOptions) *Dataset{"bottleneck": Bottleneck, "SBM": SBM, "Ring": Ring} {
		d, err := (&Locator{}).Load(name, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := build(opt)
		if d.Name != want.Name || d.N() == 0 || !d.Graph.Equal(want.Graph) || !slices.Equal(d.Labels, want.Labels) ||
			d.NumClasses != want.NumClasses || !reflect.DeepEqual(d.Features, want.Features) || !reflect.DeepEqual(d.Splits, want.Splits) {
			t.Errorf("%s: loaded %s (%d nodes) differs from its constructor's %s (%d nodes)", name, d.Name, d.N(), want.Name, want.N())
		}
	}
}
