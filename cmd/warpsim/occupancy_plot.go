package main

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/warpsim/warpsim/arch"
)

// occupancyCurve is one of the occupancy calculator's three charts: the
// occupancy as one input varies, the others held at the query's values.
type occupancyCurve struct {
	title, xLabel string
	xs            []int
	vary          func(in *arch.OccupancyInput, x int)
	current       int
}

// occupancyCurves are the three charts of NVIDIA's occupancy calculator:
// against threads per block (in warp steps), registers per thread and shared
// memory per block (in allocation units).
func occupancyCurves(a *arch.Arch, in arch.OccupancyInput) []occupancyCurve {
	var blocks, regs, smem []int
	for bs := a.WarpSize; bs <= a.MaxThreadsPerBlock; bs += a.WarpSize {
		blocks = append(blocks, bs)
	}
	for r := 1; r <= a.RegsPerThread; r++ {
		regs = append(regs, r)
	}
	maxShared := a.SharedPerBlockOptin
	step := a.SharedAllocUnit
	if maxShared/step > 512 {
		step = maxShared / 512 / step * step
	}
	for s := 0; s <= maxShared; s += step {
		smem = append(smem, s)
	}
	return []occupancyCurve{
		{title: "Varying block size", xLabel: "threads per block", xs: blocks, current: in.BlockSize,
			vary: func(q *arch.OccupancyInput, x int) { q.BlockSize = x }},
		{title: "Varying register count", xLabel: "registers per thread", xs: regs, current: in.RegsPerThread,
			vary: func(q *arch.OccupancyInput, x int) { q.RegsPerThread = x }},
		{title: "Varying shared memory", xLabel: "shared memory per block (bytes)", xs: smem, current: in.StaticShared + in.DynamicShared,
			vary: func(q *arch.OccupancyInput, x int) { q.StaticShared, q.DynamicShared = 0, x }},
	}
}

// plainTicks are gonum's default ticks labelled without trailing zeros
// ("25", not "25.00").
type plainTicks struct{}

func (plainTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', -1, 64)
		}
	}
	return ticks
}

// occupancyPoints evaluates a curve: occupancy in percent at each x.
func occupancyPoints(a *arch.Arch, in arch.OccupancyInput, c occupancyCurve) plotter.XYs {
	pts := make(plotter.XYs, len(c.xs))
	for i, x := range c.xs {
		q := in
		c.vary(&q, x)
		pts[i].X = float64(x)
		pts[i].Y = 100 * a.Occupancy(q).Occupancy
	}
	return pts
}

// writeOccupancyPlot draws the three charts side by side, the query's point
// marked on each, to an SVG or PNG file chosen by the extension.
func writeOccupancyPlot(file string, a *arch.Arch, in arch.OccupancyInput) error {
	ext := strings.ToLower(filepath.Ext(file))
	if ext != ".svg" && ext != ".png" {
		return badInputf("--plot %s: the file must end in .svg or .png", file)
	}
	cur := a.Occupancy(in)
	curves := occupancyCurves(a, in)
	row := make([]*plot.Plot, len(curves))
	for i, c := range curves {
		p := plot.New()
		p.Title.Text = c.title
		p.X.Label.Text = c.xLabel
		p.Y.Label.Text = "occupancy (%)"
		p.Y.Min, p.Y.Max = 0, 105
		p.Add(plotter.NewGrid())
		p.X.Tick.Marker = plainTicks{}
		p.Y.Tick.Marker = plainTicks{}
		line, err := plotter.NewLine(occupancyPoints(a, in, c))
		if err != nil {
			return err
		}
		line.StepStyle = plotter.PostStep
		line.Color = color.RGBA{R: 31, G: 119, B: 180, A: 255}
		line.Width = vg.Points(1.5)
		p.Add(line)
		mark, err := plotter.NewScatter(plotter.XYs{{X: float64(c.current), Y: 100 * cur.Occupancy}})
		if err != nil {
			return err
		}
		mark.GlyphStyle = draw.GlyphStyle{Color: color.RGBA{R: 214, G: 39, B: 40, A: 255}, Radius: vg.Points(5), Shape: draw.CircleGlyph{}}
		p.Add(mark)
		p.Legend.Add(fmt.Sprintf("this kernel: %d", c.current), mark)
		p.Legend.Top = true
		row[i] = p
	}
	row[0].Title.Text = fmt.Sprintf("%s (%s): %s", a.Name, a.SMName(), row[0].Title.Text)

	const w, h = 15 * vg.Inch, 4.5 * vg.Inch
	var canvas vg.CanvasWriterTo
	var dc draw.Canvas
	if ext == ".svg" {
		c := vgsvg.New(w, h)
		canvas, dc = c, draw.New(c)
	} else {
		c := vgimg.New(w, h)
		canvas, dc = vgimg.PngCanvas{Canvas: c}, draw.New(c)
	}
	tiles := draw.Tiles{Rows: 1, Cols: len(row), PadX: vg.Millimeter * 6, PadY: vg.Millimeter * 3,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	cells := plot.Align([][]*plot.Plot{row}, tiles, dc)
	for i, p := range row {
		p.Draw(cells[0][i])
	}
	out, err := os.Create(file)
	if err != nil {
		return badInput(err)
	}
	if _, err := canvas.WriteTo(out); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
