package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"

	"github.com/alecthomas/kong"
)

// inputFileError is a named input file that cannot be read: missing, a
// folder, not accessible. It is a failure (exit status 1), not a usage
// error, although kong finds it while parsing (existingFile).
type inputFileError struct{ error }

func (e inputFileError) Unwrap() error { return e.error }

// existingFile returns kong's "existingfile" type as every command's input
// files use it: the path must name a readable file, or an inputFileError
// saying what to do is appended to errs — not returned, so that a usage
// error of the same command line (exit status 2) comes first; Run reports
// the first of errs once parsing succeeded. "-" passes (standard input).
// O(1) system calls.
func existingFile(errs *[]error) kong.MapperFunc {
	return func(ctx *kong.DecodeContext, target reflect.Value) error {
		if target.Kind() != reflect.String {
			return fmt.Errorf(`"existingfile" type must be applied to a string not %s`, target.Type())
		}
		var path string
		if err := ctx.Scan.PopValueInto("file", &path); err != nil {
			return err
		}
		if path != "-" {
			path = kong.ExpandPath(path)
			var err error
			switch st, serr := os.Stat(path); {
			case errors.Is(serr, fs.ErrNotExist):
				err = fmt.Errorf("%s: no such file", path)
			case serr != nil:
				err = serr
			case st.IsDir():
				err = fmt.Errorf("%s is a folder, not a file", path)
			}
			if err != nil {
				*errs = append(*errs, inputFileError{fmt.Errorf("%s: %w", ctx.Value.ShortSummary(), err)})
			}
		}
		target.SetString(path)
		return nil
	}
}

// exitStatus is the exit status of a command's error: 2 for a usage error,
// 1 for any other failure (definitions of the table in docs/cli.md, "Exit
// status and errors").
func exitStatus(err error) int {
	var ue usageError
	var fe inputFileError
	switch {
	case errors.As(err, &fe):
		return 1
	case errors.As(err, &ue):
		return 2
	}
	return 1
}
