package cli

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ohmgnn/ohm/incremental"
	"github.com/ohmgnn/ohm/incremental/rank"
	"github.com/ohmgnn/ohm/internal/atomicfile"
	"github.com/ohmgnn/ohm/rewire/curvature"
)

// curvatureCmd is `ohm curvature`.
type curvatureCmd struct {
	GraphFlags
	Alpha float64 `default:"0.5" help:"Laziness α of the measures μx (α on x, (1−α)/deg(x) on each neighbour), in [0, 1]; 0 is BORF's."`
	JSON  bool    `name:"json" help:"Print one JSON object (fields in docs/cli.md)."`
	Out   string  `short:"o" type:"path" placeholder:"FILE.csv" help:"Write every edge's curvature as CSV with the header u,v,kappa (u < v, row-major)."`
}

// CurvatureBin is one histogram bin: the edges with Lo ≤ κ < Hi (the last
// bin includes Hi = 1).
type CurvatureBin struct {
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Count int     `json:"count"`
}

// CurvatureOut is the output of `ohm curvature --json`; its fields are
// stable. Min, Max and Mean are null for a graph without edges.
type CurvatureOut struct {
	Dataset      string                `json:"dataset"`
	Form         string                `json:"form"`
	Alpha        float64               `json:"alpha"`
	Nodes        int                   `json:"nodes"`
	Edges        int                   `json:"edges"` // edges of the underlying undirected graph, self-loops excluded
	Min          *float64              `json:"min"`
	Max          *float64              `json:"max"`
	Mean         *float64              `json:"mean"`
	Histogram    []CurvatureBin        `json:"histogram"`
	MostNegative []curvature.EdgeKappa `json:"most_negative"`
	Seconds      float64               `json:"seconds"`
}

// Histogram layout: κ = 1 − W1 lies in [−2, 1] (ground distances between the
// supports are at most 3), cut into bins of width 1/4, the same for every
// graph so histograms compare.
const (
	histLo    = -2.0
	histWidth = 0.25
	histBins  = 12
	mostNeg   = 10
)

// Run computes κ of every edge and reports the statistics; with --out it
// also writes the CSV (atomically). Ctrl-C (SIGINT or SIGTERM) while κ is
// computed stops it at once, writing and printing nothing.
func (c *curvatureCmd) Run(g *Globals) error {
	if err := curvature.ValidateAlpha(c.Alpha); err != nil {
		return usagef("--alpha %v: must lie in [0, 1]", c.Alpha)
	}
	if err := checkOutput("--out", c.Out); err != nil {
		return err
	}
	ctx, release := interruptible(g, "stopping at once; nothing is written")
	defer release()
	gr, name, err := c.LoadGraph(g)
	if err != nil {
		return err
	}
	t0 := time.Now()
	var ks []curvature.EdgeKappa
	err = untilInterrupted(ctx, func() error {
		var err error
		ks, err = curvature.Curvatures(gr, c.Alpha, g.Workers())
		return err
	})
	if ctx.Err() != nil {
		return interruptedf("nothing written")
	}
	if err != nil {
		return fmt.Errorf("curvature of %s: %w", name, err)
	}
	out := summarizeCurvature(ks)
	out.Dataset, out.Alpha, out.Nodes = name, c.Alpha, gr.N()
	out.Form = "undirected"
	if gr.Directed() {
		out.Form = "directed"
	}
	out.Seconds = time.Since(t0).Seconds()
	if c.Out != "" {
		if err := atomicfile.WriteFile(c.Out, func(w io.Writer) error { return writeCurvatureCSV(w, ks) }); err != nil {
			return fmt.Errorf("--out %s: %w", c.Out, err)
		}
		if !g.Quiet {
			fmt.Fprintf(g.Stderr, "wrote %s: %d edges\n", c.Out, len(ks))
		}
	}
	if c.JSON {
		return writeJSON(g.Stdout, out)
	}
	return printCurvature(g.Stdout, out)
}

