package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestStatsTable: the Markdown table has the E0 line, a header, a separator
// and one row per (method, budget), and every cell's counts equal those of
// the corresponding `ohm rewire --json` run (stats reads smaller budgets off
// the run with the largest one).
func TestStatsTable(t *testing.T) {
	code, out, errs := run(t, "stats", "--datasets", "bottleneck,sbm", "--budgets", "0.01,0.05", "--methods", "res,err")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 1 || lines[0] != "E0 (undirected): bottleneck 368, sbm 1611" {
		t.Errorf("E0 line %q", lines[0])
	}
	var rows [][]string
	for _, l := range lines {
		if strings.HasPrefix(l, "|") {
			cells := strings.Split(strings.Trim(l, "|"), "|")
			for k := range cells {
				cells[k] = strings.TrimSpace(cells[k])
			}
			rows = append(rows, cells)
		}
	}
	if len(rows) != 6 {
		t.Fatalf("%d table lines, want header + separator + 4 rows:\n%s", len(rows), out)
	}
	wantHeader := []string{"method", "budget", "bottleneck added", "bottleneck removed", "sbm added", "sbm removed"}
	if !slices.Equal(rows[0], wantHeader) {
		t.Errorf("header %q, want %q", rows[0], wantHeader)
	}
	k := 2
	for _, m := range []string{"res", "err"} {
		for _, b := range []string{"0.01", "0.05"} {
			row := rows[k]
			k++
			if row[0] != m || row[1] != b {
				t.Errorf("row %q, want method %s budget %s", row, m, b)
				continue
			}
			for di, d := range []string{"bottleneck", "sbm"} {
				s, _ := rewireJSON(t, "--dataset", d, "--method", m, "--budget", b)
				want := []string{
					fmt.Sprintf("%d (%.1f%%) / %d (%.1f%%)", s.Added, s.AddedPct, s.AddedNet, s.AddedNetPct),
					fmt.Sprintf("%d (%.1f%%) / %d (%.1f%%)", s.Removed, s.RemovedPct, s.RemovedNet, s.RemovedNetPct),
				}
				if got := row[2+2*di : 4+2*di]; !slices.Equal(got, want) {
					t.Errorf("%s %s %s: cells %q, rewire gives %q", d, m, b, got, want)
				}
				if s.Added == 0 || (m == "err") != (s.Removed > 0) {
					t.Errorf("%s %s %s: %+v", d, m, b, s)
				}
			}
		}
	}
}

// TestStatsJSON: --json prints the summaries of rewire --json, dataset by
// dataset, method by method, budget by budget, each equal to its own run
// except for the time.
func TestStatsJSON(t *testing.T) {
	code, out, errs := run(t, "stats", "--datasets", "bottleneck", "--budgets", "0.05,0.02", "--methods", "err,res", "--directed", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var raw []map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var sums []RewireSummary
	if err := json.Unmarshal([]byte(out), &sums); err != nil {
		t.Fatal(err)
	}
	if len(sums) != 4 {
		t.Fatalf("%d summaries, want 4", len(sums))
	}
	k := 0
	for _, m := range []string{"err", "res"} {
		for _, b := range []string{"0.05", "0.02"} {
			var keys []string
			for key := range raw[k] {
				keys = append(keys, key)
			}
			slices.Sort(keys)
			if !slices.Equal(keys, summaryKeys) {
				t.Errorf("fields %v, want %v", keys, summaryKeys)
			}
			want, _ := rewireJSON(t, "--threads", "1", "--dataset", "bottleneck", "--directed", "--method", m, "--budget", b)
			got := sums[k]
			k++
			got.Seconds, want.Seconds = 0, 0
			if fmt.Sprint(got) != fmt.Sprint(want) || (got.StoppedEarly != nil) != (want.StoppedEarly != nil) ||
				(got.StoppedEarly != nil && *got.StoppedEarly != *want.StoppedEarly) {
				t.Errorf("%s %s: stats %+v, rewire %+v", m, b, got, want)
			}
		}
	}
}

// TestStatsBadInput: unknown names and bad budgets are usage errors that
// say what is wrong.
func TestStatsBadInput(t *testing.T) {
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"--datasets", "bottleneck,nope"}, `unknown dataset "nope"`},
		{[]string{"--datasets", "bottleneck", "--methods", "res,curvy"}, "res, res-hop, err, err-hop"},
		{[]string{"--datasets", "bottleneck", "--budgets", "0.05,x"}, `"x" is not a number`},
		{[]string{"--datasets", "bottleneck", "--budgets", "0.05,1.2"}, "outside (0, 1]"},
		{[]string{"--datasets", "bottleneck", "--budgets", "0.05,,0.1"}, "empty item"},
		{[]string{"--datasets", "bottleneck,bottleneck"}, "given twice"},
		{[]string{"--datasets", "bottleneck", "--directed", "--within-components"}, "--within-components"},
	}
	for _, c := range cases {
		code, out, errs := run(t, append([]string{"stats"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.msg) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q (want %q)", c.args, code, out, errs, c.msg)
		}
	}
}

// TestStatsSketchVersion: summaries of a run the sketch engine made carry
// its engine and its version (rewire-N+sketch-M), for every budget cut from
// the run, as `ohm rewire --engine sketch` reports them.
func TestStatsSketchVersion(t *testing.T) {
	code, out, errs := run(t, "stats", "--datasets", "bottleneck", "--budgets", "0.05,0.02", "--methods", "err", "--engine", "sketch", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var sums []RewireSummary
	if err := json.Unmarshal([]byte(out), &sums); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(sums) != 2 {
		t.Fatalf("%d summaries, want 2", len(sums))
	}
	for _, b := range []string{"0.05", "0.02"} {
		want, _ := rewireJSON(t, "--dataset", "bottleneck", "--method", "err", "--budget", b, "--engine", "sketch")
		got := sums[0]
		if b == "0.02" {
			got = sums[1]
		}
		if got.Engine != "sketch" || got.Version != want.Version || !strings.Contains(got.Version, "+sketch-") {
			t.Errorf("budget %s: stats engine %q version %q, rewire engine %q version %q", b, got.Engine, got.Version, want.Engine, want.Version)
		}
		if got.Added != want.Added || got.Removed != want.Removed || got.Iterations != want.Iterations {
			t.Errorf("budget %s: stats %+v, rewire %+v", b, got, want)
		}
	}
}
