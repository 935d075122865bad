// What a memory instruction takes: the L1's data path (loads, cp.async), constant loads, the atomic path, memory orders and fences, 16-bit CAS loops, wmma.load's rounds and groups.

package timing

import (
	"math"

	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/ptx/ptxtype"
)

// cpAsyncL1Bytes is what a cp.async (LDGSTS) takes of the L1's data path
// (in bytes of L1BytesPerCycle; testdata/timing/ldgsts, cpasync): at least
// CpAsyncCycles, and CpAsyncWavefrontCycles for each wavefront of its
// shared-memory writes (the record's Wavefronts: its lanes taken a global
// line at a time, bank conflicts within a line costing a wavefront each)
// plus CpAsyncIssueCycles; a .ca copy (through the L1) moves its bytes at
// CpAsyncBytesPerCycle and takes CpAsyncLineCycles for each line it
// allocates (missing lines, the missing ones of the L1).
func cpAsyncL1Bytes(p *Params, rec *engine.StepRecord, bypass bool, missing int) float64 {
	c := p.CpAsyncCycles
	if rec.Wavefronts > 0 && p.CpAsyncWavefrontCycles > 0 {
		c = max(c, float64(rec.Wavefronts)*p.CpAsyncWavefrontCycles+p.CpAsyncIssueCycles)
	}
	if !bypass {
		if p.CpAsyncBytesPerCycle > 0 {
			c = max(c, float64(rec.Bytes)/p.CpAsyncBytesPerCycle)
		}
		c = max(c, float64(missing)*p.CpAsyncLineCycles)
	}
	return max(l1DataBytes(p, rec.Sectors), c*float64(p.L1BytesPerCycle))
}

// constLoad times an ld.const (its data in global memory, as the engine
// keeps it): the constant caches fetch a ConstBlockBytes block for a miss,
// so the load asks for every sector of the blocks it touches
// (testdata/timing/syncmem, const_mb.cu: a chain through __constant__
// memory 64 bytes a step misses once in four steps, 128 bytes a step
// every other step, 256 bytes every step, each miss from DRAM 649-747
// cycles, from the L2 about 320).
func (s *gridState) constLoad(sm *smT, rec *engine.StepRecord) uint64 {
	per := uint64(s.p.ConstBlockBytes / 32)
	secs := sm.constSecs[:0]
	for _, sec := range rec.Sectors {
		b := sec / per * per
		if n := len(secs); n >= int(per) && secs[n-int(per)] == b {
			continue // the block just added
		}
		seen := false
		for i := 0; i < len(secs); i += int(per) {
			seen = seen || secs[i] == b
		}
		if !seen {
			for k := uint64(0); k < per; k++ {
				secs = append(secs, b+k)
			}
		}
	}
	sm.constSecs = secs
	orig := rec.Sectors
	rec.Sectors = secs
	sm.inConst = true
	mem := s.load(sm, rec)
	sm.inConst = false
	rec.Sectors = orig
	return mem
}

// lines counts the 128-byte lines of sectors (first-touch order, a
// line's sectors together).
func lines(sectors []uint64) int {
	n := 0
	for i := range sectors {
		if i == 0 || sectors[i]>>2 != sectors[i-1]>>2 {
			n++
		}
	}
	return n
}

// missingLines counts the lines of sectors (in first-touch order, a
// line's sectors together) of which the L1 c lacks a sector.
func missingLines(c *cache, sectors []uint64) int {
	if c == nil {
		return 0
	}
	n := 0
	for i := 0; i < len(sectors); {
		line, miss := sectors[i]>>2, false
		for ; i < len(sectors) && sectors[i]>>2 == line; i++ {
			miss = miss || !c.holds(sectors[i])
		}
		if miss {
			n++
		}
	}
	return n
}

