package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/ohmgnn/ohm/rewire"
)

// journal streams a run's edit log to LOG.partial as the iterations are
// made, so that a run killed outright (SIGKILL, an out-of-memory killer,
// the session's end) leaves the edits of every iteration it finished: an
// hour's run at 10⁶ nodes is not lost with its process. The lines are
// encodeEditLog's, written an iteration at a time in one write, so the file
// always ends on a whole iteration (the process may die between writes,
// never inside one). The --log file itself is still written atomically from
// the run's result when the run ends (a failure leaves it as it was), and
// the journal is then removed; a run started with the same --log replaces
// a journal left by an earlier one.
type journal struct {
	path  string
	f     *os.File
	buf   bytes.Buffer
	edits int
	err   error // the first write error; the journal stops there
	warn  io.Writer
}

// openJournal creates (or truncates) logPath + ".partial"; warn receives
// one line if writing it fails later (the run goes on without it).
func openJournal(logPath string, warn io.Writer) (*journal, error) {
	p := logPath + ".partial"
	f, err := os.Create(p)
	if err != nil {
		return nil, fmt.Errorf("--log %s: the journal of the edits made: %w", logPath, err)
	}
	return &journal{path: p, f: f, warn: warn}, nil
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
	if _, err := j.f.Write(j.buf.Bytes()); err != nil {
		j.fail(err)
		return
	}
	j.edits += len(edits)
}

func (j *journal) fail(err error) {
	j.err = err
	fmt.Fprintf(j.warn, "warning: %s: %v; the run goes on, --log is written when it ends\n", j.path, err)
}

// close closes the file and removes it when drop is true, or when it holds
// no edit. It reports whether the journal is left on disk.
func (j *journal) close(drop bool) bool {
	j.f.Close()
	if drop || j.edits == 0 {
		os.Remove(j.path)
		return false
	}
	return true
}
