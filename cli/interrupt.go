package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// interruptible returns a context cancelled by the first SIGINT or SIGTERM,
// which prints "interrupted: " and what (what the command does before it
// stops). A second one quits at once: the process dies of that signal, as
// a shell expects of a command it interrupts, with nothing more written.
//
// signal.Notify also re-enables a SIGINT the process inherited as ignored
// (signal.Ignored: a job started with & by a non-interactive shell, or
// under nohup-like wrappers), so every long command stops on Ctrl-C or
// kill -INT however it was started. Restoring the signals' disposition
// after the first one would make such a SIGINT ignored again, so the
// second one is caught too, and handled here.
func interruptible(g *Globals, what string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	ignored := map[os.Signal]bool{}
	for _, s := range sigs {
		ignored[s] = signal.Ignored(s)
	}
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, sigs...)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
			// The signals that had their default action get it back at
			// once: the kernel itself then ends the process on the second
			// one, even while every thread is busy in a long kernel that
			// the scheduler cannot preempt (definitions §7.3). Those
			// inherited as ignored stay caught, for quitNow.
			for _, s := range sigs {
				if !ignored[s] {
					signal.Reset(s)
				}
			}
			fmt.Fprintf(g.Stderr, "\ninterrupted: %s (Ctrl-C again to quit at once)\n", what)
			cancel()
		case <-done:
			return
		}
		select {
		case s := <-sig:
			quitNow(s)
		case <-done:
		}
	}()
	var once bool
	return ctx, func() {
		if !once {
			once = true
			signal.Stop(sig)
			close(done)
		}
		cancel()
	}
}

// quitNow ends the process on a second signal s: with the disposition it
// started with restored, s is sent again, so that the process dies of it
// (its parent sees a death by signal); if it survives — s was ignored when
// ohm started — it exits with 128 + the signal's number, as a shell
// reports a death by signal.
func quitNow(s os.Signal) {
	signal.Reset(s)
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Signal(s)
	}
	time.Sleep(200 * time.Millisecond) // the signal's delivery
	n := 2
	if sn, ok := s.(syscall.Signal); ok {
		n = int(sn)
	}
	os.Exit(128 + n)
}

// errInterrupted marks a command that stopped because of Ctrl-C (SIGINT or
// SIGTERM): it exits with status 1 after writing what it made, or
// nothing, as its message says.
var errInterrupted = errors.New("interrupted")

// interruptedf is an error wrapping errInterrupted: "interrupted: " and
// the message.
func interruptedf(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errInterrupted, fmt.Sprintf(format, a...))
}

// untilInterrupted runs f, a computation that writes nothing and cannot
// stop halfway, and returns its error, or — when ctx is cancelled first —
// returns ctx's error at once: the command then stops without the result
// (f goes on until the process exits, writing nothing).
func untilInterrupted(ctx context.Context, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ctxWriter is a writer that fails with ctx's error once ctx is done, so
// that a long write stops within one buffer's time of a Ctrl-C.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(b)
}