// loadL1Bytes is what a global load into registers takes of the L1's
// data path (in bytes of L1BytesPerCycle): its sectors that miss the L1
// (every sector with no L1) at LoadMissBytesPerCycle, or its bytes and
// wavefronts (l1DataBytes) when more. Measured on the H100
// (testdata/timing/coldlines, coldlines_mb.cu's k_burst: one block of 1
// to 8 warps reading 4 to 256 128-byte lines at once, 16 bytes a lane):
// after the first few dozen requests an SM's loads leave at about two
// cycles a line, from the L2 and from DRAM alike (eight warps' 64 loads
// of four lines issue in 345-404 cycles, the last value of 256 lines from
// the L2 is back 871-942 cycles in where one line takes 348), where a hit
// takes one (testdata/timing/mechanisms2: l1wave); the model had a
// block's 256 lines leave in 256 cycles. Charged by the sector, not the
// line: the calibration's tiled matmuls, whose loads read half lines,
// were 2 points slower at two cycles a line (the bursts read whole
// lines and cannot tell). And at least LoadMissLineCycles for each line it
// misses: one sector of each of 32 lines takes an SM 32 cycles on the
// GH100 (testdata/timing/l1reuse, miss_rowsx: one data-stage wavefront,
// 16 cycles at 64 bytes a cycle), a whole line's four sectors the two
// that the rate gives. cp.async (cpAsyncL1Bytes) and
// the TMA unit's copies have their own rates.
func loadL1Bytes(p *Params, l1 *cache, sectors []uint64) float64 {
	n := l1DataBytes(p, sectors)
	if p.LoadMissBytesPerCycle <= 0 || len(sectors) == 0 {
		return n
	}
	m, lines, last := 0, 0, ^uint64(0) // the sectors that miss the L1, and their lines
	for _, sec := range sectors {
		if l1 != nil && l1.holds(sec) {
			continue
		}
		m++
		if sec>>2 != last {
			lines, last = lines+1, sec>>2
		}
	}
	miss := max(float64(m*32)/p.LoadMissBytesPerCycle, float64(lines)*p.LoadMissLineCycles)
	return max(n, miss*float64(p.L1BytesPerCycle))
}

// countLines is the number of 128-byte lines sectors (in line order, as
// a request's are) touch.
func countLines(sectors []uint64) int {
	m := 0
	for i := 0; i < len(sectors); m++ {
		line := sectors[i] >> 2
		for ; i < len(sectors) && sectors[i]>>2 == line; i++ {
		}
	}
	return m
}

// atomicLanes holds the SM's global atomics while it sends this one's
// addresses (AtomicLaneCycles each), an aggregated one's at least
// AtomicInstCycles (an atom of 32 bits, of 64 bits; a red): no
// sub-partition issues another before they have gone.
func (s *gridState) atomicLanes(sm *smT, in *ir.Inst, rec *engine.StepRecord) {
	p := s.p
	c := p.AtomicLaneCycles
	if c == 0 || vecAtomRest(in) {
		return // a vector atomic's lanes went with its first element
	}
	hold := float64(max(rec.AddrDistinct, 1)) * c
	agg := warpAggregated(in, rec)
	if in.Op == ir.OpRed && !agg && p.RedInstCycles > 0 {
		// A red goes to the L2 a line at a time (testdata/timing/syncmem:
		// one warp's red on a line of its own every 6.4 cycles, on 32
		// lines every 30.6; an atom on one line every 36.4).
		hold = max(float64(lines(rec.Sectors))*c, p.RedInstCycles)
	}
	if agg {
		switch {
		case in.Op == ir.OpRed:
			hold = max(hold, p.AtomicInstCycles[2])
		case ir.TypeSize(in.Type) >= 8:
			hold = max(hold, p.AtomicInstCycles[1])
		default:
			hold = max(hold, p.AtomicInstCycles[0])
		}
	}
	sm.atomics = max(sm.atomics, sm.now) + uint64(math.Ceil(hold))
	for i := range sm.sps {
		sm.sps[i].pipe[ir.ClassAtomic] = max(sm.sps[i].pipe[ir.ClassAtomic], sm.atomics)
	}
}

