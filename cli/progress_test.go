package cli

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ohmgnn/ohm/model/dataset/datatest"
)

// etaAt feeds g the (elapsed, done) events of a job of total units and
// returns, per event, the ETA shown ("" when none).
func etaAt(g *etaGate, total int, events [][2]float64) []string {
	var out []string
	for _, e := range events {
		left, ok := g.eta(time.Duration(e[0]*float64(time.Second)), int(e[1]), total)
		if ok {
			out = append(out, fmt.Sprintf("%.1f", left.Seconds()))
		} else {
			out = append(out, "")
		}
	}
	return out
}

// TestETAGate: no ETA from the first units (the "[5s:49m44s]" for
// a 12-second job), nor before etaWarmup or etaMinShare; once the rate is
// steady, the ETA of the rate after setup; it stays.
func TestETAGate(t *testing.T) {
	// 4.5 s of setup, then 100 it/s, 791 iterations.
	var ev [][2]float64
	for el := 4.5; el <= 12.4; el += 0.25 {
		ev = append(ev, [2]float64{el, 1 + 100*(el-4.5)})
	}
	got := etaAt(&etaGate{}, 791, ev)
	first := -1
	for i, s := range got {
		if s != "" && first < 0 {
			first = i
		}
		if first >= 0 && s == "" {
			t.Fatalf("ETA shown at %.2f s, then not at %.2f s", ev[first][0], ev[i][0])
		}
	}
	if first < 0 {
		t.Fatalf("no ETA in a steady job: %q", got)
	}
	if at := ev[first][0]; at < 5.5 || at > 7 {
		t.Errorf("ETA first shown at %.2f s, want a second or two after the setup (4.5 s)", at)
	}
	for i := first; i < len(ev); i++ {
		want := (791 - ev[i][1]) / 100
		var left float64
		_, _ = fmt.Sscan(got[i], &left)
		if d := left - want; d < -0.3 || d > 0.3 {
			t.Errorf("at %.2f s: ETA %s, want %.1f", ev[i][0], got[i], want)
		}
	}

	// Steady from the start: not before 3 s, nor before 3 % is done.
	ev = ev[:0]
	for el := 0.1; el <= 5; el += 0.1 {
		ev = append(ev, [2]float64{el, 10 * el})
	}
	got = etaAt(&etaGate{}, 1000, ev)
	for i, s := range got {
		if s != "" && (ev[i][0] < etaWarmup.Seconds() || ev[i][1] < 30) {
			t.Errorf("ETA %s at %.1f s, %v done", s, ev[i][0], ev[i][1])
		}
	}
	if got[len(got)-1] == "" {
		t.Errorf("no ETA at 5 s of a steady job")
	}

	// A sweep: 2 runs every 10 s (2 workers), 40 runs: the ETA comes once
	// two projections agree, and is about right.
	ev = ev[:0]
	for k := 1; k <= 10; k++ {
		el := 10 * float64(k)
		ev = append(ev, [2]float64{el, float64(2*k - 1)}, [2]float64{el + 0.01, float64(2 * k)})
	}
	got = etaAt(&etaGate{}, 40, ev)
	if got[0] != "" || got[1] != "" || got[len(got)-1] == "" {
		t.Errorf("sweep ETAs %q", got)
	}
	var left float64
	if fmt.Sscan(got[len(got)-1], &left); left < 85 || left > 115 {
		t.Errorf("sweep ETA at 100 s: %s, want about 100", got[len(got)-1])
	}

	// Thousands of marks: kept bounded.
	g := &etaGate{}
	for s := 1; s <= 5000; s++ {
		g.eta(time.Duration(s)*time.Second, s, 10000)
	}
	if len(g.marks) > etaMarks {
		t.Errorf("%d marks kept", len(g.marks))
	}
}

