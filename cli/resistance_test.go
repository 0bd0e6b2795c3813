package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func resistanceJSON(t *testing.T, args ...string) ResistanceOut {
	t.Helper()
	var r ResistanceOut
	runJSON(t, &r, append([]string{"resistance", "--json"}, args...)...)
	return r
}

func near(p *float64, want float64) bool { return p != nil && math.Abs(*p-want) < 1e-9 }

// TestResistancePath: on a path of 6 nodes R_ij = |i−j|: the max pair is the
// two ends (R = 5), every edge has R = 1 and the first, (0,1), wins the tie;
// the top pairs are (0,5), then (0,4) and (1,5) tied at 4 in row-major order.
func TestResistancePath(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&b, "%d %d\n", i, i+1)
	}
	g := writeFile(t, "path.txt", b.String())
	pairs := writeFile(t, "pairs.txt", "0 3\n2 2\n5 1\n")
	r := resistanceJSON(t, "--graph", g, "--top", "3", "--pairs", pairs)
	if r.Nodes != 6 || r.Components != 1 {
		t.Fatalf("%+v", r)
	}
	if r.MaxPair.U != 0 || r.MaxPair.V != 5 || !near(r.MaxPair.R, 5) {
		t.Errorf("max pair %+v", *r.MaxPair)
	}
	if r.MinEdge.U != 0 || r.MinEdge.V != 1 || !near(r.MinEdge.R, 1) {
		t.Errorf("min edge %+v", *r.MinEdge)
	}
	want := [][3]float64{{0, 5, 5}, {0, 4, 4}, {1, 5, 4}}
	for k, w := range want {
		if p := r.Top[k]; p.U != int(w[0]) || p.V != int(w[1]) || !near(p.R, w[2]) {
			t.Errorf("top %d: %+v, want %v", k, p, w)
		}
	}
	for k, w := range []float64{3, 0, 4} {
		if !near(r.Pairs[k].R, w) {
			t.Errorf("pair %d: %+v, want R %v", k, r.Pairs[k], w)
		}
	}
}

// TestResistanceDirectedAcrossSCC: two directed 3-cycles joined by one arc;
// a pair across them has no resistance ("r": null), a pair inside one has.
// On a directed 3-cycle every pair is alike, so the max is (0,1).
func TestResistanceDirectedAcrossSCC(t *testing.T) {
	g := writeFile(t, "two.txt", "0 1\n1 2\n2 0\n3 4\n4 5\n5 3\n2 3\n")
	pairs := writeFile(t, "pairs.txt", "0 4\n1 2\n")
	r := resistanceJSON(t, "--graph", g, "--directed", "--pairs", pairs)
	if r.Components != 2 || r.MaxPair == nil || r.MaxPair.U != 0 || r.MaxPair.V != 1 {
		t.Fatalf("%+v", r)
	}
	if r.Pairs[0].R != nil || r.Pairs[1].R == nil || *r.Pairs[1].R <= 0 {
		t.Fatalf("pairs %+v", r.Pairs)
	}
	// The raw JSON says null for the cross pair.
	_, out, _ := run(t, "resistance", "--json", "--graph", g, "--directed", "--pairs", pairs)
	if !strings.Contains(out, `"r": null`) {
		t.Fatalf("no null r in %s", out)
	}
}

// TestResistanceSymmetricDigraph: on the bottleneck graph's symmetric arc
// set the directed resistances equal the undirected ones.
func TestResistanceSymmetricDigraph(t *testing.T) {
	u := resistanceJSON(t, "--dataset", "bottleneck", "--top", "5")
	d := resistanceJSON(t, "--dataset", "bottleneck", "--directed", "--top", "5")
	if *u.MaxPair.R < 1 || math.Abs(*u.MaxPair.R-*d.MaxPair.R) > 1e-9 || u.MaxPair.U != d.MaxPair.U || u.MaxPair.V != d.MaxPair.V {
		t.Fatalf("max pair undirected %+v directed %+v", *u.MaxPair, *d.MaxPair)
	}
	if math.Abs(*u.MinEdge.R-*d.MinEdge.R) > 1e-9 {
		t.Fatalf("min edge undirected %v directed %v", *u.MinEdge.R, *d.MinEdge.R)
	}
}

func TestResistanceBadUsage(t *testing.T) {
	g := writeFile(t, "g.txt", "0 1\n1 2\n")
	bad := writeFile(t, "bad.txt", "0 1\n1 x\n")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"resistance", "--graph", g, "--directed", "--within-components"}, 2, "--within-components: applies to undirected"},
		{[]string{"resistance", "--graph", g, "--dataset", "cora"}, 2, "can't be used together"},
		{[]string{"resistance"}, 2, "give --dataset NAME or --graph FILE"},
		{[]string{"resistance", "--graph", bad}, 1, "bad.txt:2"},
		{[]string{"resistance", "--graph", g, "--pairs", bad}, 1, "bad.txt:2"},
		{[]string{"resistance", "--graph", g, "--top=-1"}, 2, "--top -1"},
	} {
		code, _, errs := run(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errs, tc.code, tc.msg)
		}
	}
}

// TestResistanceJSONNamesItsGraph: resistance --json carries dataset and
// form like the other commands' summaries.
func TestResistanceJSONNamesItsGraph(t *testing.T) {
	_, out, _ := run(t, "resistance", "--dataset", "bottleneck", "--directed", "--json")
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil || v["dataset"] != "bottleneck" || v["form"] != "directed" {
		t.Fatalf("%v: %s", err, out)
	}
}
