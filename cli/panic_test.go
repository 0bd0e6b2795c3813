package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/ohmgnn/ohm/internal/parallel"
)

type panicCmd struct{ Where string }

func (c *panicCmd) Run() error {
	switch c.Where {
	case "main":
		panic("in main")
	case "fanout":
		parallel.Each(2, 4, func(_, k int) {
			if k == 3 {
				panic("in fanout")
			}
		})
	}
	return nil
}

// TestPanicIsInternalError: a panic on the command's goroutine or in a
// fan-out's worker is an internal error carrying the panicking
// goroutine's stack, never a usage error (exit status 1, not 2).
func TestPanicIsInternalError(t *testing.T) {
	for where, want := range map[string]string{"main": "in main", "fanout": "in fanout"} {
		var cl struct {
			Boom panicCmd `cmd:""`
		}
		ctx, err := kong.Must(&cl).Parse([]string{"boom"})
		if err != nil {
			t.Fatal(err)
		}
		cl.Boom.Where = where
		err = runRecovered(ctx)
		var p *parallel.PanicError
		var ue usageError
		if !errors.As(err, &p) || p.Value != want || errors.As(err, &ue) ||
			!strings.HasPrefix(err.Error(), "internal error (please report it): "+want) || !strings.Contains(err.Error(), "panicCmd") {
			t.Errorf("%s: %v", where, err)
		}
	}
}

// TestPerHopTooLarge: err-hop and res-hop on an edge list of 65 535 nodes
// are refused with the limit named (exit 2) before the engine allocates
// its n² state, in either form.
func TestPerHopTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(path, []byte("0 1\n1 65534\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"rewire", "--graph", path, "--method", "err-hop", "--budget", "0.5"},
		{"rewire", "--graph", path, "--method", "res-hop", "--budget", "0.5", "--directed"},
	} {
		code, _, errs := run(t, args...)
		if code != 2 || !strings.Contains(errs, "the graph has 65535 nodes; per-hop scores hold at most 65534") {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
}
