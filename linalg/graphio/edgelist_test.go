package graphio

import (
	"bytes"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

func TestEdgeListRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		n    int
		arcs []linalg.Edge
	}{
		{"empty graph", 0, nil},
		{"isolated nodes only", 3, nil},
		{"self-loops and isolated node", 6, es(0, 1, 1, 0, 2, 2, 4, 2, 4, 4)},
		{"duplicates kept", 2, es(0, 1, 0, 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "g.txt")
			if err := WriteEdgeList(path, c.n, c.arcs); err != nil {
				t.Fatal(err)
			}
			n, arcs, err := ReadEdgeList(path, 0)
			if err != nil {
				t.Fatal(err)
			}
			if n != c.n || len(arcs) != len(c.arcs) || len(arcs) > 0 && !slices.Equal(arcs, c.arcs) {
				t.Fatalf("n=%d arcs=%v, want %d %v", n, arcs, c.n, c.arcs)
			}
		})
	}
	var b bytes.Buffer
	if err := EncodeEdgeList(&b, 4, es(0, 1, 3, 3)); err != nil {
		t.Fatal(err)
	}
	if want := "# num_nodes 4\n0 1\n3 3\n"; b.String() != want {
		t.Errorf("EncodeEdgeList wrote %q, want %q", b.String(), want)
	}
}

func TestDecodeEdgeList(t *testing.T) {
	cases := []struct {
		name     string
		in       string
		numNodes int
		n        int
		arcs     []linalg.Edge
	}{
		{"count inferred", "0 1\n2 5\n", 0, 6, es(0, 1, 2, 5)},
		{"count from caller", "0 1\n", 9, 9, es(0, 1)},
		{"count from header", "# num_nodes 7\n0 1\n", 0, 7, es(0, 1)},
		{"header agrees with caller", "# num_nodes 7\n0 1\n", 7, 7, es(0, 1)},
		{"header after other comments", "# a graph\n#\n\n#num_nodes   3\n0 1\n", 0, 3, es(0, 1)},
		{"empty input", "", 0, 0, nil},
		{"only comments", "# hello\n\n", 0, 0, nil},
		{"tabs, blanks, CRLF, no final newline", "\ufeff 0\t1 \r\n\r\n  2   2\r\n# c\n3\t 0", 0, 4,
			es(0, 1, 2, 2, 3, 0)},
		{"leading zeros", "01 007\n", 0, 8, es(1, 7)},
		{"comment with num_nodes later in text is ignored", "# the num_nodes header is optional\n0 1\n# see num_nodes above\n", 0, 2, es(0, 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, arcs, err := DecodeEdgeList("in.txt", strings.NewReader(c.in), c.numNodes)
			if err != nil {
				t.Fatal(err)
			}
			if n != c.n || len(arcs) != len(c.arcs) || len(arcs) > 0 && !slices.Equal(arcs, c.arcs) {
				t.Fatalf("n=%d arcs=%v, want %d %v", n, arcs, c.n, c.arcs)
			}
		})
	}
}

