package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ohmgnn/ohm/internal/atomicfile"

	"github.com/ohmgnn/ohm/model/dataset"
)

// TUKey names one rewired graph-classification dataset: its inputs.
type TUKey struct {
	GraphKey
	Unit string `json:"unit"` // UnitEdits or UnitFraction
}

// Hash returns the cache file's base name: "tu-" and the first 20 hex
// digits of the SHA-256 of the key's JSON.
func (k TUKey) Hash() string {
	js, _ := json.Marshal(k)
	h := sha256.Sum256(js)
	return "tu-" + hex.EncodeToString(h[:10])
}

// RewiredTU is a TU dataset rewired graph by graph (rewire.RunMany) and the
// sums of its graphs' numbers.
type RewiredTU struct {
	Data       *dataset.TUDataset `json:"-"`
	Key        TUKey              `json:"key"`
	E0         int                `json:"e0"` // edges of all graphs
	Iterations int                `json:"iterations"`
	Added      int                `json:"added"`
	Removed    int                `json:"removed"`
	AddedNet   int                `json:"added_net"`
	RemovedNet int                `json:"removed_net"`
	// StoppedEarly counts the graphs whose rewiring stopped before their
	// budget.
	StoppedEarly int     `json:"stopped_early_graphs"`
	Seconds      float64 `json:"seconds"`
	// Checksum is the SHA-256 of the .npz and of these numbers.
	Checksum string `json:"checksum"`
}

// tuChecksum returns the hex SHA-256 of npz followed by r's JSON with an
// empty Checksum.
func tuChecksum(r RewiredTU, npz []byte) string {
	r.Checksum = ""
	return contentSum(npz, r)
}

// tuPaths returns the cache files of k: the collated archive and its
// numbers.
func (c cache) tuPaths(k TUKey) (npz, meta string) {
	h := k.Hash()
	return filepath.Join(c.dir, h+".npz"), filepath.Join(c.dir, h+".json")
}

// loadTU returns the cached rewired dataset, or nil when it is not cached
// or its files do not match their checksum (it is then made again).
func (c cache) loadTU(k TUKey) *RewiredTU {
	npz, meta := c.tuPaths(k)
	b, err := os.ReadFile(meta)
	if err != nil {
		return nil
	}
	var r RewiredTU
	if json.Unmarshal(b, &r) != nil || r.Key != k {
		return nil
	}
	raw, err := os.ReadFile(npz)
	if err != nil || tuChecksum(r, raw) != r.Checksum {
		return nil
	}
	d, err := dataset.ReadTUArchive(npz, k.Dataset)
	if err != nil {
		return nil
	}
	r.Data = d
	return &r
}

// storeTU writes the rewired dataset as a collated archive, then its
// numbers, each atomically: it is in the cache once its .json exists.
func (c cache) storeTU(r *RewiredTU) error {
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return err
	}
	npz, meta := c.tuPaths(r.Key)
	if err := atomicfile.WriteFile(npz, func(w io.Writer) error { return dataset.EncodeTUArchive(w, r.Data) }); err != nil {
		return fmt.Errorf("sweep: cache: %w", err)
	}
	raw, err := os.ReadFile(npz)
	if err != nil {
		return err
	}
	r.Checksum = tuChecksum(*r, raw)
	return writeMeta(meta, r)
}
