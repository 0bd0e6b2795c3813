package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/ohmgnn/ohm/model/dataset"
)

// errorMessage is the message ohm prints for a command's error (after
// "ohm: "): the error's own, except for a dataset whose files are missing,
// which gets missingDataMessage.
func errorMessage(err error, noDownload bool) string {
	var me *dataset.MissingError
	if errors.As(err, &me) {
		return missingDataMessage(me, noDownload)
	}
	return err.Error()
}

// parseErrorMessage is the message of an error kong found in the command
// line. A command line that names no command (bare `ohm`, `ohm data`) says
// so and points to --help, which lists them.
func parseErrorMessage(err error) string {
	msg := err.Error()
	var pe *kong.ParseError
	if !strings.HasPrefix(msg, "expected one of ") || !errors.As(err, &pe) || pe.Context == nil {
		return msg
	}
	path := "ohm"
	for _, p := range pe.Context.Path {
		if p.Command != nil {
			path += " " + p.Command.Name
		}
	}
	return fmt.Sprintf("no command given: run '%s --help' for the commands (%s)", path, strings.TrimPrefix(msg, "expected one of "))
}

// missingDataMessage says in one short paragraph what is missing, where ohm
// looked, why it did not download the files, and what to do: --data-dir DIR
// or OHM_DATA=DIR. It names at most two files (a dataset has up to a dozen).
func missingDataMessage(e *dataset.MissingError, noDownload bool) string {
	var b strings.Builder
	files := e.Missing
	more := ""
	if len(files) > 2 {
		files, more = files[:2], fmt.Sprintf(" and %d more", len(e.Missing)-2)
	}
	fmt.Fprintf(&b, "dataset %s: %s missing (%s%s)", e.Dataset, plural(len(e.Missing), "raw file"), strings.Join(files, ", "), more)
	if len(e.Searched) > 0 {
		fmt.Fprintf(&b, " in %s", strings.Join(e.Searched, " and "))
	}
	switch {
	case e.Download != nil:
		fmt.Fprintf(&b, "; the download into %s failed: %v", e.Searched[0], e.Download)
	case noDownload:
		b.WriteString("; not downloaded (--no-download)")
	case len(e.Searched) == 0:
		b.WriteString("; no data folder to search or download into")
	}
	fmt.Fprintf(&b, ".\nGive a PyTorch Geometric data root that holds %s/raw/: --data-dir DIR or OHM_DATA=DIR ('ohm data list' shows what is found where)", datasetDir(e))
	switch {
	case noDownload:
		b.WriteString(", or leave out --no-download to download them")
	case e.Download != nil:
		b.WriteString(", or retry with network access")
	}
	return b.String()
}

// datasetDir is the dataset's folder under a data root, from its first
// missing file ("Cora" for Cora/raw/ind.cora.x).
func datasetDir(e *dataset.MissingError) string {
	if len(e.Missing) > 0 {
		if d, _, ok := strings.Cut(e.Missing[0], "/"); ok {
			return d
		}
	}
	return e.Dataset
}

// plural is "1 file", "2 files", "3 classes": n and the noun, with an s
// (es after s, x, ch, sh) unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	for _, end := range []string{"s", "x", "ch", "sh"} {
		if strings.HasSuffix(noun, end) {
			return fmt.Sprintf("%d %ses", n, noun)
		}
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
