package dataset

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ohmgnn/ohm/internal/atomicfile"
)

// source describes one real dataset: where its raw files sit in PyTorch
// Geometric's root layout and how to load them.
type source struct {
	name  string   // canonical name
	dir   string   // folder under the root: <root>/<dir>/raw/
	files []string // file names under raw/
	load  func(rawDir string) (*Dataset, error)
}

func planetoidSource(name, dir string) source {
	var files []string
	for _, p := range []string{"x", "tx", "allx", "y", "ty", "ally", "graph", "test.index"} {
		files = append(files, "ind."+name+"."+p)
	}
	return source{name, dir, files, func(raw string) (*Dataset, error) { return LoadPlanetoid(raw, name) }}
}

func webkbSource(name string) source {
	files := []string{"out1_graph_edges.txt", "out1_node_feature_label.txt"}
	for i := range 10 {
		files = append(files, fmt.Sprintf("%s_split_0.6_0.2_%d.npz", name, i))
	}
	return source{name, name, files, func(raw string) (*Dataset, error) { return LoadWebKB(raw, name) }}
}

var sources = []source{
	planetoidSource("cora", "Cora"),
	planetoidSource("citeseer", "CiteSeer"),
	webkbSource("cornell"),
	webkbSource("texas"),
}

// Names lists every dataset ohm knows: the four real ones, then the built-in
// synthetic ones that need no files.
func Names() []string {
	names := make([]string, 0, len(sources)+2)
	for _, s := range sources {
		names = append(names, s.name)
	}
	return append(names, "bottleneck", "ring", "sbm")
}

// IsBuiltin reports whether name is a synthetic dataset that needs no files.
func IsBuiltin(name string) bool {
	n := strings.ToLower(name)
	return n == "bottleneck" || n == "ring" || n == "sbm"
}

func lookupSource(name string) (source, error) {
	n := strings.ToLower(name)
	for _, s := range sources {
		if s.name == n {
			return s, nil
		}
	}
	return source{}, fmt.Errorf("dataset: unknown dataset %q (known: %s)", name, strings.Join(Names(), ", "))
}

// RelFiles returns the raw files of a real dataset, as paths relative to the
// data root (e.g. "Cora/raw/ind.cora.x"). Built-in datasets have none.
func RelFiles(name string) ([]string, error) {
	if IsBuiltin(name) {
		return nil, nil
	}
	s, err := lookupSource(name)
	if err != nil {
		return nil, err
	}
	rel := make([]string, len(s.files))
	for i, f := range s.files {
		rel[i] = filepath.ToSlash(filepath.Join(s.dir, "raw", f))
	}
	return rel, nil
}

// Locator finds dataset files. Folders are searched in the order of definitions §1:
// DataDir (--data-dir), then Env ($OHM_DATA), then Cache (the per-user cache
// folder). Each is a PyTorch Geometric root: <root>/Cora/raw/ind.cora.x, ….
type Locator struct {
	DataDir string
	Env     string
	Cache   string
	// Fetch downloads missing files into the first folder searched; nil
	// disables downloads.
	Fetch *Fetcher
}

// DefaultLocator returns the locator for a data directory flag (may be empty):
// $OHM_DATA, os.UserCacheDir()/ohm, and downloads from the sources PyG uses.
func DefaultLocator(dataDir string) *Locator {
	l := &Locator{DataDir: dataDir, Env: os.Getenv("OHM_DATA"), Fetch: DefaultFetcher()}
	if c, err := os.UserCacheDir(); err == nil {
		l.Cache = filepath.Join(c, "ohm")
	}
	return l
}

// Roots returns the folders searched, in order, without empties or repeats.
func (l *Locator) Roots() []string {
	var roots []string
	for _, r := range []string{l.DataDir, l.Env, l.Cache} {
		if r != "" && !slices.Contains(roots, r) {
			roots = append(roots, r)
		}
	}
	return roots
}

// Find returns the first root that holds every raw file of the named dataset,
// or "" and the files missing from the first root searched. O(files) stats.
func (l *Locator) Find(name string) (root string, missing []string, err error) {
	rel, err := RelFiles(name)
	if err != nil {
		return "", nil, err
	}
	for i, r := range l.Roots() {
		var miss []string
		for _, f := range rel {
			if _, err := os.Stat(filepath.Join(r, f)); err != nil {
				miss = append(miss, f)
			}
		}
		if len(miss) == 0 {
			return r, nil, nil
		}
		if i == 0 {
			missing = miss
		}
	}
	if len(l.Roots()) == 0 {
		missing = rel
	}
	return "", missing, nil
}

// MissingError says which raw files of a dataset could not be found, where ohm
// looked, and why they could not be downloaded.
type MissingError struct {
	Dataset  string
	Missing  []string // relative to a root
	Searched []string // roots searched, in order
	Download error    // why downloading failed (nil when not attempted)
}

