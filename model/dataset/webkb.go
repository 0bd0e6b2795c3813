package dataset

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/james-bowman/sparse"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/linalg/graphio"
)

// WebKBSplits is the number of Geom-GCN splits of a WebKB dataset.
const WebKBSplits = 10

// Bounds that keep a malformed WebKB file from asking for absurd amounts of
// memory.
const (
	maxWebKBLine  = 1 << 26 // bytes in one line
	maxWebKBLabel = 1<<16 - 1
)

// Header lines of the Geom-GCN files.
const (
	webkbEdgesHeader    = "node_id\tnode_id"
	webkbFeaturesHeader = "node_id\tfeature\tlabel"
)

// LoadWebKB loads the WebKB dataset name ("cornell", "texas" or "wisconsin",
// any case) from the Geom-GCN files that PyTorch Geometric downloads into
// rawDir (e.g. <root>/cornell/raw), assembled as PyG's WebKB class does:
//
//   - out1_node_feature_label.txt: the header "node_id<TAB>feature<TAB>label",
//     then one line per node "id<TAB>f0,f1,...<TAB>label". Node i is the i-th
//     line after the header (line order, as PyG; the id column is not read).
//     Features are integers (0/1 in the real files), every line must have as
//     many as the first; Features is an n×F *sparse.CSR holding the non-zero
//     values, column indices ascending. Labels are integers in [0, 65535];
//     NumClasses = max label + 1.
//   - out1_graph_edges.txt: the header "node_id<TAB>node_id", then one arc
//     "src<TAB>dst" per line. Graph is directed: the arcs as in the file,
//     duplicates coalesced, self-loops kept (PyG's coalesce; it neither drops
//     self-loops nor symmetrises). Ids must lie in [0, n).
//   - <name>_split_0.6_0.2_<i>.npz, i = 0..9: members train_mask, val_mask and
//     test_mask, each a mask of shape (n,) and dtype |u1 or |b1 with values
//     0/1. Splits[i] holds the three id lists of split i, ascending. Masks are
//     not required to be disjoint or to cover every node (the real ones are
//     and do).
//
// Fields of a text line may carry surrounding white space and lines may end
// in "\r\n" (Python's int() accepts both); an empty line is an error, as it
// is for PyG. Unlike PyG, which drops the last line when the file does not
// end in a newline, the last line is always read.
//
// A missing file gives an error wrapping os.ErrNotExist that names its path.
// Malformed content gives a *graphio.FormatError: for the text files with the
// 1-based Line (bad header, wrong number of fields, a non-integer, a feature
// count that differs from the first line's, a negative or too large label, an
// arc id outside [0, n)); for a split archive with the Member (missing mask,
// wrong dtype or length, a value other than 0 or 1).
func LoadWebKB(rawDir, name string) (*Dataset, error) {
	name = strings.ToLower(name)
	switch name {
	case "cornell", "texas", "wisconsin":
	default:
		return nil, fmt.Errorf("dataset: unknown WebKB dataset %q (want cornell, texas or wisconsin)", name)
	}
	return loadWebKBFiles(rawDir, name)
}

