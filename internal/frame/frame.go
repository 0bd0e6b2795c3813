// Package frame is the framing of `ohm serve`'s binary protocol on a byte
// stream (docs/python.md, "The protocol of ohm serve"): every message is
// one frame, a 16-byte head — the magic "OHM1", the length of a JSON
// header as a little-endian uint32, the length of a binary blob as a
// little-endian uint64 — then the header and the blob. The header says
// what the message is; the blob holds its arrays, little-endian int64 or
// float64, one after another in the order the header lists them.
//
// A frame whose lengths exceed the reader's limits is read through and
// dropped (*TooLargeError), so the stream stays in step; a frame whose
// magic is wrong means the stream is out of step (ErrBadMagic) and nothing
// after it can be read.
package frame

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// Magic opens every frame.
const Magic = "OHM1"

// HeadSize is the size of a frame's head: the magic and the two lengths.
const HeadSize = 16

// ErrBadMagic is a frame that does not start with Magic: the stream is out
// of step and cannot be read further.
var ErrBadMagic = errors.New("frame: bad magic (not \"OHM1\"): the stream is out of step")

// Limits bound the frames Read accepts.
type Limits struct {
	Header int   // the most bytes of a JSON header
	Blob   int64 // the most bytes of a blob
}

// DefaultLimits are 64 MiB of header and 16 GiB of blob.
var DefaultLimits = Limits{Header: 64 << 20, Blob: 16 << 30}

// TooLargeError is a frame beyond the reader's limits; Read has read and
// dropped it, so the next frame can be read.
type TooLargeError struct {
	Header int64
	Blob   uint64
	Limits Limits
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("frame: too large (header %d bytes, blob %d bytes; at most %d and %d): dropped",
		e.Header, e.Blob, e.Limits.Header, e.Limits.Blob)
}

// Frame is one message: its JSON header and its blob.
type Frame struct {
	Header []byte
	Blob   []byte
}

// Read reads one frame from r. At the end of the stream before a frame
// starts it returns io.EOF; a stream that ends inside a frame is
// io.ErrUnexpectedEOF; a wrong magic is ErrBadMagic; a frame beyond lim is
// read through and dropped (*TooLargeError). Cost: the frame's size.
func Read(r io.Reader, lim Limits) (Frame, error) {
	var head [HeadSize]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return Frame{}, err
	}
	if string(head[:4]) != Magic {
		return Frame{}, ErrBadMagic
	}
	hn := binary.LittleEndian.Uint32(head[4:8])
	bn := binary.LittleEndian.Uint64(head[8:16])
	if int64(hn) > int64(lim.Header) || bn > uint64(lim.Blob) {
		err := &TooLargeError{Header: int64(hn), Blob: bn, Limits: lim}
		if _, cerr := io.CopyN(io.Discard, r, int64(hn)); cerr != nil {
			return Frame{}, unexpected(cerr)
		}
		for left := bn; left > 0; {
			k := min(left, math.MaxInt64)
			if _, cerr := io.CopyN(io.Discard, r, int64(k)); cerr != nil {
				return Frame{}, unexpected(cerr)
			}
			left -= k
		}
		return Frame{}, err
	}
	f := Frame{Header: make([]byte, hn), Blob: make([]byte, bn)}
	if _, err := io.ReadFull(r, f.Header); err != nil {
		return Frame{}, unexpected(err)
	}
	if _, err := io.ReadFull(r, f.Blob); err != nil {
		return Frame{}, unexpected(err)
	}
	return f, nil
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Write writes one frame to w: header encoded as JSON, then the blob
// parts one after another. Cost: the frame's size.
func Write(w io.Writer, header any, blob ...[]byte) error {
	h, err := json.Marshal(header)
	if err != nil {
		return fmt.Errorf("frame: header: %w", err)
	}
	if len(h) > math.MaxUint32 {
		return fmt.Errorf("frame: header of %d bytes exceeds 4 GiB", len(h))
	}
	var n uint64
	for _, b := range blob {
		n += uint64(len(b))
	}
	buf := make([]byte, HeadSize, HeadSize+len(h))
	copy(buf, Magic)
	binary.LittleEndian.PutUint32(buf[4:8], uint32(len(h)))
	binary.LittleEndian.PutUint64(buf[8:16], n)
	buf = append(buf, h...)
	if _, err := w.Write(buf); err != nil {
		return err
	}
	for _, b := range blob {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}
