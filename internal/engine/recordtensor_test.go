package engine

import "testing"

// TestCpAsyncWavefronts checks the shared-memory wavefronts of a cp.async
// as the step record gives them, on lane patterns whose counts follow from
// the banks (4-byte words, 32 banks) by hand: lanes reading one line write
// together, in as many wavefronts as the most words one bank takes.
func TestCpAsyncWavefronts(t *testing.T) {
	lanes := func(n int, line func(l int) uint64, word func(l int) uint32, words uint8) []cpAsyncLane {
		ls := make([]cpAsyncLane, n)
		for l := range ls {
			ls[l] = cpAsyncLane{line: line(l), word: word(l), words: words}
		}
		return ls
	}
	one := func(int) uint64 { return 7 }
	for _, c := range []struct {
		name  string
		lanes []cpAsyncLane
		want  uint32
	}{
		{"one line, consecutive words", lanes(32, one, func(l int) uint32 { return uint32(l) }, 1), 1},
		{"one line, words 2 apart: 2 on a bank", lanes(32, one, func(l int) uint32 { return uint32(2 * l) }, 1), 2},
		{"one line, words 8 apart: 8 on a bank", lanes(32, one, func(l int) uint32 { return uint32(8 * l) }, 1), 8},
		{"one line, 32 lanes on bank 0", lanes(32, one, func(l int) uint32 { return uint32(32 * l) }, 1), 32},
		{"one line, every lane the same word", lanes(32, one, func(int) uint32 { return 5 }, 1), 1},
		{"32 lines, consecutive words", lanes(32, func(l int) uint64 { return uint64(l) }, func(l int) uint32 { return uint32(l) }, 1), 32},
		{"4 lines of 8 lanes, consecutive words", lanes(32, func(l int) uint64 { return uint64(l / 8) }, func(l int) uint32 { return uint32(l) }, 1), 4},
		// Triton's tf32 B tile (mm_tf32_64x64x32_s2, copy 0 of warp 0): lane
		// l reads line 4*(l>>4) + (l>>3&1) and writes byte
		// 1024*(l>>1&7) + 576*(l&1) + 4*(l>>4): in each line's 8 lanes the
		// banks are 0 and 16 (l&1), 4 lanes each.
		{"Triton's tf32 B copy", lanes(32, func(l int) uint64 { return uint64(4*(l>>4) + (l >> 3 & 1)) },
			func(l int) uint32 { return uint32((1024*(l>>1&7) + 576*(l&1) + 4*(l>>4)) / 4) }, 1), 16},
		// 16-byte copies of 8 lanes a line, 16 bytes apart: 32 words of a line on 32 banks.
		{"16-byte copies, 4 lines", lanes(32, func(l int) uint64 { return uint64(l / 8) }, func(l int) uint32 { return uint32(4 * l) }, 4), 4},
		{"zero fills: one group", lanes(32, func(int) uint64 { return ^uint64(0) }, func(l int) uint32 { return uint32(32 * l) }, 1), 32},
		{"no lanes", nil, 0},
	} {
		if got := cpAsyncWavefronts(c.lanes); got != c.want {
			t.Errorf("%s: %d wavefronts, want %d", c.name, got, c.want)
		}
	}
}
