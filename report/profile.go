// Package report renders warpsim's HTML report: one self-contained page
// (styles, scripts and SVG charts inline, nothing fetched) with, per kernel,
// a summary, the source view (.cu and PTX side by side, each line's
// counts), the warp-state, memory, occupancy and roofline charts, the
// timeline of launches and guided advice. The profile JSON defined here
// (Profile) is the contract between simulation and rendering: `warpsim
// prof/run --export` write it, `warpsim report` reads it back.
package report

import (
	"encoding/json"
	"fmt"
	"io"
)

// Version is the profile JSON's format version; Read refuses others.
const Version = 1

// Profile is one run: the arch it simulated and every launch with its
// metrics and per-instruction counts.
type Profile struct {
	Version int    `json:"version"`
	Tool    string `json:"tool"`              // "warpsim"
	Title   string `json:"title,omitempty"`   // what the report's heading says
	Command string `json:"command,omitempty"` // the command that was profiled
	Mode    string `json:"mode"`              // "functional" or "timing"
	Arch    Arch   `json:"arch"`
	// Sources are the text of the source files the instructions' .loc
	// (or a lesson's line map) name; Inst.File indexes them.
	Sources  []Source `json:"sources,omitempty"`
	Launches []Launch `json:"launches"`
	// Notes are free remarks shown under the heading (a lesson's point).
	Notes []string `json:"notes,omitempty"`
}

// Source is a source file's text, one string per line.
type Source struct {
	Path  string   `json:"path"`
	Lines []string `json:"lines"`
}

// Arch is the simulated GPU's figures the report shows and the charts
// compare against.
type Arch struct {
	Name               string  `json:"name"`
	FullName           string  `json:"full_name"`
	CC                 string  `json:"cc"` // compute capability, "9.0"
	SMs                int     `json:"sms"`
	WarpSize           int     `json:"warp_size"`
	SubPartitions      int     `json:"sub_partitions"` // warp schedulers per SM
	MaxThreadsPerBlock int     `json:"max_threads_per_block"`
	MaxWarpsPerSM      int     `json:"max_warps_per_sm"`
	MaxBlocksPerSM     int     `json:"max_blocks_per_sm"`
	RegsPerSM          int     `json:"regs_per_sm"`
	RegsPerThread      int     `json:"regs_per_thread"`
	SharedPerSM        int     `json:"shared_per_sm"`
	ClockMHz           float64 `json:"clock_mhz"`
	// DRAMBandwidth is the peak in bytes per second.
	DRAMBandwidth float64 `json:"dram_bandwidth"`
	// PeakWarpInstPerSec is SMs × schedulers × clock: one warp
	// instruction per scheduler per cycle (the instruction roofline's
	// compute ceiling).
	PeakWarpInstPerSec float64 `json:"peak_warp_inst_per_sec"`
}

// Launch is one grid: a host launch or a grid device code launched.
type Launch struct {
	Index      int       `json:"index"`
	Kernel     string    `json:"kernel"` // display (demangled) name
	Func       string    `json:"func"`   // PTX name
	Grid       [3]uint32 `json:"grid"`
	Block      [3]uint32 `json:"block"`
	Regs       int       `json:"regs"`
	StaticSh   int       `json:"static_shared_bytes"`
	DynamicSh  int       `json:"dynamic_shared_bytes"`
	LocalBytes int       `json:"local_bytes,omitempty"`
	FromDevice bool      `json:"from_device,omitempty"`
	Parent     int       `json:"parent"` // index in Launches of the launching grid; -1 for a host launch
	Fault      string    `json:"fault,omitempty"`
	// StartNS and DurationNS are simulated time (timing mode; 0 otherwise).
	StartNS    float64 `json:"start_ns,omitempty"`
	DurationNS float64 `json:"duration_ns,omitempty"`
	Cycles     uint64  `json:"cycles,omitempty"`
	// Metrics are metrics.Compute's values by nvprof name (unavailable
	// ones are absent).
	Metrics   map[string]float64 `json:"metrics"`
	Occupancy Occupancy          `json:"occupancy"`
	// StallNames and Stalls are the warp-state breakdown (warp-cycles per
	// state, ncu's names; timing mode).
	StallNames []string `json:"stall_names,omitempty"`
	Stalls     []uint64 `json:"stalls,omitempty"`
	Funcs      []Func   `json:"funcs,omitempty"`
}

// Occupancy is the occupancy calculator's answer for the launch and, in
// timing mode, what the timing model achieved.
type Occupancy struct {
	Theoretical float64 `json:"theoretical"` // percent
	// Achieved is percent; negative when unknown (functional mode).
	Achieved    float64 `json:"achieved"`
	BlocksPerSM int     `json:"blocks_per_sm"`
	WarpsPerSM  int     `json:"warps_per_sm"`
	Limiter     string  `json:"limiter"` // "warps", "registers", "shared memory", "blocks", joined by " and "
	// Curves are the occupancy calculator's three charts: occupancy
	// against block size, registers per thread and shared memory per
	// block, the others held at the launch's values.
	Curves []Curve `json:"curves,omitempty"`
}

