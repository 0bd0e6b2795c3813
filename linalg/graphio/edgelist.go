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

	"github.com/ohmgnn/ohm/internal/atomicfile"
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

// IDBase is where the node ids of an edge list start: 0 (ohm's and PyG's
// convention, what EncodeEdgeList writes) or 1 (as many tools write them).
type IDBase int

// The bases of node ids.
const (
	ZeroBased IDBase = iota // ids 0..n−1
	OneBased                // ids 1..n, read as 0..n−1
)

// ReadEdgeList reads the edge list at path (see DecodeEdgeList).
func ReadEdgeList(path string, numNodes int) (n int, arcs []linalg.Edge, err error) {
	return ReadEdgeListBase(path, numNodes, ZeroBased)
}

// ReadEdgeListBase reads the edge list at path with node ids from base (see
// DecodeEdgeListBase).
func ReadEdgeListBase(path string, numNodes int, base IDBase) (n int, arcs []linalg.Edge, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	return DecodeEdgeListBase(path, f, numNodes, base)
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
// misplaced header, or a line longer than 1 MiB; a line of three fields
// whose third is a number is refused as an edge weight, which graphs here
// do not have, with how to drop the column. A negative numNodes is an
// argument error.
func DecodeEdgeList(path string, r io.Reader, numNodes int) (n int, arcs []linalg.Edge, err error) {
	return DecodeEdgeListBase(path, r, numNodes, ZeroBased)
}

// DecodeEdgeListBase is DecodeEdgeList with node ids from base: with
// OneBased the file's ids run from 1 to n (the header's num_nodes still
// counts the nodes) and are returned less one; an id 0 is then a
// *FormatError. Messages quote the ids as the file writes them. O(size of
// r).
func DecodeEdgeListBase(path string, r io.Reader, numNodes int, base IDBase) (n int, arcs []linalg.Edge, err error) {
	if numNodes < 0 {
		return 0, nil, fmt.Errorf("graphio: negative node count %d for %s", numNodes, path)
	}
	if base != ZeroBased && base != OneBased {
		return 0, nil, fmt.Errorf("graphio: unknown id base %d for %s", int(base), path)
	}
	d := edgeListDecoder{path: path, numNodes: numNodes, src: countInferred, maxID: -1, base: int(base)}
	if numNodes > 0 {
		d.n, d.src = numNodes, countCaller
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxLineLen)
	for sc.Scan() {
		d.line++
		b := sc.Bytes()
		if d.line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		s := strings.TrimSpace(string(b))
		if s == "" {
			continue
		}
		if s[0] == '#' {
			if err := d.comment(s); err != nil {
				return 0, nil, err
			}
			continue
		}
		if err := d.arc(s); err != nil {
			return 0, nil, err
		}
	}
	if err := sc.Err(); err != nil {
		d.line++
		if errors.Is(err, bufio.ErrTooLong) {
			return 0, nil, d.errf("line longer than %d bytes", maxLineLen)
		}
		return 0, nil, &FormatError{Path: path, Line: d.line, Offset: -1, Msg: "read error", Err: err}
	}
	if d.src == countInferred {
		d.n = d.maxID + 1
	}
	return d.n, d.arcs, nil
}

// edgeListDecoder is DecodeEdgeList's state between lines: the node
// count n so far and where it came from (src; the header's line
// headerLine), the largest id read, the arcs, and the current line.
type edgeListDecoder struct {
	path       string
	numNodes   int // the caller's node count, 0 for none
	n          int
	src        nodeCountSource
	headerLine int
	maxID      int
	arcs       []linalg.Edge
	line       int
	base       int // the first id: 0, or 1 (OneBased)
}

// errf returns a FormatError at the current line.
func (d *edgeListDecoder) errf(format string, args ...any) error {
	return &FormatError{Path: d.path, Line: d.line, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

// comment reads a comment line s (trimmed, starting with '#'): ignored
// unless it is the "# num_nodes N" header, which must come before the
// first arc, at most once, and agree with the caller's node count.
func (d *edgeListDecoder) comment(s string) error {
	f := strings.Fields(s[1:])
	if len(f) == 0 || f[0] != "num_nodes" {
		return nil
	}
	switch {
	case d.headerLine > 0:
		return d.errf("second num_nodes header (the first is on line %d)", d.headerLine)
	case len(d.arcs) > 0:
		return d.errf("num_nodes header after the first arc")
	case len(f) != 2:
		return d.errf("malformed header %q: want \"# num_nodes N\"", s)
	}
	v, err := atoiStrict(f[1])
	if err != nil || v < 0 || v > MaxNodes {
		return d.errf("num_nodes %q is not an integer in [0, %d]", f[1], MaxNodes)
	}
	if d.src == countCaller && v != d.numNodes {
		return d.errf("header says num_nodes %d but %d nodes were expected", v, d.numNodes)
	}
	d.n, d.src, d.headerLine = v, countHeader, d.line
	return nil
}

// arc reads an arc line s (trimmed, not blank): two node ids, each
// checked by id, appended to the arcs.
func (d *edgeListDecoder) arc(s string) error {
	f := strings.Fields(s)
	if len(f) == 3 {
		if _, err := strconv.ParseFloat(f[2], 64); err == nil {
			return d.errf("3 fields %q: edge weights are not supported (ohm's graphs are unweighted); drop the third column first, e.g. cut -d' ' -f1,2 %s > EDGES (cut -f1,2 when tab-separated)", s, d.path)
		}
	}
	if len(f) != 2 {
		hint := ""
		if strings.Contains(s, ",") {
			hint = " (separate ids with spaces or tabs, not commas)"
		}
		return d.errf("want 2 fields \"u v\", got %d%s", len(f), hint)
	}
	var e [2]int
	for k, t := range f {
		v, err := d.id(t)
		if err != nil {
			return err
		}
		e[k] = v
		d.maxID = max(d.maxID, v)
	}
	d.arcs = append(d.arcs, linalg.Edge{U: e[0], V: e[1]})
	return nil
}

// id parses the node id t: a decimal integer ≥ the base, less than the
// node count plus the base when the count is known (header or caller) and
// below MaxNodes; returned less the base.
func (d *edgeListDecoder) id(t string) (int, error) {
	v, err := atoiStrict(t)
	if err == nil && d.base == 1 {
		if v == 0 {
			return 0, d.errf("node id 0 in an edge list read 1-based (ids 1..n)")
		}
		if v > 0 {
			v--
		}
	}
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange) && strings.HasPrefix(t, "-"):
		return 0, d.errf("negative node id %s", t)
	case err != nil && errors.Is(err, strconv.ErrRange):
		return 0, d.errf("node id %s is larger than %d", t, MaxNodes-1)
	case err != nil:
		return 0, d.errf("%q is not an integer node id", t)
	case v < 0:
		return 0, d.errf("negative node id %d", v)
	case d.src != countInferred && v >= d.n:
		from := "given by the caller"
		if d.src == countHeader {
			from = fmt.Sprintf("from the header on line %d", d.headerLine)
		}
		if d.base == 1 {
			return 0, d.errf("node id %d is above num_nodes %d (%s; ids 1..%d, read 1-based)", v+1, d.n, from, d.n)
		}
		return 0, d.errf("node id %d is not below num_nodes %d (%s)", v, d.n, from)
	case v >= MaxNodes:
		return 0, d.errf("node id %d is larger than %d", v, MaxNodes-1)
	}
	return v, nil
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
	return atomicfile.WriteFile(path, func(w io.Writer) error { return EncodeEdgeList(w, numNodes, arcs) })
}
