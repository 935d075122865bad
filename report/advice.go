package report

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
)

// site is where counts are attributed for advice and hot spots: a source
// line, or a PTX instruction that has none.
type site struct {
	label  string // "reduce.cu:6" or "PTX 123 (reduceNeighbored+12)"
	anchor string // the HTML id of its row in the source view
	Counts
	stalls uint64
	text   string // the source line or instruction text
}

// sites lists the kernel's sites: its source lines, then instructions
// without one.
func (k *kernel) sites(p *Profile) []site {
	var out []site
	for _, sl := range k.lines {
		s := site{label: srcLabel(p, sl.file, sl.line), anchor: cuAnchor(k, sl.file, sl.line), Counts: sl.Counts, stalls: sl.stalls}
		if src := p.Sources[sl.file]; sl.line-1 < len(src.Lines) {
			s.text = strings.TrimSpace(src.Lines[sl.line-1])
		}
		out = append(out, s)
	}
	for fi, f := range k.funcs {
		for _, in := range f.Insts {
			if in.File >= 0 {
				continue
			}
			out = append(out, site{label: fmt.Sprintf("PTX line %d (%s)", in.PTXLine, f.Name), anchor: ptxAnchor(k, fi, in.PC),
				Counts: in.Counts, stalls: sumU(in.Stalls), text: in.Text})
		}
	}
	return out
}

func srcLabel(p *Profile, file, line int) string {
	return fmt.Sprintf("%s:%d", filepath.Base(p.Sources[file].Path), line)
}

func cuAnchor(k *kernel, file, line int) string { return fmt.Sprintf("%s-f%d-L%d", k.id, file, line) }
func ptxAnchor(k *kernel, fi, pc int) string    { return fmt.Sprintf("%s-fn%d-pc%d", k.id, fi, pc) }

// Advice is one rule that fired: what the counters show, where, and the
// usual fix.
type Advice struct {
	Rule     string // stable id: "uncoalesced-load", …
	Title    string
	Detail   string
	Fix      string
	Severity int // 2 high, 1 medium
	Sites    []site
}

