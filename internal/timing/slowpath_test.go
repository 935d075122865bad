package timing

import (
	"testing"

	"github.com/warpsim/warpsim/internal/engine"
)

// TestSlowPathCycles: one path costs its figure; lanes on one path cost it
// once; two paths cost both less the shared part once; every lane out of
// line saves the inline tail; no path costs nothing.
func TestSlowPathCycles(t *testing.T) {
	p := &Params{SlowPathAllDiv: 16, SlowPathAllSqrt: 24, SlowPathSharedDiv: 102, SlowPathSharedSqrt: 31}
	p.SlowPathCycles[engine.SlowDivNaN] = 180
	p.SlowPathCycles[engine.SlowDivSubNum] = 485
	p.SlowPathCycles[engine.SlowDivZeroZero] = 198
	p.SlowPathCycles[engine.SlowSqrtNeg] = 140
	p.SlowPathCycles[engine.SlowSqrtSub] = 212
	bit := func(k int) uint32 { return 1 << k }
	all := bit(engine.SlowAllLanes)
	for _, c := range []struct {
		name string
		set  uint32
		want uint64
	}{
		{"none", 0, 0},
		{"NaN", bit(engine.SlowDivNaN), 180},
		{"NaN and subnormal/x", bit(engine.SlowDivNaN) | bit(engine.SlowDivSubNum), 180 + 485 - 102},
		{"0/0, every lane", bit(engine.SlowDivZeroZero) | all, 198 - 16},
		{"sqrt -2 and subnormal", bit(engine.SlowSqrtNeg) | bit(engine.SlowSqrtSub), 140 + 212 - 31},
		{"sqrt -2, every lane", bit(engine.SlowSqrtNeg) | all, 140 - 24},
	} {
		if got := slowPathCycles(p, c.set); got != c.want {
			t.Errorf("%s: %d cycles, want %d", c.name, got, c.want)
		}
	}
}
