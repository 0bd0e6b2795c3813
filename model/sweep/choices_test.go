package sweep

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm"
	"github.com/ohmgnn/ohm/model/dataset"
)

// TestResumeKeepsChoicesApart runs a small sweep four times into one
// results file — row-normalised features with PairNorm before the ReLU, the
// same again, raw features, then PairNorm after the ReLU — and checks that a
// resumed sweep counts as done exactly the runs of its own choices: the
// repeat trains nothing, raw features train every run again, and the
// PairNorm position retrains the runs with PairNorm only (a run without
// PairNorm does not depend on it). Every record says its choices.
func TestResumeKeepsChoicesApart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	load := func(name string, o dataset.SynthOptions) (*dataset.Dataset, error) { return dataset.Bottleneck(o), nil }
	sweepWith := func(features, at string) *Summary {
		t.Helper()
		spec := Spec{Datasets: []string{"bottleneck"}, Methods: []string{None}, Depths: []int{1, 2}, Epochs: 3,
			Features: features, PairNormAt: at}
		sum, err := Run(context.Background(), spec, Options{Results: path, Load: load})
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	const total = 4 // depths 1, 2 × PairNorm no, yes
	for _, c := range []struct {
		features, at string
		ran          int
	}{
		{"row", "pre", total},
		{"row", "pre", 0},
		{"raw", "pre", total},
		{"row", "post", total / 2},
		{"raw", "post", total / 2},
		{"raw", "post", 0},
	} {
		if sum := sweepWith(c.features, c.at); sum.Total != total || sum.Ran != c.ran {
			t.Errorf("features %s, PairNorm %s: %d runs of %d made, want %d", c.features, c.at, sum.Ran, sum.Total, c.ran)
		}
	}
	recs, err := ReadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2*total+total {
		t.Fatalf("%d records, want %d", len(recs), 3*total)
	}
	seen := map[string]int{}
	for _, r := range recs {
		f, at := r.Choices()
		if r.Features != f || r.PairNormAt != at || (r.PairNorm && at == "") {
			t.Errorf("record %v does not say its choices (features %q, pairnorm_at %q)", r.Key(), r.Features, r.PairNormAt)
		}
		seen[f+"/"+at]++
	}
	want := map[string]int{"row/": 2, "raw/": 2, "row/pre": 2, "raw/pre": 2, "row/post": 2, "raw/post": 2}
	for k, n := range want {
		if seen[k] != n {
			t.Errorf("%d records of %s, want %d (all: %v)", seen[k], k, n, seen)
		}
	}
}

// TestRecordsCarryOhmVersion: every record says the release and commit that
// ran it (ohm.Build), beside the rewiring code version; records of another
// build (or of before the field) still count as done, and a run recorded
// by two builds counts once.
func TestRecordsCarryOhmVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	load := func(name string, o dataset.SynthOptions) (*dataset.Dataset, error) { return dataset.Bottleneck(o), nil }
	spec := Spec{Datasets: []string{"bottleneck"}, Methods: []string{None}, Depths: []int{1, 2}, PairNorm: []bool{false}, Epochs: 2}
	if _, err := Run(context.Background(), spec, Options{Results: path, Load: load}); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadResults(path)
	if err != nil || len(recs) != 2 {
		t.Fatal(len(recs), err)
	}
	for _, r := range recs {
		if r.OhmVersion != ohm.Build() || r.OhmVersion == "" || r.Version != "rewire-1" {
			t.Errorf("record %v: ohm_version %q version %q, want %q and rewire-1", r.Key(), r.OhmVersion, r.Version, ohm.Build())
		}
	}
	// The first record as an older build wrote it, the second as written
	// before the field existed; both once more as this build wrote them.
	b, _ := os.ReadFile(path)
	lines := strings.SplitAfter(strings.TrimSpace(string(b)), "\n")
	tag := `"ohm_version":"` + ohm.Build() + `",`
	older := strings.Replace(lines[0], tag, `"ohm_version":"0.0.1+0123456789ab",`, 1)
	before := strings.Replace(lines[1], tag, "", 1)
	if older == lines[0] || before == lines[1] {
		t.Fatalf("records without %s: %s", tag, b)
	}
	if err := os.WriteFile(path, []byte(older+"\n"+before+"\n"+string(b)), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := Run(context.Background(), spec, Options{Results: path, Load: load})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Ran != 0 || sum.Total != 2 {
		t.Errorf("%d of %d runs made again, want 0: records of another build count as done", sum.Ran, sum.Total)
	}
}
