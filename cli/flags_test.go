package cli

import (
	"regexp"
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

// TestHelpPlaceholdersReadable: no command's --help shows a Go type as a
// flag's placeholder (--budget=FLOAT-64, --out=STRING): each names what to
// give (FRACTION, FILE, DIR, NAME, a choice).
func TestHelpPlaceholdersReadable(t *testing.T) {
	goType := regexp.MustCompile(`--[a-z0-9-]+=(STRING|FLOAT-?(32|64)?|U?INT-?(8|16|32|64)?|DURATION)\b`)
	for _, cmd := range []string{"data list", "data info", "data export", "data synth", "resistance", "rewire", "stats",
		"train", "curvature", "diagnose", "sweep", "report", "demo", "version"} {
		_, out, _ := run(t, append(strings.Fields(cmd), "--help")...)
		if m := goType.FindAllString(out, -1); len(m) > 0 {
			t.Errorf("ohm %s --help: Go types as placeholders: %v", cmd, m)
		}
	}
	_, out, _ := run(t, "rewire", "--help")
	if !strings.Contains(out, "--budget=FRACTION") || !strings.Contains(out, "--method=METHOD") {
		t.Errorf("ohm rewire --help: want --method=METHOD --budget=FRACTION:\n%s", out)
	}
}
