package report

import (
	_ "embed"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
)

//go:embed report.css
var css string

//go:embed report.js
var script string

// column is one counts column of the source views and hot spots.
type column struct {
	key, head, tip string
	value          func(c *Counts, stalls uint64, warp int) (text string, v float64)
}

func num(v uint64) (string, float64) {
	if v == 0 {
		return "", 0
	}
	return human(float64(v)), float64(v)
}

// columns are the counts shown per line; the key is the row's data
// attribute the colouring reads.
var columns = []column{
	{"inst", "Warp inst", "warp-level executions", func(c *Counts, _ uint64, _ int) (string, float64) { return num(c.Inst) }},
	{"thread", "Thread inst", "thread-level executions (active lanes)", func(c *Counts, _ uint64, _ int) (string, float64) { return num(c.ThreadInst) }},
	{"idle", "Idle lanes %", "lanes of the warp not doing the instruction: inactive or predicated off", func(c *Counts, _ uint64, w int) (string, float64) {
		if c.Inst == 0 || w == 0 {
			return "", 0
		}
		v := 100 - 100*float64(c.ThreadInst-c.PredOff)/float64(c.Inst*uint64(w))
		if v < 0.05 {
			return "0", 0
		}
		return fmt.Sprintf("%.1f", v), v
	}},
	{"div", "Divergent", "divergent branches / branches", func(c *Counts, _ uint64, _ int) (string, float64) {
		if c.Branch == 0 {
			return "", 0
		}
		return fmt.Sprintf("%d/%d", c.DivergentBranch, c.Branch), float64(c.DivergentBranch)
	}},
	{"gld", "Gld sect/req", "global load sectors per request (ideal)", func(c *Counts, _ uint64, _ int) (string, float64) {
		if c.GldRequests == 0 {
			return "", 0
		}
		return fmt.Sprintf("%.1f (%.1f)", ratioF(c.GldSectors, c.GldRequests), ratioF(c.GldIdeal, c.GldRequests)), float64(c.GldSectors)
	}},
	{"gst", "Gst sect/req", "global store sectors per request (ideal)", func(c *Counts, _ uint64, _ int) (string, float64) {
		if c.GstRequests == 0 {
			return "", 0
		}
		return fmt.Sprintf("%.1f (%.1f)", ratioF(c.GstSectors, c.GstRequests), ratioF(c.GstIdeal, c.GstRequests)), float64(c.GstSectors)
	}},
	{"excess", "Excess sectors", "global sectors beyond the ideal", func(c *Counts, _ uint64, _ int) (string, float64) {
		return num(c.GldSectors + c.GstSectors - c.GldIdeal - c.GstIdeal)
	}},
	{"shw", "Shared wavefronts", "shared-memory wavefronts (loads + stores)", func(c *Counts, _ uint64, _ int) (string, float64) {
		return num(c.ShLdWavefronts + c.ShStWavefronts)
	}},
	{"shc", "Bank conflicts", "shared-memory wavefronts beyond the ideal", func(c *Counts, _ uint64, _ int) (string, float64) {
		return num(c.ShLdConflicts + c.ShStConflicts)
	}},
	{"atom", "Atomics", "atomic and reduction requests", func(c *Counts, _ uint64, _ int) (string, float64) { return num(c.Atomics) }},
	{"local", "Local", "local-memory requests (spills, stack arrays)", func(c *Counts, _ uint64, _ int) (string, float64) {
		return num(c.LocalLd + c.LocalSt)
	}},
	{"stall", "Stall samples", "warp-cycles spent waiting at the line (timing mode)", func(_ *Counts, s uint64, _ int) (string, float64) { return num(s) }},
}

