package timing

import (
	"math"
	"testing"

	"github.com/warpsim/warpsim/internal/engine"
)

// TestSampleWindow: grids of at most waves+2 waves are timed in full;
// larger ones from their first waves, the window growing to at most three
// times that and always leaving two waves out.
func TestSampleWindow(t *testing.T) {
	tests := []struct {
		nb, wave       int
		sample         bool
		limit, maxLimt int
	}{
		{nb: 1000, wave: 100, sample: false, limit: 1000, maxLimt: 1000},
		{nb: 600, wave: 100, sample: true, limit: 600, maxLimt: 600},   // 6 waves: in full
		{nb: 700, wave: 100, sample: true, limit: 400, maxLimt: 500},   // 7 waves: 4, growing to 5
		{nb: 5000, wave: 100, sample: true, limit: 400, maxLimt: 1200}, // 50 waves: 4, growing to 12
	}
	for _, tc := range tests {
		l, m := sampleWindow(tc.nb, tc.wave, tc.sample, 4)
		if l != tc.limit || m != tc.maxLimt {
			t.Errorf("%d blocks in waves of %d (sampling %v): window %d growing to %d, want %d, %d", tc.nb, tc.wave, tc.sample, l, m, tc.limit, tc.maxLimt)
		}
	}
}

// TestSamplingExtrapolation: a window whose blocks (after the first wave)
// each live 40 cycles on a wave of 4 slots retires a block every 10 cycles
// (Little's law), however its retirements bunched; the window stops growing
// once that settles; the untimed blocks are charged at it; the block
// scheduler's dispatch rate bounds it.
func TestSamplingExtrapolation(t *testing.T) {
	// Four slots; the first wave lives 100 cycles, every later block 40,
	// each slot's blocks back to back: the retirements come in bunches of
	// four, 40 cycles apart.
	s := &gridState{p: &Params{}, wave: 4, limitBlk: 40, maxLimit: 80}
	for i := 0; i < 40; i++ {
		start := uint64(0)
		if i >= 4 {
			start = 100 + 40*uint64(i/4-1)
		}
		d := uint64(100)
		if i >= 4 {
			d = 40
		}
		s.spans = append(s.spans, engine.BlockSpan{Block: i, SM: i % 4, Start: start, End: start + d})
	}
	whole, half, ok := s.rates(36, 500)
	if !ok || whole != 10 || half != 10 {
		t.Fatalf("rates: %v %v %v, want 10, 10 cycles per block", whole, half, ok)
	}
	if s.extend(460) {
		t.Error("a settled window grew")
	}
	if got := s.extrapolate(100, 500); got != 500+10*60 {
		t.Errorf("extrapolated %d cycles, want %d", got, 500+10*60)
	}
	// The block scheduler dispatches a block every 12 cycles at most:
	// the slots cannot be kept full.
	s.p = &Params{DispatchCycles: 12}
	if got := s.extrapolate(100, 500); got != 500+12*60 {
		t.Errorf("extrapolated %d cycles at a dispatch every 12, want %d", got, 500+12*60)
	}
	// Block times still changing (each later block shorter) grow the
	// window by a wave.
	s2 := &gridState{p: &Params{}, wave: 4, limitBlk: 40, maxLimit: 80}
	for i := 0; i < 40; i++ {
		s2.spans = append(s2.spans, engine.BlockSpan{Block: i, Start: 0, End: uint64(200 - 2*i)})
	}
	if !s2.extend(1000) || s2.limitBlk != 44 {
		t.Errorf("an unsettled window: limit %d, want it grown to 44", s2.limitBlk)
	}
	// Too few of the blocks ended: no rate.
	if _, _, ok := s2.rates(36, 100); ok {
		t.Error("a rate from a window whose blocks had mostly not ended")
	}
}

