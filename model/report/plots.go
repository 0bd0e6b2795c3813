package report

import (
	"context"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ohmgnn/ohm/internal/atomicfile"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure size: 6 × 4 inches; PNGs are drawn at DPI dots per inch, so they
// are PixelWidth × PixelHeight pixels.
const (
	Width       = 6 * vg.Inch
	Height      = 4 * vg.Inch
	DPI         = 96
	PixelWidth  = 6 * DPI
	PixelHeight = 4 * DPI
)

// methodStyle gives every method the same colour in every figure.
func methodStyle(method string) color.Color {
	i := slices.Index(methodOrder, method)
	if i < 0 {
		i = len(methodOrder) + int(method[0])%5
	}
	return plotutil.Color(i)
}

// series is one line: y (and an optional ± band) at x.
type series struct {
	name   string
	color  color.Color
	dashed bool
	x, y   []float64
	band   []float64 // ± half-width at each x, or nil
}

// linePlot builds a plot of the series, with bands drawn under the lines.
func linePlot(title, xlabel, ylabel string, ss []series, xInts bool) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(8) // clear of the frame
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Y.Tick.Marker = niceTicks{}
	// Percentages: bands clipped to [0, 100], so no band claims more than
	// every node right or fewer than none.
	lo, hi := math.Inf(-1), math.Inf(1)
	if strings.Contains(ylabel, "(%)") {
		lo, hi = 0, 100
	}
	ss = drawOrder(ss)
	p.Legend.Top = true
	p.Legend.Left = false
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	p.Add(plotter.NewGrid())
	for _, s := range ss {
		if s.band == nil || len(s.x) < 2 {
			continue
		}
		pg, err := plotter.NewPolygon(bandPolygon(s, lo, hi))
		if err != nil {
			return nil, err
		}
		r, g, b, _ := s.color.RGBA()
		pg.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 40}
		pg.LineStyle.Width = 0
		p.Add(pg)
	}
	for _, s := range ss {
		xys := make(plotter.XYs, len(s.x))
		for i := range s.x {
			xys[i] = plotter.XY{X: s.x[i], Y: s.y[i]}
		}
		l, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, err
		}
		l.Color, pts.Color = s.color, s.color
		l.Width = vg.Points(1.5)
		pts.Shape = draw.CircleGlyph{}
		pts.Radius = vg.Points(2)
		if s.dashed {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		p.Add(l, pts)
		p.Legend.Add(s.name, l, pts)
	}
	if xInts {
		p.X.Tick.Marker = intTicks{}
	}
	return p, nil
}

// drawOrder returns the series with the dashed ones (the baseline none)
// last, so that they are drawn on top; the order is otherwise kept.
func drawOrder(ss []series) []series {
	ss = slices.Clone(ss)
	slices.SortStableFunc(ss, func(a, b series) int {
		switch {
		case a.dashed == b.dashed:
			return 0
		case b.dashed:
			return -1
		}
		return 1
	})
	return ss
}

// bandPolygon is the outline of s's ± band, clipped to [lo, hi].
func bandPolygon(s series, lo, hi float64) plotter.XYs {
	var poly plotter.XYs
	for i := range s.x {
		poly = append(poly, plotter.XY{X: s.x[i], Y: min(hi, s.y[i]+s.band[i])})
	}
	for i := len(s.x) - 1; i >= 0; i-- {
		poly = append(poly, plotter.XY{X: s.x[i], Y: max(lo, s.y[i]-s.band[i])})
	}
	return poly
}

// niceTicks labels 5–11 round values (1, 2 or 5 × 10^k apart) across the
// axis range, with unlabelled minor ticks halfway, where gonum's default
// often labels only two or three.
type niceTicks struct{}

func (niceTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(max-min, 0) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	step := math.Pow(10, math.Floor(math.Log10(max-min)))
	for _, f := range []float64{1, 0.5, 0.2, 0.1} {
		if (max-min)/(step*f) >= 5 {
			step *= f
			break
		}
	}
	var ts []plot.Tick
	for k := math.Ceil(min/step*2 - 1e-9); k/2*step <= max+1e-9*step; k++ {
		v := k / 2 * step
		t := plot.Tick{Value: v}
		if int(k)%2 == 0 {
			t.Label = strconv.FormatFloat(math.Round(v/step)*step+0, 'g', 6, 64) // +0: no "-0"
		}
		ts = append(ts, t)
	}
	return ts
}

