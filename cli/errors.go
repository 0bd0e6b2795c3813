package cli

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/ohmgnn/ohm/internal/parallel"
	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/model/sweep"
)

// usageError marks a command error caused by bad flags (exit status 2).
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// exitPanic is how kong's exit (after --help) unwinds out of the parser.
type exitPanic struct{}

// runRecovered runs the command and turns a panic — a bug — into an error
// with its stack (a *parallel.PanicError), so that the exit status follows
// the one rule (2 usage error, 1 any other failure) instead of the
// runtime's 2. The fan-outs (internal/parallel) and the errgroup workers
// (parallel.Go) bring their goroutines' panics here.
func runRecovered(ctx *kong.Context) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if p, ok := r.(*parallel.PanicError); ok {
				err = p // raised in a worker goroutine: its stack
				return
			}
			err = &parallel.PanicError{Value: r, Stack: debug.Stack()}
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

// withMemoryFlags adds to a memory refusal (a *sysmem.Error) the flags that
// size the allocation, and OHM_MEMORY's part: the library's hint names no
// flag.
func withMemoryFlags(err error, flags string) error {
	var me *sysmem.Error
	if !errors.As(err, &me) {
		return err
	}
	return fmt.Errorf("%w (set by %s; OHM_MEMORY sets the budget)", err, flags)
}
