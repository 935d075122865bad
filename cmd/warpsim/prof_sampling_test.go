package main

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/cudart"
	"github.com/warpsim/warpsim/metrics"
)

// TestSamplingNote: prof's note names each kernel whose time was sampled,
// how (grids timed for their first waves, launches that took a repeated
// launch's time), out of how many, and the largest error estimate; nothing
// when every launch was timed in full.
func TestSamplingNote(t *testing.T) {
	full := &metrics.Timing{Cycles: 100}
	waves := &metrics.Timing{Cycles: 100, Sampled: true, Sampling: "waves", ErrorPct: 0.42}
	repeat := &metrics.Timing{Cycles: 100, Sampled: true, Sampling: "repeat", ErrorPct: 1.5}
	rec := func(k string, tm *metrics.Timing) cudart.Record { return cudart.Record{Kernel: k, Timing: tm} }
	cases := []struct {
		name     string
		launches []cudart.Record
		want     []string // substrings; none: no note
	}{
		{"all in full", []cudart.Record{rec("a", full), rec("a", full), rec("b", nil)}, nil},
		{"repeats", []cudart.Record{rec("mm", full), rec("mm", full), rec("mm", repeat), rec("mm", repeat)},
			[]string{"mm (4 grids): 2 took the time of an identical launch timed in detail (estimated error up to 1.5%)", "--no-sampling"}},
		{"waves and repeats", []cudart.Record{rec("h", waves), rec("h", waves), rec("h", repeat), rec("m", full)},
			[]string{"h (3 grids): 2 timed for the first waves and extrapolated, 1 took the time of an identical launch timed in detail (estimated error up to 1.5%)"}},
		{"one wave grid", []cudart.Record{rec("w", waves)},
			[]string{"w (1 grid): 1 timed for the first waves and extrapolated (estimated error up to 0.4%)"}},
	}
	for _, c := range cases {
		got := samplingNote(&cudart.Profile{Launches: c.launches})
		if c.want == nil {
			if got != "" {
				t.Errorf("%s: note %q, want none", c.name, got)
			}
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: note %q lacks %q", c.name, got, w)
			}
		}
		if strings.Contains(got, "m (") && c.name == "waves and repeats" {
			t.Errorf("%s: note %q names a kernel timed in full", c.name, got)
		}
	}
}
