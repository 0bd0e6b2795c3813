// Package cli is ohm's command line, built with kong. Run parses the arguments
// and runs one command; package cli/ohm wraps it as the ohm binary.
//
// Every command shares the global flags of Globals. Output meant for machines
// (--json) goes to standard output as one JSON document; messages and progress
// go to standard error.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"
	"golang.org/x/term"

	"github.com/ohmgnn/ohm/model/dataset"
)

// Globals are the flags every command takes.
type Globals struct {
	DataDir    string `name:"data-dir" help:"Data root in PyTorch Geometric's layout (<root>/Cora/raw/…). Searched first, then $OHM_DATA, then the per-user cache." type:"path"`
	Threads    int    `help:"Worker goroutines (0: one per core)." default:"0"`
	Quiet      bool   `short:"q" help:"No progress output."`
	NoDownload bool   `name:"no-download" help:"Never download missing dataset files; fail with the list of what is missing."`
	CPUProfile string `name:"cpuprofile" help:"Write a CPU profile (pprof) to this file." type:"path"`
	MemProfile string `name:"memprofile" help:"Write a heap profile (pprof) to this file at exit." type:"path"`

	// Set by Run, not by flags.
	Stdout io.Writer `kong:"-"`
	Stderr io.Writer `kong:"-"`
}

// Workers returns the number of worker goroutines to use.
func (g *Globals) Workers() int {
	if g.Threads > 0 {
		return g.Threads
	}
	return runtime.GOMAXPROCS(0)
}

// Progress reports whether progress output should be drawn: not with --quiet
// and only when standard error is a terminal.
func (g *Globals) Progress() bool {
	if g.Quiet {
		return false
	}
	f, ok := g.Stderr.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Locator returns the dataset locator for --data-dir.
func (g *Globals) Locator() *dataset.Locator {
	l := dataset.DefaultLocator(g.DataDir)
	if g.NoDownload {
		l.Fetch = nil
	}
	return l
}

// CLI is the whole command tree.
type CLI struct {
	Globals
	VersionFlag kong.VersionFlag `name:"version" help:"Print the version and exit."`

	Data       DataCmd       `cmd:"" help:"List, describe and export datasets."`
	Resistance ResistanceCmd `cmd:"" help:"Effective resistances: the most resistant pair, the least resistant edge, the top K pairs, chosen pairs."`
	Rewire     RewireCmd     `cmd:"" help:"Rewire a graph by effective resistance (err, err-hop, res, res-hop) or the curvature baseline; write the edit log and the rewired graph."`
	Stats      StatsCmd      `cmd:"" help:"Realized edits of every rewiring (datasets × methods × budgets) as the paper's appendix table."`
	Train      TrainCmd      `cmd:"" help:"Train GCN or DirGCN on a dataset (or on a rewired graph) over seeds and splits; report test accuracy mean ± std."`
	Curvature  CurvatureCmd  `cmd:"" help:"Ollivier–Ricci curvature of every edge (lazy measures, exact W1): min, max, mean, histogram, most negative edges; CSV with --out."`
	Diagnose   DiagnoseCmd   `cmd:"" help:"Representation diagnostics of models trained on original and rewired graphs: cosine similarity per layer, linear probes, CKA vs curvature, added-edge overlap; writes diagnostics.json."`
	Sweep      SweepCmd      `cmd:"" help:"Run an experiment grid (datasets × forms × methods × budgets × models × PairNorm × depths × seeds/splits); one JSON line per finished run, resumable."`
	Report     ReportCmd     `cmd:"" help:"Markdown tables and PNG/SVG figures from sweep results (and diagnostics.json): best layer / max accuracy, realized edits, accuracy vs depth, cosine, probes, CKA, overlap."`
	Version    VersionCmd    `cmd:"" help:"Print the version: module version, commit, Go version, BLAS backend."`
	Demo       DemoCmd       `cmd:"" help:"The whole pipeline on a small dataset (cornell when found, else the built-in bottleneck): sweep, diagnostics, report (make run)."`
}

// Run parses args (without the program name), runs the command and returns the
// process exit status: 0 on success, 1 on a failed command, 2 on bad usage.
func Run(args []string, stdout, stderr io.Writer) int {
	var c CLI
	c.Stdout, c.Stderr = stdout, stderr
	exit := -1
	parser, err := kong.New(&c,
		kong.Name("ohm"),
		kong.Description("Find and repair the bottlenecks of a graph by effective-resistance rewiring, then learn on it."),
		kong.UsageOnError(),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { exit = code; panic(exitPanic{}) }),
		kong.Bind(&c.Globals),
		kong.Vars{"version": versionInfo().String()},
	)
	if err != nil {
		panic(err) // a malformed command tree is a programmer error
	}
	var ctx *kong.Context
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(exitPanic); !ok {
					panic(r)
				}
			}
		}()
		ctx, err = parser.Parse(joinNegative(args))
	}()
	if exit >= 0 {
		return exit // --help
	}
	if err == nil {
		err = checkLists(args)
	}
	if err != nil {
		fmt.Fprintf(stderr, "ohm: %v\n", err)
		return 2
	}
	stop, err := c.startProfiles()
	if err != nil {
		fmt.Fprintf(stderr, "ohm: %v\n", err)
		return 1
	}
	err = runRecovered(ctx)
	if perr := stop(); err == nil {
		err = perr
	}
	if err != nil {
		fmt.Fprintf(stderr, "ohm: %v\n", err)
		var ue usageError
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	}
	return 0
}

