package timing

import (
	"testing"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/ir"
)

// TestCustomFiguresCoverArchKeys: every timing key an arch file accepts
// reaches a Params figure, and changes it; and every figure the timing
// model can be given is a key an arch file (and --set) accepts.
func TestCustomFiguresCoverArchKeys(t *testing.T) {
	h := arch.MustLookup("h100")
	base := ForArch(h, 0)
	accepted := map[string]bool{}
	for _, k := range arch.TimingKeys() {
		accepted[k] = true
	}
	perClass := map[string]bool{} // withClassFigures' keys: the arch file names the classes a user may set
	for c := ir.Class(0); c < ir.NumClasses; c++ {
		perClass["latency."+c.String()] = true
		perClass["interval."+c.String()] = true
	}
	for k := range customFigures {
		if !accepted[k] && !perClass[k] {
			t.Errorf("timing figure %s is not a key arch files and --set accept", k)
		}
	}
	for _, k := range arch.TimingKeys() {
		if _, ok := customFigures[k]; !ok {
			t.Errorf("arch timing key %s sets no timing figure", k)
			continue
		}
		// 7, or 0 for a switch the preset has on (ptxas.wmma_rounds).
		changed := false
		for _, v := range []string{"=7", "=0"} {
			a, err := arch.Override(h, []string{k + v})
			if err != nil {
				t.Fatalf("%s%s: %v", k, v, err)
			}
			if got := ForArch(a, 0); *got != *base {
				changed = true
				break
			}
		}
		if !changed {
			t.Errorf("%s=7 and %s=0 changed no figure", k, k)
		}
	}
}

// TestCustomScalesMeasuredFigures: the H100's effective L2 (25 MiB of 50)
// doubles with l2.size=100MiB and halves with 25MiB; a narrower bus lowers
// the measured DRAM bandwidth in proportion.
func TestCustomScalesMeasuredFigures(t *testing.T) {
	h := arch.MustLookup("h100")
	for _, tt := range []struct {
		set    string
		l2     int
		dramBW float64
	}{
		{"l2.size=100MiB", 50 << 20, 3000},
		{"l2.size=25MiB", 25 << 19, 3000},
		{"memory.bus_width=2560", 25 << 20, 1500},
	} {
		a, err := arch.Override(h, []string{tt.set})
		if err != nil {
			t.Fatal(err)
		}
		p := ForArch(a, 0)
		if p.L2Bytes != tt.l2 || p.DRAMBytesPerNS != tt.dramBW {
			t.Errorf("%s: L2 %d, DRAM %v GB/s; want %d, %v", tt.set, p.L2Bytes, p.DRAMBytesPerNS, tt.l2, tt.dramBW)
		}
	}
}
