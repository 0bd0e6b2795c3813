package frame

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"testing"
)

// raw is a frame's bytes written by hand, independently of Write.
func raw(magic string, header string, blob []byte) []byte {
	b := []byte(magic)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(header)))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(blob)))
	return append(append(b, header...), blob...)
}

func TestWriteLayout(t *testing.T) {
	var buf bytes.Buffer
	blob := AppendInt64s(nil, 1, -2)
	if err := Write(&buf, map[string]int{"a": 1}, blob[:8], blob[8:]); err != nil {
		t.Fatal(err)
	}
	want := raw("OHM1", `{"a":1}`, []byte{1, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("Write wrote\n%v\nwant\n%v", buf.Bytes(), want)
	}
}

func TestRead(t *testing.T) {
	lim := Limits{Header: 16, Blob: 16}
	good := raw("OHM1", `{"op":"ping"}`, []byte("12345678"))
	tests := []struct {
		name   string
		stream []byte
		want   []error // per Read: nil for a frame
	}{
		{"empty", nil, []error{io.EOF}},
		{"one", good, []error{nil, io.EOF}},
		{"two", append(append([]byte{}, good...), good...), []error{nil, nil, io.EOF}},
		{"cut in the head", good[:7], []error{io.ErrUnexpectedEOF}},
		{"cut in the header", good[:HeadSize+3], []error{io.ErrUnexpectedEOF}},
		{"cut in the blob", good[:len(good)-1], []error{io.ErrUnexpectedEOF}},
		{"bad magic", raw("OHM2", "{}", nil), []error{ErrBadMagic}},
		// Too large: dropped whole, the next frame still read.
		{"header too large", append(raw("OHM1", `{"a":"0123456789abcdef"}`, nil), good...), []error{&TooLargeError{}, nil, io.EOF}},
		{"blob too large", append(raw("OHM1", "{}", make([]byte, 17)), good...), []error{&TooLargeError{}, nil, io.EOF}},
		{"too large and cut", raw("OHM1", "{}", make([]byte, 40))[:30], []error{io.ErrUnexpectedEOF}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := bytes.NewReader(tc.stream)
			for i, want := range tc.want {
				f, err := Read(r, lim)
				var tl *TooLargeError
				switch {
				case want == nil && err != nil:
					t.Fatalf("read %d: %v", i, err)
				case want == nil:
					if string(f.Header) != `{"op":"ping"}` || string(f.Blob) != "12345678" {
						t.Fatalf("read %d: %q %q", i, f.Header, f.Blob)
					}
				case errors.As(want, &tl):
					if !errors.As(err, &tl) {
						t.Fatalf("read %d: %v, want a *TooLargeError", i, err)
					}
				case !errors.Is(err, want):
					t.Fatalf("read %d: %v, want %v", i, err, want)
				}
			}
		})
	}
}

func TestBlob(t *testing.T) {
	b := AppendInt64s(nil, 3, math.MaxInt64, math.MinInt64)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(-0.25))
	r := NewBlob(b)
	if got := r.Int64s("a", 3); fmt.Sprint(got) != fmt.Sprint([]int64{3, math.MaxInt64, math.MinInt64}) {
		t.Fatalf("Int64s: %v", got)
	}
	if got := r.Float64s("x", 1); len(got) != 1 || got[0] != -0.25 {
		t.Fatalf("Float64s: %v", got)
	}
	if r.Rest() != 0 || r.Err != nil {
		t.Fatalf("Rest %d, Err %v", r.Rest(), r.Err)
	}
	if got := r.Int64s("edge_index", 1); got != nil || r.Err == nil {
		t.Fatalf("past the end: %v, %v", got, r.Err)
	}
	if want := "frame: the blob ends at byte 32, before the 1 entries of edge_index starting at byte 32"; r.Err.Error() != want {
		t.Fatalf("error %q, want %q", r.Err, want)
	}
	if got := NewBlob(b).Int64s("neg", -1); got != nil {
		t.Fatal("a negative count read something")
	}
}

func ExampleRead() {
	var stream bytes.Buffer
	_ = Write(&stream, map[string]string{"op": "ping"}, AppendInt64s(nil, 7, 8))
	f, err := Read(&stream, DefaultLimits)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(f.Header), NewBlob(f.Blob).Int64s("v", 2))
	_, err = Read(&stream, DefaultLimits)
	fmt.Println(err)
	// Output:
	// {"op":"ping"} [7 8]
	// EOF
}