func (e *MissingError) Error() string {
	s := fmt.Sprintf("dataset %s: missing %s (searched: %s)", e.Dataset,
		strings.Join(e.Missing, ", "), strings.Join(e.Searched, ", "))
	if len(e.Searched) == 0 {
		s = fmt.Sprintf("dataset %s: no data folder to search", e.Dataset)
	}
	if e.Download != nil {
		s += "; download failed: " + e.Download.Error()
	}
	return s
}

func (e *MissingError) Unwrap() error { return e.Download }

// Load returns the named dataset: a built-in one is generated from synth; a
// real one is read from the first root holding all its files, after
// downloading what is missing into the first root searched when a Fetcher is
// set and the network answers.
func (l *Locator) Load(name string, synth SynthOptions) (*Dataset, error) {
	switch strings.ToLower(name) {
	case "bottleneck":
		return Bottleneck(synth), nil
	case "ring":
		return Ring(synth), nil
	case "sbm":
		return SBM(synth), nil
	}
	s, err := lookupSource(name)
	if err != nil {
		return nil, err
	}
	root, missing, err := l.Find(name)
	if err != nil {
		return nil, err
	}
	if root == "" {
		merr := &MissingError{Dataset: s.name, Missing: missing, Searched: l.Roots()}
		if l.Fetch == nil || len(merr.Searched) == 0 {
			return nil, merr
		}
		root = merr.Searched[0]
		if merr.Download = l.Fetch.Fetch(s, root, missing); merr.Download != nil {
			return nil, merr
		}
	}
	d, err := s.load(filepath.Join(root, s.dir, "raw"))
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", s.name, err)
	}
	return d, nil
}

//go:embed sha256sums.txt
var sha256sums []byte

// checksums maps a root-relative path to its expected SHA-256 (hex).
var checksums = func() map[string]string {
	m := make(map[string]string)
	sc := bufio.NewScanner(bytes.NewReader(sha256sums))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 {
			m[f[1]] = f[0]
		}
	}
	return m
}()

// Fetcher downloads raw dataset files from the public sources PyTorch
// Geometric uses and checks each against the SHA-256 ohm ships.
type Fetcher struct {
	Client *http.Client
	// PlanetoidBase is the URL folder of ind.<name>.<part> files.
	PlanetoidBase string
	// GeomGCNBase is the URL of the Geom-GCN repository at the commit PyG
	// pins; files are under new_data/<name>/ and splits/.
	GeomGCNBase string
	// TUBase is the URL folder of the TU collection's NAME.zip archives.
	TUBase string
	// Timeout bounds the whole download of one dataset.
	Timeout time.Duration
}

// DefaultFetcher returns a Fetcher for PyG's download sources with a 2-minute
// limit per dataset.
func DefaultFetcher() *Fetcher {
	return &Fetcher{
		Client:        &http.Client{Timeout: 60 * time.Second},
		PlanetoidBase: "https://github.com/kimiyoung/planetoid/raw/master/data/",
		GeomGCNBase:   "https://raw.githubusercontent.com/graphdml-uiuc-jlu/geom-gcn/f1fc0d14b3b019c562737240d06ec83b07d16a8f/",
		TUBase:        "https://www.chrsmrrs.com/graphkerneldatasets/",
		Timeout:       2 * time.Minute,
	}
}

func (f *Fetcher) url(s source, file string) string {
	switch {
	case strings.HasPrefix(file, "ind."):
		return f.PlanetoidBase + file
	case strings.HasSuffix(file, ".npz"):
		return f.GeomGCNBase + "splits/" + file
	default:
		return f.GeomGCNBase + "new_data/" + s.name + "/" + file
	}
}

// Fetch downloads the given root-relative files of s into root. Each file is
// checked against its SHA-256 and then renamed into place, so a failed or
// corrupt download leaves nothing behind.
func (f *Fetcher) Fetch(s source, root string, rel []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), f.Timeout)
	defer cancel()
	for _, r := range rel {
		file := filepath.Base(r)
		if err := f.fetchOne(ctx, f.url(s, file), filepath.Join(root, r), checksums[r]); err != nil {
			return err
		}
	}
	return nil
}

func (f *Fetcher) fetchOne(ctx context.Context, url, dst, want string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := f.Client.Do(req)
	if err != nil {
		return fmt.Errorf("get %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("dataset: get %s: %s", url, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("get %s: %w", url, err)
	}
	sum := sha256.Sum256(body)
	if got := hex.EncodeToString(sum[:]); want == "" || got != want {
		return fmt.Errorf("dataset: get %s: checksum mismatch: sha256 %s, want %s", url, got, want)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	// Whole or not at all: a full disk leaves no half file to be taken
	// for the dataset's (files found are not re-hashed).
	return atomicfile.WriteFile(dst, func(w io.Writer) error {
		_, err := w.Write(body)
		return err
	})
}
