// Sampling: a grid of many waves is timed in detail for its first waves
// (the window grows by whole waves until the block rate settles), the
// rest of its blocks run functionally, and its cycles, counts and DRAM
// writes are extrapolated from the window (finish).

package timing

import (
	"math"
	"slices"

	"github.com/warpsim/warpsim/internal/engine"
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
// while the block time of the window's later blocks differs from the
// window's (after the first wave) by more than sampleSettle, up to
// maxLimit blocks.
func (s *gridState) extend(t uint64) bool {
	if s.short {
		return s.shortDRAMBound(t)
	}
	if s.limitBlk+s.wave > s.maxLimit {
		return false
	}
	// The blocks of the last wave were dispatched about one block time
	// ago: half of them still run, the longer half. Those of the wave
	// before have all but ended.
	whole, half, ok := s.rates(s.limitBlk-2*s.wave, t)
	if ok && math.Abs(half-whole) <= sampleSettle*whole {
		return false
	}
	s.limitBlk += s.wave
	return true
}

// sampleSettle is how close the recent block time must come to the
// window's for the rate to count as settled.
const sampleSettle = 0.01

// rates are the cycles per retired block the grid settles to, from the
// window's blocks after the first wave and before block upTo (in
// dispatch order) that ended by cycle t: all of them (whole) and the later
// half (half). By Little's law a grid whose wave of block slots is kept
// full retires a block every mean block time (from dispatch to retirement)
// over the wave's blocks, and never faster than the block scheduler
// dispatches them (DispatchCycles). The rate at which the window's blocks
// retired says less: the first wave's blocks started together, and for
// several waves their successors retire in bunches whose spread grows
// wave by wave (each bunch's last block later than a block time after the
// last bunch's), until the slots' phases have spread over a whole block
// time; a window of a few waves ends before that, and its retirement rate
// is slower than the grid's (the reduce lesson's reduceNeighboredLess at
// 2^22 ints: 3,056 cycles a wave of retirements over the window's second
// to fifth, 2,890 from the seventh on, its blocks' mean time 2,890 from
// the second wave on).
func (s *gridState) rates(upTo int, t uint64) (whole, half float64, ok bool) {
	if s.wave <= 0 {
		return 0, 0, false
	}
	lo := s.wave
	n := upTo - lo
	if n < 4 {
		return 0, 0, false
	}
	times := make([]uint64, n) // by dispatch order; 0: not ended by t
	for _, b := range s.spans {
		if b.Block >= lo && b.Block < upTo && b.End <= t && b.End > b.Start {
			times[b.Block-lo] = b.End - b.Start
		}
	}
	mean := func(ts []uint64) (float64, bool) {
		var sum float64
		k := 0
		for _, x := range ts {
			if x > 0 {
				sum += float64(x)
				k++
			}
		}
		// Most of the blocks must have ended: a mean over the shorter
		// ones only says too little.
		if k < 2 || 10*k < 9*len(ts) {
			return 0, false
		}
		return sum / float64(k), true
	}
	w, ok1 := mean(times)
	h, ok2 := mean(times[n/2:])
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	per := func(blockTime float64) float64 {
		return max(blockTime/float64(s.wave), s.p.DispatchCycles)
	}
	return per(w), per(h), true
}

// extrapolate estimates a sampled grid's cycles: the blocks not timed
// retire at the block rate of the later half of the window (rates: the
// window's blocks after the first wave but for its last wave, which runs
// while the window drains; the most recent rate, which the window was
// grown until it settled), and the drain after the last dispatch is the
// one measured (the real grid ends with the same kind of tail).
func (s *gridState) extrapolate(nb int, end uint64) uint64 {
	_, half, ok := s.rates(s.limitBlk-s.wave, end)
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
// dirty fraction of its contents now, at most its dirty ways' share); the
// rest were written back.
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
	if l2.dirtyWays > 0 {
		// It keeps no more than its dirty ways hold (L2DirtyWays).
		kept = min(kept, float64(l2.sectors())*float64(l2.dirtyWays)/float64(l2.ways))
	}
	return max(measured, uint64((total-kept)*32))
}

// sampleErrorPct is how far, in percent of the grid's cycles, a sampled
// grid's extrapolation could be off by its own evidence: the untimed
// blocks retire at the window's recent block rate (extrapolate); at the
// whole window's rate (rates: after the first wave) they would take
// |whole-half| cycles more or less each. A window that settled within
// sampleSettle moves the estimate by at most that share of the
// extrapolated part. 0 when the window has no rate to compare.
func (s *gridState) sampleErrorPct(nb int, cycles uint64) float64 {
	whole, half, ok := s.rates(s.limitBlk-s.wave, math.MaxUint64)
	if !ok || cycles == 0 {
		return 0
	}
	return 100 * math.Abs(whole-half) * float64(nb-s.limitBlk) / float64(cycles)
}

// wavesMinPct is the least error estimate of a grid sampled by waves, in
// percent: the window's evidence (sampleErrorPct) sees how its block time
// drifts, not what Little's law leaves out (the grid's own tail, the
// phases of its later waves). Measured against full timing on 2026-11-27:
// the reduce lesson at 2^22 ints -0.64%, -0.44% and -0.46% with
// sampleErrorPct ±0.56%, ±0.02% and ±0.02% (TestLongSamplingError, which
// now holds each within its stated estimate): 1. With the DRAM at its
// measured 3.0 TB/s (nineteenth round) -0.73%, -0.38% and -1.35%
// (reduceInterleaved), and reduceNeighboredLess at 2^21 ints -0.79%
// (TestSamplingError): 1.5, the worst rounded up.
const wavesMinPct = 1.5

// dramFloor is the fewest cycles a sampled grid of nb blocks whose window
// ended at cycle end can take by its DRAM traffic: the window's own time,
// then the untimed blocks' reads and the write-backs the window did not
// make (wr, sampledWrites, less the window's) at the DRAM's bandwidth. The
// window may see fewer write-backs than the grid's later waves cause (its
// dirty lines still fit in the L2), so its block rate can be faster than
// the whole grid's: a streaming grid that writes more than the L2 holds is
// then held to the DRAM's pace. Its write-backs start only once the L2 is
// full, though: until then (the untimed blocks that fill the L2's free
// sectors at the window's valid sectors a block) the grid runs as the
// window did, at the window's block rate (rates; the reads at least at
// the DRAM's bandwidth), and only the blocks after them and the
// write-backs are held to the DRAM's bandwidth. (Taking every untimed
// block's traffic at the DRAM's bandwidth made asyncAPI's kernel, 2^24
// ints in 62 waves, 4.2% fast: its full timing moves 815 bytes a cycle of
// reads until its dirty lines fill the L2, at 24,500 cycles, and the
// DRAM's 1,061 from then on. The window itself ran below the DRAM's pace
// while its first wave ramped up: a floor over the whole grid's traffic
// let a copy of 32 MiB in 21 waves come out 11.6% fast.)
func (s *gridState) dramFloor(nb int, end uint64, scale float64, wr uint64) uint64 {
	bw := s.p.DRAMBytesPerCycle
	if bw <= 0 || s.limitBlk <= 0 {
		return 0
	}
	k := float64(nb - s.limitBlk)
	perBlk := float64(s.dramRd) / float64(s.limitBlk)
	wrRest := max(float64(wr)-min(float64(s.dramWr), float64(wr)), 0)
	fill := 0.0 // untimed blocks before the L2 is full
	if wrRest > 0 {
		l2 := s.d.l2
		if v := float64(l2.validSectors()); v > 0 {
			fill = min(max(float64(l2.sectors())-v, 0)/(v/float64(s.limitBlk)), k)
		}
	} else {
		fill = k
	}
	_, half, ok := s.rates(s.limitBlk-s.wave, end)
	if !ok {
		half = 0
	}
	first := fill * max(half, perBlk/bw)
	rest := ((k-fill)*perBlk + wrRest) / bw
	return end + uint64(first+rest)
}

// dramFloorPct is the least error estimate of a grid sampled by waves whose
// DRAM floor decided its time, in percent: the window's evidence says
// nothing of the DRAM's pace, and the floor takes the L2 as filling at
// once where its sets fill one after another. Measured against full
// timing on 2026-11-28 (TestLongSamplingErrorStreaming): asyncAPI's kernel
// at 2^24 ints +1.36%, a copy of 2^23 ints -0.26% (the floor over every
// untimed block's traffic, before: -4.22% and -4.47%, stated by the
// floor's move: ±19.6% and ±20.3%).
const dramFloorPct = 2

// Short grids. A grid of 1.5 to SampleWaves+2 waves has too few waves for
// a block rate to settle (its first wave retires at once, its last one is
// partial), so when Options.ShortGrids is on it is timed for its first one
// or two waves (shortWindow), and its other blocks are placed, one at a
// time, on the SMs' block slots as they free (as the block scheduler hands
// them out), each taking the time a block of the window took on that SM
// (extrapolateSlots): the partial last wave then ends when its slowest
// slot does, not at a rate.

// shortMinWaves2 is twice the fewest waves a grid must have to be sampled
// as a short grid: below 1.5 waves the blocks of the partial second wave
// share their SMs with fewer others than the window's did, and run faster
// than its times say.
const shortMinWaves2 = 3

// shortWindow is how many blocks of a short grid of nb blocks in waves of
// wave blocks (at most waves+2 waves) are timed in detail: the first wave
// and a block under three waves (when oneWave; else such a grid is timed
// in full), else the first two; nb when the grid is not a short grid. The
// first wave's blocks all start at once, their memory latency
// overlapping nothing, and can take longer than later blocks, which start
// as others retire: with two waves timed, the untimed blocks take the
// second wave's times. (A block more per SM instead of a whole second wave
// does not do: it runs while its SM empties, with fewer blocks beside it
// than the grid's later blocks have, and a pointer chase over the L2 came
// out 41% fast.) A window of one wave is off the full timing by up to 6%
// (shortOneWavePct), one of two by up to 2.8% (TestLongShortSamplingError);
// the one-wave window saves 25-55% of such a grid's CPU (the reduce
// lesson's kernels at 1.94 waves, NVIDIA's sortingNetworks), so programs
// take it only once their budget of detail is used (Options.ShortOneWave).
func shortWindow(nb, wave, waves int, oneWave bool) int {
	if wave <= 0 || 2*nb < shortMinWaves2*wave || nb > (waves+2)*wave {
		return nb
	}
	if nb < 3*wave {
		if !oneWave {
			return nb
		}
		// (The block after the first wave is dispatched when the
		// first block retires: shortDRAMBound's evidence.)
		return wave + 1
	}
	return 2 * wave
}

// shortDRAMShare is the share of the DRAM's peak bandwidth above which a
// short grid is timed in full: a grid that moves its data at the DRAM's
// pace builds a queue at the DRAM that its window does not see, and its
// later blocks take longer than the window's (the short-block copies of
// the mechanisms' set came out 7-13% fast, the occupancy lesson's
// streaming kernel 5-8%).
const shortDRAMShare = 0.5

// shortDRAMBound decides, when a short grid's window has dispatched its
// last block at cycle t, whether the grid is timed in full after all:
// when its DRAM reads and writes so far, with the sectors it has left
// dirty in the L2 when the grid's footprint (the L2's valid sectors,
// scaled from the blocks started to the grid's) exceeds the L2 (they will
// be written back), took more than shortDRAMShare of the DRAM's bandwidth
// over those cycles. Then the window grows to the
// whole grid and the grid is no longer sampled.
func (s *gridState) shortDRAMBound(t uint64) bool {
	if t == 0 || s.p.DRAMBytesPerCycle <= 0 {
		return false
	}
	bytes := float64(s.dramRd + s.dramWr)
	l2 := s.d.l2
	if float64(l2.validSectors())*float64(s.g.Blocks())/float64(max(s.nextBlk, 1)) > float64(l2.sectors()) {
		// The grid's footprint exceeds the L2: what it left dirty
		// will be written back.
		bytes += 32 * float64(l2.dirtySectors())
	}
	if bytes <= shortDRAMShare*s.p.DRAMBytesPerCycle*float64(t) {
		return false
	}
	s.limitBlk, s.maxLimit, s.short = s.g.Blocks(), s.g.Blocks(), false
	return true
}

// shortOneWavePct is the error estimate of a short grid timed for one
// wave, in percent. Such a window's own evidence says little: its blocks
// started together, so their times are spread by their age among them
// (the oldest issues first), not by chance, and the spread of the 10th to
// the 90th percentile stated ±17.6% to ±34.5% for errors of 1% to 6% (the
// ratio 5.9 on average). What the window cannot show is how the later
// blocks differ from it: they start as others retire and overlap their
// memory latency with their neighbours' work (the memory-bound
// reductions' first waves take 15% longer than their later blocks), and
// an SM's last blocks, which start apart and find no younger blocks after
// them, take 5-15% longer than its others. Measured against full timing
// on 2026-11-28, each SM's untimed blocks at its mean time: the reduce
// lesson's kernels at 1.94 waves -5.61% to +5.99%
// (TestLongShortSamplingOneWave), the occupancy lesson's FMA kernel at two
// waves -2.29%, a pointer chase over the L2 -0.96%
// (TestLongShortSamplingError): at most 6.0%, 3.8% on average; stated
// 7% (the ratio 1.8). NVIDIA's sortingNetworks' bitonicMergeShared at 1.94
// waves came out +5.9 to +9.1% before the mean (times in dispatch order,
// until 2026-11-27, when the reduce lesson's kernels were +1.2% to
// +10.4%; not measured since).
const shortOneWavePct = 7

// slotFree is a block slot of an SM free from cycle at.
type slotFree struct {
	at       uint64
	sm, slot int
}

// extrapolateSlots estimates a short grid's cycles (end: the window's
// end; launch: the cycles the grid's launch adds to them, for the error
// estimate's share). Each SM's slots free when the window's blocks on it
// retire (its perSM latest retirements); the untimed blocks, in order, go
// to the slot free first (ties: the lower SM) and are dispatched as the
// block scheduler would (dispatchCycle). Each takes the mean time from
// dispatch to retirement of its SM's window blocks: of the second wave
// when two were timed (of all SMs' where the SM has none), of the first
// when one was (below). With two waves timed, the last block of each slot
// takes the longest time of its SM's second-wave blocks instead: the grid
// ends with the slowest of its slots' last blocks (below). The grid ends
// when the last of them does, plus the window's own drain after its last
// retirement (stores reaching the L2).
//
// Until 2026-11-28 (sixteenth round) a window of two waves gave the k-th
// untimed block of an SM the time of its k-th second-wave block, which
// carries the second wave's pattern of times into the tail: the reduce
// lesson's reduceNeighbored at 3.88 waves of 128 retires, on each SM, its
// second wave's last-dispatched blocks slowest (4,100-4,700 cycles, the
// others about 3,850: they start young among blocks all in their first
// phase, and the oldest issue first), a pattern whose place moves by
// about three blocks a wave in the full timing (the slow group is the
// 13th-16th blocks of an SM's second wave, the 10th-13th of its third,
// the 7th-9th of its fourth), so the SMs' last blocks, fast in the full
// timing (3,200-3,600: the SM empties behind them), took the slow times:
// +3.10%. The mean puts the last dispatch where the full timing has it
// (13,340 cycles against 13,338) and loses the spread of the last blocks
// (the grid's end is the latest of them: reduceNeighboredLess at 3.88
// waves of 128 ended 2,891 cycles after its last dispatch, its blocks'
// mean 2,350), which the SM's longest time restores (-3.04% in order).
//
// The error estimate, in percent of the estimate with its launch, is the
// window's own evidence (errorSlots) for a window of two waves,
// shortOneWavePct for a window of one.
func (s *gridState) extrapolateSlots(nb int, end, launch uint64) (cycles uint64, errPct float64, retires []uint64) {
	from := 0
	if s.limitBlk >= 2*s.wave {
		from = s.wave
	}
	later, later1 := s.blockTimes(from)
	if len(later1) == 0 || s.limitBlk >= nb {
		return end, 0, nil
	}
	// A window of one wave: each SM's untimed blocks take the mean of
	// its window blocks' times (all SMs' where it has none). The wave's
	// blocks started together, and a block's time there is set by its
	// age among them (the oldest issues first): the k-th dispatched to an
	// SM is the k-th to retire and the slowest is the youngest, so in
	// order the slot freed last would take the longest time and the SM
	// would end at twice it (the reduce lesson's reduceNeighbored at 1.94
	// waves: +5.1%, then -2.4%). A later block, dispatched as others
	// retire, passes through the ages in turn.
	means, longest := make([]uint64, len(later)), make([]uint64, len(later))
	for sm, w := range later {
		if len(w) == 0 {
			w = later1
		}
		means[sm], longest[sm] = meanOf(w), slices.Max(w)
	}
	mean := func(sm, _ int) uint64 { return means[sm] }
	if from == 0 {
		return max(end, s.placeSlotsTail(nb, end, mean, nil, &retires)), shortOneWavePct, retires
	}
	slowest := func(sm int) uint64 { return longest[sm] }
	cycles = max(end, s.placeSlotsTail(nb, end, mean, slowest, &retires))
	return cycles, s.errorSlots(nb, end, cycles, launch, later, later1, mean), retires
}

// errorSlots is a window of two waves' error estimate, in percent of its
// estimate cycles with its launch, from three pieces of the window's
// evidence:
//   - the tail: how far the end moves when each slot's last block takes
//     its SM's mean time instead of its longest (the grid's end is the
//     latest of its last blocks, which the window shows only as a
//     spread);
//   - the drift: how far it moves between every untimed block taking the
//     mean time of the window's earlier and of its later dispatched half
//     of second-wave blocks (how much the block time still changes);
//   - the means' own error: the standard error of each SM's mean block
//     time, averaged over the SMs, times the untimed blocks a slot runs
//     (whole waves, rounded up).
//
// The drift and the means' error are independent and add in quadrature;
// the tail adds to them. Before 2026-11-28 (sixteenth round) the estimate
// was the end's move over the 10th to 90th percentile of the block times
// plus the drift: ±3.57% on average over the 20 windows of two waves the
// tests time both ways, for a mean error of 0.64% (5.6 times); this one
// states ±1.76% for 0.61% (2.9 times), each error within it
// (TestLongShortSamplingError).
func (s *gridState) errorSlots(nb int, end, cycles, launch uint64, later [][]uint64, later1 []uint64, mean func(sm, k int) uint64) float64 {
	total := cycles + launch
	if total == 0 {
		return 0
	}
	tail := math.Abs(float64(cycles) - float64(max(end, s.placeSlots(nb, end, mean))))
	// later1 is in dispatch order: its first and second halves are the
	// blocks that started earlier and later.
	h := len(later1) / 2
	early, late := meanOf(later1[:max(h, 1)]), meanOf(later1[h:])
	e := max(end, s.placeSlots(nb, end, func(int, int) uint64 { return early }))
	l := max(end, s.placeSlots(nb, end, func(int, int) uint64 { return late }))
	drift := math.Abs(float64(e) - float64(l))
	var se float64
	k := 0
	for _, w := range later {
		if len(w) < 2 {
			continue
		}
		m := float64(meanOf(w))
		var v float64
		for _, x := range w {
			v += (float64(x) - m) * (float64(x) - m)
		}
		se += math.Sqrt(v / float64(len(w)-1) / float64(len(w)))
		k++
	}
	if k > 0 {
		se /= float64(k)
	}
	perSlot := math.Ceil(float64(nb-s.limitBlk) / float64(max(s.wave, 1)))
	means := se * perSlot
	return 100 * (tail + math.Hypot(drift, means)) / float64(total)
}

// blockTimes are the times from dispatch to retirement of the window's
// blocks from the from-th on, per SM and all together, in the order they
// were dispatched.
func (s *gridState) blockTimes(from int) (perSM [][]uint64, all []uint64) {
	perSM = make([][]uint64, len(s.sms))
	spans := slices.Clone(s.spans)
	slices.SortFunc(spans, func(a, b engine.BlockSpan) int { return a.Block - b.Block })
	for _, b := range spans {
		if b.Block < from {
			continue
		}
		var freeAt uint64
		if b.Block >= s.wave {
			freeAt = b.Start + uint64(s.p.BlockRetireCycles)
		}
		d := dispatchCycle(s.p, b.Start, b.Block, s.wave, freeAt)
		w := b.End - min(d, b.End)
		perSM[b.SM] = append(perSM[b.SM], w)
		all = append(all, w)
	}
	return perSM, all
}

func meanOf(ws []uint64) uint64 {
	var sum uint64
	for _, w := range ws {
		sum += w
	}
	return sum / uint64(max(len(ws), 1))
}

// placeSlots places the grid's untimed blocks on the SMs' slots (see
// extrapolateSlots), block k of an SM's untimed ones taking time(sm, k),
// and returns the cycle the last one ends plus the window's drain after
// its last retirement.
func (s *gridState) placeSlots(nb int, end uint64, time func(sm, k int) uint64) uint64 {
	return s.placeSlotsTail(nb, end, time, nil, nil)
}

// placeSlotsTail is placeSlots with the last untimed block of each slot
// taking tail(sm) instead of its time (nil: its time): the blocks after
// it on no slot, it only sets when its slot ends. With retires not nil
// it appends the cycle each untimed block retires at (for the block
// scheduler's retirement drain, finish).
func (s *gridState) placeSlotsTail(nb int, end uint64, time func(sm, k int) uint64, tail func(sm int) uint64, retires *[]uint64) uint64 {
	ends := make([][]uint64, len(s.sms))
	for _, b := range s.spans {
		ends[b.SM] = append(ends[b.SM], b.End)
	}
	h := &slotHeap{}
	for i, e := range ends {
		slices.Sort(e)
		for j := 0; j < s.perSM; j++ {
			var at uint64
			if k := len(e) - 1 - j; k >= 0 {
				at = e[k]
			} else if len(e) > 0 {
				at = e[0]
			}
			h.s = append(h.s, slotFree{at: at, sm: i, slot: len(h.s)})
		}
	}
	if len(h.s) == 0 {
		return end
	}
	h.init()
	n := make([]int, len(s.sms))
	// lastD is, per slot, when its last untimed block was dispatched
	// (+1; 0: none).
	lastD := make([]uint64, len(h.s))
	lastR := make([]int, len(h.s)) // per slot, its last block's place in retires
	var last uint64
	for i := s.limitBlk; i < nb; i++ {
		f := h.s[0]
		d := dispatchCycle(s.p, f.at, i, s.wave, f.at+uint64(s.p.BlockRetireCycles))
		e := d + time(f.sm, n[f.sm])
		n[f.sm]++
		last = max(last, e)
		lastD[f.slot] = d + 1
		if retires != nil {
			lastR[f.slot] = len(*retires)
			*retires = append(*retires, e)
		}
		h.s[0].at = e
		h.down(0)
	}
	if tail != nil {
		last = 0
		for _, f := range h.s {
			if d := lastD[f.slot]; d > 0 {
				e := d - 1 + tail(f.sm)
				last = max(last, e)
				if retires != nil {
					(*retires)[lastR[f.slot]] = e
				}
			}
		}
	}
	return last + (end - min(s.lastDone, end))
}

// slotHeap is a min-heap of block slots by (cycle, SM).
type slotHeap struct{ s []slotFree }

func (h *slotHeap) less(i, j int) bool {
	a, b := h.s[i], h.s[j]
	if a.at != b.at {
		return a.at < b.at
	}
	return a.sm < b.sm
}

func (h *slotHeap) init() {
	for i := len(h.s)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *slotHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h.s) {
			return
		}
		m := l
		if r := l + 1; r < len(h.s) && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h.s[i], h.s[m] = h.s[m], h.s[i]
		i = m
	}
}
