package graphio

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/linalg"
)

// rawNPY returns a format 1.0 .npy member with the header dict text given
// verbatim (padded with spaces and a newline to a multiple of 64 bytes).
func rawNPY(dict string, data []byte) []byte {
	var b bytes.Buffer
	total := 10 + len(dict) + 1
	pad := (64 - total%64) % 64
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(dict)+pad+1))
	b.WriteString(dict + strings.Repeat(" ", pad) + "\n")
	b.Write(data)
	return b.Bytes()
}

// rawNPYv2 is rawNPY in format 2.0 (uint32 header length).
func rawNPYv2(dict string, data []byte) []byte {
	var b bytes.Buffer
	total := 12 + len(dict) + 1
	pad := (64 - total%64) % 64
	b.WriteString("\x93NUMPY\x02\x00")
	binary.Write(&b, binary.LittleEndian, uint32(len(dict)+pad+1))
	b.WriteString(dict + strings.Repeat(" ", pad) + "\n")
	b.Write(data)
	return b.Bytes()
}

func dict(descr, shape string) string {
	return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }"
}

func le64(v ...int64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
	}
	return b
}

func be64(v ...int64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.BigEndian.PutUint64(b[8*i:], uint64(x))
	}
	return b
}

func le32(v ...int32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return b
}

// member is one raw archive member.
type member struct {
	name string
	data []byte
}

// zipOf builds a ZIP archive of raw members (stored, or deflated when
// deflate is true).
func zipOf(t testing.TB, deflate bool, ms ...member) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, m := range ms {
		method := zip.Store
		if deflate {
			method = zip.Deflate
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.name, Method: method})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(m.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// numNodesNPY is a valid num_nodes member.
func numNodesNPY(n int64) member {
	return member{"num_nodes.npy", rawNPY(dict("<i8", "()"), le64(n))}
}

// asFormatError checks that err is a *FormatError for path and returns it.
func asFormatError(t testing.TB, err error, path string) *FormatError {
	t.Helper()
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *FormatError", err, err)
	}
	if fe.Path != path {
		t.Errorf("FormatError.Path = %q, want %q", fe.Path, path)
	}
	return fe
}

// es builds an arc list from id pairs: es(0, 1, 2, 2) = [(0,1) (2,2)].
func es(ids ...int) []linalg.Edge {
	arcs := make([]linalg.Edge, 0, len(ids)/2)
	for i := 0; i+1 < len(ids); i += 2 {
		arcs = append(arcs, linalg.Edge{U: ids[i], V: ids[i+1]})
	}
	return arcs
}
