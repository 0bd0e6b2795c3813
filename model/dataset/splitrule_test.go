package dataset

import (
	"slices"
	"strings"
	"testing"
)

func TestParseSplitRule(t *testing.T) {
	for in, want := range map[string]string{
		"random:0.6,0.2,0.2":      "random:0.6,0.2,0.2",
		" Random: 0.5 ,0.25,0.25": "random:0.5,0.25,0.25",
		"per-class:20,500,1000":   "per-class:20,500,1000",
	} {
		r, err := ParseSplitRule(in)
		if err != nil || r.String() != want {
			t.Errorf("%q: %v %v, want %s", in, r, err, want)
		}
	}
	for in, msg := range map[string]string{
		"stratified:1,2,3":       "want random:TRAIN,VAL,TEST",
		"random":                 "want three numbers after random:",
		"random:0.6,0.2":         "want three numbers",
		"random:0.6,0.3,0.2":     "the fractions sum to 1.1, more than 1",
		"random:1,0.2,0.2":       `"1" is not a fraction in (0, 1)`,
		"random:0.6,x,0.2":       `"x" is not a fraction`,
		"per-class:20,0,1000":    `"0" is not a count ≥ 1`,
		"per-class:20.5,10,1000": `"20.5" is not a count ≥ 1`,
	} {
		if _, err := ParseSplitRule(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v, want %q", in, err, msg)
		}
	}
}

// TestSplitRuleApply: counts, disjoint parts, determinism, and split k
// independent of how many are made.
func TestSplitRuleApply(t *testing.T) {
	d := Bottleneck(SynthOptions{})
	n := d.N()
	random, _ := ParseSplitRule("random:0.6,0.2,0.2")
	if err := random.Apply(d, 7, 3); err != nil {
		t.Fatal(err)
	}
	first := slices.Clone(d.Splits)
	for k, sp := range d.Splits {
		if len(sp.Train)+len(sp.Val)+len(sp.Test) > n || len(sp.Train) != int(0.6*float64(n)+0.5) {
			t.Errorf("split %d: %d/%d/%d of %d", k, len(sp.Train), len(sp.Val), len(sp.Test), n)
		}
		seen := map[int]bool{}
		for _, part := range [][]int{sp.Train, sp.Val, sp.Test} {
			if !slices.IsSorted(part) {
				t.Errorf("split %d not sorted", k)
			}
			for _, i := range part {
				if seen[i] {
					t.Errorf("split %d: node %d twice", k, i)
				}
				seen[i] = true
			}
		}
	}
	if slices.Equal(first[0].Train, first[1].Train) {
		t.Error("splits 0 and 1 equal")
	}
	if err := random.Apply(d, 7, 5); err != nil {
		t.Fatal(err)
	}
	for k := range first {
		if !slices.Equal(first[k].Train, d.Splits[k].Train) || !slices.Equal(first[k].Test, d.Splits[k].Test) {
			t.Errorf("split %d changed when more splits were made", k)
		}
	}
	random.Apply(d, 8, 1)
	if slices.Equal(first[0].Train, d.Splits[0].Train) {
		t.Error("another seed gave the same split")
	}

	pc, _ := ParseSplitRule("per-class:3,5,7")
	if err := pc.Apply(d, 0, 1); err != nil {
		t.Fatal(err)
	}
	sp := d.Splits[0]
	counts := make([]int, d.NumClasses)
	for _, i := range sp.Train {
		counts[d.Labels[i]]++
	}
	if slices.ContainsFunc(counts, func(c int) bool { return c != 3 }) || len(sp.Val) != 5 || len(sp.Test) != 7 {
		t.Errorf("per-class: train by class %v, val %d, test %d", counts, len(sp.Val), len(sp.Test))
	}
	big, _ := ParseSplitRule("per-class:20,500,1000")
	if err := big.Apply(d, 0, 1); err == nil || !strings.Contains(err.Error(), "fewer than 500 val + 1000 test") {
		t.Errorf("too few nodes: %v", err)
	}
	tiny, _ := ParseSplitRule("random:0.001,0.001,0.5")
	if err := tiny.Apply(d, 0, 1); err == nil || !strings.Contains(err.Error(), "every part needs at least one") {
		t.Errorf("empty part: %v", err)
	}
}