// Render writes p as one self-contained HTML page.
func Render(w io.Writer, p *Profile) error {
	var b strings.Builder
	title := p.Title
	if title == "" {
		title = "warpsim report"
	}
	ks := groupKernels(p)
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title>\n<meta name=\"viewport\" content=\"width=device-width\">\n<style>%s</style></head><body>\n", esc(title), css)
	fmt.Fprintf(&b, `<header><h1>%s</h1><p class="meta">%s · %s (sm_%s, %d SMs, %.0f MHz) · %s mode`, esc(title), esc(p.Tool), esc(p.Arch.FullName), strings.ReplaceAll(p.Arch.CC, ".", ""), p.Arch.SMs, p.Arch.ClockMHz, esc(p.Mode))
	if p.Command != "" {
		fmt.Fprintf(&b, ` · <code>%s</code>`, esc(p.Command))
	}
	b.WriteString("</p>")
	for _, n := range p.Notes {
		fmt.Fprintf(&b, `<p class="note">%s</p>`, esc(n))
	}
	b.WriteString(`<nav>Kernels: `)
	for _, k := range ks {
		fmt.Fprintf(&b, `<a href="#%s">%s</a> `, k.id, esc(k.name))
	}
	b.WriteString("</nav></header>\n<main>\n")
	fmt.Fprintf(&b, `<section class="overview"><h2>Launches</h2>%s`, timeline(p))
	writeCompare(&b, p, ks)
	b.WriteString("</section>\n")
	for _, k := range ks {
		writeKernel(&b, p, k)
	}
	fmt.Fprintf(&b, "</main>\n<script>%s</script>\n</body></html>\n", script)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeKernel(b *strings.Builder, p *Profile, k *kernel) {
	l := k.first
	fmt.Fprintf(b, "<section class=\"kernel\" id=\"%s\" data-kernel=\"%s\">\n<h2>%s</h2>\n", k.id, esc(l.Func), esc(k.name))
	writeSummary(b, p, k)
	writeAdvice(b, p, k)
	writeCharts(b, p, k)
	writeSource(b, p, k)
	writeHotSpots(b, p, k)
	b.WriteString("</section>\n")
}

func writeSummary(b *strings.Builder, p *Profile, k *kernel) {
	l := k.first
	host, dev := 0, 0
	for _, x := range k.launches {
		if x.FromDevice {
			dev++
		} else {
			host++
		}
	}
	m := l.Metrics
	rows := [][2]string{
		{"Launches", fmt.Sprintf("%d from the host, %d from the device (counts below are summed over all; configuration of the first)", host, dev)},
		{"Grid × block", fmt.Sprintf("(%d, %d, %d) × (%d, %d, %d)", l.Grid[0], l.Grid[1], l.Grid[2], l.Block[0], l.Block[1], l.Block[2])},
		{"Registers per thread", fmt.Sprint(l.Regs)},
		{"Shared memory per block", fmt.Sprintf("%d B static + %d B dynamic", l.StaticSh, l.DynamicSh)},
		{"Local memory per thread", fmt.Sprintf("%d B", l.LocalBytes)},
		{"Warp instructions", fmt.Sprint(k.total.Inst)},
		{"Warp execution efficiency", pctOf(float64(k.total.ThreadInst), float64(k.total.Inst)*float64(p.Arch.WarpSize))},
		{"Branch efficiency", branchEff(&k.total)},
		{"Occupancy", occText(l.Occupancy)},
	}
	if p.Mode == "timing" {
		rows = append(rows, [2]string{"Time (simulated)", fmt.Sprintf("%s in total; first launch %s, %d cycles", nsText(k.duration), nsText(l.DurationNS), l.Cycles)})
		if v, ok := m["ipc"]; ok {
			rows = append(rows, [2]string{"IPC (per SM)", fmt.Sprintf("%.2f of %d", v, p.Arch.SubPartitions)})
		}
	}
	a := p.Arch
	rows = append(rows, [2]string{"GPU", fmt.Sprintf("%s: %d SMs at %.0f MHz, %d warps / %d blocks / %d registers / %d KiB shared per SM, DRAM %.0f GB/s, issue peak %s warp inst/s",
		a.FullName, a.SMs, a.ClockMHz, a.MaxWarpsPerSM, a.MaxBlocksPerSM, a.RegsPerSM, a.SharedPerSM/1024, a.DRAMBandwidth/1e9, human(a.PeakWarpInstPerSec))})
	b.WriteString(`<table class="summary">`)
	for _, r := range rows {
		fmt.Fprintf(b, "<tr><th>%s</th><td>%s</td></tr>", esc(r[0]), esc(r[1]))
	}
	b.WriteString("</table>\n")
}

