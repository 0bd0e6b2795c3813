package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	release "github.com/ohmgnn/ohm"
	"github.com/ohmgnn/ohm/linalg"
)

// VersionInfo is what `ohm version` prints: the release version (the
// repository's VERSION file), the commit the binary was built from (stamped
// by the Makefile), the Go version and the BLAS backend.
type VersionInfo struct {
	Module   string `json:"module"`
	Version  string `json:"version"`  // the release, ohm.Version: the VERSION file
	Commit   string `json:"commit"`   // full commit hash, "" when unknown
	Time     string `json:"time"`     // commit time, RFC 3339, "" when unknown
	Modified bool   `json:"modified"` // built from a work tree with uncommitted changes
	Go       string `json:"go"`
	Backend  string `json:"backend"` // linalg.Backend
}

// versionInfo returns the binary's version (package ohm) and build
// information (runtime/debug). O(size of the build information).
func versionInfo() VersionInfo {
	v := VersionInfo{Module: "github.com/ohmgnn/ohm", Version: release.Version(), Commit: release.Commit(),
		Time: release.CommitTime(), Modified: release.Modified(), Go: runtime.Version(), Backend: linalg.Backend()}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path != "" {
		v.Module = bi.Main.Path
	}
	return v
}

// String is the one-line form of ohm --version.
func (v VersionInfo) String() string {
	s := fmt.Sprintf("ohm %s", v.Version)
	if v.Commit != "" {
		c := v.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		s += " (commit " + c
		if v.Modified {
			s += ", modified"
		}
		s += ")"
	}
	return s + fmt.Sprintf(", %s, BLAS %s", v.Go, v.Backend)
}

// versionCmd is `ohm version`.
type versionCmd struct {
	JSON bool `name:"json" help:"Print one JSON object: module, version, commit, time, modified, go, backend."`
}

// Run prints the version.
func (c *versionCmd) Run(g *Globals) error {
	v := versionInfo()
	if c.JSON {
		return writeJSON(g.Stdout, v)
	}
	_, err := fmt.Fprintln(g.Stdout, v.String())
	return err
}