func TestEdgeListErrors(t *testing.T) {
	cases := []struct {
		name     string
		in       string
		numNodes int
		line     int
		msg      string
	}{
		{"non-integer", "0 1\n1 2\na 3\n", 0, 3, `"a" is not an integer node id`},
		{"float id", "0 1.5\n", 0, 1, `"1.5" is not an integer node id`},
		{"negative id", "# x\n0 -2\n", 0, 2, "negative node id -2"},
		{"plus sign", "0 +1\n", 0, 1, `"+1" is not an integer node id`},
		{"minus zero", "-0 1\n", 0, 1, "negative node id -0"},
		{"lone minus", "0 -\n", 0, 1, `"-" is not an integer node id`},
		{"plus header", "# num_nodes +5\n", 0, 1, `num_nodes "+5" is not an integer`},
		{"id >= header count", "# num_nodes 3\n0 1\n\n2 3\n", 0, 4, "node id 3 is not below num_nodes 3 (from the header on line 1)"},
		{"id >= caller count", "0 1\n4 0\n", 4, 2, "node id 4 is not below num_nodes 4 (given by the caller)"},
		{"one field", "0 1\n5\n", 0, 2, `want 2 fields "u v", got 1`},
		{"three fields", "0 1 x\n", 0, 1, `want 2 fields "u v", got 3`},
		{"weighted", "0 1\n1 2 0.5\n", 0, 2, `3 fields "1 2 0.5": edge weights are not supported (ohm's graphs are unweighted); drop the third column first, e.g. cut -d' ' -f1,2 in.txt > EDGES (cut -f1,2 when tab-separated)`},
		{"weighted integer", "0\t1\t3\n", 0, 1, "edge weights are not supported"},
		{"commas", "0,1\n", 0, 1, `want 2 fields "u v", got 1 (separate ids with spaces or tabs, not commas)`},
		{"header after arc", "0 1\n# num_nodes 5\n", 0, 2, "num_nodes header after the first arc"},
		{"second header", "# num_nodes 5\n# num_nodes 5\n", 0, 2, "second num_nodes header (the first is on line 1)"},
		{"malformed header", "# num_nodes\n", 0, 1, `malformed header "# num_nodes": want "# num_nodes N"`},
		{"non-integer header", "# num_nodes x\n", 0, 1, `num_nodes "x" is not an integer in [0, 2147483647]`},
		{"huge header", "# num_nodes 99999999999\n", 0, 1, "is not an integer in"},
		{"header disagrees with caller", "# num_nodes 5\n0 1\n", 6, 1, "header says num_nodes 5 but 6 nodes were expected"},
		{"huge id", "0 2147483647\n", 0, 1, "node id 2147483647 is larger than 2147483646"},
		{"overflowing id", "0 99999999999999999999999\n", 0, 1, "node id 99999999999999999999999 is larger than"},
		{"overflowing negative id", "-99999999999999999999999 0\n", 0, 1, "negative node id -99999999999999999999999"},
		{"line too long", "0 1\n" + strings.Repeat(" ", maxLineLen+1) + "\n", 0, 2, "line longer than 1048576 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := DecodeEdgeList("in.txt", strings.NewReader(c.in), c.numNodes)
			if err == nil {
				t.Fatal("no error")
			}
			fe := asFormatError(t, err, "in.txt")
			if fe.Line != c.line {
				t.Errorf("Line = %d, want %d (%v)", fe.Line, c.line, err)
			}
			if fe.Member != "" {
				t.Errorf("Member = %q, want none", fe.Member)
			}
			if !strings.Contains(fe.Msg, c.msg) {
				t.Errorf("Msg = %q, want it to contain %q", fe.Msg, c.msg)
			}
			if want := "in.txt:" + strconv.Itoa(c.line) + ": "; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Error() = %q, want prefix %q", err, want)
			}
		})
	}
	if _, _, err := DecodeEdgeList("in.txt", strings.NewReader("0 1\n"), -1); err == nil {
		t.Error("negative numNodes: no error")
	}
}

// TestEdgeListOneBased: read 1-based, ids 1..n come back as 0..n−1, the
// header still counts the nodes, and an id 0 or above n is an error quoting
// the file's id; 0-based reading of the same file keeps node 0 (isolated).
func TestEdgeListOneBased(t *testing.T) {
	in := "# num_nodes 4\n1 2\n2 3\n4 4\n"
	n, arcs, err := DecodeEdgeListBase("in.txt", strings.NewReader(in), 0, OneBased)
	want := []linalg.Edge{{U: 0, V: 1}, {U: 1, V: 2}, {U: 3, V: 3}}
	if err != nil || n != 4 || !slices.Equal(arcs, want) {
		t.Errorf("1-based: n %d arcs %v err %v, want 4 %v", n, arcs, err, want)
	}
	if n, arcs, err := DecodeEdgeListBase("in.txt", strings.NewReader("1 2\n2 3\n"), 0, OneBased); err != nil || n != 3 || !slices.Equal(arcs, []linalg.Edge{{U: 0, V: 1}, {U: 1, V: 2}}) {
		t.Errorf("1-based without header: n %d arcs %v err %v", n, arcs, err)
	}
	if n, arcs, err := DecodeEdgeList("in.txt", strings.NewReader("1 2\n2 3\n"), 0); err != nil || n != 4 || arcs[0] != (linalg.Edge{U: 1, V: 2}) {
		t.Errorf("0-based: n %d arcs %v err %v", n, arcs, err)
	}
	for _, c := range []struct{ in, msg string }{
		{"1 2\n0 1\n", "in.txt:2: node id 0 in an edge list read 1-based (ids 1..n)"},
		{"# num_nodes 3\n1 2\n3 4\n", "in.txt:3: node id 4 is above num_nodes 3 (from the header on line 1; ids 1..3, read 1-based)"},
	} {
		if _, _, err := DecodeEdgeListBase("in.txt", strings.NewReader(c.in), 0, OneBased); err == nil || err.Error() != c.msg {
			t.Errorf("%q: error %v, want %q", c.in, err, c.msg)
		}
	}
	if _, err := LoadBase("g.npz", 0, false, OneBased); err == nil || !strings.Contains(err.Error(), "0-based") {
		t.Errorf(".npz read 1-based: %v", err)
	}
}