// loadWebKBFiles loads the WebKB files of rawDir for any name; the Dataset
// is named name and its splits are rawDir/<name>_split_0.6_0.2_<i>.npz.
func loadWebKBFiles(rawDir, name string) (*Dataset, error) {
	featPath := filepath.Join(rawDir, "out1_node_feature_label.txt")
	var (
		x      *sparse.CSR
		labels []int
	)
	err := webkbOpen(featPath, "feature/label", func(f *os.File) (err error) {
		x, labels, err = decodeWebKBFeatures(featPath, f)
		return err
	})
	if err != nil {
		return nil, err
	}
	n := len(labels)

	edgePath := filepath.Join(rawDir, "out1_graph_edges.txt")
	var arcs []webkbArc
	err = webkbOpen(edgePath, "edge", func(f *os.File) (err error) {
		arcs, err = decodeWebKBEdges(edgePath, f)
		return err
	})
	if err != nil {
		return nil, err
	}
	g := linalg.NewGraph(n, true)
	for _, a := range arcs {
		if a.u >= n || a.v >= n {
			return nil, &graphio.FormatError{Path: edgePath, Line: a.line, Offset: -1,
				Msg: fmt.Sprintf("node id %d is not below the number of nodes %d (lines of %s)",
					max(a.u, a.v), n, filepath.Base(featPath))}
		}
		g.AddEdge(a.u, a.v)
	}

	numClasses := 0
	for _, y := range labels {
		numClasses = max(numClasses, y+1)
	}
	d := &Dataset{Name: name, Graph: g, Features: x, Labels: labels, NumClasses: numClasses,
		Splits: make([]Split, WebKBSplits)}
	for i := range WebKBSplits {
		path := filepath.Join(rawDir, fmt.Sprintf("%s_split_0.6_0.2_%d.npz", name, i))
		z, err := graphio.OpenNPZ(path)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("dataset: WebKB split %d: %w", i, err)
			}
			return nil, err
		}
		d.Splits[i], err = decodeWebKBSplit(z, n)
		z.Close()
		if err != nil {
			return nil, err
		}
	}
	return d, nil
}

// webkbOpen opens path and runs decode on it, wrapping a failure to open.
func webkbOpen(path, what string, decode func(*os.File) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("dataset: WebKB %s file: %w", what, err)
	}
	defer f.Close()
	return decode(f)
}

// webkbLines calls fn for every line of r (without its "\n" or "\r\n") with
// its 1-based number. The first line must equal header. An empty line is an
// error; so is a file without the header line.
func webkbLines(path string, r io.Reader, header string, fn func(line int, s string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxWebKBLine)
	line := 0
	for sc.Scan() {
		line++
		s := string(bytes.TrimSuffix(sc.Bytes(), []byte("\r")))
		if line == 1 {
			if s != header {
				return &graphio.FormatError{Path: path, Line: 1, Offset: -1,
					Msg: fmt.Sprintf("bad header %q: want %q", webkbShort(s), header)}
			}
			continue
		}
		if s == "" {
			return &graphio.FormatError{Path: path, Line: line, Offset: -1, Msg: "empty line"}
		}
		if err := fn(line, s); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		msg := "read error"
		if errors.Is(err, bufio.ErrTooLong) {
			msg = fmt.Sprintf("line longer than %d bytes", maxWebKBLine)
		}
		return &graphio.FormatError{Path: path, Line: line + 1, Offset: -1, Msg: msg, Err: err}
	}
	if line == 0 {
		return &graphio.FormatError{Path: path, Line: 1, Offset: -1,
			Msg: fmt.Sprintf("empty file: want the header %q", header)}
	}
	return nil
}

// webkbShort shortens s for an error message.
func webkbShort(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// webkbInt parses one integer field as Python's int() does for these files
// (surrounding white space allowed). what names the field in errors.
func webkbInt(path string, line int, s, what string) (int, error) {
	t := strings.TrimSpace(s)
	v, err := strconv.Atoi(t)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, &graphio.FormatError{Path: path, Line: line, Offset: -1,
				Msg: fmt.Sprintf("%s %s is out of range", what, webkbShort(t))}
		}
		return 0, &graphio.FormatError{Path: path, Line: line, Offset: -1,
			Msg: fmt.Sprintf("%s %q is not an integer", what, webkbShort(s))}
	}
	return v, nil
}

// webkbArc is one arc of out1_graph_edges.txt and the line it is on.
type webkbArc struct{ u, v, line int }

