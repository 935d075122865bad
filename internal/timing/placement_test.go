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
			if got := s.retirementDrain(); got != c.want {
				t.Errorf("retirementDrain(%v) = %d, want %d", c.retires, got, c.want)
			}
		})
	}
}