func occText(o Occupancy) string {
	s := fmt.Sprintf("theoretical %.1f%% (%d blocks, %d warps per SM; limited by %s)", o.Theoretical, o.BlocksPerSM, o.WarpsPerSM, o.Limiter)
	if o.Achieved >= 0 {
		s += fmt.Sprintf(", achieved %.1f%%", o.Achieved)
	}
	return s
}

func pctOf(n, d float64) string {
	if d == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*n/d)
}

func writeAdvice(b *strings.Builder, p *Profile, k *kernel) {
	adv := advise(p, k)
	b.WriteString(`<div class="advice"><h3>Guided advice</h3>`)
	if len(adv) == 0 {
		b.WriteString(`<p class="none">No rule fired: the counters show no uncoalesced access, bank conflict, divergence, spill or occupancy problem.</p></div>`)
		return
	}
	b.WriteString("<ul>")
	for _, a := range adv {
		fmt.Fprintf(b, `<li class="rule sev%d" data-rule="%s"><b>%s.</b> %s`, a.Severity, a.Rule, esc(a.Title), esc(a.Detail))
		if len(a.Sites) > 0 {
			b.WriteString(` <span class="where">Go to:`)
			for _, s := range a.Sites {
				fmt.Fprintf(b, ` <a href="#%s">%s</a>`, s.anchor, esc(s.label))
			}
			b.WriteString("</span>")
		}
		fmt.Fprintf(b, `<br><i>Fix:</i> %s</li>`, esc(a.Fix))
	}
	b.WriteString("</ul></div>\n")
}

