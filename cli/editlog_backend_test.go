package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
	"github.com/ohmgnn/ohm/rewire"
)

// pureGoBackend reports whether the build runs on gonum's pure-Go BLAS and
// LAPACK, with which the edit logs in testdata/editlogs were recorded.
func pureGoBackend() bool { return linalg.Backend() == "gonum (pure Go)" }

// backendScoreTol is how far apart (relative) an edit's score may be on
// another backend (the openblas build): OpenBLAS sums in another order, so
// scores differ in the last bits — measured at most 1.9e-14 relative on
// WebKB (both forms, every method) and 5.1e-13 on Cora and CiteSeer (Cora's
// gtr) — while every decision stays the same.
const backendScoreTol = 1e-10

// directedScoreTol is how far apart (relative) a directed err, err-hop, res
// or res-hop edit's score may be from the recorded one on any backend: the
// fast directed engine's certificate keeps its decisions, not the last bits
// of its scores (definitions §2.2; the scores are within the certified error
// bound of the exact ones, far below this).
const directedScoreTol = 1e-9

// gtrScoreTol is how far apart (relative) a gtr edit's score may be from
// the recorded one: gtr's own fused multiply–add arithmetic (definitions
// §3.5) keeps the decisions, not the last bits of gonum's scores (measured
// at most 5.3e-12 relative on the TU datasets).
const gtrScoreTol = 1e-9

// sameDecisions is the comparison of two edit logs that must make the same
// decisions: the same edits (iteration, op, u, v) in the same order, their
// scores within tol relative. It returns nil, or what differs first.
func sameDecisions(got, want []byte, tol float64) error {
	g, err := decodeEditLog(got)
	if err != nil {
		return fmt.Errorf("written log: %w", err)
	}
	w, err := decodeEditLog(want)
	if err != nil {
		return fmt.Errorf("recorded log: %w", err)
	}
	for i := range min(len(g), len(w)) {
		a, b := g[i], w[i]
		if a.Iteration != b.Iteration || a.Op != b.Op || a.U != b.U || a.V != b.V {
			return fmt.Errorf("line %d: edit %+v, recorded %+v", i+1, a, b)
		}
		if d := math.Abs(a.Score - b.Score); d > tol*max(math.Abs(a.Score), math.Abs(b.Score)) {
			return fmt.Errorf("line %d: score %v, recorded %v (relative difference above %g)", i+1, a.Score, b.Score, tol)
		}
	}
	if len(g) != len(w) {
		return fmt.Errorf("%d edits, recorded %d", len(g), len(w))
	}
	return nil
}

func decodeEditLog(b []byte) ([]rewire.Edit, error) {
	var log []rewire.Edit
	s := bufio.NewScanner(bytes.NewReader(b))
	for s.Scan() {
		d := json.NewDecoder(bytes.NewReader(s.Bytes()))
		d.DisallowUnknownFields()
		var e rewire.Edit
		if err := d.Decode(&e); err != nil {
			return nil, fmt.Errorf("line %d: %w", len(log)+1, err)
		}
		log = append(log, e)
	}
	return log, s.Err()
}

// TestSameDecisions: last-bit differences of the scores pass; another
// edit, a score off by more than the tolerance, or a missing line fail; a
// difference of 1e-10 relative passes at directedScoreTol, not at
// backendScoreTol.
func TestSameDecisions(t *testing.T) {
	const want = `{"iteration":1,"op":"add","u":10,"v":121,"score":5.112810201409335}
{"iteration":2,"op":"remove","u":2,"v":14,"score":4.000000000000002}
`
	for _, c := range []struct {
		got string
		ok  bool
		tol float64 // 0: backendScoreTol
	}{
		{want, true, 0},
		{`{"iteration":1,"op":"add","u":10,"v":121,"score":5.112810201409342}
{"iteration":2,"op":"remove","u":2,"v":14,"score":4}
`, true, 0},
		{`{"iteration":1,"op":"add","u":10,"v":122,"score":5.112810201409335}
{"iteration":2,"op":"remove","u":2,"v":14,"score":4.000000000000002}
`, false, 0},
		{`{"iteration":1,"op":"add","u":10,"v":121,"score":5.112810201409335}
{"iteration":2,"op":"add","u":2,"v":14,"score":4.000000000000002}
`, false, 0},
		{`{"iteration":1,"op":"add","u":10,"v":121,"score":5.11281}
{"iteration":2,"op":"remove","u":2,"v":14,"score":4.000000000000002}
`, false, 0},
		{`{"iteration":1,"op":"add","u":10,"v":121,"score":5.112810201409335}
`, false, 0},
		{`{"iteration":1,"op":"add","u":10,"v":121,"score":5.112810201409335}
`, false, directedScoreTol},
		{`{"iteration":1,"op":"add","u":10,"v":121,"score":5.112810202}
{"iteration":2,"op":"remove","u":2,"v":14,"score":4.000000000000002}
`, false, 0},
		{`{"iteration":1,"op":"add","u":10,"v":121,"score":5.112810202}
{"iteration":2,"op":"remove","u":2,"v":14,"score":4.000000000000002}
`, true, directedScoreTol},
		{`{"iteration":1,"op":"add","u":10,"v":121,"score":5.11281021}
{"iteration":2,"op":"remove","u":2,"v":14,"score":4.000000000000002}
`, false, directedScoreTol},
		{`{"iteration":1,"op":"add","u":10,"v":121,"score":5.112810201409335,"x":1}
{"iteration":2,"op":"remove","u":2,"v":14,"score":4.000000000000002}
`, false, 0},
	} {
		tol := c.tol
		if tol == 0 {
			tol = backendScoreTol
		}
		if err := sameDecisions([]byte(c.got), []byte(want), tol); (err == nil) != c.ok {
			t.Errorf("sameDecisions(%q, %g) = %v, want ok %v", c.got, tol, err, c.ok)
		}
	}
}