// intTicks labels every integer in the axis range (every other one past 12).
type intTicks struct{}

func (intTicks) Ticks(min, max float64) []plot.Tick {
	step := 1
	if max-min > 12 {
		step = 2
	}
	var ts []plot.Tick
	for v := int(min + 0.999); float64(v) <= max; v++ {
		t := plot.Tick{Value: float64(v)}
		if v%step == 0 {
			t.Label = fmt.Sprint(v)
		}
		ts = append(ts, t)
	}
	return ts
}

// savePlot stages base.png and base.svg in dir and returns base.
// The legend goes to the right of the data, where it hides nothing.
func savePlot(dir *figures, base string, p *plot.Plot) (string, error) {
	leg := p.Legend
	p.Legend = plot.NewLegend()
	return saveDrawing(dir, base, func(dc draw.Canvas) {
		r := leg.Rectangle(dc)
		w := r.Max.X - r.Min.X + vg.Points(6)
		p.Draw(draw.Crop(dc, 0, -w, 0, 0))
		leg.Top, leg.Left = true, false
		leg.Draw(draw.Crop(dc, 0, 0, 0, -vg.Points(24)))
	})
}

// saveDrawing draws the figure on a PNG and an SVG canvas and stages them
// in dir. It draws nothing once dir's context is done (an interrupted
// report), and returns the context's error.
func saveDrawing(dir *figures, base string, paint func(draw.Canvas)) (string, error) {
	if err := dir.ctx.Err(); err != nil {
		return "", err
	}
	img := vgimg.NewWith(vgimg.UseWH(Width, Height), vgimg.UseDPI(DPI))
	paint(draw.New(img))
	if err := dir.stage(base+".png", vgimg.PngCanvas{Canvas: img}); err != nil {
		return "", err
	}
	svg := vgsvg.New(Width, Height)
	paint(draw.New(svg))
	if err := dir.stage(base+".svg", svg); err != nil {
		return "", err
	}
	return base, nil
}

// figures are the figure files of a report being written: each staged in
// full beside its target in dir (atomicfile.Stage), all put in place
// together with report.md when the whole report is made.
type figures struct {
	ctx    context.Context
	dir    string
	staged []*atomicfile.Pending
}

// stage writes w's content as dir/name, not yet in place.
func (f *figures) stage(name string, w io.WriterTo) error {
	p, err := atomicfile.Stage(filepath.Join(f.dir, name), func(out io.Writer) error {
		_, err := w.WriteTo(out)
		return err
	})
	if err != nil {
		return err
	}
	f.staged = append(f.staged, p)
	return nil
}

// upset draws an UpSet-style plot: bars of the exclusive intersection sizes
// (largest first, at most maxBars, zero counts left out) above the dot
// matrix saying which methods each intersection holds.
func upset(title string, methods []string, inters []intersection, maxBars int) func(draw.Canvas) {
	inters = slices.Clone(inters)
	inters = slices.DeleteFunc(inters, func(x intersection) bool { return x.count == 0 })
	slices.SortStableFunc(inters, func(a, b intersection) int { return b.count - a.count })
	if len(inters) > maxBars {
		inters = inters[:maxBars]
	}
	top := upsetBars(title, inters)
	bottom := upsetMatrix(methods, inters)
	return func(dc draw.Canvas) {
		// Bars take 60 % of the height, the matrix the rest; Align keeps
		// the data areas' x ranges on top of each other.
		h := dc.Max.Y - dc.Min.Y
		split := dc.Min.Y + 0.4*h
		topC := dc
		topC.Min.Y = split
		botC := dc
		botC.Max.Y = split
		cs := plot.Align([][]*plot.Plot{{top}}, draw.Tiles{Rows: 1, Cols: 1}, topC)
		cb := plot.Align([][]*plot.Plot{{bottom}}, draw.Tiles{Rows: 1, Cols: 1}, botC)
		// Use the wider left margin of the two so the columns line up.
		tl, bl := plotLeft(top, cs[0][0]), plotLeft(bottom, cb[0][0])
		pad := max(tl, bl)
		cs[0][0].Min.X += pad - tl
		cb[0][0].Min.X += pad - bl
		top.Draw(cs[0][0])
		bottom.Draw(cb[0][0])
	}
}