// TestProgressLines: off a terminal (a buffer), a counted progress writes a
// start line, a line per g.ProgressEvery when work advances, and the totals
// (or where it stopped) at finish; stages write a line each and the time at
// finish; --quiet and a zero total write nothing.
func TestProgressLines(t *testing.T) {
	var b bytes.Buffer
	g := &Globals{Stderr: &b, ProgressEvery: time.Nanosecond}
	p := newProgress(g, "job x", 3, "runs")
	p.describe("first")
	time.Sleep(time.Millisecond)
	for range 3 {
		p.add(1)
	}
	p.finish()
	p.finish()
	p.add(1) // after finish: nothing
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := []string{`job x: 3 runs planned`,
		`job x: 1/3 runs, [0-9.]+ m?s, [0-9.]+ m?s per run \(first\)`,
		`job x: 2/3 runs, .* per run \(first\)`,
		`job x: 3/3 runs, .* per run \(first\)`,
		`job x: done, 3/3 runs in [0-9.]+ m?s, [0-9.]+ m?s per run`}
	if len(lines) != len(want) {
		t.Fatalf("lines:\n%s", b.String())
	}
	for i, w := range want {
		if !regexp.MustCompile("^" + w + "$").MatchString(lines[i]) {
			t.Errorf("line %d %q, want %s", i, lines[i], w)
		}
	}

	// The default interval: the start and the end only.
	b.Reset()
	g.ProgressEvery = 0
	p = newProgress(g, "job", 5, "iterations")
	p.add(2)
	p.finish()
	if s := b.String(); !regexp.MustCompile(`^job: 5 iterations planned\njob: stopped at 2/5 iterations after [0-9.]+ m?s\n$`).MatchString(s) {
		t.Errorf("default interval:\n%s", s)
	}

	b.Reset()
	p = newStages(g, "resistance x")
	p.stage("computing L⁺")
	p.add(1)
	p.describe("ignored")
	p.stage("ranking pairs")
	p.finish()
	if s := b.String(); !regexp.MustCompile(`^resistance x: computing L⁺ …\nresistance x: ranking pairs …\nresistance x: done in [0-9.]+ m?s\n$`).MatchString(s) {
		t.Errorf("stages:\n%s", s)
	}

	b.Reset()
	q := &Globals{Stderr: &b, Quiet: true, ProgressEvery: time.Nanosecond}
	for _, p := range []*progress{newProgress(q, "q", 3, "runs"), newStages(q, "q"), newProgress(g, "zero", 0, "runs"), nil} {
		p.describe("d")
		p.stage("s")
		p.add(1)
		p.finish()
	}
	if b.Len() != 0 {
		t.Errorf("--quiet, zero total or nil progress wrote:\n%s", b.String())
	}
}

// TestProgressBar: the bar shows no ETA of the library's ("[5s:49m44s]"),
// and ours only once steady.
func TestProgressBar(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, name: "job", unit: "iterations", total: 791, start: time.Now(), pb: newBar(&b, "job", 791), desc: "job"}
	time.Sleep(120 * time.Millisecond) // past the bar's throttle
	p.add(1)
	if s := b.String(); !strings.Contains(s, "(1/791") || strings.Contains(s, "ETA") || regexp.MustCompile(`\[[0-9a-z.]+:`).MatchString(s) {
		t.Errorf("first iteration: %q", s)
	}
	// Steady since 10 s ago at 10 it/s.
	p.start = time.Now().Add(-10 * time.Second)
	p.gate = etaGate{shown: true, marks: []etaMark{{at: 0, done: 1}}}
	time.Sleep(120 * time.Millisecond)
	p.add(99)
	time.Sleep(120 * time.Millisecond)
	p.add(0) // the next render shows the description set by the last
	if s := b.String(); !regexp.MustCompile(`job, ETA 1m[0-9]+s .*\(100/791`).MatchString(s) {
		t.Errorf("steady: %q", s)
	}
	p.finish()
	if p.pb != nil && !p.ended {
		t.Error("not finished")
	}
}

