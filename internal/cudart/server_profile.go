// The launch profile written at exit for warpsim prof: records, child grids and the file.

package cudart

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/warpsim/warpsim/metrics"
)

// Record is one launch in the profile.
type Record struct {
	Kernel    string           `json:"kernel"`
	Mangled   string           `json:"mangled"`
	Grid      [3]uint32        `json:"grid"`
	Block     [3]uint32        `json:"block"`
	Shared    uint32           `json:"shared_bytes"`
	Regs      int              `json:"regs"`
	StaticSh  int              `json:"static_shared_bytes"`
	StartNS   int64            `json:"start_ns"`
	NS        int64            `json:"ns"`
	Simulated bool             `json:"simulated_time"`
	Counters  metrics.Counters `json:"counters"`
	Fault     string           `json:"fault,omitempty"`
	// Timing is the timing model's account of the grid (WARPSIM_MODE=timing,
	// the default): what prof's timing metrics and --trace read. Its block
	// spans are kept only when the profile asks for them
	// (Options.ProfileBlocks). A folded record (Count) carries its first
	// grid's.
	Timing *metrics.Timing `json:"timing,omitempty"`
	// FromDevice marks a grid launched by device code (dynamic
	// parallelism), which nvprof's summary counts apart from host calls.
	// It follows the host launch it ran under.
	FromDevice bool `json:"from_device,omitempty"`
	// Compiler is the compiler that wrote the kernel's PTX, from the
	// module's header (ptx/origin): "clang" (warpsim cc's device code),
	// "nvcc 13.0", or "" when the header names none.
	Compiler string `json:"compiler,omitempty"`
	// Replayed marks a launch that was not executed: it repeated a
	// recorded launch on the same device memory and took that launch's
	// change to memory and counters (WARPSIM_REPLAY, engine/memo.go).
	Replayed bool `json:"replayed,omitempty"`
	// Count, when above 1, folds that many device-launched grids of one
	// host launch that had the same kernel, shape and counters (a fan-out
	// of thousands of identical children is one record): NS is then their
	// total time, MinNS and MaxNS the extremes, StartNS the first's start.
	Count int   `json:"count,omitempty"`
	MinNS int64 `json:"min_ns,omitempty"`
	MaxNS int64 `json:"max_ns,omitempty"`
	// Lines are the grid's per-instruction counts, for prof --report and
	// --export (WARPSIM_PROFILE_LINES=1; host-launched grids only).
	Lines []metrics.FuncLines `json:"lines,omitempty"`
}

// Calls is the number of launches r stands for.
func (r *Record) Calls() int { return max(r.Count, 1) }

// Range is the shortest and the longest of r's launches.
func (r *Record) Range() (lo, hi int64) {
	if r.Count > 1 {
		return r.MinNS, r.MaxNS
	}
	return r.NS, r.NS
}

// Profile is what the runtime writes at exit for `warpsim prof`.
type Profile struct {
	Arch     string   `json:"arch"`
	Device   string   `json:"device"`
	Launches []Record `json:"launches"`
}

// profTiming is t as the profile keeps it: without the block spans unless
// they were asked for (they can be many).
func (s *Server) profTiming(t *metrics.Timing) *metrics.Timing {
	if t == nil || s.opt.ProfileBlocks {
		return t
	}
	c := *t
	c.Blocks = nil
	return &c
}

// childRecords turns the grids launched from the device into profile
// records, folding those of one kernel, shape and counters into one record
// (Record.Count) and keeping first-run order. With the timing model (host,
// the host-launched grid's timing, not nil) StartNS is relative to the host
// grid's start on the simulated timeline; without it, relative to the
// first child's start, the grids taken one after another.
func childRecords(children []ChildGrid, host *metrics.Timing) []Record {
	var start int64
	type key struct {
		mangled  string
		cfg      LaunchConfig
		counters metrics.Counters
	}
	var recs []Record
	index := map[key]int{}
	for _, c := range children {
		k := key{c.Kernel.Name(), c.Config, c.Counters}
		if i, ok := index[k]; ok {
			r := &recs[i]
			if r.Count == 0 {
				r.Count, r.MinNS, r.MaxNS = 1, r.NS, r.NS
			}
			r.Count++
			r.NS += c.duration()
			r.MinNS = min(r.MinNS, c.duration())
			r.MaxNS = max(r.MaxNS, c.duration())
		} else {
			index[k] = len(recs)
			g, b := c.Config.Grid, c.Config.Block
			recs = append(recs, Record{
				Kernel: c.Kernel.DemangledName(), Mangled: c.Kernel.Name(),
				Grid: [3]uint32{g.X, g.Y, g.Z}, Block: [3]uint32{b.X, b.Y, b.Z}, Shared: c.Config.SharedBytes,
				Regs: c.Kernel.RegsPerThread(), StaticSh: c.Kernel.StaticSharedBytes(),
				StartNS: start, NS: c.duration(), Simulated: c.Nanos > 0, Counters: c.Counters, FromDevice: true,
				Timing: c.Timing,
			})
			if t := c.Timing; t != nil && host != nil && t.ClockHz > 0 && t.StartCycle >= host.StartCycle {
				recs[len(recs)-1].StartNS = int64(float64(t.StartCycle-host.StartCycle) * 1e9 / t.ClockHz)
			}
		}
		start += c.duration()
	}
	return recs
}

func (s *Server) writeProfile() {
	if s.opt.ProfilePath == "" {
		return
	}
	p := Profile{Arch: s.opt.Arch.Name, Device: s.opt.Arch.FullName, Launches: s.launches}
	if p.Launches == nil {
		p.Launches = []Record{}
	}
	b, err := json.Marshal(p)
	if err == nil {
		err = os.WriteFile(s.opt.ProfilePath, b, 0o644)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "warpsim: writing the profile: %v\n", err)
	}
}
