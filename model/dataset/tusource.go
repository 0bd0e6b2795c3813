package dataset

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ohmgnn/ohm/internal/atomicfile"
)

// TUNames lists the TU datasets ohm knows by name, spelt as the TU
// collection spells them (any other is found or downloaded under the name
// as given). Those of the shared data (MUTAG, ENZYMES, PROTEINS) have their
// files' SHA-256 in ohm.
var TUNames = []string{
	"MUTAG", "ENZYMES", "PROTEINS", "PROTEINS_full", "NCI1", "NCI109", "DD", "PTC_MR",
	"Mutagenicity", "COX2", "BZR", "DHFR", "AIDS", "FRANKENSTEIN",
	"COLLAB", "IMDB-BINARY", "IMDB-MULTI", "REDDIT-BINARY", "REDDIT-MULTI-5K", "REDDIT-MULTI-12K",
}

// TUName returns the TU collection's spelling of name (case insensitive)
// and whether name is one of TUNames.
func TUName(name string) (string, bool) {
	for _, n := range TUNames {
		if strings.EqualFold(n, name) {
			return n, true
		}
	}
	return name, false
}

// IsTU reports whether name is one of TUNames (case insensitive).
func IsTU(name string) bool {
	_, ok := TUName(name)
	return ok
}

// TUChecked reports whether ohm knows the SHA-256 of the TU dataset
// name's files (MUTAG, ENZYMES, PROTEINS): a download of it is checked.
func TUChecked(name string) bool {
	name, _ = TUName(name)
	for f := range checksums {
		if strings.HasPrefix(f, name+"/raw/") {
			return true
		}
	}
	return false
}

// tuRelFiles returns the root-relative files that make the TU dataset name
// present: those ohm has a SHA-256 of, else the three every TU dataset has.
func tuRelFiles(name string) []string {
	prefix := name + "/raw/"
	var rel []string
	for f := range checksums {
		if strings.HasPrefix(f, prefix) {
			rel = append(rel, f)
		}
	}
	if len(rel) == 0 {
		for _, part := range []string{"A", "graph_indicator", "graph_labels"} {
			rel = append(rel, prefix+name+"_"+part+".txt")
		}
	}
	slices.Sort(rel)
	return rel
}

// FindTU returns the first root holding the TU dataset name (its
// <root>/<NAME>/raw/ files, NAME as TUName spells it), or "" and the files
// missing from the first root searched. O(files) stats.
func (l *Locator) FindTU(name string) (root string, missing []string) {
	name, _ = TUName(name)
	rel := tuRelFiles(name)
	for i, r := range l.Roots() {
		var miss []string
		for _, f := range rel {
			if _, err := os.Stat(filepath.Join(r, filepath.FromSlash(f))); err != nil {
				miss = append(miss, f)
			}
		}
		if len(miss) == 0 {
			return r, nil
		}
		if i == 0 {
			missing = miss
		}
	}
	if len(l.Roots()) == 0 {
		missing = rel
	}
	return "", missing
}

// LoadTU returns the TU dataset name (definitions §1.5) read from the
// first root holding it, after downloading it into the first root searched
// when it is missing, a Fetcher is set and the network answers (FetchTU).
// The error is a *MissingError when it can be neither found nor fetched.
func (l *Locator) LoadTU(name string, opt TUOptions) (*TUDataset, error) {
	name, _ = TUName(name)
	root, missing := l.FindTU(name)
	if root == "" {
		merr := &MissingError{Dataset: name, Missing: missing, Searched: l.Roots()}
		if l.Fetch == nil || len(merr.Searched) == 0 {
			return nil, merr
		}
		root = merr.Searched[0]
		if merr.Download = l.Fetch.FetchTU(name, root); merr.Download != nil {
			return nil, merr
		}
	}
	d, err := LoadTU(filepath.Join(root, name, "raw"), name, opt)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", name, err)
	}
	return d, nil
}

// maxTUZip bounds a downloaded TU archive (the largest of the collection
// are a few hundred MB).
const maxTUZip = 1 << 30

// FetchTU downloads the TU collection's archive of name
// (TUBase + name + ".zip", the URL PyG uses) and unpacks its name/ folder
// into root/name/raw/, as PyG does. Every file ohm has a SHA-256 of must be
// in the archive and match it; every file is written in full beside its
// place first and all are renamed into place together, so a failed or
// corrupt download leaves nothing behind.
func (f *Fetcher) FetchTU(name, root string) error {
	ctx, cancel := context.WithTimeout(context.Background(), f.Timeout)
	defer cancel()
	url := f.TUBase + name + ".zip"
	body, err := f.get(ctx, url, maxTUZip)
	if err != nil {
		return err
	}
	z, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		return fmt.Errorf("get %s: %w", url, err)
	}
	files := map[string][]byte{} // root-relative path → content
	for _, m := range z.File {
		dir, base := path.Split(m.Name)
		if dir != name+"/" || base == "" || m.FileInfo().IsDir() {
			continue
		}
		data, err := readZipMember(m)
		if err != nil {
			return fmt.Errorf("get %s: %s: %w", url, m.Name, err)
		}
		files[name+"/raw/"+base] = data
	}
	for _, rel := range tuRelFiles(name) {
		data, ok := files[rel]
		if !ok {
			return fmt.Errorf("get %s: the archive lacks %s", url, path.Base(rel))
		}
		if want, ok := checksums[rel]; ok {
			sum := sha256.Sum256(data)
			if got := hex.EncodeToString(sum[:]); got != want {
				return fmt.Errorf("get %s: %s: checksum mismatch: sha256 %s, want %s", url, path.Base(rel), got, want)
			}
		}
	}
	return writeAll(root, files)
}

// readZipMember reads one member, bounded by maxTUZip.
func readZipMember(m *zip.File) ([]byte, error) {
	rc, err := m.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxTUZip+1))
	if err == nil && len(data) > maxTUZip {
		err = fmt.Errorf("larger than %d bytes", maxTUZip)
	}
	return data, err
}

// writeAll writes files (root-relative path → content) under root, all or
// nothing (atomicfile.CommitAll).
func writeAll(root string, files map[string][]byte) error {
	var staged []*atomicfile.Pending
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		dst := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			atomicfile.DiscardAll(staged...)
			return err
		}
		data := files[rel]
		p, err := atomicfile.Stage(dst, func(w io.Writer) error { _, err := w.Write(data); return err })
		if err != nil {
			atomicfile.DiscardAll(staged...)
			return err
		}
		staged = append(staged, p)
	}
	return atomicfile.CommitAll(staged...)
}

// get downloads url whole (at most limit bytes) within ctx.
func (f *Fetcher) get(ctx context.Context, url string, limit int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := f.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("get %s: %s", url, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", url, err)
	}
	if int64(len(body)) > limit {
		return nil, fmt.Errorf("get %s: larger than %d bytes", url, limit)
	}
	return body, nil
}
