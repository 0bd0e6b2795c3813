package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// defaultProgressEvery is the least time between two progress lines off a
// terminal (--progress-every).
const defaultProgressEvery = 10 * time.Second

// progress reports long work on standard error, wherever standard error
// goes. Commands say only what is counted (newProgress: a name, a total and
// a unit) or that there are stages (newStages), then add, describe or stage,
// and finish; the mode is chosen once, from g:
//
//   - on a terminal, a counted progress is a bar (count, rate, elapsed time)
//     whose ETA appears only once the rate is steady (see etaGate), cleared
//     at finish;
//   - off a terminal (a file, a pipe, a scheduler's log) it is plain lines:
//     one when it starts ("rewire cora err: 791 iterations planned"), then
//     at most one every g.ProgressEvery, written when work advances
//     ("rewire cora err: 312/791 iterations, 4.1 s, 13.1 ms per iteration,
//     ETA 6.2 s"), and one at finish with the totals;
//   - stages (work without a count) are lines in both modes: one per stage
//     ("resistance cora: computing L⁺ of 2 708 nodes …") and "done in 3.2 s"
//     at finish;
//   - with --quiet, or a total ≤ 0, nothing.
//
// The methods are safe for concurrent use; the nil progress does nothing.
type progress struct {
	mu     sync.Mutex
	w      io.Writer
	name   string // "rewire cora err"
	unit   string // plural ("iterations"); "" for stages
	total  int
	done   int
	detail string // what is under way (describe, stage)
	start  time.Time
	every  time.Duration // off a terminal: least time between two lines
	last   time.Time     // off a terminal: when the last line was written
	pb     *progressbar.ProgressBar
	desc   string // on a terminal: the bar's description
	lines  bool   // off a terminal (or stages): plain lines
	ended  bool
	gate   etaGate
}

// newProgress counts total units (plural, e.g. "iterations", "runs") of the
// work called name.
func newProgress(g *Globals, name string, total int, unit string) *progress {
	p := &progress{w: g.Stderr, name: name, unit: unit, total: total, start: time.Now(), every: g.progressEvery()}
	switch {
	case g.Quiet || total <= 0:
		p.ended = true
	case g.Progress():
		p.pb, p.desc = newBar(g.Stderr, name, total), name
	default:
		p.lines = true
		p.printf("%s: %d %s planned", name, total, unit)
	}
	return p
}

// newBar is the terminal's bar: count, rate and elapsed time; no ETA of its
// own (its first ones, from the first iterations, are wild), update puts
// ours in the description once steady.
func newBar(w io.Writer, name string, total int) *progressbar.ProgressBar {
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(name),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("it"),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionFullWidth(),
		progressbar.OptionSetRenderBlankState(true),
	)
}

// newStages reports work without a count, stage by stage (stage), with the
// time taken at finish.
func newStages(g *Globals, name string) *progress {
	return &progress{w: g.Stderr, name: name, start: time.Now(), lines: true, ended: g.Quiet}
}

// progressEvery is --progress-every, or its default when unset (Globals
// made without kong).
func (g *Globals) progressEvery() time.Duration {
	if g.ProgressEvery > 0 {
		return g.ProgressEvery
	}
	return defaultProgressEvery
}

// add counts n more units done.
func (p *progress) add(n int) {
	p.live(func() {
		p.done += n
		if p.pb != nil {
			_ = p.pb.Add(n)
		}
		p.update()
	})
}

// describe says what is under way or just done (the dataset, the run): on
// the bar at once, off a terminal in the next line.
func (p *progress) describe(detail string) { p.setDetail(detail, false) }

// stage says that a new, possibly long, step begins: off a terminal (and
// for stages) a line at once; on a bar, its description.
func (p *progress) stage(msg string) { p.setDetail(msg, true) }

// setDetail is describe and stage: detail shown on the bar at once; off a
// terminal, with line, a line at once, else in the next progress line.
func (p *progress) setDetail(detail string, line bool) {
	p.live(func() {
		p.detail = detail
		switch {
		case p.pb != nil:
			p.update()
		case line:
			p.printf("%s: %s …", p.name, detail)
		}
	})
}

// live runs f with p.mu held, unless p is nil or has ended.
func (p *progress) live(f func()) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ended {
		f()
	}
}

// finish ends the progress: clears the bar; off a terminal, writes the
// totals (or where the work stopped). Later calls do nothing.
func (p *progress) finish() {
	p.live(func() {
		p.ended = true
		el := time.Since(p.start)
		switch {
		case p.pb != nil:
			_ = p.pb.Finish()
			_ = p.pb.Clear()
		case p.unit == "":
			p.printf("%s: done in %s", p.name, fmtDur(el))
		case p.done >= p.total:
			p.printf("%s: done, %d/%d %s in %s, %s per %s", p.name, p.done, p.total, p.unit, fmtDur(el), fmtDur(el/time.Duration(max(p.done, 1))), singular(p.unit))
		default:
			p.printf("%s: stopped at %d/%d %s after %s", p.name, p.done, p.total, p.unit, fmtDur(el))
		}
	})
}

