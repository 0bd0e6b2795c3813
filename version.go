// Package ohm holds the release of ohm: its version, read from the VERSION
// file beside this one (the one place it is written: the binary, the Python
// wheel and every results record take it from there), and the commit the
// binary was built from, which the Makefile stamps into every build with
// -ldflags -X (make build, make wheel; see Commit).
//
// The commands are in package cli, the binary in cli/ohm.
package ohm

import (
	_ "embed"
	"runtime/debug"
	"strings"
)

//go:embed VERSION
var versionFile string

// commit, commitTime and modified are stamped by the Makefile: -X
// github.com/ohmgnn/ohm.commit=HASH and the like.
var commit, commitTime, modified string

// Version returns the release version, the VERSION file's content (e.g.
// "0.1.0"). O(1).
func Version() string { return strings.TrimSpace(versionFile) }

// Commit returns the full hash of the commit the binary was built from:
// the one the Makefile stamped, else the VCS revision Go recorded (go build
// inside a clone), else "" (go test, a build outside a clone). O(size of
// the build information).
func Commit() string {
	if commit != "" {
		return commit
	}
	return vcsSetting("vcs.revision")
}

// CommitTime returns the time of Commit's commit (RFC 3339), stamped with
// it or as Go recorded it, or "". O(size of the build information).
func CommitTime() string {
	if commit != "" {
		return commitTime
	}
	return vcsSetting("vcs.time")
}

// Modified reports whether the binary was built from a work tree with
// uncommitted changes to tracked files, as stamped with the commit (or as
// Go recorded it when no commit was stamped). O(size of the build
// information).
func Modified() bool {
	if commit != "" {
		return modified == "true"
	}
	return vcsSetting("vcs.modified") == "true"
}

// Build returns the version with the commit as build metadata, what
// results records carry: "0.1.0+9ff53211a3a3", "0.1.0+9ff53211a3a3.modified"
// for a work tree with uncommitted changes, "0.1.0" when the commit is
// unknown. O(size of the build information).
func Build() string {
	c := Commit()
	if c == "" {
		return Version()
	}
	if len(c) > 12 {
		c = c[:12]
	}
	if Modified() {
		c += ".modified"
	}
	return Version() + "+" + c
}

// vcsSetting returns the build setting key Go recorded, or "".
func vcsSetting(key string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, s := range bi.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}
