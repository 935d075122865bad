package report

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/metrics"
)

// LineMap places an instruction on a source line when its PTX carries no
// .loc (the lessons' nvcc PTX): ok false leaves it without one.
type LineMap func(fn string, ptxLine int, text string) (file string, line int, ok bool)

// Options shape a profile built from launch results.
type Options struct {
	Title, Command string
	Notes          []string
	// ReadSource returns a source file's text (os.ReadFile when nil).
	ReadSource func(path string) ([]byte, error)
	// Map places instructions without .loc on source lines.
	Map LineMap
}

// NewArch describes a for the report.
func NewArch(a *arch.Arch) Arch {
	return Arch{
		Name: a.Name, FullName: a.FullName, CC: fmt.Sprintf("%d.%d", a.Major, a.Minor),
		SMs: a.SMs, WarpSize: a.WarpSize, SubPartitions: a.SubPartitions, MaxThreadsPerBlock: a.MaxThreadsPerBlock,
		MaxWarpsPerSM: a.MaxWarpsPerSM, MaxBlocksPerSM: a.MaxBlocksPerSM, RegsPerSM: a.RegsPerSM, RegsPerThread: a.RegsPerThread,
		SharedPerSM: a.SharedPerSM, ClockMHz: float64(a.ClockKHz) / 1000, DRAMBandwidth: a.MemBandwidth(),
		PeakWarpInstPerSec: float64(a.SMs) * float64(max(a.SubPartitions, 1)) * float64(a.ClockKHz) * 1e3,
	}
}

// Builder collects launch results into a Profile.
type Builder struct {
	arch    *arch.Arch
	opt     Options
	p       *Profile
	sources map[string]int
}

// NewBuilder starts a profile of runs on a in mode ("functional" or
// "timing").
func NewBuilder(a *arch.Arch, mode string, opt Options) *Builder {
	if opt.ReadSource == nil {
		opt.ReadSource = os.ReadFile
	}
	return &Builder{arch: a, opt: opt, sources: map[string]int{},
		p: &Profile{Version: Version, Tool: "warpsim", Title: opt.Title, Command: opt.Command, Mode: mode, Arch: NewArch(a), Notes: opt.Notes}}
}

// Profile returns the profile built so far.
func (b *Builder) Profile() *Profile { return b.p }

// Add appends every grid of a launch result.
func (b *Builder) Add(res *warpsim.LaunchResult) {
	base := len(b.p.Launches)
	for _, g := range res.Grids {
		parent := -1
		if g.Parent >= 0 {
			parent = base + g.Parent
		}
		b.AddGrid(&g, parent)
	}
}

// AddGrid appends one grid (parent: its launcher's index, or -1).
func (b *Builder) AddGrid(g *warpsim.GridResult, parent int) {
	k := g.Kernel
	name := k.DemangledName()
	if name == "" {
		name = k.Name()
	}
	b.AddLaunch(LaunchInput{
		Kernel: name, Func: k.Name(),
		Grid:  [3]uint32{g.Config.Grid.X, g.Config.Grid.Y, g.Config.Grid.Z},
		Block: [3]uint32{g.Config.Block.X, g.Config.Block.Y, g.Config.Block.Z},
		Regs:  k.RegsPerThread(), StaticSh: k.StaticSharedBytes(), DynamicSh: int(g.Config.SharedBytes), LocalBytes: k.LocalBytes(),
		FromDevice: g.FromDevice, Parent: parent, Counters: g.Counters, Timing: g.Timing, Lines: g.Lines,
	})
}

// LaunchInput is one grid as the simulator reported it, for AddLaunch.
type LaunchInput struct {
	Kernel, Func                          string
	Grid, Block                           [3]uint32
	Regs, StaticSh, DynamicSh, LocalBytes int
	FromDevice                            bool
	Parent                                int // index of the launching grid, or -1
	Counters                              metrics.Counters
	Timing                                *metrics.Timing
	Lines                                 []metrics.FuncLines
	Fault                                 string
	// PCStalls are per-instruction stall samples (timing mode).
	PCStalls []PCStalls
	// StartNS and DurationNS, when DurationNS is set, override the
	// timing's (the runtime's stream clock).
	StartNS, DurationNS float64
}

