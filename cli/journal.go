package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/ohmgnn/ohm/internal/faults"
	"github.com/ohmgnn/ohm/model/sweep"
	"github.com/ohmgnn/ohm/rewire"
)

// journal streams a run's edit log to LOG.partial as the iterations are
// made, so that a run killed outright (SIGKILL, an out-of-memory killer,
// the session's end) leaves the edits of every iteration it finished: an
// hour's run at 10⁶ nodes is not lost with its process (definitions §7.2).
// The lines are encodeEditLog's, written an iteration at a time in one
// write, so the file always ends on a whole iteration: the process may die
// between writes, never inside one, and a write that fails or stops short
// (a full disk) is cut off at once — the file is truncated back to the end
// of the last whole iteration, and the journal stops there.
//
// The journal is locked (the sweep's lock on its results file) while the
// run goes: a second run given the same --log is refused. It is never
// overwritten: a run finds LOG.partial with edits — left by a run killed
// — and refuses, saying what it holds. The --log file itself is written
// atomically from the run's result when the run ends, and only then is
// the journal removed; when the outputs cannot be written, or the run
// fails, the journal stays with the edits made, and the message says so.
type journal struct {
	path   string
	f      *os.File
	unlock func()
	w      io.Writer // f, through the fault hook of the tests
	buf    bytes.Buffer
	size   int64 // bytes written: whole iterations only
	last   int   // the last iteration written whole
	edits  int
	err    error // the first write error; the journal stops there
	warn   io.Writer
}

// journalPath is the journal of --log logPath.
func journalPath(logPath string) string { return logPath + ".partial" }

// checkJournal checks, before any work, the journal's place beside
// --log: nothing there, or an empty regular file no other process holds.
// A journal with edits (a run killed outright) is refused, not emptied.
func checkJournal(logPath string) error {
	if logPath == "" {
		return nil
	}
	p := journalPath(logPath)
	st, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("--log %s: the journal %s: %w", logPath, p, err)
	case !st.Mode().IsRegular():
		return fmt.Errorf("--log %s: the journal's place %s exists and is not a regular file; move it away", logPath, p)
	}
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("--log %s: the journal %s: %w", logPath, p, err)
	}
	defer f.Close()
	unlock, err := sweep.LockFile(f)
	if err != nil {
		return busyJournalError(logPath, p, err)
	}
	defer unlock()
	if st.Size() > 0 {
		return leftJournalError(logPath, p, st.Size())
	}
	return nil
}

// busyJournalError says that another process holds the journal p.
func busyJournalError(logPath, p string, err error) error {
	return fmt.Errorf("--log %s: another ohm process is writing the journal %s (two runs cannot share one --log): %w", logPath, p, err)
}

// leftJournalError says what a journal left by an earlier run holds and
// what to do with it.
func leftJournalError(logPath, p string, size int64) error {
	edits, last := journalContents(p)
	return fmt.Errorf("--log %s: %s holds the journal of an earlier run that did not finish (%d edits, iterations 1–%d, %d B); "+
		"it is not overwritten: keep it as that run's edit log (mv %s %s) or delete it, then run again", logPath, p, edits, last, size, p, logPath)
}

// journalContents counts the edits of a journal and its last iteration.
func journalContents(p string) (edits, last int) {
	f, err := os.Open(p)
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
	for sc.Scan() {
		var e rewire.Edit
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			edits++
			last = max(last, e.Iteration)
		}
	}
	return edits, last
}

// openJournal creates (or opens empty) logPath + ".partial" and locks it;
// warn receives one line if writing it fails later (the run goes on
// without it). It refuses a journal another run holds, or one with edits
// (checkJournal).
func openJournal(logPath string, warn io.Writer) (*journal, error) {
	if err := checkJournal(logPath); err != nil {
		return nil, err
	}
	p := journalPath(logPath)
	f, err := openFile(p)
	if err != nil {
		return nil, fmt.Errorf("--log %s: the journal of the edits made: %w", logPath, err)
	}
	unlock, err := sweep.LockFile(f)
	if err != nil {
		f.Close()
		return nil, busyJournalError(logPath, p, err)
	}
	// Locked: no other run writes it now; one that wrote it before and
	// was killed left edits, which are not emptied.
	if st, err := f.Stat(); err != nil || st.Size() > 0 {
		unlock()
		f.Close()
		if err != nil {
			return nil, err
		}
		return nil, leftJournalError(logPath, p, st.Size())
	}
	return &journal{path: p, f: f, unlock: unlock, w: faults.Writer(p, f), warn: warn}, nil
}

// openFile opens path for writing, created if missing and not truncated,
// behind the fault hook of the tests.
func openFile(path string) (*os.File, error) {
	if err := faults.Create(path); err != nil {
		return nil, err
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
}

// record appends one iteration's edits. O(len(edits)) and one write call.
func (j *journal) record(edits []rewire.Edit) {
	if j.err != nil || len(edits) == 0 {
		return
	}
	j.buf.Reset()
	if err := encodeEditLog(&j.buf, edits); err != nil {
		j.fail(err)
		return
	}
	n, err := j.w.Write(j.buf.Bytes())
	if err == nil && n != j.buf.Len() {
		err = io.ErrShortWrite
	}
	if err != nil {
		j.fail(err)
		return
	}
	j.size += int64(n)
	j.edits += len(edits)
	j.last = edits[len(edits)-1].Iteration
}

// fail stops the journal after a write error: what the failed write left
// of its iteration is cut off, so that the file ends on a whole iteration
// (or, if even that fails, the file is removed), and warn says which.
func (j *journal) fail(err error) {
	j.err = err
	held := "no iteration"
	if j.edits > 0 {
		held = fmt.Sprintf("the %d edits of iterations 1–%d", j.edits, j.last)
	}
	if terr := j.f.Truncate(j.size); terr != nil {
		j.f.Close()
		os.Remove(j.path)
		j.edits = 0
		fmt.Fprintf(j.warn, "warning: %s: %v; cutting off the partial iteration failed (%v), so the journal is removed; the run goes on, --log is written when it ends\n", j.path, err, terr)
		return
	}
	fmt.Fprintf(j.warn, "warning: %s: %v; cut back to %s and stopped there; the run goes on, --log is written when it ends\n", j.path, err, held)
}

// close closes the file and removes it when drop is true (the outputs are
// in place), or when it holds no edit, before releasing its lock. It
// reports whether the journal is left on disk.
func (j *journal) close(drop bool) bool {
	if j == nil || j.f == nil {
		return false
	}
	kept := !drop && j.edits > 0
	if !kept {
		os.Remove(j.path)
	}
	j.unlock()
	j.f.Close()
	j.f = nil
	return kept
}

// keep closes the journal, keeping it when it holds edits, and returns the
// note for the failed command's message: "; the journal J keeps …" ("" when
// nothing is kept). total is the run's number of edits when it finished
// (its outputs could not be written), or -1 when it did not.
func (j *journal) keep(logPath string, total int) string {
	if !j.close(false) {
		return ""
	}
	switch {
	case total >= 0 && j.edits == total:
		return fmt.Sprintf("; the journal %s keeps all %d edits of the run (iterations 1–%d): it is the edit log in full — "+
			"once there is room, mv %s %s — and running the command again makes --out", j.path, j.edits, j.last, j.path, logPath)
	default:
		return fmt.Sprintf("; the journal %s keeps the %d edits of iterations 1–%d: the edit log of a run with --max-iterations %d "+
			"(mv %s %s to keep it; a run with the same --log refuses to start while it is there)", j.path, j.edits, j.last, j.last, j.path, logPath)
	}
}
