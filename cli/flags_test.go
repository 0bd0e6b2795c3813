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

// --dataset and --graph are alternatives, not both required: --help does
// not list them as required, and a command given neither names both.
func TestGraphInputEitherOr(t *testing.T) {
	_, out, _ := run(t, "resistance", "--help")
	if strings.Contains(out, "--dataset=STRING --graph=STRING") || !strings.Contains(out, "Exactly one of --dataset and --graph") {
		t.Errorf("resistance --help:\n%s", out)
	}
	for _, args := range [][]string{{"resistance"}, {"rewire", "--method", "err", "--budget", "0.1"}, {"curvature"}} {
		if code, _, errs := run(t, args...); code != 2 || !strings.Contains(errs, "give --dataset NAME or --graph FILE") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}
