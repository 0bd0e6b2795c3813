package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// writeJSON writes v as indented JSON (the --json outputs and the files
// ohm writes as JSON).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// checkOutput checks, before any work, that path can be written later: its
// folder exists and path is not a folder.
func checkOutput(flag, path string) error {
	if path == "" {
		return nil
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("%s %s: %s is not a directory", flag, path, dir)
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("%s %s: exists and is not a regular file", flag, path)
	}
	return nil
}