// AddLaunch appends one grid.
func (b *Builder) AddLaunch(in LaunchInput) {
	block := int(in.Block[0] * in.Block[1] * in.Block[2])
	pl := metrics.Launch{BlockThreads: block, RegsPerThread: in.Regs, StaticShared: in.StaticSh, DynamicShared: in.DynamicSh, Timing: in.Timing}
	l := Launch{
		Index: len(b.p.Launches), Kernel: in.Kernel, Func: in.Func, Grid: in.Grid, Block: in.Block,
		Regs: in.Regs, StaticSh: in.StaticSh, DynamicSh: in.DynamicSh, LocalBytes: in.LocalBytes,
		FromDevice: in.FromDevice, Parent: in.Parent, Fault: in.Fault, Metrics: map[string]float64{},
	}
	for _, m := range metrics.Compute(in.Counters, b.arch, pl) {
		if m.Available && !math.IsNaN(m.Value) && !math.IsInf(m.Value, 0) {
			l.Metrics[m.Name] = m.Value
		}
	}
	if t := in.Timing; t != nil {
		l.Cycles = t.Cycles
		if t.ClockHz > 0 {
			l.StartNS = float64(t.StartCycle) * 1e9 / t.ClockHz
			l.DurationNS = float64(t.Cycles) * 1e9 / t.ClockHz
		}
		l.StallNames = append([]string(nil), t.StallNames...)
		l.Stalls = append([]uint64(nil), t.Stalls...)
	}
	if in.DurationNS > 0 {
		l.StartNS, l.DurationNS = in.StartNS, in.DurationNS
	}
	l.Occupancy = b.occupancy(pl, l.Metrics)
	for _, fl := range in.Lines {
		l.Funcs = append(l.Funcs, b.function(&fl))
	}
	pcs := in.PCStalls
	if len(pcs) == 0 && in.Timing != nil {
		for _, s := range in.Timing.PCStalls {
			pcs = append(pcs, PCStalls{Func: s.Func, PC: s.PC, Stalls: s.Stalls})
		}
	}
	AttachPCStalls(&l, pcs)
	b.p.Launches = append(b.p.Launches, l)
}

// SetFault marks the last launch as faulted.
func (b *Builder) SetFault(msg string) {
	if n := len(b.p.Launches); n > 0 {
		b.p.Launches[n-1].Fault = msg
	}
}

func (b *Builder) occupancy(pl metrics.Launch, ms map[string]float64) Occupancy {
	a := b.arch
	in := arch.OccupancyInput{BlockSize: pl.BlockThreads, RegsPerThread: pl.RegsPerThread, StaticShared: pl.StaticShared, DynamicShared: pl.DynamicShared}
	r := a.Occupancy(in)
	o := Occupancy{Theoretical: 100 * r.Occupancy, Achieved: -1, BlocksPerSM: r.BlocksPerSM, WarpsPerSM: r.WarpsPerSM, Limiter: r.LimitNames()}
	if v, ok := ms["achieved_occupancy"]; ok {
		o.Achieved = v // percent
	}
	// The calculator's three charts, as `warpsim occupancy --plot` draws
	// them: one input varied, the others held.
	var blocks, regs, smem []int
	for bs := a.WarpSize; bs <= a.MaxThreadsPerBlock; bs += a.WarpSize {
		blocks = append(blocks, bs)
	}
	for r := 1; r <= a.RegsPerThread; r++ {
		regs = append(regs, r)
	}
	maxShared, step := a.SharedPerBlockOptin, max(a.SharedAllocUnit, 1)
	if maxShared/step > 256 {
		step = maxShared / 256 / step * step
	}
	for s := 0; s <= maxShared; s += step {
		smem = append(smem, s)
	}
	curve := func(title, xl string, xs []int, cur int, vary func(q *arch.OccupancyInput, x int)) Curve {
		c := Curve{Title: title, XLabel: xl, X: xs, Current: cur}
		for _, x := range xs {
			q := in
			vary(&q, x)
			c.Y = append(c.Y, 100*a.Occupancy(q).Occupancy)
		}
		return c
	}
	o.Curves = []Curve{
		curve("Varying block size", "threads per block", blocks, in.BlockSize, func(q *arch.OccupancyInput, x int) { q.BlockSize = x }),
		curve("Varying registers", "registers per thread", regs, in.RegsPerThread, func(q *arch.OccupancyInput, x int) { q.RegsPerThread = x }),
		curve("Varying shared memory", "shared bytes per block", smem, in.StaticShared+in.DynamicShared,
			func(q *arch.OccupancyInput, x int) { q.StaticShared, q.DynamicShared = 0, x }),
	}
	return o
}