// ordering charges an instruction's memory order (ir.Order*): a fence, and
// the release half of an atomic's order, holds the warp for its scope's
// fence (the atomic leaves after it, so its result comes as much later);
// an acquiring atomic's warp waits for the result. mem is the atomic's
// result (a cycle or a future); ordering returns it as delayed.
func (s *gridState) ordering(sm *smT, w *warpT, in *ir.Inst, mem uint64) uint64 {
	p := s.p
	fence := uint64(fenceCycles(in, p))
	if in.Op == ir.OpMembar || in.Order&ir.OrderRelease != 0 && !vecAtomRest(in) {
		from := sm.now
		if p.StoreSectorCycles > 0 && in.Order&(ir.OrderSys|ir.OrderGPU|ir.OrderCluster) != 0 && w.lastLeft > from && !isFut(w.lastLeft) {
			// Its fence orders the warp's stores still queued at the SM's
			// store port after them (testdata/timing/stld: a membar.gl
			// ends 700 cycles after the port sent the last one).
			from = w.lastLeft
		}
		w.ready, w.readyWhy = sm.fmax(w.ready, from+fence), stallLongScoreboard
		sm.keep(&w.ready)
		if mem != 0 {
			mem = sm.fadd(mem, fence)
		}
	}
	if in.Op != ir.OpMembar && in.Order&ir.OrderAcquire != 0 && mem != 0 && !vecAtomMore(w, in) {
		w.ready, w.readyWhy = sm.fmax(w.ready, mem), stallLongScoreboard
		sm.keep(&w.ready)
	}
	return mem
}

// A vector atomic (sm_90's atom/red .v2/.v4.f32 on global memory) is one
// SASS instruction, one request of 8 or 16 bytes a lane, which the
// lowering makes one scalar element after another (Inst.Vec: the
// element). Its order applies to the instruction: the release fence before
// the first element, the acquire wait after the last; and the SM's atomic
// path sends a lane's address once. Measured on the H100
// (testdata/triton3/study, ncu over splitk_f16_atomic): sm_90's PTX, 128
// atom.acq_rel.gpu.add.v4.f32 warp instructions, took 768 L2 atomic
// requests and 74.6 k warp-cycles of membar stalls where sm_80's, 512
// scalar atomics over the same addresses, took 3,072 and 326 k: a fence an
// instruction, not an element (11.6 µs against 29.1).

// casLoop16 says whether in is a 16-bit floating-point atomic that ptxas
// makes a compare-and-swap loop on the 4-byte word holding it (the SM has
// no scalar f16 or bf16 atomic; f16x2 and bf16x2 it has). The sm_90 SASS
// of atom.acq_rel.gpu.add.noftz.f16 (testdata/triton3/study,
// atomic_f16_bf16): an LDG of the word, then a loop of HADD2, PRMT,
// MEMBAR.ALL.GPU, ERRBAR, CGAERRBAR, ATOMG.E.CAS.STRONG.GPU, CCTL.IVALL,
// ISETP and BRA until the word held what the lane read.
func casLoop16(in *ir.Inst) bool {
	return in.Op == ir.OpAtom && (in.Type == ptxtype.F16 || in.Type == ptxtype.BF16) && in.Mode != ir.AtomCas && in.Mode != ir.AtomExch
}

// wmmaRounds is how many memory round trips a wmma.load's fragment takes
// to reach its MMA (ir.WmmaAccess.Rounds, WmmaRounds): 1 where ptxas
// loads it with the step's other loads — outside a loop under
// WmmaRoundsLoopOnly (ir.WmmaAccess.Reuse false).
func wmmaRounds(p *Params, a *ir.WmmaAccess) int {
	if !p.WmmaRounds || p.WmmaRoundsLoopOnly && !a.Reuse {
		return 1
	}
	return a.Rounds
}

// wmmaGroups is how many groups of its requests a global wmma.load sends
// one after another (ir.WmmaAccess.Groups, WmmaGroupRounds), and its
// access: 1 when they all go out at once.
func (s *gridState) wmmaGroups(rec *engine.StepRecord, in *ir.Inst) (int, *ir.WmmaAccess) {
	p := s.p
	if !p.WmmaRounds || !p.WmmaGroupRounds || in.Op != ir.OpTensor || in.Mode != ir.TensorWmmaLoad || rec.Space != engine.SpaceGlobal {
		return 1, nil
	}
	funcs := s.g.Funcs()
	if int(rec.Func) >= len(funcs) || int(in.Imm) >= len(funcs[rec.Func].TensorOps) {
		return 1, nil
	}
	a := &funcs[rec.Func].TensorOps[in.Imm].Access
	g := a.Groups
	if wmmaRounds(p, a) < 2 || g < 2 || len(rec.Parts) < g || a.Slices && !p.WmmaSliceGroups {
		return 1, nil
	}
	return g, a
}

