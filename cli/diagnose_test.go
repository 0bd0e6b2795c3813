package cli

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/diagnose"
)

// TestDiagnoseBottleneck: `ohm diagnose` on the built-in bottleneck dataset
// writes diagnostics.json with one cosine entry per (method, depth, layer),
// one probe per inner layer, one CKA per (non-curvature method, depth) and
// one overlap of the rewiring methods; values lie in range; --json prints
// the same document; a second run with 1 thread gives identical numbers.
func TestDiagnoseBottleneck(t *testing.T) {
	dir := t.TempDir()
	args := []string{"diagnose", "--datasets", "bottleneck", "--methods", "none,err,curvature",
		"--budget", "0.1", "--depths", "1,2,3", "--seeds", "2", "--out", dir}
	code, out, errs := run(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "diagnostics.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d diagnose.Diagnostics
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	var printed diagnose.Diagnostics
	if err := json.Unmarshal([]byte(out), &printed); err != nil || !reflect.DeepEqual(d, printed) {
		t.Fatalf("--json output differs from the file (%v)", err)
	}
	// 3 methods × (2+3+4) layers from 0; 3 × (0+1+2) probes; 2 × 3 CKA; 1 overlap.
	if len(d.Cosine) != 27 || len(d.Probe) != 9 || len(d.CKA) != 6 || len(d.Overlap) != 1 {
		t.Fatalf("entries: %d cosine, %d probe, %d cka, %d overlap; want 27, 9, 6, 1",
			len(d.Cosine), len(d.Probe), len(d.CKA), len(d.Overlap))
	}
	in01 := func(x float64) bool { return x >= 0 && x <= 1 && !math.IsNaN(x) }
	for _, c := range d.Cosine {
		if c.Dataset != "bottleneck" || c.Layer < 0 || c.Layer > c.Depth || !in01(c.Same) || !in01(c.Diff) ||
			c.Seeds != 2 || !in01(c.SameStd) || !in01(c.DiffStd) {
			t.Fatalf("cosine %+v", c)
		}
	}
	if c := d.Cosine[0]; c.Method != "none" || c.Depth != 1 || c.Layer != 0 {
		t.Fatalf("first cosine %+v, want none depth 1 layer 0", c)
	}
	for _, p := range d.Probe {
		if p.Layer < 1 || p.Layer >= p.Depth || !in01(p.Acc) || p.Seeds != 2 || !in01(p.AccStd) {
			t.Fatalf("probe %+v", p)
		}
	}
	for _, c := range d.CKA {
		if c.Method == "curvature" || !in01(c.CKA) {
			t.Fatalf("cka %+v", c)
		}
	}
	o := d.Overlap[0]
	if !reflect.DeepEqual(o.Methods, []string{"err", "curvature"}) || o.Budget != 0.1 ||
		len(o.Sizes) != 2 || len(o.Exclusive) != 3 || len(o.Jaccard) != 2 {
		t.Fatalf("overlap %+v", o)
	}
	if o.Sizes[0] == 0 || o.Exclusive[0].Count+o.Exclusive[2].Count != o.Sizes[0] {
		t.Fatalf("overlap counts %+v", o)
	}
	// Deterministic, whatever the thread count; text summary mentions every method.
	dir2 := t.TempDir()
	args2 := append([]string{"--threads", "1"}, args...)
	args2[len(args2)-1] = dir2
	code, text, errs := run(t, args2...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	raw2, _ := os.ReadFile(filepath.Join(dir2, "diagnostics.json"))
	if string(raw) != string(raw2) {
		t.Fatal("diagnostics depend on the thread count")
	}
	for _, want := range []string{"none", "err", "curvature", "cka vs curvature", "Jaccard"} {
		if !strings.Contains(text, want) {
			t.Fatalf("text summary lacks %q:\n%s", want, text)
		}
	}
}

// TestDiagnoseBadInput: bad flags exit 2 before any work and write nothing.
func TestDiagnoseBadInput(t *testing.T) {
	dir := t.TempDir()
	base := map[string]string{"--datasets": "bottleneck", "--methods": "none,err", "--budget": "0.1", "--depths": "1,2"}
	for _, tc := range []struct{ flag, value string }{
		{"--methods", "none,bogus"},
		{"--methods", "none,none"},
		{"--depths", "0,2"},
		{"--depths", "x"},
		{"--budget", "0"},
		{"--budget", "1.5"},
		{"--datasets", "nope"},
		{"--split", "5"}, // bottleneck has one split
		{"--split", "-1"},
		{"--alpha", "2"},
	} {
		args := []string{"diagnose", "--out", dir}
		for k, v := range base {
			if k != tc.flag {
				args = append(args, k, v)
			}
		}
		args = append(args, tc.flag, tc.value)
		if code, _, errs := run(t, args...); code != 2 {
			t.Errorf("%s %s: exit %d, want 2 (%s)", tc.flag, tc.value, code, errs)
		}
	}
	if code, _, _ := run(t, "diagnose", "--datasets", "bottleneck", "--methods", "none", "--budget", "0.1", "--depths", "1",
		"--out", filepath.Join(dir, "missing")); code != 1 {
		t.Errorf("missing --out folder: exit %d, want 1", code)
	}
	if _, err := os.Stat(filepath.Join(dir, "diagnostics.json")); err == nil {
		t.Error("a failed run wrote diagnostics.json")
	}
}

// TestRunDiagnosticsAPI: the exported entry point checks its spec (usage
// errors) and computes without writing anything.
func TestRunDiagnosticsAPI(t *testing.T) {
	g := &Globals{Quiet: true}
	if _, err := runDiagnostics(context.Background(), g, diagnoseSpec{Datasets: []string{"bottleneck"}, Methods: []string{"none"},
		Budget: 0.1, Depths: []int{0}}); err == nil {
		t.Fatal("depth 0 accepted")
	} else if _, ok := err.(usageError); !ok {
		t.Fatalf("depth 0: %T, want a usage error", err)
	}
	d, err := runDiagnostics(context.Background(), g, diagnoseSpec{Datasets: []string{"Bottleneck"}, Methods: []string{"none", "res"},
		Budget: 0.05, Depths: []int{2}, Alpha: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Cosine) != 6 || len(d.Probe) != 2 || len(d.CKA) != 0 || len(d.Overlap) != 1 ||
		d.Cosine[0].Dataset != "bottleneck" || d.Overlap[0].Methods[0] != "res" {
		t.Fatalf("%+v", d)
	}
}
