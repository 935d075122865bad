package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/warpsim/warpsim/internal/cudart"
	"github.com/warpsim/warpsim/internal/timing"
)

// samplingDoc is where the timing model's sampling and its error are
// described.
const samplingDoc = "docs/timing-model.md#sampling"

// kernelSampling is what sampling did to one kernel's launches.
type kernelSampling struct {
	name                 string
	grids, repeat, waves int
	similar, short       int
	errPct               float64 // the largest estimate among them
}

// writeSamplingNote says, after prof's report, which kernels' times were
// sampled rather than timed in full, how (grids timed for their first waves
// and extrapolated, short grids placed at their window's block times,
// launches that reused an identical launch's time) and
// by how much they could be off by the sampling's own estimate. Nothing is
// written when every launch was timed in full.
func writeSamplingNote(w io.Writer, tag string, p *cudart.Profile) {
	if note := samplingNote(p); note != "" {
		fmt.Fprintf(w, "%s Note: %s\n", tag, note)
	}
}

// samplingNote is the note's text ("" when nothing was sampled).
func samplingNote(p *cudart.Profile) string {
	var ks []*kernelSampling
	index := map[string]*kernelSampling{}
	for i := range p.Launches {
		l := &p.Launches[i]
		name := recordName(l)
		k := index[name]
		if k == nil {
			k = &kernelSampling{name: name}
			index[name] = k
			ks = append(ks, k)
		}
		n := l.Calls()
		k.grids += n
		if t := l.Timing; t != nil && t.Sampled {
			switch t.Sampling {
			case timing.SampledRepeat:
				k.repeat += n
			case timing.SampledSimilar:
				k.similar += n
			case timing.SampledShort:
				k.short += n
			default:
				k.waves += n
			}
			k.errPct = max(k.errPct, t.ErrorPct)
		}
	}
	var parts []string
	for _, k := range ks {
		if k.repeat == 0 && k.waves == 0 && k.similar == 0 && k.short == 0 {
			continue
		}
		var how []string
		if k.waves > 0 {
			how = append(how, fmt.Sprintf("%d timed for the first waves and extrapolated", k.waves))
		}
		if k.short > 0 {
			how = append(how, fmt.Sprintf("%d timed for their first one or two waves, the other blocks at the window's block times", k.short))
		}
		if k.repeat > 0 {
			how = append(how, fmt.Sprintf("%d took the time of an identical launch timed in detail", k.repeat))
		}
		if k.similar > 0 {
			how = append(how, fmt.Sprintf("%d took the time, scaled by instructions, of a launch with other parameters timed in detail", k.similar))
		}
		parts = append(parts, fmt.Sprintf("%s (%d %s): %s (estimated error up to %.1f%%)", k.name, k.grids,
			choose(k.grids, "grid", "grids"), strings.Join(how, ", "), k.errPct))
	}
	if len(parts) == 0 {
		return ""
	}
	const most = 4
	more := ""
	if len(parts) > most {
		more = fmt.Sprintf("; and %d more kernels", len(parts)-most)
		parts = parts[:most]
	}
	return "sampled times: " + strings.Join(parts, "; ") + more +
		". --no-sampling times every launch in full (slower): see " + samplingDoc
}

func choose(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