// upsetBars is the upper part of an UpSet plot: one labelled bar per
// intersection, in the order given.
func upsetBars(title string, inters []intersection) *plot.Plot {
	k := len(inters)
	top := plot.New()
	top.Title.Text = title
	top.Y.Label.Text = "edges added by exactly these methods"
	top.Y.Label.TextStyle.Font.Size = vg.Points(9)
	top.X.Min, top.X.Max = -0.5, float64(k)-0.5
	top.X.Tick.Marker = plot.ConstantTicks(nil)
	top.Y.Min = 0
	if k == 0 {
		top.Y.Max = 1
		return top
	}
	vals := make(plotter.Values, k)
	var labels plotter.XYLabels
	for i, x := range inters {
		vals[i] = float64(x.count)
		labels.XYs = append(labels.XYs, plotter.XY{X: float64(i), Y: float64(x.count)})
		labels.Labels = append(labels.Labels, fmt.Sprint(x.count))
	}
	bars, _ := plotter.NewBarChart(vals, vg.Points(14))
	bars.Color = color.Gray{Y: 60}
	bars.LineStyle.Width = 0
	top.Add(bars)
	if lb, err := plotter.NewLabels(labels); err == nil {
		for i := range lb.TextStyle {
			lb.TextStyle[i].Font.Size = vg.Points(7)
			lb.TextStyle[i].XAlign = draw.XCenter
		}
		lb.Offset = vg.Point{Y: vg.Points(2)}
		top.Add(lb)
	}
	top.Y.Max = 1.15 * float64(inters[0].count)
	return top
}

// upsetMatrix is the lower part of an UpSet plot: one column per
// intersection, a black dot for each method it holds (joined by a line), a
// grey one for the others, the first method on top.
func upsetMatrix(methods []string, inters []intersection) *plot.Plot {
	bottom := plot.New()
	bottom.X.Min, bottom.X.Max = -0.5, float64(len(inters))-0.5
	bottom.X.Tick.Marker = plot.ConstantTicks(nil)
	bottom.X.Label.Text = "exclusive intersections"
	bottom.Y.Min, bottom.Y.Max = -0.5, float64(len(methods))-0.5
	var ticks []plot.Tick
	for i, m := range methods {
		ticks = append(ticks, plot.Tick{Value: float64(len(methods) - 1 - i), Label: m})
	}
	bottom.Y.Tick.Marker = plot.ConstantTicks(ticks)
	var on, off plotter.XYs
	for c, x := range inters {
		lo, hi := len(methods), -1
		for i, m := range methods {
			y := float64(len(methods) - 1 - i)
			if slices.Contains(x.methods, m) {
				on = append(on, plotter.XY{X: float64(c), Y: y})
				lo, hi = min(lo, len(methods)-1-i), max(hi, len(methods)-1-i)
			} else {
				off = append(off, plotter.XY{X: float64(c), Y: y})
			}
		}
		if hi > lo {
			l, _ := plotter.NewLine(plotter.XYs{{X: float64(c), Y: float64(lo)}, {X: float64(c), Y: float64(hi)}})
			l.Width = vg.Points(2)
			bottom.Add(l)
		}
	}
	for _, pts := range []struct {
		xys plotter.XYs
		c   color.Color
	}{{off, color.Gray{Y: 210}}, {on, color.Black}} {
		if len(pts.xys) == 0 {
			continue
		}
		s, _ := plotter.NewScatter(pts.xys)
		s.Shape = draw.CircleGlyph{}
		s.Radius = vg.Points(4)
		s.Color = pts.c
		bottom.Add(s)
	}
	return bottom
}

// plotLeft is the width the plot's y axis takes on the canvas.
func plotLeft(p *plot.Plot, c draw.Canvas) vg.Length {
	dc := p.DataCanvas(c)
	return dc.Min.X - c.Min.X
}
