package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/ohmgnn/ohm/internal/atomicfile"
	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
	"github.com/ohmgnn/ohm/rewire"
)

// CodeVersion is the version of the rewiring code (rewire.CodeVersion) of
// method m in form: part of every cache key, record and resume key.
func CodeVersion(m, form string) string {
	return rewire.CodeVersion(rewire.Method(m), form == Directed)
}

// CacheDir returns the cache folder of a results file: "<results>.cache".
func CacheDir(results string) string { return results + ".cache" }

// GraphKey names one rewired graph: its inputs.
type GraphKey struct {
	Dataset      string  `json:"dataset"`
	Form         string  `json:"form"`
	Method       string  `json:"method"`
	Budget       float64 `json:"budget"`
	Alpha        float64 `json:"alpha"` // curvature only, else 0
	SynthSeed    uint64  `json:"synth_seed"`
	Heterophilic bool    `json:"heterophilic"`
	Version      string  `json:"version"`
	GraphSHA256  string  `json:"graph_sha256,omitempty"` // graph files only: the hash of their arrays
}

// Hash returns the cache file's base name: the first 20 hex digits of the
// SHA-256 of the key's fields (GraphSHA256 only when set, so that the
// built-in datasets' cached graphs keep their names).
func (k GraphKey) Hash() string {
	s := fmt.Sprintf("%s|%s|%s|%s|%s|%d|%t|%s", k.Dataset, k.Form, k.Method,
		strconv.FormatFloat(k.Budget, 'g', -1, 64), strconv.FormatFloat(k.Alpha, 'g', -1, 64),
		k.SynthSeed, k.Heterophilic, k.Version)
	if k.GraphSHA256 != "" {
		s += "|" + k.GraphSHA256
	}
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:10])
}

// Rewired is one rewired graph and the numbers of the run that made it.
type Rewired struct {
	Graph        *linalg.Graph `json:"-"`
	Key          GraphKey      `json:"key"`
	E0           int           `json:"e0"`
	Iterations   int           `json:"iterations"`
	Added        int           `json:"added"`
	Removed      int           `json:"removed"`
	AddedNet     int           `json:"added_net"`
	RemovedNet   int           `json:"removed_net"`
	StoppedEarly string        `json:"stopped_early,omitempty"`
	Seconds      float64       `json:"seconds"`
	// Checksum is the SHA-256 of the graph's .npz file and of these
	// numbers (the JSON without the checksum): a cached graph or number
	// edited or replaced is detected on use and made again.
	Checksum string `json:"checksum"`
}

// checksum returns the hex SHA-256 of npz followed by r's JSON with an empty
// Checksum.
func checksum(r Rewired, npz []byte) string {
	r.Checksum = ""
	return contentSum(npz, r)
}

// contentSum returns the hex SHA-256 of npz followed by meta's JSON: the
// checksum of a cache entry, its archive and its numbers (meta with its
// own checksum field empty), for graphs (checksum) and datasets
// (tuChecksum) alike.
func contentSum(npz []byte, meta any) string {
	js, _ := json.Marshal(meta)
	h := sha256.New()
	h.Write(npz)
	h.Write(js)
	return hex.EncodeToString(h.Sum(nil))
}

// writeMeta writes a cache entry's numbers as indented JSON, atomically:
// the entry is in the cache once this file exists.
func writeMeta(path string, meta any) error {
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(meta)
	})
}

// cache stores rewired graphs as <dir>/<hash>.npz (edge_index, num_nodes:
// the graph's arcs as PyG holds them, readable by numpy) beside
// <hash>.json (the Rewired numbers), each written atomically, the .json
// last: a graph is in the cache once its .json exists.
type cache struct{ dir string }

func (c cache) paths(k GraphKey) (npz, meta string) {
	h := k.Hash()
	return filepath.Join(c.dir, h+".npz"), filepath.Join(c.dir, h+".json")
}

// load returns the cached graph, or nil when it is not cached, when the files
// are unreadable, or when their checksum does not match (a valid but
// different .npz, an edited .json): the graph is then made again. n is the
// dataset's node count. (A graph cached under the key of another input —
// same name, another graph file — has another key: GraphSHA256.)
func (c cache) load(k GraphKey, n int) *Rewired {
	npz, meta := c.paths(k)
	b, err := os.ReadFile(meta)
	if err != nil {
		return nil
	}
	var r Rewired
	if json.Unmarshal(b, &r) != nil || r.Key != k {
		return nil
	}
	raw, err := os.ReadFile(npz)
	if err != nil || checksum(r, raw) != r.Checksum {
		return nil // edited, replaced or half-written: make it again
	}
	nn, arcs, err := graphio.DecodeNPZ(npz, bytes.NewReader(raw), int64(len(raw)))
	if err != nil || nn != n {
		return nil
	}
	g, err := linalg.FromEdges(nn, k.Form == Directed, arcs)
	if err != nil {
		return nil
	}
	r.Graph = g
	return &r
}

// store writes the graph, then its numbers.
func (c cache) store(r *Rewired) error {
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return err
	}
	npz, meta := c.paths(r.Key)
	if err := graphio.WriteNPZ(npz, r.Graph.N(), r.Graph.Arcs(), nil); err != nil {
		return err
	}
	raw, err := os.ReadFile(npz)
	if err != nil {
		return err
	}
	r.Checksum = checksum(*r, raw)
	return writeMeta(meta, r)
}
