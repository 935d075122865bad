package main

import (
	"encoding/json"
	"os"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/cudart"
	"github.com/warpsim/warpsim/metrics"
)

// writeProfJSON writes prof --json-out's document: the same layout as
// warpsim run --json (one entry per launch record, every metric unless
// --metrics chose some), which warpsim sweep reads for program runs.
func writeProfJSON(path string, p *cudart.Profile, a *arch.Arch, defs []*metrics.Def) error {
	if defs == nil {
		defs = metrics.Defs()
	}
	doc := runJSON{Arch: a.Name, Launches: []launchJSON{}}
	for _, l := range p.Launches {
		ms := metrics.Compute(l.Counters, a, metrics.Launch{
			BlockThreads:  int(l.Block[0] * l.Block[1] * l.Block[2]),
			RegsPerThread: l.Regs, StaticShared: l.StaticSh, DynamicShared: int(l.Shared),
			Timing: l.Timing,
		})
		chosen := metrics.Select(ms, defs)
		e := launchJSON{Kernel: recordName(&l), Grid: l.Grid, Block: l.Block,
			Metrics: metrics.JSONValues(chosen), Unavailable: metrics.Unavailable(chosen)}
		if l.FromDevice {
			e.Device, e.Count = true, l.Calls()
		}
		e.setSampling(l.Timing)
		doc.Launches = append(doc.Launches, e)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
