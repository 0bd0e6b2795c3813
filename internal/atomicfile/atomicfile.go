// Package atomicfile writes files whole or not at all: a file is written in
// full beside its target and renamed over it, so readers and a crash see the
// old content or the complete new one (several files committed together
// appear all or none), and checks before any work that an output can be
// written.
package atomicfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ohmgnn/ohm/internal/faults"
)

// WriteFile writes a file so that readers, and a crash, see either the
// old content or the complete new content, never a mix: write fills a
// temporary file in the same directory, which is flushed, fsynced, closed and
// then renamed over path (the directory is fsynced too, where the system
// allows it). If write or any step fails, the temporary file is removed and
// an existing file at path is left untouched. The new file gets the mode of
// the file it replaces, or 0644. It is Stage followed by Commit.
func WriteFile(path string, write func(w io.Writer) error) error {
	p, err := Stage(path, write)
	if err != nil {
		return err
	}
	return p.Commit()
}

// Pending is a file being written in full beside its target (a
// temporary file in the target's folder) that replaces the target only
// when committed: until then readers, and a crash, see the target as it
// was. Several pending files committed together (CommitAll) make a
// command's outputs appear all or none.
type Pending struct {
	path, tmp string
	mode      os.FileMode
	f         *os.File
	bw        *bufio.Writer
	w         io.Writer
	closed    bool
	done      bool // committed or discarded
	hadTarget bool // a file was at path when the pending file was created
}

// Create creates the temporary file of a pending file for path. An
// existing path must be a regular file; the new file will get its mode
// (else 0644).
func Create(path string) (*Pending, error) {
	dir := filepath.Dir(path)
	mode := os.FileMode(0o644)
	had := false
	if st, err := os.Stat(path); err == nil {
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("atomicfile: %s exists and is not a regular file", path)
		}
		mode, had = st.Mode().Perm(), true
	}
	if err := faults.Create(path); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	p := &Pending{path: path, tmp: f.Name(), mode: mode, f: f, hadTarget: had}
	p.bw = bufio.NewWriterSize(faults.Writer(path, f), 1<<16)
	p.w = p.bw
	return p, nil
}

// Path returns the target's path.
func (p *Pending) Path() string { return p.path }

// Write writes to the temporary file.
func (p *Pending) Write(b []byte) (int, error) {
	if p.closed {
		return 0, fmt.Errorf("atomicfile: write to %s after Close", p.path)
	}
	return p.w.Write(b)
}

// Close completes the temporary file on disk: flushed, given its mode,
// fsynced and closed. After a failure the temporary file is removed (the
// pending file is discarded).
func (p *Pending) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	err := p.bw.Flush()
	if err == nil {
		err = p.f.Chmod(p.mode)
	}
	if err == nil {
		err = p.f.Sync()
	}
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		p.Discard()
	}
	return err
}

// Commit closes the file if it is open and renames it over the target. A
// rename inside one folder writes no file data, so once the temporary file
// is complete a full disk can no longer stop it (see CommitAll).
func (p *Pending) Commit() error {
	if p.done {
		return fmt.Errorf("atomicfile: %s committed or discarded already", p.path)
	}
	if err := p.Close(); err != nil {
		return err
	}
	err := faults.Rename(p.path)
	if err == nil {
		err = os.Rename(p.tmp, p.path)
	}
	if err != nil {
		p.Discard()
		return err
	}
	p.done = true
	syncDir(filepath.Dir(p.path))
	return nil
}

// Discard removes the temporary file; the target stays as it was. It does
// nothing once the file is committed.
func (p *Pending) Discard() {
	if p.done {
		return
	}
	p.done = true
	if !p.closed {
		p.closed = true
		p.f.Close()
	}
	os.Remove(p.tmp)
}

// Stage writes a pending file for path with write and closes it (the
// content complete on disk, not yet in place). On failure nothing is left
// behind.
func Stage(path string, write func(w io.Writer) error) (*Pending, error) {
	p, err := Create(path)
	if err != nil {
		return nil, err
	}
	if err := write(p); err != nil {
		p.Discard()
		return nil, err
	}
	if err := p.Close(); err != nil {
		return nil, err
	}
	return p, nil
}

// StageContext is Stage until ctx is done: then it returns ctx's error at
// once and removes the temporary file, while write — which may not stop
// by itself — goes on into the unlinked file until it returns or the
// process ends (its file is then discarded). Nothing is left behind
// either way.
func StageContext(ctx context.Context, path string, write func(w io.Writer) error) (*Pending, error) {
	p, err := Create(path)
	if err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() {
		err := write(p)
		if err == nil {
			err = p.Close() // discards on failure
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			p.Discard()
			return nil, err
		}
		return p, nil
	case <-ctx.Done():
		os.Remove(p.tmp)
		go func() {
			<-done
			p.Discard()
		}()
		return nil, ctx.Err()
	}
}

