package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/ohmgnn/ohm/model/dataset"
)

// dataVerifyCmd is `ohm data verify`.
type dataVerifyCmd struct {
	Datasets commaList `help:"Comma-separated datasets to verify (default: every dataset whose files are found)."`
	JSON     bool      `name:"json" help:"Print a JSON array of {dataset, root, files: [{path, size, sha256, ok, problem}]}."`
}

// VerifyEntry is one dataset of `ohm data verify --json`; its fields are
// stable.
type VerifyEntry struct {
	Dataset string       `json:"dataset"`
	Root    string       `json:"root"` // "" when not found
	Files   []VerifyFile `json:"files"`
}

// VerifyFile is one file of a VerifyEntry.
type VerifyFile struct {
	Path    string `json:"path"` // root-relative
	Size    int64  `json:"size"`
	SHA256  string `json:"sha256"`
	OK      bool   `json:"ok"`
	Problem string `json:"problem"` // "" when ok
}

// Run re-hashes every raw file of the datasets found (or asked for)
// against the SHA-256 ohm ships (definitions §7.5) and fails, exit status
// 1, naming each file that differs or is missing. Cost: a read of every
// file.
func (c *dataVerifyCmd) Run(g *Globals) error {
	loc := g.locator()
	names := c.Datasets
	asked := len(names) > 0
	if !asked {
		for _, n := range dataset.Names() {
			if !dataset.IsBuiltin(n) {
				names = append(names, n)
			}
		}
	}
	var entries []VerifyEntry
	bad := 0
	for _, name := range names {
		if dataset.IsBuiltin(name) {
			return usagef("--datasets %s: built in (synthetic, no files)", name)
		}
		root, missing, err := loc.Find(name)
		if err != nil {
			return usagef("--datasets: %v", err)
		}
		e := VerifyEntry{Dataset: name, Root: root, Files: []VerifyFile{}}
		if root == "" {
			if asked {
				bad++
				for _, m := range missing {
					e.Files = append(e.Files, VerifyFile{Path: m, Problem: "missing"})
				}
				entries = append(entries, e)
			}
			continue
		}
		files, err := dataset.CheckFiles(name, root, true)
		if err != nil {
			return err
		}
		for _, f := range files {
			if !f.OK() {
				bad++
			}
			e.Files = append(e.Files, VerifyFile{Path: f.Path, Size: f.Size, SHA256: f.SHA256, OK: f.OK(), Problem: f.Problem()})
		}
		entries = append(entries, e)
	}
	if err := c.print(g, entries); err != nil {
		return err
	}
	if len(entries) == 0 {
		return fmt.Errorf("no dataset files found (searched: %v); nothing verified", loc.Roots())
	}
	if bad > 0 {
		return fmt.Errorf("data verify: %d file(s) differ from the known SHA-256 or are missing (listed above): "+
			"delete them and run a command on the dataset to download them again, or restore them", bad)
	}
	return nil
}

func (c *dataVerifyCmd) print(g *Globals, entries []VerifyEntry) error {
	if c.JSON {
		return writeJSON(g.Stdout, entries)
	}
	tw := tabwriter.NewWriter(g.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DATASET\tFILE\tSTATUS")
	for _, e := range entries {
		for _, f := range e.Files {
			status := "ok"
			if !f.OK {
				status = f.Problem
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", e.Dataset, f.Path, status)
		}
	}
	return tw.Flush()
}