// decodeWebKBEdges reads out1_graph_edges.txt: the header, then "src<TAB>dst"
// per line, both non-negative integers (at most graphio.MaxNodes-1). The arcs
// are returned in file order with their line numbers; the caller checks them
// against the node count.
func decodeWebKBEdges(path string, r io.Reader) ([]webkbArc, error) {
	var arcs []webkbArc
	err := webkbLines(path, r, webkbEdgesHeader, func(line int, s string) error {
		f := strings.Split(s, "\t")
		if len(f) != 2 {
			return &graphio.FormatError{Path: path, Line: line, Offset: -1,
				Msg: fmt.Sprintf("want 2 tab-separated fields \"src<TAB>dst\", got %d", len(f))}
		}
		var ids [2]int
		for k, what := range []string{"source node id", "target node id"} {
			v, err := webkbInt(path, line, f[k], what)
			if err != nil {
				return err
			}
			if v < 0 || v >= graphio.MaxNodes {
				return &graphio.FormatError{Path: path, Line: line, Offset: -1,
					Msg: fmt.Sprintf("%s %d is outside [0, %d)", what, v, graphio.MaxNodes)}
			}
			ids[k] = v
		}
		arcs = append(arcs, webkbArc{ids[0], ids[1], line})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return arcs, nil
}

// decodeWebKBFeatures reads out1_node_feature_label.txt: the header, then
// "id<TAB>f0,f1,...<TAB>label" per node in line order (the id column is not
// read, as in PyG). It returns the n×F feature matrix (non-zero values only,
// columns ascending) and the labels.
func decodeWebKBFeatures(path string, r io.Reader) (*sparse.CSR, []int, error) {
	var (
		labels    []int
		indptr    = []int{0}
		ind       []int
		data      []float64
		nf        = -1
		firstLine int
	)
	err := webkbLines(path, r, webkbFeaturesHeader, func(line int, s string) error {
		ferr := func(format string, args ...any) error {
			return &graphio.FormatError{Path: path, Line: line, Offset: -1, Msg: fmt.Sprintf(format, args...)}
		}
		f := strings.Split(s, "\t")
		if len(f) != 3 {
			return ferr("want 3 tab-separated fields \"node_id<TAB>features<TAB>label\", got %d", len(f))
		}
		feats := strings.Split(f[1], ",")
		if nf < 0 {
			nf, firstLine = len(feats), line
		} else if len(feats) != nf {
			return ferr("%d features, but line %d has %d", len(feats), firstLine, nf)
		}
		for j, t := range feats {
			v, err := webkbInt(path, line, t, "feature "+strconv.Itoa(j))
			if err != nil {
				return err
			}
			if v != 0 {
				ind = append(ind, j)
				data = append(data, float64(v))
			}
		}
		y, err := webkbInt(path, line, f[2], "label")
		if err != nil {
			return err
		}
		if y < 0 || y > maxWebKBLabel {
			return ferr("label %d is outside [0, %d]", y, maxWebKBLabel)
		}
		labels = append(labels, y)
		indptr = append(indptr, len(ind))
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if len(labels) == 0 {
		return nil, nil, &graphio.FormatError{Path: path, Line: 2, Offset: -1, Msg: "no node lines after the header"}
	}
	return sparse.NewCSR(len(labels), nf, indptr, ind, data), labels, nil
}

// decodeWebKBSplit reads train_mask, val_mask and test_mask of one split
// archive; each must be a 0/1 mask of length n.
func decodeWebKBSplit(z *graphio.NPZ, n int) (Split, error) {
	var ids [3][]int
	for k, key := range []string{"train_mask", "val_mask", "test_mask"} {
		a, err := z.Array(key)
		if err != nil {
			return Split{}, err
		}
		m, err := a.Mask()
		if err != nil {
			return Split{}, err
		}
		if len(m) != n {
			return Split{}, &graphio.FormatError{Path: z.Path(), Member: a.Member, Offset: -1,
				Msg: fmt.Sprintf("mask of length %d, want %d (one per node)", len(m), n)}
		}
		ids[k] = maskToIDs(m)
	}
	return Split{Train: ids[0], Val: ids[1], Test: ids[2]}, nil
}