// update shows the state after a change: the bar's description (with the
// ETA once steady), or a line if the last one is at least p.every old.
// p.mu is held.
func (p *progress) update() {
	now := time.Now()
	el := now.Sub(p.start)
	eta, steady := p.gate.eta(el, p.done, p.total)
	if p.pb != nil {
		d := p.name
		if p.detail != "" {
			d += ": " + p.detail
		}
		if steady {
			d += ", ETA " + eta.Round(time.Second).String()
		}
		if d != p.desc {
			p.desc = d
			p.pb.Describe(d)
		}
		return
	}
	if !p.lines || p.unit == "" || now.Sub(p.last) < p.every {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d/%d %s, %s", p.name, p.done, p.total, p.unit, fmtDur(el))
	if p.done > 0 {
		fmt.Fprintf(&b, ", %s per %s", fmtDur(el/time.Duration(p.done)), singular(p.unit))
	}
	if steady {
		fmt.Fprintf(&b, ", ETA %s", fmtDur(eta))
	}
	if p.detail != "" {
		fmt.Fprintf(&b, " (%s)", p.detail)
	}
	p.printf("%s", b.String())
}

// printf writes one line and notes when.
func (p *progress) printf(format string, a ...any) {
	fmt.Fprintf(p.w, format+"\n", a...)
	p.last = time.Now()
}

// etaGate estimates the time left and decides when it is worth showing:
// not before the rate is steady. The rate is measured since the first unit
// was done (so that setup, such as a factorization before the first
// iteration, does not count, and a sweep's slow rewiring between trainings
// weighs by its share of the whole); the ETA is
// shown from the first time that at least etaWarmup has passed, at least
// etaMinShare of the work is done, and the projected total time agrees
// within etaAgree with the projection made a quarter of the time ago (at
// least a second). Once shown it stays, as long as units keep coming.
type etaGate struct {
	shown bool
	marks []etaMark // at least a second apart; marks[0] is the first unit done
}

// etaMark is the state at one moment: elapsed time, units done, and the
// projected total time then (0: none).
type etaMark struct {
	at   time.Duration
	done int
	proj time.Duration
}

const (
	etaWarmup   = 3 * time.Second
	etaMinShare = 0.03
	etaAgree    = 0.2
	etaMarks    = 128 // marks kept; beyond, every other one is dropped
)

// eta returns the time left after done of total units in elapsed, and
// whether it is steady enough to show.
func (e *etaGate) eta(elapsed time.Duration, done, total int) (time.Duration, bool) {
	if done <= 0 || total <= 0 {
		return 0, false
	}
	if len(e.marks) == 0 {
		e.marks = append(e.marks, etaMark{at: elapsed, done: done})
		return 0, false
	}
	t1 := e.marks[0].at
	// The rate since the first unit done: the set-up before it does not
	// count, and a burst of slow units (a sweep's rewiring between its
	// trainings) weighs by its share of the whole.
	w := e.marks[0]
	var left, proj time.Duration
	if done > w.done && elapsed > w.at {
		perUnit := float64(elapsed-w.at) / float64(done-w.done)
		left = time.Duration(perUnit * float64(max(total-done, 0)))
		proj = elapsed + left
	}
	if !e.shown && proj > 0 && elapsed >= etaWarmup && float64(done) >= etaMinShare*float64(total) {
		back := elapsed - max(time.Second, (elapsed-t1)/4)
		for i := len(e.marks) - 1; i >= 0; i-- {
			if m := e.marks[i]; m.at <= back {
				if m.proj > 0 {
					r := float64(proj) / float64(m.proj)
					e.shown = r >= 1-etaAgree && r <= 1+etaAgree
				}
				break
			}
		}
	}
	if elapsed-e.marks[len(e.marks)-1].at >= time.Second {
		e.marks = append(e.marks, etaMark{at: elapsed, done: done, proj: proj})
		if len(e.marks) > etaMarks {
			kept := e.marks[:1]
			for i := 2; i < len(e.marks); i += 2 {
				kept = append(kept, e.marks[i])
			}
			e.marks = kept
		}
	}
	return left, e.shown && proj > 0
}

// fmtDur writes d for people: "0.25 ms", "13.1 ms", "4.1 s", "6m02s", "2h05m".
func fmtDur(d time.Duration) string {
	switch {
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%.2f ms", d.Seconds()*1e3)
	case d < 100*time.Millisecond:
		return fmt.Sprintf("%.1f ms", d.Seconds()*1e3)
	case d < time.Second:
		return fmt.Sprintf("%.0f ms", d.Seconds()*1e3)
	case d < time.Minute:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d < time.Hour:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// singular is unit without its plural s ("iterations" → "iteration").
func singular(unit string) string {
	return strings.TrimSuffix(unit, "s")
}
