package dataset

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
)

// tuReader reads the comma-separated text files of a TU dataset, keeping
// the first error (later reads do nothing once one failed).
type tuReader struct{ err error }

// tuInts is an integer file: rows of cols values, row-major.
type tuInts struct {
	vals []int
	cols int
}

// tuColumns is a block of feature columns: rows of cols values, row-major.
type tuColumns struct {
	vals []float64
	cols int
}

// lines calls fn with every line of path (1-based number, the line's
// comma-separated tokens with spaces trimmed), every line needing the same
// number of tokens as the first. The newline after the last line is
// optional; an empty line is an error.
func (r *tuReader) lines(path string, fn func(line int, tok [][]byte) error) int {
	if r.err != nil {
		return 0
	}
	data, err := os.ReadFile(path)
	if err != nil {
		r.err = err
		return 0
	}
	data = bytes.TrimSuffix(data, []byte{'\n'})
	if len(data) == 0 {
		return 0
	}
	want := -1
	tok := make([][]byte, 0, 32)
	n := 0
	for line := range bytes.SplitSeq(data, []byte{'\n'}) {
		n++
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(bytes.TrimSpace(line)) == 0 {
			r.err = &TUFormatError{path, n, "empty line"}
			return n
		}
		tok = tok[:0]
		for t := range bytes.SplitSeq(line, []byte{','}) {
			tok = append(tok, bytes.TrimSpace(t))
		}
		if want < 0 {
			want = len(tok)
		}
		if len(tok) != want {
			r.err = &TUFormatError{path, n, fmt.Sprintf("%d values, line 1 has %d", len(tok), want)}
			return n
		}
		if err := fn(n, tok); err != nil {
			r.err = err
			return n
		}
	}
	return n
}

// ints reads an integer file of cols values a line (cols 0: any number,
// the same on every line).
func (r *tuReader) ints(path string, cols int) tuInts {
	var out tuInts
	r.lines(path, func(line int, tok [][]byte) error {
		if cols > 0 && len(tok) != cols {
			return &TUFormatError{path, line, fmt.Sprintf("%d values, want %d", len(tok), cols)}
		}
		out.cols = len(tok)
		for _, t := range tok {
			v, err := tuInt(t)
			if err != nil {
				return &TUFormatError{path, line, err.Error()}
			}
			out.vals = append(out.vals, v)
		}
		return nil
	})
	return out
}

// tuInt parses an integer token; PyG reads every number as a float first,
// so an integral float ("3.0") is taken too.
func tuInt(t []byte) (int, error) {
	if v, err := strconv.Atoi(string(t)); err == nil {
		return v, nil
	}
	f, err := strconv.ParseFloat(string(t), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, fmt.Errorf("%q is not an integer", tuShort(t)) // reason: the caller says the file and line
	}
	return int(f), nil
}

// tuShort is a token cut for an error message.
func tuShort(t []byte) string {
	if len(t) > 24 {
		return string(t[:24]) + "…"
	}
	return string(t)
}

// floats reads a float file of rows lines (one per node or arc: what),
// rounding each value to float32 as PyG's tensors hold it.
func (r *tuReader) floats(path string, rows int, what string) tuColumns {
	var out tuColumns
	n := r.lines(path, func(line int, tok [][]byte) error {
		if line > rows {
			return tuCountError(path, line, rows, what)
		}
		out.cols = len(tok)
		for _, t := range tok {
			f, err := strconv.ParseFloat(string(t), 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return &TUFormatError{path, line, fmt.Sprintf("%q is not a finite number", tuShort(t))}
			}
			out.vals = append(out.vals, float64(float32(f)))
		}
		return nil
	})
	if r.err == nil && n != rows {
		r.err = tuCountError(path, n+1, rows, what)
	}
	return out
}

// oneHot reads an integer label file of rows lines and one-hot encodes
// each column as PyG does: the column's minimum subtracted, max − min + 1
// columns, the encodings of the file's columns side by side.
func (r *tuReader) oneHot(path string, rows int, what string) tuColumns {
	labs := r.ints(path, 0)
	if r.err != nil {
		return tuColumns{}
	}
	if got := len(labs.vals) / max(1, labs.cols); got != rows {
		r.err = tuCountError(path, min(got, rows)+1, rows, what)
		return tuColumns{}
	}
	if rows == 0 {
		return tuColumns{}
	}
	c := labs.cols
	lo, width := make([]int, c), make([]int, c)
	for j := range c {
		mn, mx := labs.vals[j], labs.vals[j]
		for i := range rows {
			mn, mx = min(mn, labs.vals[i*c+j]), max(mx, labs.vals[i*c+j])
		}
		if mx-mn >= 1<<16 {
			r.err = fmt.Errorf("dataset: %s: labels span %d..%d: too many to one-hot encode", path, mn, mx)
			return tuColumns{}
		}
		lo[j], width[j] = mn, mx-mn+1
	}
	out := tuColumns{cols: 0}
	for _, w := range width {
		out.cols += w
	}
	out.vals = make([]float64, rows*out.cols)
	for i := range rows {
		off := i * out.cols
		for j := range c {
			out.vals[off+labs.vals[i*c+j]-lo[j]] = 1
			off += width[j]
		}
	}
	return out
}

// tuCountError says that path's line count disagrees with the rows the
// other files give; line is the first line beyond or missing.
func tuCountError(path string, line, rows int, what string) error {
	if line > rows {
		return &TUFormatError{path, line, fmt.Sprintf("more lines than the %d %s of the dataset", rows, what)}
	}
	return &TUFormatError{path, line, fmt.Sprintf("the file ends after %d lines; the dataset has %d %s", line-1, rows, what)}
}

// concatColumns puts blocks of rows×cols side by side.
func concatColumns(rows int, blocks ...tuColumns) ([]float64, int) {
	cols := 0
	for _, b := range blocks {
		cols += b.cols
	}
	out := make([]float64, rows*cols)
	off := 0
	for _, b := range blocks {
		for i := range rows {
			copy(out[i*cols+off:i*cols+off+b.cols], b.vals[i*b.cols:(i+1)*b.cols])
		}
		off += b.cols
	}
	return out, cols
}

// tuFileName is the file of part for dataset name in rawDir.
func tuFileName(rawDir, name, part string) string {
	return filepath.Join(rawDir, name+"_"+part+".txt")
}