// Curve is one occupancy chart.
type Curve struct {
	Title   string    `json:"title"`
	XLabel  string    `json:"x_label"`
	X       []int     `json:"x"`
	Y       []float64 `json:"y"` // occupancy percent
	Current int       `json:"current"`
}

// Func is one function the grid ran, instruction by instruction.
type Func struct {
	Name  string `json:"name"`
	Entry bool   `json:"entry,omitempty"`
	Insts []Inst `json:"insts"`
}

// Inst is one PTX instruction and its counts over the grid (see
// metrics.InstCounts for the counting rules).
type Inst struct {
	PC      int    `json:"pc"`
	PTXLine int    `json:"ptx_line"`
	Text    string `json:"text"`
	// File indexes Profile.Sources (-1: no source line); Line is 1-based.
	File int `json:"file"`
	Line int `json:"line,omitempty"`
	Counts
	// Stalls are the warp-cycles warps spent waiting at this instruction,
	// by state (Launch.StallNames); timing mode, when the timing model
	// records them.
	Stalls []uint64 `json:"stalls,omitempty"`
}

// Counts are one instruction's (or line's, or kernel's) counts.
type Counts struct {
	Inst            uint64 `json:"inst,omitempty"`        // warp-level executions
	ThreadInst      uint64 `json:"thread_inst,omitempty"` // thread-level (active lanes)
	PredOff         uint64 `json:"pred_off,omitempty"`    // active lanes predicated off
	Branch          uint64 `json:"branch,omitempty"`
	DivergentBranch uint64 `json:"divergent_branch,omitempty"`
	GldRequests     uint64 `json:"gld_requests,omitempty"`
	GldSectors      uint64 `json:"gld_sectors,omitempty"`
	GldIdeal        uint64 `json:"gld_ideal_sectors,omitempty"`
	GldBytes        uint64 `json:"gld_bytes,omitempty"`
	GstRequests     uint64 `json:"gst_requests,omitempty"`
	GstSectors      uint64 `json:"gst_sectors,omitempty"`
	GstIdeal        uint64 `json:"gst_ideal_sectors,omitempty"`
	GstBytes        uint64 `json:"gst_bytes,omitempty"`
	ShLdRequests    uint64 `json:"shared_ld_requests,omitempty"`
	ShStRequests    uint64 `json:"shared_st_requests,omitempty"`
	ShLdWavefronts  uint64 `json:"shared_ld_wavefronts,omitempty"`
	ShStWavefronts  uint64 `json:"shared_st_wavefronts,omitempty"`
	ShLdConflicts   uint64 `json:"shared_ld_conflicts,omitempty"`
	ShStConflicts   uint64 `json:"shared_st_conflicts,omitempty"`
	Atomics         uint64 `json:"atomics,omitempty"`
	LocalLd         uint64 `json:"local_ld_requests,omitempty"`
	LocalSt         uint64 `json:"local_st_requests,omitempty"`
}

// Add accumulates o into c.
func (c *Counts) Add(o *Counts) {
	c.Inst += o.Inst
	c.ThreadInst += o.ThreadInst
	c.PredOff += o.PredOff
	c.Branch += o.Branch
	c.DivergentBranch += o.DivergentBranch
	c.GldRequests += o.GldRequests
	c.GldSectors += o.GldSectors
	c.GldIdeal += o.GldIdeal
	c.GldBytes += o.GldBytes
	c.GstRequests += o.GstRequests
	c.GstSectors += o.GstSectors
	c.GstIdeal += o.GstIdeal
	c.GstBytes += o.GstBytes
	c.ShLdRequests += o.ShLdRequests
	c.ShStRequests += o.ShStRequests
	c.ShLdWavefronts += o.ShLdWavefronts
	c.ShStWavefronts += o.ShStWavefronts
	c.ShLdConflicts += o.ShLdConflicts
	c.ShStConflicts += o.ShStConflicts
	c.Atomics += o.Atomics
	c.LocalLd += o.LocalLd
	c.LocalSt += o.LocalSt
}

// Write writes p as indented JSON.
func Write(w io.Writer, p *Profile) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(p)
}

// Read reads a profile JSON and checks its version and references.
func Read(r io.Reader) (*Profile, error) {
	var p Profile
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("profile JSON: %v", err)
	}
	if p.Version != Version {
		return nil, fmt.Errorf("profile JSON: version %d, want %d", p.Version, Version)
	}
	for i := range p.Launches {
		l := &p.Launches[i]
		for _, f := range l.Funcs {
			for _, in := range f.Insts {
				if in.File < -1 || in.File >= len(p.Sources) {
					return nil, fmt.Errorf("profile JSON: launch %d (%s), %s pc %d: file %d out of range (%d sources)", i, l.Kernel, f.Name, in.PC, in.File, len(p.Sources))
				}
				if len(in.Stalls) > len(l.StallNames) {
					return nil, fmt.Errorf("profile JSON: launch %d (%s), %s pc %d: %d stall counts for %d stall names", i, l.Kernel, f.Name, in.PC, len(in.Stalls), len(l.StallNames))
				}
			}
		}
		if len(l.Stalls) > len(l.StallNames) {
			return nil, fmt.Errorf("profile JSON: launch %d (%s): %d stall counts for %d stall names", i, l.Kernel, len(l.Stalls), len(l.StallNames))
		}
	}
	return &p, nil
}
