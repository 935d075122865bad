package sweep

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// A Point is one value of a report: a metric of one kernel in one cell
// (summed over the cell's launches of that kernel), with the cell's
// settings as dimensions.
type Point struct {
	Dims  map[string]string // run, kernel, arch, clock, mode, scheduler, and each variable
	Value float64
}

// BaseDims are the dimensions every point has, before the variables.
var BaseDims = []string{"run", "kernel", "arch", "clock", "mode", "scheduler"}

// Points turns results into points of one metric; where is a list of
// dimension=value filters. Failed cells and launches without the metric
// give no point.
func Points(results []*Result, metric string, where map[string]string) []Point {
	type key struct{ cell, kernel string }
	sums := map[key]*Point{}
	var order []key
	for _, r := range results {
		if r.Status != "ok" {
			continue
		}
		for _, l := range r.Launches {
			v, ok := number(l.Metrics[metric])
			if !ok {
				continue
			}
			k := key{r.Cell.ID, l.Kernel}
			p := sums[k]
			if p == nil {
				clock := ""
				if r.Cell.Clock > 0 {
					clock = strconv.FormatFloat(r.Cell.Clock, 'f', -1, 64)
				}
				dims := map[string]string{"run": r.Cell.Run, "kernel": l.Kernel, "arch": r.Cell.Label(), "clock": clock,
					"mode": r.Cell.Mode, "scheduler": r.Cell.Scheduler}
				for n, x := range r.Cell.Vars {
					dims[n] = x
				}
				p = &Point{Dims: dims}
				sums[k] = p
				order = append(order, k)
			}
			p.Value += v
		}
	}
	var out []Point
	for _, k := range order {
		p := sums[k]
		keep := true
		for d, v := range where {
			if p.Dims[d] != v {
				keep = false
			}
		}
		if keep {
			out = append(out, *p)
		}
	}
	return out
}

// Varying lists the dimensions whose value differs between points, in
// BaseDims order then variables by name.
func Varying(points []Point) []string {
	vals := map[string]map[string]bool{}
	for _, p := range points {
		for d, v := range p.Dims {
			if vals[d] == nil {
				vals[d] = map[string]bool{}
			}
			vals[d][v] = true
		}
	}
	var out []string
	for _, d := range BaseDims {
		if len(vals[d]) > 1 {
			out = append(out, d)
		}
	}
	var vars []string
	for d := range vals {
		if !contains(BaseDims, d) && len(vals[d]) > 1 {
			vars = append(vars, d)
		}
	}
	sort.Strings(vars)
	return append(out, vars...)
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// orderValues sorts a dimension's values: numerically when all are
// numbers, else in first-seen order.
func orderValues(points []Point, dim string) []string {
	var vals []string
	seen := map[string]bool{}
	numeric := true
	for _, p := range points {
		v := p.Dims[dim]
		if !seen[v] {
			seen[v] = true
			vals = append(vals, v)
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				numeric = false
			}
		}
	}
	if numeric {
		sort.Slice(vals, func(i, j int) bool {
			a, _ := strconv.ParseFloat(vals[i], 64)
			b, _ := strconv.ParseFloat(vals[j], 64)
			return a < b
		})
	}
	return vals
}

func keyOf(p Point, dims []string) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = p.Dims[d]
	}
	return strings.Join(parts, " ")
}