// advise runs the rules over one kernel.
func advise(p *Profile, k *kernel) []Advice {
	var out []Advice
	sites := k.sites(p)
	top := func(score func(s *site) float64, n int) []site {
		var c []site
		for i := range sites {
			if score(&sites[i]) > 0 {
				c = append(c, sites[i])
			}
		}
		sort.SliceStable(c, func(i, j int) bool { return score(&c[i]) > score(&c[j]) })
		if len(c) > n {
			c = c[:n]
		}
		return c
	}
	t := &k.total
	l := k.first

	// Uncoalesced global accesses: more sectors per request than the bytes
	// need.
	for _, g := range []struct {
		rule, what      string
		req, sec, ideal func(c *Counts) uint64
	}{
		{"uncoalesced-load", "loads", func(c *Counts) uint64 { return c.GldRequests }, func(c *Counts) uint64 { return c.GldSectors }, func(c *Counts) uint64 { return c.GldIdeal }},
		{"uncoalesced-store", "stores", func(c *Counts) uint64 { return c.GstRequests }, func(c *Counts) uint64 { return c.GstSectors }, func(c *Counts) uint64 { return c.GstIdeal }},
	} {
		sec, ideal := g.sec(t), g.ideal(t)
		if g.req(t) == 0 || float64(sec) < 1.25*float64(ideal) {
			continue
		}
		bad := top(func(s *site) float64 {
			x, i := g.sec(&s.Counts), g.ideal(&s.Counts)
			if g.req(&s.Counts) == 0 || float64(x) < 1.25*float64(i) {
				return 0
			}
			return float64(x - i)
		}, 5)
		if len(bad) == 0 {
			continue
		}
		b := &bad[0]
		out = append(out, Advice{Rule: g.rule, Severity: 2,
			Title: "Uncoalesced global " + g.what,
			Detail: fmt.Sprintf("Global %s touch %d sectors where %d would hold the bytes (%.0f%% excess). At %s: %.1f sectors per request, %.1f expected.",
				g.what, sec, ideal, 100*float64(sec-ideal)/float64(max(ideal, 1)), b.label,
				ratioF(g.sec(&b.Counts), g.req(&b.Counts)), ratioF(g.ideal(&b.Counts), g.req(&b.Counts))),
			Fix:   "Have consecutive threads of a warp access consecutive addresses (threadIdx.x indexing the fastest-moving dimension), or stage the data through shared memory.",
			Sites: bad})
	}

	// Shared-memory bank conflicts.
	if c := t.ShLdConflicts + t.ShStConflicts; c > 0 {
		w := t.ShLdWavefronts + t.ShStWavefronts
		bad := top(func(s *site) float64 { return float64(s.ShLdConflicts + s.ShStConflicts) }, 5)
		out = append(out, Advice{Rule: "bank-conflicts", Severity: sev(float64(c)/float64(max(w, 1)) > 0.2),
			Title:  "Shared-memory bank conflicts",
			Detail: fmt.Sprintf("%d of %d shared-memory wavefronts (%.0f%%) are bank conflicts.", c, w, 100*float64(c)/float64(max(w, 1))),
			Fix:    "Pad the shared array (e.g. [TILE][TILE+1]) or change the index so the lanes of a warp hit distinct banks.",
			Sites:  bad})
	}

	// Divergent branches.
	if t.DivergentBranch > 0 {
		bad := top(func(s *site) float64 { return float64(s.DivergentBranch) }, 5)
		eff := 100.0
		if t.Branch > 0 {
			eff = 100 * float64(t.Branch-t.DivergentBranch) / float64(t.Branch)
		}
		b := &bad[0]
		out = append(out, Advice{Rule: "divergent-branch", Severity: sev(eff < 90),
			Title: "Divergent branches",
			Detail: fmt.Sprintf("%d of %d branches diverged (branch efficiency %.1f%%). At %s: %d of %d executions split the warp.",
				t.DivergentBranch, t.Branch, eff, b.label, b.DivergentBranch, b.Branch),
			Fix:   "Make the condition uniform within a warp (branch on the warp index, e.g. (tid/32)%2, not tid%2) or remap work so the active threads are contiguous.",
			Sites: bad})
	}

	// Idle lanes: low warp execution efficiency without divergence shows
	// up as predicated-off lanes or partial warps.
	if t.Inst > 0 && p.Arch.WarpSize > 0 {
		eff := 100 * float64(t.ThreadInst-t.PredOff) / float64(t.Inst*uint64(p.Arch.WarpSize))
		if eff < 60 && t.DivergentBranch == 0 {
			bad := top(func(s *site) float64 { return float64(s.Inst*uint64(p.Arch.WarpSize) - (s.ThreadInst - s.PredOff)) }, 5)
			out = append(out, Advice{Rule: "idle-lanes", Severity: 1, Title: "Idle lanes",
				Detail: fmt.Sprintf("Only %.1f%% of the lanes of issued instructions did work (predicated-off or inactive lanes).", eff),
				Fix:    "Give every lane of a warp work: block sizes that are multiples of 32 and conditions uniform within a warp.",
				Sites:  bad})
		}
	}

	// Local memory: spills and stack arrays.
	if t.LocalLd+t.LocalSt > 0 {
		bad := top(func(s *site) float64 { return float64(s.LocalLd + s.LocalSt) }, 5)
		out = append(out, Advice{Rule: "local-memory", Severity: 1, Title: "Local-memory traffic (spills, stack arrays)",
			Detail: fmt.Sprintf("%d local loads and %d local stores (%d bytes of local memory per thread).", t.LocalLd, t.LocalSt, l.LocalBytes),
			Fix:    "Index per-thread arrays with compile-time constants (unrolled loops) so they stay in registers, or lower register pressure so nothing spills.",
			Sites:  bad})
	}

	// Occupancy: theoretical, then achieved against it.
	o := l.Occupancy
	if o.Theoretical > 0 && o.Theoretical < 50 {
		out = append(out, Advice{Rule: "low-theoretical-occupancy", Severity: 1, Title: "Low theoretical occupancy",
			Detail: fmt.Sprintf("At most %d warps per SM can be resident (%.1f%% of %d), limited by %s.", o.WarpsPerSM, o.Theoretical, p.Arch.MaxWarpsPerSM, o.Limiter),
			Fix:    limiterFix(o.Limiter)})
	}
	if o.Achieved >= 0 && o.Theoretical > 0 && o.Achieved < 0.8*o.Theoretical {
		out = append(out, Advice{Rule: "low-achieved-occupancy", Severity: 1, Title: "Achieved occupancy well below theoretical",
			Detail: fmt.Sprintf("Achieved %.1f%% against %.1f%% theoretical: SMs held fewer warps than they could (too few blocks, a partial last wave, or warps finishing unevenly).", o.Achieved, o.Theoretical),
			Fix:    "Launch enough blocks to fill every SM several times over and balance the work per block."})
	}

	// Tail effect: a last wave that fills a small part of the GPU.
	blocks := int(l.Grid[0]) * int(l.Grid[1]) * int(l.Grid[2])
	if per := o.BlocksPerSM * p.Arch.SMs; per > 0 && blocks > per {
		waves := float64(blocks) / float64(per)
		if frac := waves - math.Floor(waves); frac > 0 && frac < 0.5 && waves < 8 {
			out = append(out, Advice{Rule: "tail-effect", Severity: 1, Title: "Tail effect",
				Detail: fmt.Sprintf("%d blocks at %d per SM on %d SMs make %.2f waves: the last wave fills %.0f%% of the GPU.", blocks, o.BlocksPerSM, p.Arch.SMs, waves, 100*frac),
				Fix:    "Choose a grid size that is a multiple of SMs × blocks per SM, or smaller blocks so the last wave is fuller."})
		}
	}

	// Tiny grids: fewer blocks than SMs.
	if blocks < p.Arch.SMs && !l.FromDevice {
		out = append(out, Advice{Rule: "tiny-grid", Severity: 1, Title: "Launch-bound tiny grid",
			Detail: fmt.Sprintf("%d block(s) on a GPU of %d SMs: %d SMs stay idle and the launch overhead dominates.", blocks, p.Arch.SMs, p.Arch.SMs-blocks),
			Fix:    "Give the launch more blocks (more work per launch, smaller blocks, or fuse small kernels)."})
	}

	// Barrier stalls (timing).
	if len(k.names) > 0 {
		var all, bar uint64
		for i, n := range k.names {
			if n == "selected" {
				continue
			}
			all += k.stalls[i]
			if n == "barrier" {
				bar += k.stalls[i]
			}
		}
		if all > 0 && float64(bar) > 0.2*float64(all) {
			bad := top(func(s *site) float64 {
				if s.stalls > 0 {
					return float64(s.stalls)
				}
				if strings.Contains(s.text, "bar.sync") || strings.Contains(s.text, "__syncthreads") || strings.Contains(s.text, "barrier") {
					return float64(s.Inst)
				}
				return 0
			}, 5)
			out = append(out, Advice{Rule: "barrier-stalls", Severity: 1, Title: "Warps wait at barriers",
				Detail: fmt.Sprintf("%.0f%% of the warps' stalled cycles are at barriers.", 100*float64(bar)/float64(all)),
				Fix:    "Balance the work between barriers, drop barriers a warp does not need, and finish the last steps with warp shuffles.",
				Sites:  bad})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Severity > out[j].Severity })
	return out
}

func sev(high bool) int {
	if high {
		return 2
	}
	return 1
}

func ratioF(n, d uint64) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

func limiterFix(lim string) string {
	switch {
	case strings.Contains(lim, "registers"):
		return "Use fewer registers per thread (__launch_bounds__, simpler live ranges) so more warps fit."
	case strings.Contains(lim, "shared"):
		return "Use less shared memory per block (smaller tiles) so more blocks fit on an SM."
	case strings.Contains(lim, "blocks"):
		return "Use larger blocks: the SM's block slots run out before its warp slots."
	}
	return "Use larger blocks or more of them per SM."
}
