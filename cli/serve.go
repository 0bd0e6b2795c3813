package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/ohmgnn/ohm/internal/frame"
	"github.com/ohmgnn/ohm/rewire"
)

// serveCmd is `ohm serve` (hidden: the Python package's kept child).
type serveCmd struct {
	MaxHeader int   `name:"max-header" default:"67108864" help:"The most bytes of a request's JSON header."`
	MaxBlob   int64 `name:"max-blob" default:"17179869184" help:"The most bytes of a request's arrays."`
}

// Run answers the requests framed on standard input (docs/python.md, "The
// protocol of ohm serve") on standard output until standard input ends.
// A bad request gets an error frame and the server reads the next one;
// only a stream out of step (a wrong magic), a stream cut inside a frame,
// or an output that cannot be written ends it with an error.
func (c *serveCmd) Run(g *Globals) error {
	return serve(os.Stdin, g.Stdout, frame.Limits{Header: c.MaxHeader, Blob: c.MaxBlob}, g.Workers())
}

// serve is the server's loop on in and out; workers is the number of
// graphs a request rewires at once unless it says otherwise.
func serve(in io.Reader, out io.Writer, lim frame.Limits, workers int) error {
	r := bufio.NewReaderSize(in, 1<<16)
	w := bufio.NewWriterSize(out, 1<<16)
	for {
		f, err := frame.Read(r, lim)
		var tl *frame.TooLargeError
		switch {
		case err == io.EOF:
			return nil
		case errors.Is(err, frame.ErrBadMagic):
			werr := writeServeError(w, -1, err)
			if werr == nil {
				werr = w.Flush()
			}
			return errors.Join(fmt.Errorf("serve: %w", err), werr)
		case errors.As(err, &tl):
			err = writeServeError(w, -1, err)
		case err != nil:
			return fmt.Errorf("serve: reading a request: %w", err)
		default:
			err = handleFrame(w, f, workers)
		}
		if err == nil {
			err = w.Flush()
		}
		if err != nil {
			return fmt.Errorf("serve: writing an answer: %w", err)
		}
	}
}

// handleFrame answers one request; the error is only a failure to write.
func handleFrame(w io.Writer, f frame.Frame, workers int) error {
	req, err := decodeRequest(f.Header)
	if err != nil {
		return writeServeError(w, -1, err)
	}
	switch req.Op {
	case "ping":
		return frame.Write(w, servePong{Kind: "pong", Version: versionInfo().String(), PID: os.Getpid()})
	case "rewire":
	default:
		return writeServeError(w, -1, usagef("op %q: unknown (known: rewire, ping)", req.Op))
	}
	b, err := checkServeRequest(req, f.Blob)
	if err != nil {
		var ge *graphError
		if errors.As(err, &ge) {
			return writeServeError(w, ge.graph, ge.err)
		}
		return writeServeError(w, -1, err)
	}
	if req.Threads > 0 {
		workers = req.Threads
	}
	if b.x0 != nil {
		return serveAlone(w, b)
	}
	return serveMany(w, b, workers)
}

// serveMany rewires the batch's graphs with rewire.RunMany, workers at
// once (one thread each), and writes each graph's answer in the order of
// the graphs as soon as it and those before it are done; the first graph
// that fails ends the request with its error frame. Only a failure to
// write is returned.
func serveMany(w io.Writer, b *serveBatch, workers int) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := len(b.graphs)
	results := make([]*rewire.Result, n)
	done := make([]chan struct{}, n)
	for k := range done {
		done[k] = make(chan struct{})
	}
	finished := make(chan struct{})
	var runErr error
	go func() {
		defer close(finished)
		_, runErr = rewire.RunMany(ctx, b.graphs, b.cfg, rewire.ManyOptions{Threads: workers,
			OnGraph: func(i int, res *rewire.Result) { results[i] = res; close(done[i]) }})
	}()
	var err error
	for k := range n {
		select {
		case <-done[k]:
		case <-finished:
			select {
			case <-done[k]:
			default: // the batch failed before graph k
				k, err := manyError(runErr)
				return writeServeError(w, k, err)
			}
		}
		h, blob := b.answer(k, results[k])
		results[k] = nil
		if err = frame.Write(w, h, blob); err == nil {
			err = flush(w) // the client learns which graphs are done
		}
		if err != nil {
			cancel()
			<-finished
			return err
		}
	}
	<-finished
	return nil
}

// manyError is the graph a RunMany error is about (−1: none) and its
// error.
func manyError(err error) (int, error) {
	var ge *rewire.GraphError
	if errors.As(err, &ge) {
		return ge.Graph, ge.Err
	}
	return -1, err
}

// serveAlone rewires the batch's graphs one after another, each as `ohm
// rewire` does alone (a graph given fosr's start vector), and writes each
// answer as it is done; the first graph that fails ends the request with
// its error frame.
func serveAlone(w io.Writer, b *serveBatch) error {
	for k, g := range b.graphs {
		cfg := b.cfg
		cfg.Workers = 1
		cfg.FoSR = &rewire.FoSROptions{Seed: b.cfg.FoSR.Seed, X0: b.x0[k]}
		plan, err := rewire.NewPlan(g, cfg)
		if err != nil {
			return writeServeError(w, k, configUsage(err, serveFlags))
		}
		res, err := plan.Run()
		if err != nil {
			return writeServeError(w, k, err)
		}
		h, blob := b.answer(k, res)
		if err := frame.Write(w, h, blob); err != nil {
			return err
		}
		if err := flush(w); err != nil {
			return err
		}
	}
	return nil
}

// flush flushes w if it buffers.
func flush(w io.Writer) error {
	if f, ok := w.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}

// writeServeError writes an error frame for graph k (−1: the request).
func writeServeError(w io.Writer, k int, err error) error {
	var ue usageError
	return frame.Write(w, serveError{Kind: "error", Error: err.Error(), Usage: errors.As(err, &ue), Graph: k})
}