// groupRounds sends a wmma.load's requests (rec.Parts) in g groups, each
// through the L1 and the L2 when the data of the group before is back, as
// ptxas's SASS does where it packs each group's bytes before it loads the
// next (wg.sass, gg of s8: four LDG.E.U8, IMAD, four more, IMAD, PRMT):
// a later group that reads lines no earlier one touched waits for their
// fetch from DRAM. It returns when the last group's data is back.
func (s *gridState) groupRounds(sm *smT, rec *engine.StepRecord, a *ir.WmmaAccess, g int, lookup float64) uint64 {
	p := s.p
	parts, secs, bytes := rec.Parts, rec.Sectors, rec.Bytes
	rec.Bytes = bytes / uint32(len(parts))
	var after, mem uint64
	for k := range g {
		var done uint64
		off := 0
		for i, n := range parts {
			if a.Group(i, len(parts), g) == k {
				rec.Sectors = secs[off : off+int(n)]
				done = sm.fmax(done, s.loadTakingAfter(sm, rec, loadL1Bytes(p, sm.l1, rec.Sectors), lookup, after))
			}
			off += int(n)
		}
		after, mem = done, done
	}
	rec.Sectors, rec.Bytes = secs, bytes
	return mem
}

// casRounds charges a 16-bit atomic's compare-and-swap loop (casLoop16):
// the word's load before it (an L2 round trip) and, lanes on one word
// succeeding one a round (rec.AddrMaxDup: the most lanes on one word), a
// round more for each further lane, each its release fence (the MEMBAR is
// in the loop) and its CAS's round trip. The warp waits for the loop
// whatever the atomic's order: its branch reads the CAS's result. On the
// H100 the study half's atomic_f16_bf16 took 414 ATOMG requests for 128
// warp-level atomics (ncu, sm_90 PTX: 3.2 rounds each; the rounds another
// warp's CAS on the word causes are atomicL2's).
func (s *gridState) casRounds(sm *smT, w *warpT, in *ir.Inst, rec *engine.StepRecord, mem uint64) uint64 {
	p := s.p
	extra := p.L2HitLatency + float64(max(rec.AddrMaxDup, 1)-1)*casRound(in, p)
	mem = sm.fadd(mem, uint64(extra+0.5))
	w.ready, w.readyWhy = sm.fmax(w.ready, mem), stallLongScoreboard
	sm.keep(&w.ready)
	return mem
}

// casRound is a 16-bit atomic's compare-and-swap round: the CAS's answer
// back at the SM, its release fence (the MEMBAR is in the loop) and the
// next CAS's way to the L2. CAS loops of other warps on a word serialize a
// round a success (atomicL2): on the H100 (testdata/triton3/study/slow,
// f16_w1…w8, f16_b2, b4: warps or blocks each with 8 atomics, lane l on
// word l) two warps take 5.5 µs longer than one, 688 ns (1,093 cycles) a
// further atomic (two blocks 6.6 µs), four 16.8 µs, eight 38.8 µs: about a
// round a further warp's atomic.
func casRound(in *ir.Inst, p *Params) float64 {
	per := p.L2HitLatency + p.AtomicReturnCycles
	if in.Order&ir.OrderRelease != 0 {
		per += float64(fenceCycles(in, p))
	}
	return per
}

// fenceCycles is the fence of in's scope (ordering).
func fenceCycles(in *ir.Inst, p *Params) uint32 {
	switch {
	case in.Order&ir.OrderSys != 0:
		return p.FenceSys
	case in.Order&(ir.OrderGPU|ir.OrderCluster) != 0:
		return p.FenceGPU
	}
	return p.FenceCTA
}

// vecAtomRest says whether in is a vector atomic's element after its
// first.
func vecAtomRest(in *ir.Inst) bool {
	return in.Vec > 0 && (in.Op == ir.OpAtom || in.Op == ir.OpRed)
}

// vecAtomMore says whether the warp's next instruction is a later element
// of the vector atomic whose element in is.
func vecAtomMore(w *warpT, in *ir.Inst) bool {
	n := w.next
	return n != nil && (in.Op == ir.OpAtom || in.Op == ir.OpRed) && n.Op == in.Op && n.Vec == in.Vec+1
}