func writeCharts(b *strings.Builder, p *Profile, k *kernel) {
	l := k.first
	t := &k.total
	b.WriteString(`<div class="charts">`)
	// Warp states.
	b.WriteString(`<figure>`)
	if len(k.names) > 0 && sumU(k.stalls) > 0 {
		var labels []string
		var vals []float64
		type sv struct {
			n string
			v uint64
		}
		var all []sv
		for i, n := range k.names {
			all = append(all, sv{n, k.stalls[i]})
		}
		sort.SliceStable(all, func(i, j int) bool { return all[i].v > all[j].v })
		total := float64(sumU(k.stalls))
		for _, s := range all {
			if s.v == 0 {
				continue
			}
			labels = append(labels, s.n)
			vals = append(vals, 100*float64(s.v)/total)
		}
		b.WriteString(hbars("stalls", "Warp states (share of warp-cycles)", labels, vals, func(v float64) string { return fmt.Sprintf("%.1f%%", v) }))
	} else {
		b.WriteString(hbars("stalls", "Warp states: run with --mode timing", nil, nil, nil))
	}
	b.WriteString(`<figcaption>Where resident warps spent their cycles (ncu's warp states).</figcaption></figure>`)
	// Memory workload.
	b.WriteString(`<figure>`)
	b.WriteString(pairBars("memory", "Memory workload",
		[]string{"Global loads", "Global stores", "Shared loads", "Shared stores"},
		[]float64{float64(t.GldSectors), float64(t.GstSectors), float64(t.ShLdWavefronts), float64(t.ShStWavefronts)},
		[]float64{float64(t.GldIdeal), float64(t.GstIdeal), float64(t.ShLdWavefronts - t.ShLdConflicts), float64(t.ShStWavefronts - t.ShStConflicts)},
		"sectors / wavefronts", "ideal"))
	labels := []string{"L2 hit rate", "DRAM bandwidth"}
	vals := []float64{-1, -1}
	notes := []string{"timing mode", "timing mode"}
	if v, ok := l.Metrics["l2_hit_rate"]; ok {
		vals[0], notes[0] = v, ""
	}
	if k.duration > 0 && p.Arch.DRAMBandwidth > 0 {
		bw := k.dram / (k.duration * 1e-9)
		vals[1] = 100 * bw / p.Arch.DRAMBandwidth
		notes[1] = fmt.Sprintf("%.1f GB/s of %.0f", bw/1e9, p.Arch.DRAMBandwidth/1e9)
	}
	b.WriteString(pctBars("memory-rates", "Caches and DRAM", labels, vals, notes))
	fmt.Fprintf(b, `<figcaption>%d global load and %d store requests; %s DRAM bytes; %d atomics; %d local requests.</figcaption></figure>`,
		t.GldRequests, t.GstRequests, human(k.dram), t.Atomics, t.LocalLd+t.LocalSt)
	// Occupancy.
	o := l.Occupancy
	b.WriteString(`<figure>`)
	ach, achNote := o.Achieved, ""
	if ach < 0 {
		achNote = "timing mode"
	}
	b.WriteString(pctBars("occupancy", "Occupancy (limited by "+o.Limiter+")", []string{"Theoretical", "Achieved"}, []float64{o.Theoretical, ach}, []string{"", achNote}))
	b.WriteString(`<div class="curves">`)
	for _, c := range o.Curves {
		b.WriteString(curveChart(c))
	}
	b.WriteString(`</div><figcaption>The occupancy calculator's curves: the dot is this launch.</figcaption></figure>`)
	// Roofline.
	b.WriteString(`<figure>`)
	bytes, from := k.dram, "DRAM"
	if bytes == 0 {
		bytes, from = 32*float64(t.GldSectors+t.GstSectors), "global (L1)"
	}
	b.WriteString(roofline(p.Arch, float64(t.Inst), bytes, k.duration*1e-9, from))
	b.WriteString(`<figcaption>Instruction roofline: the kernel's warp instructions per second against its instructions per DRAM sector.</figcaption></figure>`)
	b.WriteString("</div>\n")
}

