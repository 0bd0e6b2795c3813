package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ohmgnn/ohm/model/dataset/datatest"
	"github.com/ohmgnn/ohm/rewire"
	"github.com/ohmgnn/ohm/rewire/curvature"
)

var curvatureKeys = []string{"alpha", "dataset", "edges", "form", "histogram", "max", "mean", "min", "most_negative", "nodes", "seconds"}

// curvatureJSON runs `ohm curvature --json args…` and returns the output and
// its top-level keys, sorted.
func curvatureJSON(t *testing.T, args ...string) (CurvatureOut, []string) {
	t.Helper()
	var c CurvatureOut
	keys := runJSON(t, &c, append([]string{"curvature", "--json"}, args...)...)
	return c, keys
}

// readCurvatureCSV parses a --out file: the header, then u,v,kappa lines.
func readCurvatureCSV(t *testing.T, path string) []curvature.EdgeKappa {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if lines[0] != "u,v,kappa" {
		t.Fatalf("header %q", lines[0])
	}
	var ks []curvature.EdgeKappa
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if len(f) != 3 {
			t.Fatalf("line %q", l)
		}
		u, err1 := strconv.Atoi(f[0])
		v, err2 := strconv.Atoi(f[1])
		k, err3 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("line %q", l)
		}
		ks = append(ks, curvature.EdgeKappa{U: u, V: v, Kappa: k})
	}
	return ks
}

// TestCurvatureCommand: the JSON has exactly the documented fields and
// agrees with the CSV and with curvature.Curvatures: min, max and mean of the
// CSV's κ, histogram counts summing to the edge count with every κ in its
// bin, and the 10 least-curved edges in tie-rule order.
func TestCurvatureCommand(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		alpha float64
	}{
		{[]string{"--dataset", "bottleneck"}, 0.5},
		{[]string{"--dataset", "sbm", "--alpha", "0"}, 0},
		{[]string{"--dataset", "sbm", "--directed", "--alpha", "0.25"}, 0.25},
	} {
		csv := filepath.Join(t.TempDir(), "k.csv")
		c, keys := curvatureJSON(t, append(tc.args, "--out", csv)...)
		if !slices.Equal(keys, curvatureKeys) {
			t.Errorf("%v: fields %v, want %v", tc.args, keys, curvatureKeys)
		}
		ks := readCurvatureCSV(t, csv)
		if c.Alpha != tc.alpha || c.Edges != len(ks) || len(ks) == 0 || c.Min == nil {
			t.Fatalf("%v: %+v with %d CSV rows", tc.args, c, len(ks))
		}
		mn, mx, sum := math.Inf(1), math.Inf(-1), 0.0
		for k, e := range ks {
			if e.U >= e.V || (k > 0 && (ks[k-1].U > e.U || (ks[k-1].U == e.U && ks[k-1].V >= e.V))) {
				t.Fatalf("%v: CSV row %d %+v not row-major with u < v", tc.args, k, e)
			}
			mn, mx, sum = math.Min(mn, e.Kappa), math.Max(mx, e.Kappa), sum+e.Kappa
		}
		if *c.Min != mn || *c.Max != mx || math.Abs(*c.Mean-sum/float64(len(ks))) > 1e-12 {
			t.Errorf("%v: min/max/mean %v %v %v, CSV %v %v %v", tc.args, *c.Min, *c.Max, *c.Mean, mn, mx, sum/float64(len(ks)))
		}
		total := 0
		for _, b := range c.Histogram {
			total += b.Count
		}
		if len(c.Histogram) != 12 || c.Histogram[0].Lo != -2 || c.Histogram[11].Hi != 1 || total != len(ks) {
			t.Errorf("%v: histogram %+v", tc.args, c.Histogram)
		}
		for _, e := range ks {
			b := int(math.Floor((e.Kappa + 2) * 4))
			b = min(max(b, 0), 11)
			if h := c.Histogram[b]; e.Kappa < h.Lo || (e.Kappa >= h.Hi && h.Hi != 1) {
				t.Errorf("%v: κ %v outside its bin %+v", tc.args, e.Kappa, h)
			}
		}
		sorted := slices.Clone(ks)
		slices.SortStableFunc(sorted, func(a, b curvature.EdgeKappa) int {
			switch {
			case a.Kappa < b.Kappa:
				return -1
			case a.Kappa > b.Kappa:
				return 1
			}
			return 0
		})
		if !slices.Equal(c.MostNegative, sorted[:10]) {
			t.Errorf("%v: most negative %v, want %v", tc.args, c.MostNegative, sorted[:10])
		}
	}
}

