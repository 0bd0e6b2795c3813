package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/ohmgnn/ohm/internal/faults"
	"github.com/ohmgnn/ohm/rewire"
)

// journal streams a run's edit log to LOG.partial as the iterations are
// made, so that a run killed outright (SIGKILL, an out-of-memory killer,
// the session's end) leaves the edits of every iteration it finished: an
// hour's run at 10⁶ nodes is not lost with its process. The lines are
// encodeEditLog's, written an iteration at a time in one write, so the file
// always ends on a whole iteration: the process may die between writes,
// never inside one, and a write that fails or stops short (a full disk) is
// cut off at once — the file is truncated back to the end of the last whole
// iteration, and the journal stops there. The --log file itself is still
// written atomically from the run's result when the run ends, and the
// journal is then removed; it is removed too when the run fails (nothing
// of a failed run is written), so only a process killed leaves it behind.
// A run started with the same --log replaces a journal left by an earlier
// one.
type journal struct {
	path  string
	f     *os.File
	w     io.Writer // f, through the fault hook of the tests
	buf   bytes.Buffer
	size  int64 // bytes written: whole iterations only
	last  int   // the last iteration written whole
	edits int
	err   error // the first write error; the journal stops there
	warn  io.Writer
}

// openJournal creates (or truncates) logPath + ".partial"; warn receives
// one line if writing it fails later (the run goes on without it).
func openJournal(logPath string, warn io.Writer) (*journal, error) {
	p := logPath + ".partial"
	f, err := createFile(p)
	if err != nil {
		return nil, fmt.Errorf("--log %s: the journal of the edits made: %w", logPath, err)
	}
	return &journal{path: p, f: f, w: faults.Writer(p, f), warn: warn}, nil
}

// createFile is os.Create, behind the fault hook of the tests.
func createFile(path string) (*os.File, error) {
	if err := faults.Create(path); err != nil {
		return nil, err
	}
	return os.Create(path)
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

// close closes the file and removes it when drop is true, or when it holds
// no edit. It reports whether the journal is left on disk.
func (j *journal) close(drop bool) bool {
	if j == nil {
		return false
	}
	j.f.Close()
	if drop || j.edits == 0 {
		os.Remove(j.path)
		return false
	}
	return true
}

// removed is the note for a failed run's message when it had a journal
// with edits: "; its journal J is removed" ("" otherwise).
func (j *journal) removed() string {
	if j == nil || j.edits == 0 {
		return ""
	}
	return fmt.Sprintf("; the journal %s (iterations 1–%d) is removed", j.path, j.last)
}
