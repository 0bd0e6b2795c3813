package bench

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// scalePoint is one size of BenchmarkSketchScale: the graph's nodes and
// edges, the first round's start and the seconds per iteration after it.
type scalePoint struct {
	n, m                int
	start, perIteration float64
}

// logSlope is the least-squares slope of log y against log x over the
// points with both positive: the exponent of a power law y ∝ x^slope (NaN
// with fewer than two such points).
func logSlope(x, y []float64) float64 {
	var sx, sy, sxx, sxy, k float64
	for i := range x {
		if x[i] <= 0 || y[i] <= 0 {
			continue
		}
		lx, ly := math.Log(x[i]), math.Log(y[i])
		sx, sy, sxx, sxy, k = sx+lx, sy+ly, sxx+lx*lx, sxy+lx*ly, k+1
	}
	if k < 2 || k*sxx-sx*sx == 0 {
		return math.NaN()
	}
	return (k*sxy - sx*sy) / (k*sxx - sx*sx)
}

// plotScale draws the round's start and the seconds per iteration against
// n on log-log axes into file (.svg or .png), each series named with its
// slope. The generated graphs keep the mean degree, so m grows as n and
// the slope against m is the same.
func plotScale(file, title string, points []scalePoint) error {
	points = slices.Clone(points)
	slices.SortFunc(points, func(a, b scalePoint) int { return a.n - b.n })
	p := plot.New()
	p.Title.Text = "sketch engine, err on " + title + ", one thread"
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = "nodes n (edges m = 10 n)"
	p.Y.Label.Text = "seconds"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = true, true
	ns := make([]float64, len(points))
	for i, q := range points {
		ns[i] = float64(q.n)
	}
	for s, part := range []struct {
		name string
		y    func(scalePoint) float64
	}{
		{"first round's start", func(q scalePoint) float64 { return q.start }},
		{"per iteration after it", func(q scalePoint) float64 { return q.perIteration }},
	} {
		var xy plotter.XYs
		ys := make([]float64, len(points))
		for i, q := range points {
			ys[i] = part.y(q)
			if ys[i] > 0 {
				xy = append(xy, plotter.XY{X: ns[i], Y: ys[i]})
			}
		}
		if len(xy) == 0 {
			continue
		}
		line, marks, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		line.Color, marks.Color = plotutil.Color(s), plotutil.Color(s)
		marks.Shape = plotutil.Shape(s)
		p.Add(line, marks)
		p.Legend.Add(fmt.Sprintf("%s (slope %.2f)", part.name, logSlope(ns, ys)), line, marks)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	switch ext := strings.ToLower(filepath.Ext(file)); ext {
	case ".svg", ".png":
		return p.Save(6*vg.Inch, 4*vg.Inch, file)
	default:
		return fmt.Errorf("OHM_SCALE_PLOT: %q is neither .svg nor .png", file)
	}
}

// TestLogSlope: the slope of exact power laws, with a point of y = 0
// (a size that made one iteration) left out, and NaN below two points.
func TestLogSlope(t *testing.T) {
	for _, c := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1e4, 2e4, 1e5}, []float64{3, 6, 30}, 1},
		{[]float64{10, 100, 1000}, []float64{5, 500, 50000}, 2},
		{[]float64{10, 100, 1000}, []float64{7, 0, 7e-2}, -1},
		{[]float64{10}, []float64{1}, math.NaN()},
	} {
		got := logSlope(c.x, c.y)
		if math.IsNaN(c.want) != math.IsNaN(got) || (!math.IsNaN(got) && math.Abs(got-c.want) > 1e-12) {
			t.Errorf("logSlope(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	if err := plotScale(filepath.Join(t.TempDir(), "s.svg"), "test graphs", []scalePoint{{n: 10, start: 1, perIteration: 0.1}, {n: 100, start: 9, perIteration: 0.5}}); err != nil {
		t.Fatal(err)
	}
	if err := plotScale(filepath.Join(t.TempDir(), "s.pdf"), "test graphs", nil); err == nil {
		t.Error("plotScale took a .pdf")
	}
}