// Pivot prints a table with one row per combination of rows' dimensions
// and one column per value of col.
func Pivot(w io.Writer, points []Point, rows []string, col, metric string) error {
	cols := orderValues(points, col)
	table := map[string]map[string]float64{}
	var rowKeys []string
	for _, p := range points {
		rk := keyOf(p, rows)
		if table[rk] == nil {
			table[rk] = map[string]float64{}
			rowKeys = append(rowKeys, rk)
		}
		table[rk][p.Dims[col]] += p.Value
	}
	// Rows in order of their dimensions' values.
	rank := map[string]map[string]int{}
	for _, d := range rows {
		rank[d] = map[string]int{}
		for i, v := range orderValues(points, d) {
			rank[d][v] = i
		}
	}
	firstPoint := map[string]Point{}
	for _, p := range points {
		if _, ok := firstPoint[keyOf(p, rows)]; !ok {
			firstPoint[keyOf(p, rows)] = p
		}
	}
	sort.SliceStable(rowKeys, func(i, j int) bool {
		a, b := firstPoint[rowKeys[i]], firstPoint[rowKeys[j]]
		for _, d := range rows {
			if ra, rb := rank[d][a.Dims[d]], rank[d][b.Dims[d]]; ra != rb {
				return ra < rb
			}
		}
		return false
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "%s by %s\n", metric, col)
	fmt.Fprintf(tw, "%s\t%s\t\n", strings.Join(rows, "\t"), strings.Join(cols, "\t"))
	for _, rk := range rowKeys {
		p := firstPoint[rk]
		var cells []string
		for _, d := range rows {
			cells = append(cells, p.Dims[d])
		}
		for _, c := range cols {
			v, ok := table[rk][c]
			if !ok {
				cells = append(cells, "-")
				continue
			}
			cells = append(cells, formatValue(v))
		}
		fmt.Fprintf(tw, "%s\t\n", strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

func formatValue(v float64) string {
	switch {
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// Plot draws metric against the x dimension, one line per combination of
// series dimensions, to path (.svg, .png or .pdf). A numeric x is drawn to
// scale (logarithmic when it spans more than 8×); any other x as
// categories in order. logY draws the metric on a logarithmic axis.
func Plot(path string, points []Point, x string, series []string, metric, title string, logY bool) error {
	xs := orderValues(points, x)
	numeric := true
	for _, v := range xs {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			numeric = false
		}
	}
	pos := map[string]float64{}
	for i, v := range xs {
		if numeric {
			pos[v], _ = strconv.ParseFloat(v, 64)
		} else {
			pos[v] = float64(i)
		}
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = metric
	p.Legend.Top = true
	p.Legend.Left = true
	logX := numeric && len(xs) > 1 && pos[xs[0]] > 0 && pos[xs[len(xs)-1]]/pos[xs[0]] > 8
	if logX {
		p.X.Scale = plot.LogScale{}
	}
	var ticks []plot.Tick
	for _, v := range xs {
		ticks = append(ticks, plot.Tick{Value: pos[v], Label: v})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	if logY {
		for _, pt := range points {
			if pt.Value <= 0 {
				return fmt.Errorf("a logarithmic y axis needs positive values; %s has %v", metric, pt.Value)
			}
		}
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	groups := map[string]plotter.XYs{}
	var names []string
	for _, pt := range points {
		k := keyOf(pt, series)
		if _, ok := groups[k]; !ok {
			names = append(names, k)
		}
		groups[k] = append(groups[k], plotter.XY{X: pos[pt.Dims[x]], Y: pt.Value})
	}
	for i, n := range names {
		xy := groups[n]
		sort.Slice(xy, func(a, b int) bool { return xy[a].X < xy[b].X })
		l, s, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i / 7)
		s.Color = plotutil.Color(i)
		s.Shape = plotutil.Shape(i)
		p.Add(l, s)
		label := n
		if label == "" {
			label = metric
		}
		p.Legend.Add(label, l, s)
	}
	if !numeric {
		p.X.Min, p.X.Max = -0.5, float64(len(xs))-0.5
	}
	// Room above the lines for the legend.
	if logY {
		p.Y.Max *= math.Pow(p.Y.Max/p.Y.Min, 0.1*float64(len(names)))
	} else {
		p.Y.Min = 0
		p.Y.Max *= 1 + 0.07*float64(len(names))
	}
	return p.Save(8*vg.Inch, 5*vg.Inch, path)
}

// Determined reports whether dimension d has one value per value of x
// (grid, where the block size picks it): such a dimension makes no lines
// of its own in a plot against x.
func Determined(points []Point, x, d string) bool {
	seen := map[string]string{}
	for _, p := range points {
		if v, ok := seen[p.Dims[x]]; ok && v != p.Dims[d] {
			return false
		}
		seen[p.Dims[x]] = p.Dims[d]
	}
	return true
}
