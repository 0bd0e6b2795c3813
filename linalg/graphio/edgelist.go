package graphio

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/ohmgnn/ohm/linalg"
)

// maxLineLen bounds one line of an edge list.
const maxLineLen = 1 << 20

// nodeCountSource says where the node count of an edge list came from.
type nodeCountSource int

const (
	countInferred nodeCountSource = iota
	countHeader
	countCaller
)

// ReadEdgeList reads the edge list at path (see DecodeEdgeList).
func ReadEdgeList(path string, numNodes int) (n int, arcs []linalg.Edge, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	return DecodeEdgeList(path, f, numNodes)
}

// DecodeEdgeList reads an edge list from r; path only names it in errors.
// The format (definitions §1), as EncodeEdgeList writes it:
//
//	# num_nodes 5
//	0 1
//	1 2
//	4 4
//
// One arc "u v" per line, the two non-negative decimal ids separated by white
// space, i.e. spaces and/or tabs (not commas: "0,1" is one field, reported
// with a hint). Leading and trailing blanks, "\r\n" line ends, a UTF-8
// byte-order mark and a missing final newline are accepted. Blank lines and
// lines whose first non-blank character is '#' are ignored, except the header
// comment "# num_nodes N", which fixes the node count; it must come before
// the first arc and appear at most once. Arcs are returned in file order,
// duplicates and self-loops kept.
//
// The node count n is the "# num_nodes N" header when present; else numNodes
// when it is positive; else the largest id + 1 (0 for no arcs). When both the
// header and a positive numNodes are given they must agree. Every id must be
// below n. Malformed input is a *FormatError naming the line: a non-integer
// or negative id, an id ≥ n, a line without exactly two fields, a bad or
// misplaced header, or a line longer than 1 MiB. A negative numNodes is an
// argument error.
func DecodeEdgeList(path string, r io.Reader, numNodes int) (n int, arcs []linalg.Edge, err error) {
	if numNodes < 0 {
		return 0, nil, fmt.Errorf("graphio: negative node count %d for %s", numNodes, path)
	}
	src, headerLine := countInferred, 0
	if numNodes > 0 {
		n, src = numNodes, countCaller
	}
	maxID := -1
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxLineLen)
	line := 0
	ferr := func(format string, args ...any) error {
		return &FormatError{Path: path, Line: line, Offset: -1, Msg: fmt.Sprintf(format, args...)}
	}
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		s := strings.TrimSpace(string(b))
		if s == "" {
			continue
		}
		if s[0] == '#' {
			f := strings.Fields(s[1:])
			if len(f) == 0 || f[0] != "num_nodes" {
				continue
			}
			switch {
			case headerLine > 0:
				return 0, nil, ferr("second num_nodes header (the first is on line %d)", headerLine)
			case len(arcs) > 0:
				return 0, nil, ferr("num_nodes header after the first arc")
			case len(f) != 2:
				return 0, nil, ferr("malformed header %q: want \"# num_nodes N\"", s)
			}
			v, err := atoiStrict(f[1])
			if err != nil || v < 0 || v > MaxNodes {
				return 0, nil, ferr("num_nodes %q is not an integer in [0, %d]", f[1], MaxNodes)
			}
			if src == countCaller && v != numNodes {
				return 0, nil, ferr("header says num_nodes %d but %d nodes were expected", v, numNodes)
			}
			n, src, headerLine = v, countHeader, line
			continue
		}
		f := strings.Fields(s)
		if len(f) != 2 {
			hint := ""
			if strings.Contains(s, ",") {
				hint = " (separate ids with spaces or tabs, not commas)"
			}
			return 0, nil, ferr("want 2 fields \"u v\", got %d%s", len(f), hint)
		}
		var e [2]int
		for k, t := range f {
			v, err := atoiStrict(t)
			switch {
			case err != nil && errors.Is(err, strconv.ErrRange) && strings.HasPrefix(t, "-"):
				return 0, nil, ferr("negative node id %s", t)
			case err != nil && errors.Is(err, strconv.ErrRange):
				return 0, nil, ferr("node id %s is larger than %d", t, MaxNodes-1)
			case err != nil:
				return 0, nil, ferr("%q is not an integer node id", t)
			case v < 0:
				return 0, nil, ferr("negative node id %d", v)
			case src != countInferred && v >= n:
				from := "given by the caller"
				if src == countHeader {
					from = fmt.Sprintf("from the header on line %d", headerLine)
				}
				return 0, nil, ferr("node id %d is not below num_nodes %d (%s)", v, n, from)
			case v >= MaxNodes:
				return 0, nil, ferr("node id %d is larger than %d", v, MaxNodes-1)
			}
			e[k] = v
			maxID = max(maxID, v)
		}
		arcs = append(arcs, linalg.Edge{U: e[0], V: e[1]})
	}
	if err := sc.Err(); err != nil {
		line++
		if errors.Is(err, bufio.ErrTooLong) {
			return 0, nil, ferr("line longer than %d bytes", maxLineLen)
		}
		return 0, nil, &FormatError{Path: path, Line: line, Offset: -1, Msg: "read error", Err: err}
	}
	if src == countInferred {
		n = maxID + 1
	}
	return n, arcs, nil
}

// EncodeEdgeList writes the header "# num_nodes N" and then one "u v" line
// per arc, in the order given. Ids outside [0, numNodes) are an error.
func EncodeEdgeList(w io.Writer, numNodes int, arcs []linalg.Edge) error {
	if numNodes < 0 || numNodes > MaxNodes {
		return fmt.Errorf("graphio: node count %d outside [0, %d]", numNodes, MaxNodes)
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# num_nodes %d\n", numNodes)
	buf := make([]byte, 0, 32)
	for i, e := range arcs {
		if e.U < 0 || e.U >= numNodes || e.V < 0 || e.V >= numNodes {
			return fmt.Errorf("graphio: arc %d (%d, %d): node id out of range [0, %d)", i, e.U, e.V, numNodes)
		}
		buf = strconv.AppendInt(buf[:0], int64(e.U), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(e.V), 10)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteEdgeList writes an edge list (see EncodeEdgeList) to path atomically:
// an existing file is replaced only once the new one is complete on disk.
func WriteEdgeList(path string, numNodes int, arcs []linalg.Edge) error {
	return WriteFileAtomic(path, func(w io.Writer) error { return EncodeEdgeList(w, numNodes, arcs) })
}