// summarizeCurvature returns the statistics of ks: min, max, mean, the
// histogram and the 10 least-curved edges (ties by definitions §3.1's rule: scores
// within 1e-9·max(1,|κ|) are equal and the first in row-major order comes
// first). O(m log m).
func summarizeCurvature(ks []curvature.EdgeKappa) *CurvatureOut {
	out := &CurvatureOut{Edges: len(ks), Histogram: make([]CurvatureBin, histBins), MostNegative: []curvature.EdgeKappa{}}
	for b := range out.Histogram {
		out.Histogram[b] = CurvatureBin{Lo: histLo + float64(b)*histWidth, Hi: histLo + float64(b+1)*histWidth}
	}
	if len(ks) == 0 {
		return out
	}
	mn, mx, sum := math.Inf(1), math.Inf(-1), 0.0
	ps := make([]incremental.Pair, len(ks))
	for k, e := range ks {
		mn, mx, sum = math.Min(mn, e.Kappa), math.Max(mx, e.Kappa), sum+e.Kappa
		b := int(math.Floor((e.Kappa - histLo) / histWidth))
		out.Histogram[min(max(b, 0), histBins-1)].Count++
		ps[k] = incremental.Pair{U: e.U, V: e.V, Score: e.Kappa}
	}
	mean := sum / float64(len(ks))
	out.Min, out.Max, out.Mean = &mn, &mx, &mean
	out.MostNegative = leastCurved(ps, mostNeg)
	return out
}

// leastCurved returns the n pairs of least score in the order of definitions §3.1's
// ranking (rank.Each, ascending). It reorders ps.
func leastCurved(ps []incremental.Pair, n int) []curvature.EdgeKappa {
	out := []curvature.EdgeKappa{}
	rank.Each(ps, rank.Ascending, rank.ScoreOnly, func(p incremental.Pair) bool {
		if len(out) == n {
			return false
		}
		out = append(out, curvature.EdgeKappa{U: p.U, V: p.V, Kappa: p.Score})
		return len(out) < n
	})
	return out
}

// writeCurvatureCSV writes ks as CSV: the header u,v,kappa, then one line
// per edge in the order given, κ in the shortest form that reads back
// exactly.
func writeCurvatureCSV(w io.Writer, ks []curvature.EdgeKappa) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("u,v,kappa\n")
	buf := make([]byte, 0, 64)
	for _, e := range ks {
		buf = strconv.AppendInt(buf[:0], int64(e.U), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(e.V), 10)
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, e.Kappa, 'g', -1, 64)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func printCurvature(w io.Writer, out *CurvatureOut) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "graph\t%s (%s), %d nodes, %d edges\n", out.Dataset, out.Form, out.Nodes, out.Edges)
	fmt.Fprintf(tw, "alpha\t%s\n", strconv.FormatFloat(out.Alpha, 'g', -1, 64))
	for _, s := range []struct {
		label string
		v     *float64
	}{{"min", out.Min}, {"max", out.Max}, {"mean", out.Mean}} {
		if s.v == nil {
			fmt.Fprintf(tw, "%s\tnone\n", s.label)
		} else {
			fmt.Fprintf(tw, "%s\t%.6f\n", s.label, *s.v)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var b strings.Builder
	first, last, peak := -1, -1, 0
	for k, bin := range out.Histogram {
		if bin.Count > 0 {
			if first < 0 {
				first = k
			}
			last = k
			peak = max(peak, bin.Count)
		}
	}
	if first >= 0 {
		b.WriteString("histogram\n")
		for _, bin := range out.Histogram[first : last+1] {
			close := ")"
			if bin.Hi == 1 {
				close = "]"
			}
			bar := strings.Repeat("#", (bin.Count*40+peak-1)/peak)
			line := fmt.Sprintf("  [%5.2f, %5.2f%s %7d  %s", bin.Lo, bin.Hi, close, bin.Count, bar)
			b.WriteString(strings.TrimRight(line, " ") + "\n")
		}
	}
	if len(out.MostNegative) > 0 {
		fmt.Fprintf(&b, "most negative\n")
		for k, e := range out.MostNegative {
			fmt.Fprintf(&b, "  %2d  %5d %5d  κ = %.6f\n", k+1, e.U, e.V, e.Kappa)
		}
	}
	fmt.Fprintf(&b, "seconds  %.3f\n", out.Seconds)
	_, err := io.WriteString(w, b.String())
	return err
}