// writeSource writes the .cu lines and the PTX side by side.
func writeSource(b *strings.Builder, p *Profile, k *kernel) {
	warp := p.Arch.WarpSize
	b.WriteString(`<div class="source"><h3>Source</h3><p class="controls">Colour by <select class="metric">`)
	for _, c := range columns {
		if c.key == "idle" || c.key == "gld" || c.key == "gst" {
			continue
		}
		fmt.Fprintf(b, `<option value="%s">%s</option>`, c.key, esc(c.head))
	}
	b.WriteString(`</select> · click a line to see its partner in the other view.</p><div class="panes">`)
	// .cu view: each file's lines around the kernel's.
	type span struct{ lo, hi int }
	spans := map[int]*span{}
	var files []int
	for _, sl := range k.lines {
		s := spans[sl.file]
		if s == nil {
			s = &span{sl.line, sl.line}
			spans[sl.file] = s
			files = append(files, sl.file)
		}
		s.lo, s.hi = min(s.lo, sl.line), max(s.hi, sl.line)
	}
	byLine := map[lineKey]*srcLine{}
	for i := range k.lines {
		byLine[lineKey{k.lines[i].file, k.lines[i].line}] = &k.lines[i]
	}
	if len(files) > 0 {
		b.WriteString(`<div class="pane"><table class="src">`)
		for _, f := range files {
			src := p.Sources[f]
			s := spans[f]
			lo, hi := max(s.lo-2, 1), s.hi+2
			if len(src.Lines) > 0 {
				hi = min(hi, len(src.Lines))
			} else {
				hi = s.hi
			}
			fmt.Fprintf(b, `<thead><tr><th colspan="2">%s</th>`, esc(filepath.Base(src.Path)))
			writeHeads(b)
			b.WriteString("</tr></thead><tbody>")
			for ln := lo; ln <= hi; ln++ {
				text := ""
				if ln-1 < len(src.Lines) {
					text = src.Lines[ln-1]
				}
				sl := byLine[lineKey{f, ln}]
				if sl == nil {
					fmt.Fprintf(b, `<tr class="quiet"><td class="ln">%d</td><td class="code heat">%s</td></tr>`, ln, esc(text))
					continue
				}
				fmt.Fprintf(b, `<tr id="%s" data-file="%d" data-line="%d"`, cuAnchor(k, f, ln), f, ln)
				writeData(b, &sl.Counts, sl.stalls, warp)
				fmt.Fprintf(b, `><td class="ln">%d</td><td class="code heat" title="%s">%s</td>`, ln, esc(text), esc(text))
				writeCells(b, &sl.Counts, sl.stalls, warp, false)
				b.WriteString("</tr>")
			}
			b.WriteString("</tbody>")
		}
		b.WriteString("</table></div>")
	}
	// PTX view.
	b.WriteString(`<div class="pane"><table class="ptx">`)
	for fi, f := range k.funcs {
		fmt.Fprintf(b, `<thead><tr><th colspan="2">PTX %s</th><th>.cu</th>`, esc(f.Name))
		writeHeads(b)
		b.WriteString("</tr></thead><tbody>")
		for _, in := range f.Insts {
			st := sumU(in.Stalls)
			fmt.Fprintf(b, `<tr id="%s" data-pc="%d"`, ptxAnchor(k, fi, in.PC), in.PC)
			if in.File >= 0 {
				fmt.Fprintf(b, ` data-file="%d" data-line="%d"`, in.File, in.Line)
			}
			writeData(b, &in.Counts, st, warp)
			loc := ""
			if in.File >= 0 {
				loc = fmt.Sprint(in.Line)
			}
			fmt.Fprintf(b, `><td class="ln">%d</td><td class="code heat">%s</td><td class="ln">%s</td>`, in.PTXLine, esc(in.Text), loc)
			writeCells(b, &in.Counts, st, warp, false)
			b.WriteString("</tr>")
		}
		b.WriteString("</tbody>")
	}
	b.WriteString("</table></div></div></div>\n")
}

func writeHeads(b *strings.Builder) {
	for _, c := range columns {
		fmt.Fprintf(b, `<th title="%s">%s</th>`, esc(c.tip), esc(c.head))
	}
}

func writeData(b *strings.Builder, c *Counts, stalls uint64, warp int) {
	for _, col := range columns {
		if _, v := col.value(c, stalls, warp); v != 0 {
			fmt.Fprintf(b, ` data-%s="%g"`, col.key, v)
		}
	}
}

// writeCells writes a line's counts; sortable tables carry each value in
// data-v (the source views' rows carry them as data attributes already,
// and leave empty cells empty to stay small at thousands of lines).
func writeCells(b *strings.Builder, c *Counts, stalls uint64, warp int, sortable bool) {
	for _, col := range columns {
		t, v := col.value(c, stalls, warp)
		switch {
		case sortable:
			fmt.Fprintf(b, `<td class="n c-%s" data-v="%g">%s</td>`, col.key, v, t)
		case t == "":
			b.WriteString("<td></td>")
		default:
			fmt.Fprintf(b, `<td class="n c-%s">%s</td>`, col.key, t)
		}
	}
}