// TestShortWindow: a grid of 1.5 to waves+2 waves is a short grid, timed
// for its first wave and a block under three waves (when a window of one
// wave is allowed; else in full), its first two from three on; others are
// not short grids.
func TestShortWindow(t *testing.T) {
	tests := []struct {
		nb, wave, want, full int // full: the window when one wave is not allowed
	}{
		{nb: 140, wave: 100, want: 140, full: 140},  // 1.4 waves: in full
		{nb: 150, wave: 100, want: 101, full: 150},  // 1.5 waves
		{nb: 194, wave: 100, want: 101, full: 194},  // sortingNetworks' shape
		{nb: 299, wave: 100, want: 101, full: 299},  // under three waves
		{nb: 300, wave: 100, want: 200, full: 200},  // three waves: two
		{nb: 388, wave: 100, want: 200, full: 200},  // 3.88 waves: two
		{nb: 600, wave: 100, want: 200, full: 200},  // 6 waves
		{nb: 700, wave: 100, want: 700, full: 700},  // 7 waves: sampled by waves instead
		{nb: 1000, wave: 0, want: 1000, full: 1000}, // no wave
	}
	for _, tc := range tests {
		if got := shortWindow(tc.nb, tc.wave, 4, true); got != tc.want {
			t.Errorf("%d blocks in waves of %d: window %d, want %d", tc.nb, tc.wave, got, tc.want)
		}
		if got := shortWindow(tc.nb, tc.wave, 4, false); got != tc.full {
			t.Errorf("%d blocks in waves of %d, no window of one wave: %d, want %d", tc.nb, tc.wave, got, tc.full)
		}
	}
}

// TestExtrapolateSlots: a short grid's untimed blocks go to the slot that
// frees first and take the mean time of its SM's blocks after the first
// wave, but for each slot's last block, which takes the longest of them;
// the window's drain after its last retirement is added; the estimate is
// the tail's move, and the drift of those block times and the standard
// error of their mean in quadrature, in percent of the time with the
// launch.
func TestExtrapolateSlots(t *testing.T) {
	// One SM of two slots; blocks 0 and 1 the first wave, 2 and 3 the
	// window's later blocks (80 and 120 cycles: mean 100, longest 120).
	s := &gridState{p: &Params{}, sms: make([]*smT, 1), perSM: 2, wave: 2, limitBlk: 4, lastDone: 240}
	s.spans = []engine.BlockSpan{
		{Block: 0, SM: 0, Start: 0, End: 100}, {Block: 1, SM: 0, Start: 0, End: 120},
		{Block: 2, SM: 0, Start: 100, End: 180}, {Block: 3, SM: 0, Start: 120, End: 240},
	}
	// Block 4 to the slot free at 180 (ends at 280), 5 at 240 (340), 6
	// at 280 and 7 at 340, the last of their slots: 120 each, ending at
	// 400 and 460; the drain of 5 cycles after. (In dispatch order, the
	// second wave's times 80, 120, 80, 120: 465 as well; at the mean
	// throughout, 445.)
	cycles, errPct, _ := s.extrapolateSlots(8, 245, 35)
	if cycles != 465 {
		t.Errorf("extrapolated %d cycles, want 465", cycles)
	}
	// The tail: 465 against 445, 20 cycles. The drift: every block at
	// the earlier half's 80 ends the grid at 405, at the later half's
	// 120 at 485: 80. The means' error: the SM's standard error of the
	// mean, sqrt(800/2) = 20, times the two untimed blocks a slot runs:
	// 40. 20 + hypot(80, 40) of 465+35 cycles.
	if want := 100 * (20 + math.Hypot(80, 40)) / 500; math.Abs(errPct-want) > 1e-9 {
		t.Errorf("estimate ±%.3f%%, want ±%.3f%%", errPct, want)
	}
	// Two blocks fewer: 4 and 5 are their slots' last, 120 each: 300
	// and 360, and the drain.
	if cycles, _, _ := s.extrapolateSlots(6, 245, 35); cycles != 365 {
		t.Errorf("extrapolated %d cycles with two untimed blocks, want 365", cycles)
	}
}