// TestCurvatureCommandGraphFile: a path read from an edge list, α = 1/2:
// end edges κ = 1/2, interior edges 0 (closed forms in package curvature); the
// text output shows them.
func TestCurvatureCommandGraphFile(t *testing.T) {
	p := writeFile(t, "p5.txt", "# num_nodes 5\n0 1\n1 2\n2 3\n3 4\n")
	csv := filepath.Join(t.TempDir(), "k.csv")
	code, out, errs := run(t, "curvature", "--graph", p, "--out", csv)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got := fmt.Sprint(readCurvatureCSV(t, csv))
	if want := "[{0 1 0.5} {1 2 0} {2 3 0} {3 4 0.5}]"; got != want {
		t.Errorf("CSV %s, want %s", got, want)
	}
	for _, s := range []string{"p5.txt (undirected), 5 nodes, 4 edges", "min    0.000000", "max    0.500000", "mean   0.250000",
		"[ 0.00,  0.25)       2", "[ 0.50,  0.75)       2", "1      1     2  κ = 0.000000", "4      3     4  κ = 0.500000"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	// No edges: statistics are null, the histogram empty.
	empty := writeFile(t, "empty.txt", "# num_nodes 3\n")
	c, _ := curvatureJSON(t, "--graph", empty)
	if c.Edges != 0 || c.Min != nil || c.Mean != nil || len(c.MostNegative) != 0 {
		t.Errorf("empty graph: %+v", c)
	}
}

// TestCurvatureCommandBadInput: bad flags are usage errors (status 2) and
// nothing is written.
func TestCurvatureCommandBadInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "k.csv")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--dataset", "bottleneck", "--alpha", "1.5"}, 2, "--alpha 1.5"},
		{[]string{"--dataset", "bottleneck", "--alpha=-0.1"}, 2, "[0, 1]"},
		{[]string{"--dataset", "bottleneck", "--graph", "x.txt"}, 2, ""},
		{[]string{"--dataset", "bottleneck", "--out", "nodir/k.csv"}, 1, "nodir"},
	} {
		code, stdout, errs := run(t, append([]string{"curvature", "--out", out}, tc.args...)...)
		if code != tc.code || !strings.Contains(errs, tc.msg) || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q (want %d, %q)", tc.args, code, stdout, errs, tc.code, tc.msg)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed command wrote --out")
	}
}

// TestRewireCurvature: `ohm rewire --method curvature` writes the usual log
// and summary, both engines and 1 or 2 threads make the same decisions,
// --alpha changes them, and a bad --alpha is a usage error.
func TestRewireCurvature(t *testing.T) {
	for _, form := range []string{"undirected", "directed"} {
		dir := t.TempDir()
		var logs [][]rewire.Edit
		for k, args := range [][]string{
			{"--threads", "1", "--engine", "incremental"},
			{"--threads", "2", "--engine", "incremental"},
			{"--threads", "2", "--engine", "exact"},
			{"--threads", "2", "--alpha", "0"},
		} {
			l := filepath.Join(dir, fmt.Sprint(k))
			args = append(args, "--dataset", "sbm", "--method", "curvature", "--budget", "0.01", "--log", l, "--out", l+".npz")
			if form == "directed" {
				args = append(args, "--directed")
			}
			s, keys := rewireJSON(t, args...)
			if !slices.Equal(keys, summaryKeys) || s.Method != "curvature" || s.Form != form || s.Iterations == 0 ||
				s.Added+s.Removed != len(readLog(t, l)) {
				t.Fatalf("%v: %+v", args, s)
			}
			logs = append(logs, readLog(t, l))
		}
		if !slices.Equal(logs[0], logs[1]) || !slices.Equal(logs[0], logs[2]) {
			t.Errorf("%s: logs differ between threads or engines", form)
		}
		if slices.Equal(logs[0], logs[3]) {
			t.Errorf("%s: --alpha 0 made the same log as 0.5", form)
		}
	}
	code, _, errs := run(t, "rewire", "--dataset", "sbm", "--method", "curvature", "--budget", "0.02", "--alpha", "3")
	if code != 2 || !strings.Contains(errs, "--alpha 3") {
		t.Errorf("bad alpha: exit %d: %s", code, errs)
	}
}

// TestStatsCurvature: `ohm stats` with curvature reports what `ohm rewire`
// reports for each budget.
func TestStatsCurvature(t *testing.T) {
	code, out, errs := run(t, "stats", "--datasets", "bottleneck", "--budgets", "0.05,0.02", "--methods", "curvature,err", "--alpha", "0.25", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var sums []RewireSummary
	if err := json.Unmarshal([]byte(out), &sums); err != nil {
		t.Fatal(err)
	}
	k := 0
	for _, m := range []string{"curvature", "err"} {
		for _, b := range []string{"0.05", "0.02"} {
			want, _ := rewireJSON(t, "--dataset", "bottleneck", "--method", m, "--budget", b, "--alpha", "0.25")
			got := sums[k]
			k++
			got.Seconds, want.Seconds = 0, 0
			if fmt.Sprint(got) != fmt.Sprint(want) || got.StoppedEarly != nil {
				t.Errorf("%s %s: stats %+v, rewire %+v", m, b, got, want)
			}
		}
	}
	if code, _, errs := run(t, "stats", "--datasets", "bottleneck", "--methods", "curvature", "--alpha", "2"); code != 2 || !strings.Contains(errs, "--alpha") {
		t.Errorf("bad alpha: exit %d: %s", code, errs)
	}
}

// TestCurvatureCommandWebKB: on Cornell and Texas the directed form reads
// the underlying undirected neighbourhoods, so both forms give the same
// statistics.
func TestCurvatureCommandWebKB(t *testing.T) {
	datatest.Root(t, "cornell/raw/out1_graph_edges.txt", "texas/raw/out1_graph_edges.txt")
	for _, name := range []string{"cornell", "texas"} {
		u, _ := curvatureJSON(t, "--dataset", name)
		d, _ := curvatureJSON(t, "--dataset", name, "--directed")
		u.Seconds, d.Seconds, d.Form = 0, 0, u.Form
		if a, b := fmt.Sprint(u.Histogram, u.MostNegative, *u.Min, *u.Max, *u.Mean), fmt.Sprint(d.Histogram, d.MostNegative, *d.Min, *d.Max, *d.Mean); a != b {
			t.Errorf("%s: undirected %s\ndirected %s", name, a, b)
		}
	}
}
