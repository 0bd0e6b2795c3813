package frame

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Blob reads the arrays of a frame's blob in order: each call takes the
// next k entries. The first read past the blob's end sets Err, and every
// later read returns nil.
type Blob struct {
	b   []byte
	off int
	Err error
}

// NewBlob returns a reader of b's arrays.
func NewBlob(b []byte) *Blob { return &Blob{b: b} }

func (r *Blob) take(what string, k int) []byte {
	if r.Err != nil {
		return nil
	}
	if k < 0 || k > (len(r.b)-r.off)/8 {
		r.Err = fmt.Errorf("frame: the blob ends at byte %d, before the %d entries of %s starting at byte %d", len(r.b), k, what, r.off)
		return nil
	}
	s := r.b[r.off : r.off+8*k]
	r.off += 8 * k
	return s
}

// Int64s returns the next k little-endian int64 entries, what naming them
// in the error. O(k).
func (r *Blob) Int64s(what string, k int) []int64 {
	s := r.take(what, k)
	if s == nil {
		return nil
	}
	v := make([]int64, k)
	for i := range v {
		v[i] = int64(binary.LittleEndian.Uint64(s[8*i:]))
	}
	return v
}

// Float64s returns the next k little-endian float64 entries. O(k).
func (r *Blob) Float64s(what string, k int) []float64 {
	s := r.take(what, k)
	if s == nil {
		return nil
	}
	v := make([]float64, k)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(s[8*i:]))
	}
	return v
}

// Rest is the number of bytes not read yet.
func (r *Blob) Rest() int { return len(r.b) - r.off }

// AppendInt64s appends v to dst as little-endian int64 entries. O(len(v)).
func AppendInt64s(dst []byte, v ...int64) []byte {
	for _, x := range v {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(x))
	}
	return dst
}