// TestExtrapolateSlotsMeanPerSM: an SM's untimed blocks each take the mean
// of its window blocks' times, not the window's times in dispatch order.
// A first wave's blocks start together and retire in the order they were
// dispatched, so in order the slot freed last would get the longest time
// and the grid end at twice the window's longest block (the reduce
// lesson's reduceNeighbored at 1.94 waves came out +5.1% that way).
func TestExtrapolateSlotsMeanPerSM(t *testing.T) {
	for _, c := range []struct {
		name  string
		spans []engine.BlockSpan
		sms   int
		nb    int
		want  uint64
	}{
		// One SM of two slots, a window of one wave (100 and 150
		// cycles, mean 125): blocks 2 and 3 go to the slots freed at
		// 100 and 150 and end at 225 and 275 (in order: 200 and 300).
		{"one SM, a wave", []engine.BlockSpan{{Block: 0, SM: 0, Start: 0, End: 100}, {Block: 1, SM: 0, Start: 0, End: 150}}, 1, 4, 275},
		// Two SMs, each its own mean (SM 0 125, SM 1 120 and 200: 160):
		// block 4 to SM 0 at 100 (225), 5 to SM 1 at 120 (280), 6 to SM 0
		// at 150 (275), 7 to SM 1 at 200 (360; in order: 400).
		{"two SMs", []engine.BlockSpan{{Block: 0, SM: 0, Start: 0, End: 100}, {Block: 1, SM: 1, Start: 0, End: 120},
			{Block: 2, SM: 0, Start: 0, End: 150}, {Block: 3, SM: 1, Start: 0, End: 200}}, 2, 8, 360},
	} {
		wave := 2 * c.sms
		var last uint64
		for _, b := range c.spans {
			last = max(last, b.End)
		}
		s := &gridState{p: &Params{}, sms: make([]*smT, c.sms), perSM: 2, wave: wave, limitBlk: len(c.spans), lastDone: last, spans: c.spans}
		if got, _, _ := s.extrapolateSlots(c.nb, last, 0); got != c.want {
			t.Errorf("%s: extrapolated %d cycles, want %d", c.name, got, c.want)
		}
	}
}

// TestDRAMFloorFillsL2First: a grid sampled by waves whose write-backs
// start only once its dirty lines fill the L2 runs at its window's block
// rate until then, and only its later blocks' reads and the write-backs
// are held to the DRAM's bandwidth; with no write-backs to come the floor
// is the window's rate or its reads at the DRAM's bandwidth, whichever is
// slower.
func TestDRAMFloorFillsL2First(t *testing.T) {
	// The TestSamplingExtrapolation window: 40 blocks, a block every 10
	// cycles from the second wave on. Each block read 1024 bytes (32
	// sectors) and left them valid in an L2 of 64 KiB (2048 sectors):
	// 768 sectors free, room for 24 more blocks before write-backs.
	newState := func() *gridState {
		s := &gridState{p: &Params{DRAMBytesPerCycle: 256}, wave: 4, limitBlk: 40, maxLimit: 80,
			d: &Driver{l2: newCache(64*1024, 4)}}
		for i := 0; i < 40; i++ {
			start := uint64(0)
			if i >= 4 {
				start = 100 + 40*uint64(i/4-1)
			}
			d := uint64(100)
			if i >= 4 {
				d = 40
			}
			s.spans = append(s.spans, engine.BlockSpan{Block: i, SM: i % 4, Start: start, End: start + d})
		}
		for sec := uint64(0); sec < 40*32; sec++ {
			s.d.l2.fill(sec, 0, true)
		}
		s.dramRd = 40 * 1024
		return s
	}
	s := newState()
	// 100 blocks: 60 untimed, 24 of them before the L2 is full (at 10
	// cycles each, slower than their reads at 256 bytes a cycle: 4), then
	// 36 blocks' reads and 60 blocks' write-backs of 1024 bytes at the
	// DRAM's bandwidth (a floor over all 60 blocks' traffic: 980).
	wr := uint64(60 * 1024)
	if got, want := s.dramFloor(100, 500, 100.0/40, wr), uint64(500+24*10+(36*1024+60*1024)/256); got != want {
		t.Errorf("floor %d cycles, want %d (the L2 filled first)", got, want)
	}
	// No write-backs to come: every untimed block at the slower of the
	// window's rate and its reads at the DRAM's bandwidth.
	if got, want := s.dramFloor(100, 500, 100.0/40, 0), uint64(500+60*10); got != want {
		t.Errorf("floor without write-backs %d cycles, want %d", got, want)
	}
	// A window that filled the L2 already: every untimed block's reads
	// and the write-backs at the DRAM's bandwidth.
	s = newState()
	for sec := uint64(40 * 32); sec < 8192; sec++ {
		s.d.l2.fill(sec, 0, true)
	}
	if got, want := s.dramFloor(100, 500, 100.0/40, wr), uint64(500+(60*1024+60*1024)/256); got != want {
		t.Errorf("floor with the L2 full %d cycles, want %d", got, want)
	}
}