// writeHotSpots lists the sites by warp instructions, sortable by any
// column.
func writeHotSpots(b *strings.Builder, p *Profile, k *kernel) {
	sites := k.sites(p)
	sort.SliceStable(sites, func(i, j int) bool { return sites[i].Inst > sites[j].Inst })
	const most = 200
	b.WriteString(`<div class="hot"><h3>Hot spots</h3><p class="controls">Click a column to sort.`)
	if len(sites) > most {
		fmt.Fprintf(b, ` The %d busiest of %d lines.`, most, len(sites))
		sites = sites[:most]
	}
	b.WriteString(`</p><table class="hot sortable"><thead><tr><th>Line</th>`)
	writeHeads(b)
	b.WriteString(`<th>Code</th></tr></thead><tbody>`)
	for _, s := range sites {
		if s.Inst == 0 {
			continue
		}
		fmt.Fprintf(b, `<tr><td><a href="#%s">%s</a></td>`, s.anchor, esc(s.label))
		writeCells(b, &s.Counts, s.stalls, p.Arch.WarpSize, true)
		fmt.Fprintf(b, `<td class="code">%s</td></tr>`, esc(clip(s.text, 90)))
	}
	b.WriteString("</tbody></table></div>\n")
}

// writeCompare tabulates the kernels side by side: what a lesson that
// compares versions of a kernel (coarsening factors, reductions) is about.
func writeCompare(b *strings.Builder, p *Profile, ks []*kernel) {
	b.WriteString(`<table class="hot sortable compare"><thead><tr><th>Kernel</th><th>Launches</th><th>Time</th><th>Warp inst</th><th title="branch efficiency">Branch eff. %</th><th title="global load sectors (ideal)">Gld sectors</th><th title="global store sectors (ideal)">Gst sectors</th><th title="shared-memory load wavefronts">Sh. ld wavefr.</th><th title="shared-memory store wavefronts">Sh. st wavefr.</th><th>Bank confl.</th><th title="local-memory requests">Local</th><th title="achieved in timing mode, else theoretical">Occupancy %</th></tr></thead><tbody>`)
	for _, k := range ks {
		t := &k.total
		eff := 100.0
		if t.Branch > 0 {
			eff = 100 * float64(t.Branch-t.DivergentBranch) / float64(t.Branch)
		}
		occ := k.first.Occupancy.Theoretical
		if k.first.Occupancy.Achieved >= 0 {
			occ = k.first.Occupancy.Achieved
		}
		fmt.Fprintf(b, `<tr><td><a href="#%s">%s</a></td><td class="n" data-v="%d">%d</td><td class="n" data-v="%g">%s</td><td class="n" data-v="%d">%s</td><td class="n" data-v="%g">%.1f</td><td class="n" data-v="%d">%s (%s)</td><td class="n" data-v="%d">%s (%s)</td><td class="n" data-v="%d">%s</td><td class="n" data-v="%d">%s</td><td class="n" data-v="%d">%s</td><td class="n" data-v="%d">%s</td><td class="n" data-v="%g">%.1f</td></tr>`,
			k.id, esc(clip(k.name, 44)), len(k.launches), len(k.launches), k.duration, timeOrDash(k.duration),
			t.Inst, human(float64(t.Inst)), eff, eff,
			t.GldSectors, human(float64(t.GldSectors)), human(float64(t.GldIdeal)),
			t.GstSectors, human(float64(t.GstSectors)), human(float64(t.GstIdeal)),
			t.ShLdWavefronts, human(float64(t.ShLdWavefronts)), t.ShStWavefronts, human(float64(t.ShStWavefronts)),
			t.ShLdConflicts+t.ShStConflicts, human(float64(t.ShLdConflicts+t.ShStConflicts)),
			t.LocalLd+t.LocalSt, human(float64(t.LocalLd+t.LocalSt)), occ, occ)
	}
	b.WriteString("</tbody></table>")
}

func timeOrDash(ns float64) string {
	if ns <= 0 {
		return "–"
	}
	return nsText(ns)
}

// branchEff is branch_efficiency as nvprof reports it: 100 when no branch
// ran.
func branchEff(t *Counts) string {
	if t.Branch == 0 {
		return "100% (no branch executed)"
	}
	return pctOf(float64(t.Branch-t.DivergentBranch), float64(t.Branch))
}
