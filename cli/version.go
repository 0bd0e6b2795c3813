package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/ohmgnn/ohm/linalg"
)

// VersionInfo is what `ohm version` prints: the module version, the VCS
// commit the binary was built from, the Go version and the BLAS backend.
type VersionInfo struct {
	Module   string `json:"module"`
	Version  string `json:"version"`  // "(devel)" for a build inside the repository
	Commit   string `json:"commit"`   // VCS revision, "" when unknown
	Time     string `json:"time"`     // commit time, RFC 3339, "" when unknown
	Modified bool   `json:"modified"` // built from a work tree with uncommitted changes
	Go       string `json:"go"`
	Backend  string `json:"backend"` // linalg.Backend
}

// versionInfo reads the binary's build information (runtime/debug). O(1).
func versionInfo() VersionInfo {
	v := VersionInfo{Module: "github.com/ohmgnn/ohm", Version: "unknown", Go: runtime.Version(), Backend: linalg.Backend()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v.Module, v.Version = bi.Main.Path, bi.Main.Version
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
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
