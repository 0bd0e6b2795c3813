package cli

import (
	"strings"
	"testing"
)

// -o is --out in every command that has one, and nothing else.
func TestShortOIsOut(t *testing.T) {
	for _, cmd := range []string{"data export", "rewire", "curvature", "report", "demo", "diagnose"} {
		args := append(strings.Fields(cmd), "--help")
		_, out, _ := run(t, args...)
		if !strings.Contains(out, "-o, --out=") {
			t.Errorf("ohm %s --help: no \"-o, --out\":\n%s", cmd, out)
		}
	}
	_, out, _ := run(t, "sweep", "--help")
	if strings.Contains(out, "-o,") {
		t.Errorf("ohm sweep --help: -o names a flag other than --out:\n%s", out)
	}
}
