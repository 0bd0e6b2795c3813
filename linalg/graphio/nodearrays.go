package graphio

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// This file holds the readers and writers of the node arrays a dataset
// archive carries beside its graph: features x (float32 or float64, n×d),
// labels y (integers, n) and split masks (bool, n or n×k).

// Float64s returns the elements of a float32 or float64 array (either byte
// order) as float64 in C (row-major) order, whatever the storage order. A
// NaN or an infinity is an error naming its flat index.
func (a *Array) Float64s() ([]float64, error) {
	if a.dt.kind != 'f' || (a.dt.size != 4 && a.dt.size != 8) {
		return nil, a.errf("dtype %s: want float32 or float64", a.dt)
	}
	order := binary.ByteOrder(binary.LittleEndian)
	if a.dt.big {
		order = binary.BigEndian
	}
	n := a.Len()
	out := make([]float64, n)
	for c := range out {
		s := a.storageIndex(c)
		var x float64
		if a.dt.size == 4 {
			x = float64(math.Float32frombits(order.Uint32(a.data[4*s:])))
		} else {
			x = math.Float64frombits(order.Uint64(a.data[8*s:]))
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, a.errAt(a.offsetOf(c), "value %v at flat index %d is not a finite number", x, c)
		}
		out[c] = x
	}
	return out, nil
}

// Bools returns the elements of a bool (|b1) or uint8 (|u1) array of any
// shape in C (row-major) order; every byte must be 0 or 1.
func (a *Array) Bools() ([]bool, error) {
	if a.Descr != "|b1" && a.Descr != "|u1" {
		return nil, a.errf("dtype %s: want a mask of bool (|b1) or uint8 (|u1)", a.dt)
	}
	out := make([]bool, a.Len())
	for c := range out {
		x := a.data[a.storageIndex(c)]
		if x > 1 {
			return nil, a.errAt(a.offsetOf(c), "value %d at flat index %d is not 0 or 1", x, c)
		}
		out[c] = x == 1
	}
	return out, nil
}

// RawData returns the array's element bytes in storage order, as stored in
// the archive (not a copy: do not modify them). With Descr, Fortran and
// Shape they define the array, e.g. for a content hash.
func (a *Array) RawData() []byte { return a.data }

// NewFloatArray returns a float array with the given shape (C order) for
// EncodeNPZArrays, stored as descr "<f4" (float32: every value must be
// exactly a float32, see ExactFloat32) or "<f8" (float64). It panics if
// len(v) does not match the shape or on another descr.
func NewFloatArray(key, descr string, shape []int, v []float64) *Array {
	checkLen(shape, len(v))
	dt, err := parseDtype(descr)
	if err != nil || dt.kind != 'f' || dt.big || dt.size == 2 {
		panic("graphio: float descr must be <f4 or <f8, not " + descr)
	}
	data := make([]byte, dt.size*len(v))
	for i, x := range v {
		if dt.size == 4 {
			binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(x)))
		} else {
			binary.LittleEndian.PutUint64(data[8*i:], math.Float64bits(x))
		}
	}
	return &Array{Member: key + ".npy", Descr: dt.descr, Shape: slices.Clone(shape), dt: dt, data: data}
}

// ExactFloat32 reports whether every value converts to float32 and back
// unchanged, so that NewFloatArray may store them as "<f4".
func ExactFloat32(v []float64) bool {
	for _, x := range v {
		if float64(float32(x)) != x {
			return false
		}
	}
	return true
}

// NewBoolArray returns a bool (|b1) array with the given shape (C order) for
// EncodeNPZArrays, e.g. PyG's n×k split masks. It panics if len(v) does not
// match the shape.
func NewBoolArray(key string, shape []int, v []bool) *Array {
	checkLen(shape, len(v))
	a := NewMaskArray(key, "|b1", v)
	a.Shape = slices.Clone(shape)
	return a
}

func checkLen(shape []int, n int) {
	m := 1
	for _, d := range shape {
		m *= d
	}
	if m != n || m < 0 {
		panic(fmt.Sprintf("graphio: %d values for shape %s", n, shapeString(shape)))
	}
}