// TestProgressBarStage: on a terminal, the set-up before the first
// iteration (L⁺) shows on the bar as its stage, and goes at the first
// iteration, as ohm rewire does (issue 53).
func TestProgressBarStage(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, name: "rewire cora err", unit: "iterations", total: 527, start: time.Now(), pb: newBar(&b, "rewire cora err", 527), desc: "rewire cora err"}
	p.stage(fmt.Sprintf("computing L⁺ of %s nodes", groupDigits(2485)))
	time.Sleep(120 * time.Millisecond) // past the bar's throttle
	p.add(0)
	if s := b.String(); !strings.Contains(s, "rewire cora err: computing L⁺ of 2 485 nodes") || !strings.Contains(s, "(0/527") {
		t.Errorf("set-up: %q", s)
	}
	b.Reset()
	p.describe("")
	time.Sleep(120 * time.Millisecond)
	p.add(1)
	if s := b.String(); strings.Contains(s, "computing") || !strings.Contains(s, "(1/527") {
		t.Errorf("first iteration: %q", s)
	}
	p.finish()
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0"}, {999, "999"}, {2485, "2 485"}, {68160, "68 160"}, {1000000, "1 000 000"}, {-2485, "-2 485"}} {
		if got := groupDigits(tc.n); got != tc.want {
			t.Errorf("groupDigits(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// progressLines returns the lines of errs that start with prefix.
func progressLines(errs, prefix string) []string {
	var out []string
	for _, l := range strings.Split(errs, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// TestRewireProgressOffTerminal: `ohm rewire` with standard error to a
// buffer writes the plan, a line per interval and the totals; --quiet
// writes nothing at all.
func TestRewireProgressOffTerminal(t *testing.T) {
	args := []string{"rewire", "--dataset", "bottleneck", "--method", "err", "--budget", "0.15"}
	code, _, errs := run(t, append([]string{"--progress-every", "1ns"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := progressLines(errs, "rewire bottleneck err: ")
	if len(lines) != 55+3 || lines[0] != "rewire bottleneck err: 55 iterations planned" ||
		lines[1] != "rewire bottleneck err: computing L⁺ of 80 nodes …" ||
		lines[2] != strings.TrimSuffix(lines[2], ")") || // the stage is over at the first iteration
		!strings.HasPrefix(lines[2], "rewire bottleneck err: 1/55 iterations, ") ||
		!strings.HasPrefix(lines[56], "rewire bottleneck err: 55/55 iterations, ") ||
		!strings.HasPrefix(lines[57], "rewire bottleneck err: done, 55/55 iterations in ") {
		t.Errorf("progress lines:\n%s", errs)
	}
	if code, _, errs := run(t, append([]string{"--quiet", "--progress-every", "1ns"}, args...)...); code != 0 || errs != "" {
		t.Errorf("--quiet: exit %d, stderr:\n%s", code, errs)
	}
}

// TestRewireCoraProgress: the issue's run, `ohm rewire --dataset cora
// --method err --budget 0.15 2>log`, with a short interval: the plan, at
// least one line under way, and the totals.
func TestRewireCoraProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole Cora rewiring")
	}
	root := datatest.Root(t, "Cora/raw/ind.cora.x")
	code, _, errs := run(t, "--data-dir", root, "--progress-every", "500ms", "rewire", "--dataset", "cora", "--method", "err", "--budget", "0.15")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := progressLines(errs, "rewire cora err: ")
	if len(lines) < 4 || lines[0] != "rewire cora err: 791 iterations planned" ||
		lines[1] != "rewire cora err: computing L⁺ of 2 708 nodes …" ||
		!regexp.MustCompile(`^rewire cora err: [0-9]+/791 iterations, `).MatchString(lines[2]) ||
		!strings.HasPrefix(lines[len(lines)-1], "rewire cora err: done, 791/791 iterations in ") {
		t.Errorf("progress lines:\n%s", errs)
	}
}

// TestSweepProgressOffTerminal: `ohm sweep` off a terminal writes runs done
// / total with the time per run, the rewirings as they start, and the
// totals.
func TestSweepProgressOffTerminal(t *testing.T) {
	results := t.TempDir() + "/r.jsonl"
	code, _, errs := run(t, append([]string{"--progress-every", "1ns"}, tinySweep(results)[1:]...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := progressLines(errs, "sweep: ")
	runLine := regexp.MustCompile(`^sweep: ([0-9])/8 runs, [0-9.]+ m?s, [0-9.]+ m?s per run(, ETA [0-9.]+ m?s)? \(bottleneck (none|res) gcn L=[12]\)$`)
	done := 0
	for _, l := range lines {
		if m := runLine.FindStringSubmatch(l); m != nil {
			if m[1] != fmt.Sprint(done+1) {
				t.Errorf("%q after %d runs", l, done)
			}
			done++
		}
	}
	if len(lines) < 2 || lines[0] != "sweep: 8 runs planned" || done != 8 ||
		!strings.Contains(errs, "sweep: rewiring bottleneck (undirected) with res, budget 0.1 …\n") ||
		!regexp.MustCompile(`^sweep: done, 8/8 runs in [0-9.]+ m?s, [0-9.]+ m?s per run$`).MatchString(lines[len(lines)-1]) {
		t.Errorf("progress lines:\n%s", errs)
	}
}

// TestStagesOffTerminal: `ohm resistance` and `ohm data synth` write their
// stages and the time taken; not with --quiet.
func TestStagesOffTerminal(t *testing.T) {
	out := t.TempDir() + "/g.npz"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"resistance", "--dataset", "bottleneck", "--top", "3"},
			`resistance bottleneck: computing L⁺ of 80 nodes …\nresistance bottleneck: ranking pairs …\nresistance bottleneck: done in [0-9.]+ m?s\n`},
		{[]string{"data", "synth", "--model", "ring", "--out", out},
			`data synth ring: generating 8 cliques of 10 nodes …\ndata synth ring: writing .*g.npz \([0-9]+ edges\) …\ndata synth ring: done in [0-9.]+ m?s\n`},
	} {
		code, _, errs := run(t, c.args...)
		if code != 0 || !regexp.MustCompile(c.want).MatchString(errs) {
			t.Errorf("%v: exit %d, stderr:\n%s", c.args, code, errs)
		}
		if code, _, errs := run(t, append([]string{"-q"}, c.args...)...); code != 0 || errs != "" {
			t.Errorf("-q %v: exit %d, stderr:\n%s", c.args, code, errs)
		}
	}
}

// TestStatsSetupStage: ohm stats says what each rewiring computes before
// its first iteration, then counts iterations under its name.
func TestStatsSetupStage(t *testing.T) {
	code, _, errs := run(t, "--progress-every", "1ns", "stats", "--datasets", "ring", "--budgets", "0.05", "--methods", "err,res-hop")
	lines := progressLines(errs, "stats: ")
	if code != 0 || len(lines) < 4 || lines[1] != "stats: ring err (1/2): computing L⁺ of 80 nodes …" ||
		!strings.HasSuffix(lines[2], " (ring err (1/2))") ||
		!slices.Contains(lines, "stats: ring res-hop (2/2): computing L⁺ and hop distances of 80 nodes …") {
		t.Errorf("exit %d, progress lines:\n%s", code, strings.Join(lines, "\n"))
	}
}
