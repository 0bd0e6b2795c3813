package cli

import (
	"time"

	"github.com/schollz/progressbar/v3"
)

// bar is a progress bar on standard error, drawn only when g.Progress() is
// true; the zero bar (nil) draws nothing.
type bar struct{ pb *progressbar.ProgressBar }

// newBar returns a bar counting to max, with iteration count, rate and ETA.
func newBar(g *Globals, max int, desc string) *bar {
	if !g.Progress() || max <= 0 {
		return &bar{}
	}
	return &bar{progressbar.NewOptions(max,
		progressbar.OptionSetWriter(g.Stderr),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("it"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionFullWidth(),
		progressbar.OptionSetRenderBlankState(true),
	)}
}

func (b *bar) add(n int) {
	if b.pb != nil {
		_ = b.pb.Add(n)
	}
}

func (b *bar) describe(desc string) {
	if b.pb != nil {
		b.pb.Describe(desc)
	}
}

// finish clears the bar, so that what follows starts on a clean line.
func (b *bar) finish() {
	if b.pb != nil {
		_ = b.pb.Finish()
		_ = b.pb.Clear()
		b.pb = nil
	}
}
