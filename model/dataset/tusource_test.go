package dataset

import (
	"archive/zip"
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// tuZip is the TU collection's archive of name built from the raw folder
// dir: name/ holding every file, with tamper applied to each content.
func tuZip(t *testing.T, dir, name string, tamper func(file string, b []byte) []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(name + "/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		w.Write(tamper(e.Name(), b))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestDownloadTU serves MUTAG's archive, made from the shared files, from a
// loopback server standing in for the TU site: a tampered archive is
// refused by its checksum with nothing written; the real one lands in
// root/MUTAG/raw/ and loads to the same dataset as the shared files.
func TestDownloadTU(t *testing.T) {
	data := datatest.Root(t, "MUTAG/raw/MUTAG_A.txt")
	raw := filepath.Join(data, "MUTAG", "raw")
	good := tuZip(t, raw, "MUTAG", func(_ string, b []byte) []byte { return b })
	bad := tuZip(t, raw, "MUTAG", func(f string, b []byte) []byte {
		if f == "MUTAG_A.txt" {
			return bytes.Replace(b, []byte("2, 1"), []byte("2, 3"), 1)
		}
		return b
	})
	serve := good
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		w.Write(serve)
	}))
	defer srv.Close()
	f := DefaultFetcher()
	f.TUBase = srv.URL + "/tu/"

	dst := t.TempDir()
	serve = bad
	_, err := (&Locator{DataDir: dst, Fetch: f}).LoadTU("mutag", TUOptions{})
	if err == nil || !strings.Contains(err.Error(), "MUTAG_A.txt: checksum mismatch") {
		t.Fatalf("tampered archive: error %v", err)
	}
	if _, err := os.Stat(filepath.Join(dst, "MUTAG")); !os.IsNotExist(err) {
		t.Fatalf("tampered archive left %s/MUTAG behind (%v)", dst, err)
	}
	serve = good
	got, err := (&Locator{DataDir: dst, Fetch: f}).LoadTU("mutag", TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if paths[len(paths)-1] != "/tu/MUTAG.zip" {
		t.Errorf("requested %v, want /tu/MUTAG.zip", paths)
	}
	want, err := LoadTU(raw, "MUTAG", TUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("downloaded MUTAG differs from the shared one")
	}
	for _, fn := range []string{"MUTAG_A.txt", "MUTAG_edge_labels.txt", "README.txt"} {
		if _, err := os.Stat(filepath.Join(dst, "MUTAG", "raw", fn)); err != nil {
			t.Errorf("after the download: %v", err)
		}
	}
	// Found now: no further request.
	n := len(paths)
	if _, err := (&Locator{DataDir: dst, Fetch: f}).LoadTU("MUTAG", TUOptions{}); err != nil || len(paths) != n {
		t.Errorf("second load: error %v, %d more requests", err, len(paths)-n)
	}
}

// TestDownloadTUUnknown: a dataset ohm has no checksum of is taken as the
// archive holds it, and one missing its graph labels is refused.
func TestDownloadTUUnknown(t *testing.T) {
	raw := writeTU(t, "TINY", tiny)
	var serve []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(serve) }))
	defer srv.Close()
	f := DefaultFetcher()
	f.TUBase = srv.URL + "/"
	serve = tuZip(t, raw, "TINY", func(_ string, b []byte) []byte { return b })
	d, err := (&Locator{DataDir: t.TempDir(), Fetch: f}).LoadTU("TINY", TUOptions{})
	if err != nil || d.Len() != 3 {
		t.Fatalf("TINY: %v", err)
	}
	os.Remove(filepath.Join(raw, "TINY_graph_labels.txt"))
	serve = tuZip(t, raw, "TINY", func(_ string, b []byte) []byte { return b })
	dst := t.TempDir()
	if _, err := (&Locator{DataDir: dst, Fetch: f}).LoadTU("TINY", TUOptions{}); err == nil || !strings.Contains(err.Error(), "lacks TINY_graph_labels.txt") {
		t.Fatalf("archive without labels: error %v", err)
	}
	if ents, _ := os.ReadDir(dst); len(ents) != 0 {
		t.Fatalf("refused archive left %d entries", len(ents))
	}
}