// CommitAll renames every pending file over its target, in order, after
// completing any still open: all or none. Before the first rename, each
// existing target gets a second name (a hard link, which writes no file
// data); if a rename fails — a target that cannot be replaced (chattr +i),
// an I/O error, the folder removed meanwhile — the targets already
// replaced get their old content back from it, and the rest are
// discarded. A rename inside one folder writes no file data, so neither a
// lack of space, the common failure of writing, nor the putting back can
// stop halfway. Where a target cannot be linked (a file system without
// hard links) it cannot be put back: the error then names what is where
// (*CommitError). Nil entries are skipped.
func CommitAll(files ...*Pending) error {
	for _, p := range files {
		if p == nil {
			continue
		}
		if err := p.Close(); err != nil {
			DiscardAll(files...)
			return fmt.Errorf("%s: %w (nothing put in place)", p.path, err)
		}
	}
	backups := make([]string, len(files)) // "" where no old content to put back
	defer func() {
		for _, b := range backups {
			if b != "" {
				os.Remove(b)
			}
		}
	}()
	for i, p := range files {
		if p == nil {
			continue
		}
		if _, err := os.Lstat(p.path); err == nil {
			b := p.tmp + ".old"
			if os.Link(p.path, b) == nil {
				backups[i] = b
			}
		}
	}
	for i, p := range files {
		if p == nil {
			continue
		}
		if err := p.Commit(); err != nil {
			DiscardAll(files[i+1:]...)
			return rollBack(files, backups, i, err)
		}
	}
	return nil
}

// rollBack puts back the targets of files[:failed], replaced already, after
// the rename of files[failed] failed with err: from their backups, or,
// where there was no old file, by removing the new one. The error says
// what could not be put back.
func rollBack(files []*Pending, backups []string, failed int, err error) error {
	var stuck []*Pending
	for j := failed - 1; j >= 0; j-- {
		p := files[j]
		if p == nil {
			continue
		}
		var rerr error
		switch {
		case backups[j] != "":
			rerr = os.Rename(backups[j], p.path)
			if rerr == nil {
				backups[j] = ""
			}
		default:
			if _, serr := os.Lstat(p.path); serr == nil && !p.hadTarget {
				rerr = os.Remove(p.path)
			} else {
				rerr = errors.New("no copy of the old file")
			}
		}
		if rerr != nil {
			stuck = append(stuck, p)
		}
	}
	if len(stuck) == 0 {
		return fmt.Errorf("%s: %w (nothing put in place: the files replaced before it are back as they were)", files[failed].path, err)
	}
	return commitError(stuck, files[failed], files[failed+1:], err)
}

func commitError(before []*Pending, failed *Pending, after []*Pending, err error) error {
	names := func(ps []*Pending) []string {
		var s []string
		for _, p := range ps {
			if p != nil {
				s = append(s, p.path)
			}
		}
		return s
	}
	return &CommitError{Path: failed.path, InPlace: names(before), Left: names(append([]*Pending{failed}, after...)), Err: err}
}

// CommitError is a CommitAll that failed at a rename, after the files of
// InPlace were put in place; the targets of Left are as they were.
type CommitError struct {
	Path    string   // the file whose rename failed
	InPlace []string // targets replaced before
	Left    []string // targets left as they were (Path among them)
	Err     error
}

func (e *CommitError) Error() string {
	list := func(s []string) string {
		if len(s) == 0 {
			return "none"
		}
		return strings.Join(s, ", ")
	}
	return fmt.Sprintf("%s: %v (in place already: %s; left as they were: %s)", e.Path, e.Err, list(e.InPlace), list(e.Left))
}

func (e *CommitError) Unwrap() error { return e.Err }

// DiscardAll discards every pending file (nil entries skipped).
func DiscardAll(files ...*Pending) {
	for _, p := range files {
		if p != nil {
			p.Discard()
		}
	}
}

// CheckWritable checks, before any work, that path can be written later:
// its folder exists (or, with mkdir, the nearest folder that exists above
// it, where the missing ones will be created), path is not a folder or
// another non-regular file, and a file can be created in that folder — a
// probe file is created and removed, which finds a read-only file system,
// a folder without write permission or a full inode table before hours
// of work. It writes nothing that stays.
func CheckWritable(path string, mkdir bool) error {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("%s: exists and is not a regular file", path)
	}
	dir := filepath.Dir(path)
	for {
		st, err := os.Stat(dir)
		if err == nil && !st.IsDir() {
			return fmt.Errorf("%s: %s is not a directory", path, dir)
		}
		if err == nil {
			break
		}
		if errors.Is(err, syscall.ENOTDIR) && filepath.Dir(dir) != dir {
			dir = filepath.Dir(dir) // up to the file that is no folder
			continue
		}
		if !mkdir || !errors.Is(err, os.ErrNotExist) || filepath.Dir(dir) == dir {
			return fmt.Errorf("%s: %w", path, err)
		}
		dir = filepath.Dir(dir)
	}
	if err := faults.Create(path); err != nil {
		return fmt.Errorf("%s: cannot create a file in %s: %w", path, dir, err)
	}
	f, err := os.CreateTemp(dir, ".ohm-probe-*")
	if err != nil {
		return fmt.Errorf("%s: cannot create a file in %s: %w", path, dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// syncDir makes a rename durable; failure (some systems cannot fsync a
// directory) is not an error of the write.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	d.Close()
}
