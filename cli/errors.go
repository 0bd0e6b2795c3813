package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"runtime/debug"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/ohmgnn/ohm/model/sweep"
)

// usageError marks a command error caused by bad flags (exit status 2).
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

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

// exitPanic is how kong's exit (after --help) unwinds out of the parser.
type exitPanic struct{}

// runRecovered runs the command and turns a panic — a bug — into an error
// with its stack, so that the exit status follows the one rule (2 usage
// error, 1 any other failure) instead of the runtime's 2.
func runRecovered(ctx *kong.Context) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error (please report it): %v\n%s", r, debug.Stack())
		}
	}()
	return ctx.Run()
}

// flagName is the flag of a sweep.Spec field: its JSON name with dashes
// (synth_seed: synth-seed).
func flagName(field string) string { return strings.ReplaceAll(field, "_", "-") }

// flagError is a usage error for a list given to a sweep flag that does not
// parse (sweep.ParseBudgets and the like), naming the flag: "--budgets: …".
func flagError(err error) error {
	var fe *sweep.FieldError
	if errors.As(err, &fe) {
		return usagef("--%s: %s", flagName(fe.Field), fe.Msg)
	}
	return usagef("%v", err)
}

// specError is a usage error for a sweep.Spec that Normalize refuses; the
// remedy it suggests names the flag to give.
func specError(err error) error {
	var fe *sweep.FieldError
	if errors.As(err, &fe) && fe.Remedy != nil {
		return usagef("%s: %s; sweep it with --%s %s", fe.Field, fe.Msg, flagName(fe.Remedy.Field), fe.Remedy.Value)
	}
	return usagef("%v", err)
}
