package graphio

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sbinet/npyio/npy"
)

// TestNodeArraysRoundTrip: float32 and float64 features, n×k bool masks
// written and read back exactly, shape kept.
func TestNodeArraysRoundTrip(t *testing.T) {
	x := []float64{0, 1, 0.5, -2, 0, 3}
	m := []bool{true, false, false, true, true, true}
	var b bytes.Buffer
	if err := EncodeNPZArrays(&b, NewFloatArray("x4", "<f4", []int{3, 2}, x), NewFloatArray("x8", "<f8", []int{2, 3}, x),
		NewBoolArray("m", []int{3, 2}, m)); err != nil {
		t.Fatal(err)
	}
	z, err := NewNPZ("a.npz", bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"x4", "x8"} {
		a, err := z.Array(k)
		if err != nil {
			t.Fatal(err)
		}
		got, err := a.Float64s()
		if err != nil || !slices.Equal(got, x) {
			t.Errorf("%s: %v %v, want %v", k, got, err, x)
		}
	}
	a, err := z.Array("m")
	if err != nil {
		t.Fatal(err)
	}
	got, err := a.Bools()
	if err != nil || !slices.Equal(got, m) || a.ShapeString() != "(3, 2)" || a.Descr != "|b1" {
		t.Errorf("m: %v %v shape %s %s", got, err, a.ShapeString(), a.Descr)
	}
	if !ExactFloat32(x) || ExactFloat32([]float64{0.1}) {
		t.Error("ExactFloat32")
	}
}

// TestNodeArraysVariants: big-endian and Fortran-order floats and masks
// read in C order; NaN, ints and values other than 0/1 refused.
func TestNodeArraysVariants(t *testing.T) {
	be := make([]byte, 16)
	binary.BigEndian.PutUint64(be, math.Float64bits(1.5))
	binary.BigEndian.PutUint64(be[8:], math.Float64bits(-3))
	f32 := make([]byte, 24)
	for i, v := range []float32{1, 2, 3, 4, 5, 6} { // Fortran order of [[1 3 5] [2 4 6]]
		binary.LittleEndian.PutUint32(f32[4*i:], math.Float32bits(v))
	}
	nan := make([]byte, 8)
	binary.LittleEndian.PutUint64(nan, math.Float64bits(math.NaN()))
	raw := zipOf(t, false,
		member{"be.npy", rawNPY(dict(">f8", "(2,)"), be)},
		member{"fo.npy", rawNPY("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", f32)},
		member{"mf.npy", rawNPY("{'descr': '|u1', 'fortran_order': True, 'shape': (2, 2), }", []byte{1, 0, 0, 1})},
		member{"nan.npy", rawNPY(dict("<f8", "(1,)"), nan)},
		member{"int.npy", rawNPY(dict("<i8", "(1,)"), le64(1))},
		member{"two.npy", rawNPY(dict("|u1", "(1, 2)"), []byte{0, 2})})
	z, err := NewNPZ("v.npz", bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	arr := func(k string) *Array {
		a, err := z.Array(k)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	if got, err := arr("be").Float64s(); err != nil || !slices.Equal(got, []float64{1.5, -3}) {
		t.Errorf("big-endian: %v %v", got, err)
	}
	if got, err := arr("fo").Float64s(); err != nil || !slices.Equal(got, []float64{1, 3, 5, 2, 4, 6}) {
		t.Errorf("Fortran order: %v %v", got, err)
	}
	if got, err := arr("mf").Bools(); err != nil || !slices.Equal(got, []bool{true, false, false, true}) {
		t.Errorf("Fortran mask: %v %v", got, err)
	}
	for k, msg := range map[string]string{
		"nan": "is not a finite number",
		"int": "want float32 or float64",
	} {
		_, err := arr(k).Float64s()
		if fe := asFormatError(t, err, "v.npz"); !strings.Contains(fe.Msg, msg) {
			t.Errorf("%s: %v, want %q", k, err, msg)
		}
	}
	for k, msg := range map[string]string{
		"two": "value 2 at flat index 1 is not 0 or 1",
		"int": "want a mask of bool",
	} {
		_, err := arr(k).Bools()
		if fe := asFormatError(t, err, "v.npz"); !strings.Contains(fe.Msg, msg) {
			t.Errorf("%s: %v, want %q", k, err, msg)
		}
	}
}

// TestReadVectorRefusesNaN: a start vector with a NaN or infinite entry is
// refused naming the entry; a finite one reads back as written.
func TestReadVectorRefusesNaN(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		v    []float64
		want string
	}{
		{[]float64{1, 2, math.NaN(), 4}, "entry 2 is NaN"},
		{[]float64{math.Inf(-1), 2, 3, 4}, "entry 0 is -Inf"},
		{[]float64{1, -2, 3.5, 0}, ""},
	} {
		p := filepath.Join(dir, "x0.npy")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := npy.Write(f, tc.v); err != nil {
			t.Fatal(err)
		}
		f.Close()
		got, err := ReadVector(p, 4)
		switch {
		case tc.want == "" && (err != nil || !slices.Equal(got, tc.v)):
			t.Errorf("%v: %v, %v", tc.v, got, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: %v, want %q", tc.v, err, tc.want)
		}
	}
}
