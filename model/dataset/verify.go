package dataset

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

//go:embed filesizes.txt
var fileSizesTxt []byte

// fileSizes maps a root-relative path to its expected size in bytes.
var fileSizes = func() map[string]int64 {
	m := make(map[string]int64)
	sc := bufio.NewScanner(bytes.NewReader(fileSizesTxt))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 && !strings.HasPrefix(f[0], "#") {
			if v, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				m[f[1]] = v
			}
		}
	}
	return m
}()

// FileStatus is the state of one raw file of a dataset against what ohm
// knows of it (definitions §7.5).
type FileStatus struct {
	Path     string // root-relative
	Missing  bool
	Size     int64 // bytes on disk (0 when missing)
	WantSize int64 // the known size (0 when unknown)
	SHA256   string
	Want     string // the known SHA-256 (hex; "" when unknown)
}

// SizeDiffers reports a file present with another size than the known one.
func (s FileStatus) SizeDiffers() bool { return !s.Missing && s.WantSize > 0 && s.Size != s.WantSize }

// OK reports a file present whose hash (when computed) and size match.
func (s FileStatus) OK() bool {
	return !s.Missing && !s.SizeDiffers() && (s.SHA256 == "" || s.SHA256 == s.Want)
}

// Problem says what is wrong with the file in words ("" when OK).
func (s FileStatus) Problem() string {
	switch {
	case s.Missing:
		return "missing"
	case s.SizeDiffers():
		return fmt.Sprintf("%d bytes, not %d", s.Size, s.WantSize)
	case s.SHA256 != "" && s.Want == "":
		return "no known checksum"
	case s.SHA256 != "" && s.SHA256 != s.Want:
		return fmt.Sprintf("sha256 %s, not %s", s.SHA256, s.Want)
	}
	return ""
}

// CheckFiles compares the raw files of the named dataset under root with
// their known sizes and, when hash is true, re-hashes each against its
// known SHA-256. Cost: a stat per file, and with hash a read of every file.
func CheckFiles(name, root string, hash bool) ([]FileStatus, error) {
	rel, err := RelFiles(name)
	if err != nil {
		return nil, err
	}
	out := make([]FileStatus, 0, len(rel))
	for _, r := range rel {
		st := FileStatus{Path: r, WantSize: fileSizes[r], Want: checksums[r]}
		p := filepath.Join(root, r)
		fi, err := os.Stat(p)
		if err != nil {
			st.Missing = true
			out = append(out, st)
			continue
		}
		st.Size = fi.Size()
		if hash {
			if st.SHA256, err = fileSHA256(p); err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
		}
		out = append(out, st)
	}
	return out, nil
}

func fileSHA256(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
