package timing

import (
	"testing"

	"github.com/warpsim/warpsim/arch"
)

// TestBlocksPerSM: the block scheduler keeps as many blocks on an SM as
// its warps, registers and shared memory allow (H100: 64 warps, 64 K
// registers, 228 KiB shared memory, 32 blocks), at least one, and every
// block of a cooperative grid.
func TestBlocksPerSM(t *testing.T) {
	h100 := arch.MustLookup("h100")
	tests := []struct {
		name                 string
		threads, regs, shmem int
		coop                 bool
		blocks               int
		want                 int
	}{
		{"warp slots: 256 threads", 256, 32, 0, false, 1000, 8},
		{"block slots: 32 threads", 32, 16, 0, false, 1000, 32},
		{"registers: 128 per thread", 256, 128, 0, false, 1000, 2},
		{"shared memory: 100 KiB", 128, 32, 100 << 10, false, 1000, 2},
		{"too much shared memory still places one", 128, 32, 300 << 10, false, 1000, 1},
		{"cooperative: its share of the SMs", 32, 16, 0, true, 132 * 40, 40},
	}
	for _, tc := range tests {
		if got := blocksPerSM(h100, tc.threads, tc.regs, tc.shmem, tc.coop, tc.blocks); got != tc.want {
			t.Errorf("%s: %d blocks per SM, want %d", tc.name, got, tc.want)
		}
	}
}

// TestDrainTailSampled: a sampled grid's estimate ends with the drain its
// full timing would add. A short grid's untimed blocks that retire
// together in the estimate wait their turns as a full grid's last wave
// does (the window's drain, or its blocks at the rate, would add none);
// a grid sampled by waves adds the drain its window's last wave left
// after the window's end, and no less than its blocks at the rate.
func TestDrainTailSampled(t *testing.T) {
	window := []uint64{100, 100, 100, 100} // taken back by 108
	for _, c := range []struct {
		name           string
		nb             int
		end, cycles    uint64
		sampled, short bool
		est            []uint64
		want           uint64
	}{
		// In full: the window's blocks are the grid's, drained by 108.
		{"full", 4, 100, 100, false, false, nil, 8},
		{"full, its stores later", 4, 110, 110, false, false, nil, 0},
		// A short grid's five untimed blocks all retire at 300 in the
		// estimate: taken back at 302 to 310, past its 300 cycles.
		{"short", 9, 100, 300, true, true, []uint64{300, 300, 300, 300, 300}, 10},
		{"short, spread", 9, 100, 300, true, true, []uint64{250, 260, 270, 280, 290}, 0},
		// By waves: the window's last wave left 4 cycles after its end
		// at 104; 600 blocks at the rate last 1200.
		{"waves", 9, 104, 1000, true, false, nil, 4},
		{"waves, at the rate", 600, 104, 1000, true, false, nil, 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &gridState{p: &Params{DispatchCycles: 2}, retires: window, short: c.short}
			if got := s.drainTail(c.nb, c.end, c.cycles, c.sampled, c.est); got != c.want {
				t.Errorf("drainTail = %d, want %d", got, c.want)
			}
		})
	}
}

// TestRetirementDrain: the block scheduler takes retired blocks back in
// the order they retired, one per DispatchCycles: blocks that retire
// together wait their turn, one that retires after the others were taken
// back waits for none.
func TestRetirementDrain(t *testing.T) {
	for _, c := range []struct {
		name    string
		retires []uint64
		want    uint64
	}{
		{"none", nil, 0},
		{"one", []uint64{100}, 102},
		{"a wave at once", []uint64{100, 100, 100, 100}, 108},
		{"spread", []uint64{100, 110, 120}, 122},
		{"a wave, then a late one", []uint64{100, 100, 100, 200}, 202},
		{"out of order", []uint64{120, 100, 100}, 122},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &gridState{p: &Params{DispatchCycles: 2}, retires: c.retires}
			if got := s.retirementDrain(nil); got != c.want {
				t.Errorf("retirementDrain(%v) = %d, want %d", c.retires, got, c.want)
			}
		})
	}
}
