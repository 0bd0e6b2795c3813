// Package cli is ohm's command line, built with kong. Run parses the arguments
// and runs one command; package cli/ohm wraps it as the ohm binary.
//
// Every command shares the global flags of Globals. Output meant for machines
// (--json) goes to standard output as one JSON document; messages and progress
// go to standard error. The package exports Run and the types of those JSON
// documents (DataInfo, RewireSummary, ResistanceOut, TrainOut, CurvatureOut,
// VersionInfo and the types they hold), whose fields docs/cli.md lists.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/alecthomas/kong"
	"golang.org/x/term"

	"github.com/ohmgnn/ohm/internal/sysmem"
	"github.com/ohmgnn/ohm/model/dataset"
)

// Globals are the flags every command takes.
type Globals struct {
	DataDir    string `name:"data-dir" placeholder:"DIR" help:"Data root in PyTorch Geometric's layout (<root>/Cora/raw/…). Searched first, then $OHM_DATA, then the per-user cache." type:"path"`
	Threads    int    `help:"Worker goroutines, and the cores the process runs on (0: one per core)." default:"0"`
	Quiet      bool   `short:"q" help:"No progress output."`
	NoDownload bool   `name:"no-download" help:"Never download missing dataset files; fail with the list of what is missing."`
	CPUProfile string `name:"cpuprofile" placeholder:"FILE" help:"Write a CPU profile (pprof) to this file." type:"path"`
	MemProfile string `name:"memprofile" placeholder:"FILE" help:"Write a heap profile (pprof) to this file at exit." type:"path"`

	// ProgressEvery is the least time between two progress lines when
	// standard error is not a terminal (hidden: tests set it small).
	ProgressEvery time.Duration `name:"progress-every" hidden:"" default:"10s" help:"Off a terminal: the least time between two progress lines."`

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

// Progress reports whether the progress bar should be drawn: not with
// --quiet and only when standard error is a terminal (elsewhere progress is
// plain lines; see progress).
func (g *Globals) Progress() bool {
	if g.Quiet {
		return false
	}
	f, ok := g.Stderr.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// locator returns the dataset locator for --data-dir.
func (g *Globals) locator() *dataset.Locator {
	l := dataset.DefaultLocator(g.DataDir)
	if g.NoDownload {
		l.Fetch = nil
	}
	return l
}

// commandLine is the whole command tree.
type commandLine struct {
	Globals
	VersionFlag kong.VersionFlag `name:"version" help:"Print the version and exit."`

	Data       dataCmd       `cmd:"" help:"List, describe and export datasets."`
	Resistance resistanceCmd `cmd:"" help:"Effective resistances: the most resistant pair, the least resistant edge, the top K pairs, chosen pairs."`
	Rewire     rewireCmd     `cmd:"" help:"Rewire a graph by effective resistance (err, err-hop, res, res-hop) or a baseline (curvature, gtr, fosr); write the edit log and the rewired graph. A TU dataset (--dataset mutag, enzymes, proteins, …) is rewired graph by graph."`
	Stats      statsCmd      `cmd:"" help:"Realized edits of every rewiring (datasets × methods × budgets) as the paper's appendix table."`
	Train      trainCmd      `cmd:"" help:"Train GCN or DirGCN on a dataset (or on a rewired graph) over seeds and splits; report test accuracy mean ± std."`
	Curvature  curvatureCmd  `cmd:"" help:"Ollivier–Ricci curvature of every edge (lazy measures, exact W1): min, max, mean, histogram, most negative edges; CSV with --out."`
	Diagnose   diagnoseCmd   `cmd:"" help:"Representation diagnostics of models trained on original and rewired graphs: cosine similarity per layer, linear probes, CKA vs curvature, added-edge overlap; writes diagnostics.json."`
	Sweep      sweepCmd      `cmd:"" help:"Run an experiment grid (datasets × forms × methods × budgets × models × PairNorm × depths × seeds/splits); one JSON line per finished run, resumable."`
	Report     reportCmd     `cmd:"" help:"Markdown tables and PNG/SVG figures from sweep results (and diagnostics.json): best layer / max accuracy, realized edits, accuracy vs depth, cosine, probes, CKA, overlap; or a table of 'ohm train --json' output."`
	Version    versionCmd    `cmd:"" help:"Print the version: the release and the commit it was built from, Go version, BLAS backend."`
	Serve      serveCmd      `cmd:"" hidden:"" help:"Answer rewiring requests framed on standard input (the Python package's kept child; protocol in docs/python.md)."`
	Demo       demoCmd       `cmd:"" help:"The whole pipeline on one small dataset (the built-in ring unless --dataset): a sweep of none and the five rewiring methods of the paper at budget 0.1 with GCN of depths 1–6, diagnostics, report (make run)."`
}

// Run parses args (without the program name), runs the command and returns the
// process exit status: 0 on success, 1 on a failed command, 2 on bad usage.
func Run(args []string, stdout, stderr io.Writer) int {
	var c commandLine
	c.Stdout, c.Stderr = stdout, stderr
	exit := -1
	var fileErrs []error // unreadable input files, reported after usage errors
	parser, err := kong.New(&c,
		kong.Name("ohm"),
		kong.Description("Find and repair the bottlenecks of a graph by effective-resistance rewiring, then learn on it."),
		kong.UsageOnError(),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { exit = code; panic(exitPanic{}) }),
		// "--budget -1" reaches its check ("--budget -1: must lie in (0, 1]")
		// instead of being taken for a short flag.
		kong.WithHyphenPrefixedParameters(true),
		withLists,
		kong.Bind(&c.Globals),
		kong.Vars{"version": versionInfo().String()},
		kong.NamedMapper("existingfile", existingFile(&fileErrs)),
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
		ctx, err = parser.Parse(args)
	}()
	if exit >= 0 {
		return exit // --help
	}
	if err == nil && c.Threads < 0 {
		err = fmt.Errorf("--threads %d: must be ≥ 0 (0: one per core)", c.Threads)
	}
	if err == nil && len(fileErrs) > 0 {
		err = fileErrs[0]
	}
	if err != nil {
		fmt.Fprintf(stderr, "ohm: %s\n", parseErrorMessage(err))
		var fe inputFileError
		if errors.As(err, &fe) {
			return 1 // an unreadable input file, found while parsing
		}
		return 2
	}
	// OHM_MEMORY that does not parse is refused, not ignored; the soft
	// memory limit follows the budget the memory checks use (definitions
	// §7.1).
	if err := sysmem.CheckEnv(); err != nil {
		fmt.Fprintf(stderr, "ohm: %v\n", err)
		return 2
	}
	if err := sysmem.CheckAddressSpace(); err != nil {
		fmt.Fprintf(stderr, "ohm: %v\n", err)
		return 1
	}
	sysmem.SetSoftLimit()
	if t := c.Threads; t > 0 && t < runtime.GOMAXPROCS(0) {
		// --threads bounds the cores too: the matrix products and
		// shifted solves spread over GOMAXPROCS goroutines.
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(t))
	}
	stop, err := c.startProfiles()
	if err != nil {
		fmt.Fprintf(stderr, "ohm: %v\n", err)
		return 1
	}
	err = runRecovered(ctx)
	if perr := stop(keepProfiles(err)); err == nil {
		err = perr
	}
	if err != nil {
		fmt.Fprintf(stderr, "ohm: %s\n", errorMessage(err, c.NoDownload))
		return exitStatus(err)
	}
	return 0
}
