package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ohmgnn/ohm/internal/atomicfile"
)

// writeJSON writes v as indented JSON (the --json outputs and the files
// ohm writes as JSON).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// checkOutput checks, before any work, that path can be written later:
// its folder exists, path is not a folder, and a file can be created there
// (atomicfile.CheckWritable creates and removes one). flag names the option
// in the error.
func checkOutput(flag, path string) error {
	if path == "" {
		return nil
	}
	if err := atomicfile.CheckWritable(path, false); err != nil {
		return fmt.Errorf("%s %w", flag, err) // the error names path
	}
	return nil
}

// checkOutputIn checks, before any work, that the file name can be written
// in the folder dir, which the command creates when it is missing
// (mkdir) or else must exist.
func checkOutputIn(flag, dir, name string, mkdir bool) error {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return fmt.Errorf("%s %s: not a directory", flag, dir)
	}
	if err := atomicfile.CheckWritable(filepath.Join(dir, name), mkdir); err != nil {
		return fmt.Errorf("%s %w", flag, err) // the error names the file
	}
	return nil
}

// nothingWrittenTo is the note for a command that failed with err before
// putting any of its outputs in place: "; nothing written to OUT". A
// failure while putting them in place (*atomicfile.CommitError) names what is
// where itself, so the note is empty then.
func nothingWrittenTo(err error, out string) string {
	var ce *atomicfile.CommitError
	if errors.As(err, &ce) {
		return ""
	}
	return "; nothing written to " + out
}