// function converts one function's per-instruction counts.
func (b *Builder) function(fl *metrics.FuncLines) Func {
	f := Func{Name: fl.Func, Entry: fl.Entry, Insts: make([]Inst, len(fl.Counts))}
	for pc := range fl.Counts {
		c := &fl.Counts[pc]
		in := Inst{PC: pc, File: -1, Counts: Counts{
			Inst: c.Inst, ThreadInst: c.ThreadInst, PredOff: c.PredOff, Branch: c.Branch, DivergentBranch: c.DivergentBranch,
			GldRequests: c.GldRequests, GldSectors: c.GldSectors, GldIdeal: c.GldIdealSectors, GldBytes: c.GldBytes,
			GstRequests: c.GstRequests, GstSectors: c.GstSectors, GstIdeal: c.GstIdealSectors, GstBytes: c.GstBytes,
			ShLdRequests: c.SharedLdRequests, ShStRequests: c.SharedStRequests, ShLdWavefronts: c.SharedLdWavefronts,
			ShStWavefronts: c.SharedStWavefronts, ShLdConflicts: c.SharedLdConflicts, ShStConflicts: c.SharedStConflicts,
			Atomics: c.Atomics, LocalLd: c.LocalLdRequests, LocalSt: c.LocalStRequests,
		}}
		if pc < len(fl.Text) {
			in.Text = strings.TrimSpace(fl.Text[pc])
		}
		if pc < len(fl.Lines) {
			li := fl.Lines[pc]
			in.PTXLine = li.PTXLine
			file, line := li.SrcFile, li.SrcLine
			if line <= 0 && b.opt.Map != nil {
				if mf, ml, ok := b.opt.Map(fl.Func, li.PTXLine, in.Text); ok {
					file, line = mf, ml
				}
			}
			if line > 0 && file != "" {
				in.File, in.Line = b.source(file), line
			}
		}
		f.Insts[pc] = in
	}
	return f
}

// source returns the index of a source file in the profile, reading its
// text the first time (a file that cannot be read is listed without
// lines: the report then shows line numbers only).
func (b *Builder) source(path string) int {
	if i, ok := b.sources[path]; ok {
		return i
	}
	s := Source{Path: path}
	if data, err := b.opt.ReadSource(path); err == nil {
		s.Lines = strings.Split(strings.TrimSuffix(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n"), "\n")
	}
	b.p.Sources = append(b.p.Sources, s)
	b.sources[path] = len(b.p.Sources) - 1
	return len(b.p.Sources) - 1
}

// PCStalls are the warp-cycles warps spent waiting at one instruction, by
// stall reason (Launch.StallNames' order): what the timing model samples
// per pc when asked to.
type PCStalls struct {
	Func   string
	PC     int
	Stalls []uint64
}

// AttachPCStalls puts per-instruction stall samples on a launch's
// instructions; samples of a function or pc the launch has no counts for
// are dropped.
func AttachPCStalls(l *Launch, pcs []PCStalls) {
	for _, s := range pcs {
		for fi := range l.Funcs {
			f := &l.Funcs[fi]
			if f.Name != s.Func || s.PC < 0 || s.PC >= len(f.Insts) {
				continue
			}
			n := min(len(s.Stalls), len(l.StallNames))
			f.Insts[s.PC].Stalls = append([]uint64(nil), s.Stalls[:n]...)
		}
	}
}
