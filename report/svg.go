package report

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// The charts are SVG drawn here: no script draws them and nothing is
// fetched, so the report works offline and prints as it shows.

var palette = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#86bcb6", "#d37295"}

func esc(s string) string { return html.EscapeString(s) }

// svgOpen starts a chart of width×height.
func svgOpen(b *strings.Builder, name, title string, w, h int) {
	fmt.Fprintf(b, `<svg class="chart" data-chart="%s" role="img" viewBox="0 0 %d %d" width="%d" height="%d" xmlns="http://www.w3.org/2000/svg"><title>%s</title>`,
		name, w, h, w, h, esc(title))
	fmt.Fprintf(b, `<text x="8" y="16" class="ct">%s</text>`, esc(title))
}

// hbars draws one horizontal bar per label, scaled to the largest value.
func hbars(name, title string, labels []string, values []float64, format func(float64) string) string {
	var b strings.Builder
	rowH, left, w := 18, 150, 460
	h := 28 + rowH*len(labels) + 6
	svgOpen(&b, name, title, w, h)
	most := 0.0
	for _, v := range values {
		most = math.Max(most, v)
	}
	for i, lab := range labels {
		y := 26 + i*rowH
		bw := 0.0
		if most > 0 {
			bw = values[i] / most * float64(w-left-70)
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="cl" text-anchor="end">%s</text>`, left-6, y+12, esc(lab))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %s</title></rect>`, left, y+2, bw, rowH-5, palette[i%len(palette)], esc(lab), esc(format(values[i])))
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" class="cv">%s</text>`, float64(left)+bw+4, y+12, esc(format(values[i])))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// pairBars draws, per category, the actual value beside the ideal one.
func pairBars(name, title string, cats []string, actual, ideal []float64, aName, iName string) string {
	var b strings.Builder
	rowH, left, w := 30, 150, 460
	h := 44 + rowH*len(cats)
	svgOpen(&b, name, title, w, h)
	most := 0.0
	for i := range cats {
		most = math.Max(most, math.Max(actual[i], ideal[i]))
	}
	fmt.Fprintf(&b, `<rect x="%d" y="22" width="10" height="8" fill="%s"/><text x="%d" y="30" class="cl">%s</text>`, left, palette[0], left+14, esc(aName))
	fmt.Fprintf(&b, `<rect x="%d" y="22" width="10" height="8" fill="%s"/><text x="%d" y="30" class="cl">%s</text>`, left+130, palette[1], left+144, esc(iName))
	for i, c := range cats {
		y := 38 + i*rowH
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="cl" text-anchor="end">%s</text>`, left-6, y+14, esc(c))
		for j, v := range []float64{actual[i], ideal[i]} {
			bw := 0.0
			if most > 0 {
				bw = v / most * float64(w-left-70)
			}
			yy := y + j*12
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="10" fill="%s"><title>%s %s: %s</title></rect>`, left, yy, bw, palette[j], esc(c), esc([]string{aName, iName}[j]), human(v))
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" class="cv">%s</text>`, float64(left)+bw+4, yy+9, human(v))
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// pctBars draws percentages (0–100) against a full-scale track.
func pctBars(name, title string, labels []string, values []float64, notes []string) string {
	var b strings.Builder
	rowH, left, w := 22, 150, 460
	h := 28 + rowH*len(labels) + 4
	svgOpen(&b, name, title, w, h)
	track := w - left - 140
	for i, lab := range labels {
		y := 26 + i*rowH
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="cl" text-anchor="end">%s</text>`, left-6, y+13, esc(lab))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="14" fill="#eee"/>`, left, y+2, track)
		v := values[i]
		label := notes[i]
		if v >= 0 {
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="14" fill="%s"><title>%s: %.1f%%</title></rect>`, left, y+2, math.Min(v, 100)/100*float64(track), palette[i%len(palette)], esc(lab), v)
			if label == "" {
				label = fmt.Sprintf("%.1f%%", v)
			}
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="cv">%s</text>`, left+track+4, y+13, esc(label))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// curveChart draws one occupancy curve with the launch's point marked.
func curveChart(c Curve) string {
	var b strings.Builder
	w, h := 300, 170
	l, r, t, bt := 36, 10, 26, 30
	svgOpen(&b, "occupancy-curve", c.Title, w, h)
	if len(c.X) == 0 {
		b.WriteString(`</svg>`)
		return b.String()
	}
	x0, x1 := float64(c.X[0]), float64(c.X[len(c.X)-1])
	if x1 == x0 {
		x1 = x0 + 1
	}
	px := func(x float64) float64 { return float64(l) + (x-x0)/(x1-x0)*float64(w-l-r) }
	py := func(y float64) float64 { return float64(h-bt) - y/100*float64(h-t-bt) }
	for _, g := range []float64{0, 50, 100} {
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" class="grid"/><text x="%d" y="%.1f" class="ax" text-anchor="end">%.0f%%</text>`, l, w-r, py(g), py(g), l-3, py(g)+3, g)
	}
	var pts strings.Builder
	for i, x := range c.X {
		fmt.Fprintf(&pts, "%.1f,%.1f ", px(float64(x)), py(c.Y[i]))
	}
	fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5"/>`, strings.TrimSpace(pts.String()), palette[0])
	if cur := float64(c.Current); cur >= x0 && cur <= x1 {
		// The launch's value: the occupancy at the nearest x.
		best, by := 0, 0.0
		for i, x := range c.X {
			if math.Abs(float64(x)-cur) < math.Abs(float64(c.X[best])-cur) {
				best = i
			}
		}
		by = c.Y[best]
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="%s"><title>this launch: %d → %.1f%%</title></circle>`, px(cur), py(by), palette[2], c.Current, by)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="ax">%d</text><text x="%d" y="%d" class="ax" text-anchor="end">%d</text>`, l, h-bt+12, c.X[0], w-r, h-bt+12, c.X[len(c.X)-1])
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="ax" text-anchor="middle">%s</text>`, (l+w-r)/2, h-4, esc(c.XLabel))
	b.WriteString(`</svg>`)
	return b.String()
}

// roofline draws the instruction roofline: warp instructions per second
// against instructions per 32-byte DRAM sector, log-log, with the memory
// and issue ceilings and the kernel's point.
func roofline(a Arch, inst, bytes, seconds float64, bytesFrom string) string {
	var b strings.Builder
	w, h := 460, 260
	l, r, t, bt := 56, 14, 26, 34
	svgOpen(&b, "roofline", "Instruction roofline", w, h)
	peak := a.PeakWarpInstPerSec
	sectorsPerSec := a.DRAMBandwidth / 32
	if peak <= 0 || sectorsPerSec <= 0 {
		b.WriteString(`<text x="60" y="120" class="cl">The arch has no peak figures.</text></svg>`)
		return b.String()
	}
	xmin, xmax := 0.01, 1000.0
	ymax := math.Pow(10, math.Ceil(math.Log10(peak)))
	ymin := ymax / 1e5
	px := func(x float64) float64 {
		return float64(l) + (math.Log10(x)-math.Log10(xmin))/(math.Log10(xmax)-math.Log10(xmin))*float64(w-l-r)
	}
	py := func(y float64) float64 {
		y = math.Max(y, ymin)
		return float64(h-bt) - (math.Log10(y)-math.Log10(ymin))/(math.Log10(ymax)-math.Log10(ymin))*float64(h-t-bt)
	}
	for e := math.Log10(xmin); e <= math.Log10(xmax)+1e-9; e++ {
		x := math.Pow(10, e)
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" class="grid"/><text x="%.1f" y="%d" class="ax" text-anchor="middle">%s</text>`, px(x), px(x), t, h-bt, px(x), h-bt+12, trimG(x))
	}
	for e := math.Log10(ymin); e <= math.Log10(ymax)+1e-9; e++ {
		y := math.Pow(10, e)
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" class="grid"/><text x="%d" y="%.1f" class="ax" text-anchor="end">%s</text>`, l, w-r, py(y), py(y), l-3, py(y)+3, human(y))
	}
	ridge := peak / sectorsPerSec
	fmt.Fprintf(&b, `<polyline points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="none" stroke="#333" stroke-width="2"><title>ceilings: DRAM %.0f GB/s, issue %s warp inst/s</title></polyline>`,
		px(xmin), py(xmin*sectorsPerSec), px(ridge), py(peak), px(xmax), py(peak), a.DRAMBandwidth/1e9, human(peak))
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="ax">issue peak %s/s</text>`, px(ridge)+4, py(peak)-4, human(peak))
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="ax" text-anchor="middle">warp instructions per 32-byte %s sector</text>`, (l+w-r)/2, h-4, esc(bytesFrom))
	fmt.Fprintf(&b, `<text x="12" y="%d" class="ax" transform="rotate(-90 12 %d)" text-anchor="middle">warp inst/s</text>`, (t+h-bt)/2, (t+h-bt)/2)
	if inst > 0 && bytes > 0 {
		x := inst / (bytes / 32)
		x = math.Min(math.Max(x, xmin), xmax)
		if seconds > 0 {
			y := inst / seconds
			fmt.Fprintf(&b, `<circle class="kpoint" cx="%.1f" cy="%.1f" r="5" fill="%s"><title>this kernel: %.2f inst/sector, %s warp inst/s (%.1f%% of the roof there)</title></circle>`,
				px(x), py(y), palette[2], x, human(y), 100*y/math.Min(peak, x*sectorsPerSec))
		} else {
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="%s" stroke-dasharray="4 3"><title>intensity %.2f inst/sector (no time: functional mode)</title></line>`, px(x), px(x), t, h-bt, palette[2], x)
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// timeline draws every launch as a bar: simulated time in timing mode,
// else launch order with warp instructions as the width.
func timeline(p *Profile) string {
	var b strings.Builder
	n := len(p.Launches)
	lanes := map[string]int{}
	var order []string
	for _, l := range p.Launches {
		if _, ok := lanes[l.Kernel]; !ok {
			lanes[l.Kernel] = len(order)
			order = append(order, l.Kernel)
		}
	}
	rowH, left, w := 18, 200, 900
	h := 40 + rowH*len(order)
	timed := p.Mode == "timing"
	title := "Timeline of launches (simulated time)"
	if !timed {
		title = "Launches in order (width: warp instructions; functional mode has no time)"
	}
	svgOpen(&b, "timeline", title, w, h)
	start, end := math.Inf(1), 0.0
	pos := make([][2]float64, n)
	acc := 0.0
	for i, l := range p.Launches {
		if timed {
			pos[i] = [2]float64{l.StartNS, l.StartNS + l.DurationNS}
		} else {
			v := math.Max(l.Metrics["inst_executed"], 1)
			pos[i] = [2]float64{acc, acc + v}
			acc += v
		}
		start, end = math.Min(start, pos[i][0]), math.Max(end, pos[i][1])
	}
	if n == 0 {
		start, end = 0, 1
	}
	if end <= start {
		end = start + 1
	}
	sx := func(v float64) float64 { return float64(left) + (v-start)/(end-start)*float64(w-left-10) }
	for i, k := range order {
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="cl" text-anchor="end">%s</text>`, left-6, 36+i*rowH, esc(clip(k, 30)))
	}
	for i, l := range p.Launches {
		y := 24 + lanes[l.Kernel]*rowH
		x0, x1 := sx(pos[i][0]), sx(pos[i][1])
		tip := fmt.Sprintf("%s <<<(%d,%d,%d),(%d,%d,%d)>>>", l.Kernel, l.Grid[0], l.Grid[1], l.Grid[2], l.Block[0], l.Block[1], l.Block[2])
		if timed {
			tip += fmt.Sprintf(" start %s, %s", nsText(l.StartNS), nsText(l.DurationNS))
		}
		if l.FromDevice {
			tip += " (device launch)"
		}
		fill := palette[lanes[l.Kernel]%len(palette)]
		fmt.Fprintf(&b, `<rect class="launch" x="%.1f" y="%d" width="%.1f" height="%d" fill="%s" stroke="#fff" stroke-width="0.5"><title>%s</title></rect>`, x0, y, math.Max(x1-x0, 1), rowH-4, fill, esc(tip))
	}
	if timed {
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="ax">%s</text><text x="%d" y="%d" class="ax" text-anchor="end">%s</text>`, left, h-4, nsText(start), w-10, h-4, nsText(end))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

// human prints a count exactly below a million, else with an SI suffix.
func human(v float64) string {
	if a := math.Abs(v); a < 1e6 && a == math.Trunc(a) {
		return fmt.Sprintf("%.0f", v)
	}
	switch a := math.Abs(v); {
	case a >= 1e12:
		return trimG(v/1e12) + "T"
	case a >= 1e9:
		return trimG(v/1e9) + "G"
	case a >= 1e6:
		return trimG(v/1e6) + "M"
	}
	return trimG(v)
}

func trimG(v float64) string {
	s := fmt.Sprintf("%.3g", v)
	return s
}

func nsText(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.3g s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.3g ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.3g µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}
