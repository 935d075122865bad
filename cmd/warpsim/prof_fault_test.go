package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/cudart"
	"github.com/warpsim/warpsim/metrics"
)

// TestProfMarksFaultedLaunches: a launch that faulted is reported apart,
// its kernel marked [faulted] in the time summary, the metric table and the
// trace, with a warning naming the fault: its counts cover only what ran
// before it.
func TestProfMarksFaultedLaunches(t *testing.T) {
	p := &cudart.Profile{
		Arch: "h100", Device: "NVIDIA H100 80GB HBM3",
		Launches: []cudart.Record{
			{Kernel: "k", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, NS: 1000,
				Counters: metrics.Counters{WarpsLaunched: 1}},
			{Kernel: "k", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, StartNS: 1000, NS: 500,
				Counters: metrics.Counters{WarpsLaunched: 1},
				Fault:    "out-of-bounds access in kernel k\n  block (0,0,0) thread (3,0,0)"},
		},
	}
	defs, err := metrics.ParseList("warps_launched")
	if err != nil {
		t.Fatal(err)
	}
	h100 := arch.MustLookup("h100")
	for _, c := range []struct {
		name string
		defs []*metrics.Def
		f    profFlags
	}{
		{"summary", nil, profFlags{}},
		{"metrics", defs, profFlags{}},
		{"trace", nil, profFlags{gpuTrace: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := writeProfReport(&b, "==1==", p, h100, c.defs, nil, c.f); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, want := range []string{"k [faulted]", "==1== Warning: k [faulted]: the launch faulted (out-of-bounds access in kernel k)"} {
				if !strings.Contains(out, want) {
					t.Errorf("lacks %q:\n%s", want, out)
				}
			}
			if c.name != "trace" && !strings.Contains(strings.ReplaceAll(out, "k [faulted]", ""), " k\n") &&
				!strings.Contains(out, "Kernel: k\n") {
				t.Errorf("the complete launch of k is not reported apart:\n%s", out)
			}
		})
	}
}
