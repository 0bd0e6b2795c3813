package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// interruptible returns a context cancelled by the first SIGINT or SIGTERM,
// which prints "interrupted: " and what (what the command does before it
// stops); after it, the signals have their default effect again (a second
// Ctrl-C kills the process).
func interruptible(g *Globals, what string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-sig:
			signal.Stop(sig)
			fmt.Fprintf(g.Stderr, "\ninterrupted: %s (Ctrl-C again to quit at once)\n", what)
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(sig); cancel() }
}
