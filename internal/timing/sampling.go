// Sampling: a grid of many waves is timed in detail for its first waves
// (the window grows by whole waves until the block rate settles), the
// rest of its blocks run functionally, and its cycles, counts and DRAM
// writes are extrapolated from the window (finish).

package timing

import (
	"math"
	"slices"
)

// sampleWindow is how many blocks of a grid of nb blocks in waves of wave
// blocks are timed in detail (limit), and the most the window may grow to
// (maxLimit): all of them, unless sampling is on and the grid has more
// than waves+2 waves; then the first waves (default 4), growing by whole
// waves up to three times that, always leaving two waves out.
func sampleWindow(nb, wave int, sample bool, waves int) (limit, maxLimit int) {
	if !sample || nb <= (waves+2)*wave {
		return nb, nb
	}
	limit = waves * wave
	return limit, min(3*limit, nb-2*wave)
}

// extend decides, when the last block of a sampled grid's detailed window
// is dispatched at cycle t, whether the window grows by a wave: it does
// while the block rate of the window's second half differs from the whole
// window's (after the first wave) by more than sampleSettle, up to
// maxLimit blocks.
func (s *gridState) extend(t uint64) bool {
	if s.limitBlk+s.wave > s.maxLimit {
		return false
	}
	whole, half, ok := s.rates(t)
	if ok && math.Abs(half-whole) <= sampleSettle*whole {
		return false
	}
	s.limitBlk += s.wave
	return true
}

// sampleSettle is how close the recent block rate must come to the
// window's for the rate to count as settled.
const sampleSettle = 0.01

// rates are the cycles per retired block from the end of the first wave to
// cycle t, and over the later half of those retirements.
func (s *gridState) rates(t uint64) (whole, half float64, ok bool) {
	r := append([]uint64(nil), s.retires...)
	slices.Sort(r)
	if len(r) <= s.wave {
		return 0, 0, false
	}
	ta := r[s.wave-1]
	var in []uint64
	for _, x := range r[s.wave:] {
		if x > ta && x <= t {
			in = append(in, x)
		}
	}
	if len(in) < 4 || t <= ta {
		return 0, 0, false
	}
	tm := in[len(in)/2-1]
	whole = float64(t-ta) / float64(len(in))
	half = float64(t-tm) / float64(len(in)-len(in)/2)
	return whole, half, true
}

// extrapolate estimates a sampled grid's cycles: the blocks not timed
// retire at the block rate of the later half of the window (the
// retirements after the first wave up to the last timed block's dispatch:
// the most recent rate, which the window was grown until it settled), and
// the drain after the last dispatch is the one measured (the real grid ends
// with the same kind of tail).
func (s *gridState) extrapolate(nb int, end uint64) uint64 {
	_, half, ok := s.rates(s.lastDispatch)
	if !ok {
		return uint64(float64(end) * float64(nb) / float64(s.limitBlk))
	}
	return end + uint64(half*float64(nb-s.limitBlk))
}

// sampledWrites estimates a sampled grid's DRAM write bytes. The blocks
// timed in detail may not have filled the L2, so their write-backs, scaled,
// say nothing of the whole grid's; instead the grid's dirty sectors are
// extrapolated (those written back and those dirty in the L2 after the
// detailed blocks, scaled), and when the grid's footprint exceeds the L2
// the L2 keeps, at the end, its capacity's share of dirty sectors (the
// dirty fraction of its contents now); the rest were written back.
func (s *gridState) sampledWrites(scale float64) uint64 {
	l2 := s.d.l2
	measured := uint64(float64(s.dramWr) * scale)
	valid := l2.validSectors()
	if valid == 0 {
		return measured
	}
	dirty := l2.dirtySectors()
	total := (float64(s.dramWr)/32 + float64(dirty)) * scale
	if float64(valid)*scale <= float64(l2.sectors()) {
		return measured
	}
	kept := min(total, float64(dirty)/float64(valid)*float64(l2.sectors()))
	return max(measured, uint64((total-kept)*32))
}

// sampleErrorPct is how far, in percent of the grid's cycles, a sampled
// grid's extrapolation could be off by its own evidence: the untimed
// blocks retire at the window's recent block rate (extrapolate); at the
// whole window's rate (after the first wave) they would take
// |whole-half| cycles more or less each. A window that settled within
// sampleSettle moves the estimate by at most that share of the
// extrapolated part. 0 when the window has no rate to compare.
func (s *gridState) sampleErrorPct(nb int, cycles uint64) float64 {
	whole, half, ok := s.rates(s.lastDispatch)
	if !ok || cycles == 0 {
		return 0
	}
	return 100 * math.Abs(whole-half) * float64(nb-s.limitBlk) / float64(cycles)
}

// dramFloor is the fewest cycles a sampled grid can take by its DRAM
// traffic: its reads and its write-backs (wr, sampledWrites), extrapolated
// from the window, at the DRAM's bandwidth. The window may see fewer
// write-backs than the grid's later waves cause (its dirty lines still fit
// in the L2), so its block rate can be faster than the whole grid's: a
// streaming grid that writes more than the L2 holds is then held to the
// DRAM's pace.
func (s *gridState) dramFloor(scale float64, wr uint64) uint64 {
	if s.p.DRAMBytesPerCycle <= 0 {
		return 0
	}
	return uint64((float64(s.dramRd)*scale + float64(wr)) / s.p.DRAMBytesPerCycle)
}