// startProfiles starts the CPU profile and returns a function that stops it
// and writes the heap profile.
func (g *Globals) startProfiles() (stop func() error, err error) {
	var cpu *os.File
	if g.CPUProfile != "" {
		if cpu, err = os.Create(g.CPUProfile); err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err = pprof.StartCPUProfile(cpu); err != nil {
			cpu.Close()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	return func() error {
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				return fmt.Errorf("--cpuprofile: %w", err)
			}
		}
		if g.MemProfile != "" {
			f, err := os.Create(g.MemProfile)
			if err != nil {
				return fmt.Errorf("--memprofile: %w", err)
			}
			runtime.GC()
			if err := pprof.WriteHeapProfile(f); err != nil {
				f.Close()
				return fmt.Errorf("--memprofile: %w", err)
			}
			return f.Close()
		}
		return nil
	}, nil
}

// joinNegative writes "--flag -1" as "--flag=-1", so that a negative number
// given to a flag reaches its check ("--budget -1: must lie in (0, 1]")
// instead of being taken for a short flag. No ohm argument is a negative
// number otherwise.
func joinNegative(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "--") && !strings.Contains(a, "=") && i+1 < len(args) && isNegativeNumber(args[i+1]) {
			out = append(out, a+"="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

func isNegativeNumber(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// listFlags are the flags that take comma-separated lists.
var listFlags = []string{"datasets", "forms", "methods", "budgets", "models", "pairnorm", "depths", "splits"}

// checkLists refuses an empty item anywhere in a list flag's value — leading,
// trailing ("--budgets 0.1,", which the parser would otherwise drop) or
// doubled — naming the flag.
func checkLists(args []string) error {
	for i := 0; i < len(args); i++ {
		name, val, ok := strings.Cut(strings.TrimPrefix(args[i], "--"), "=")
		if !strings.HasPrefix(args[i], "--") || !slices.Contains(listFlags, name) {
			continue
		}
		if !ok {
			if i+1 >= len(args) {
				continue
			}
			val = args[i+1]
		}
		for _, it := range strings.Split(val, ",") {
			if strings.TrimSpace(it) == "" {
				return usagef("--%s: empty item in %q", name, val)
			}
		}
	}
	return nil
}
