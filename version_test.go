package ohm

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestVersionIsTheFile: Version is the VERSION file's one line, a
// version number as the wheel's metadata needs it.
func TestVersionIsTheFile(t *testing.T) {
	b, err := os.ReadFile("VERSION")
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSpace(string(b)); Version() != want {
		t.Errorf("Version() = %q, VERSION holds %q", Version(), want)
	}
	if !regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`).MatchString(Version()) {
		t.Errorf("VERSION %q: want MAJOR.MINOR.PATCH", Version())
	}
}

// TestBuildStamped: a stamped commit (what -ldflags -X sets) is what
// Commit, Modified and Build report.
func TestBuildStamped(t *testing.T) {
	defer func(c, m string) { commit, modified = c, m }(commit, modified)
	commit, modified = "9ff53211a3a3d0c0ffee00000000000000000000", ""
	if Commit() != commit || Modified() {
		t.Errorf("Commit() %q Modified() %v", Commit(), Modified())
	}
	if got, want := Build(), Version()+"+9ff53211a3a3"; got != want {
		t.Errorf("Build() = %q, want %q", got, want)
	}
	modified = "true"
	if got, want := Build(), Version()+"+9ff53211a3a3.modified"; got != want {
		t.Errorf("Build() = %q, want %q", got, want)
	}
}

func ExampleVersion() {
	_ = Version() // "0.1.0": the VERSION file
	_ = Build()   // "0.1.0+9ff53211a3a3": with the commit stamped by the Makefile
}
