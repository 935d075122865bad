// Block placement (the block scheduler): how many blocks an SM holds at
// once (blocksPerSM, the occupancy calculator's limit), the first wave
// handed out SM by SM, a new block dispatched to an SM BlockRetireCycles
// after one of its blocks retired, while blocks remain, at most one block
// dispatched per DispatchCycles device-wide, each block's warps issuing
// BlockLaunch cycles after its dispatch, and the count of active warps
// behind achieved occupancy (touchSM: a block waiting for its dispatch is
// resident but not active).

package timing

import (
	"slices"
	"sync"
	"unsafe"

	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
)

// kernelRegs is the registers per thread the block scheduler counts for
// kernel fn: the lowering's estimate, capped by .maxnreg, or the
// override's answer when it gives one.
func kernelRegs(fn *ir.Func, override func(*ir.Func) int) int {
	regs := fn.RegEstimate
	if fn.MaxNReg > 0 && regs > fn.MaxNReg {
		regs = fn.MaxNReg
	}
	if override != nil {
		if r := override(fn); r > 0 {
			regs = r
		}
	}
	return regs
}

// hoistWords is gridState.hoistWords for kernel fn with regs registers a
// thread: 0 (no bound) when fn has no liveness or regs hold its loads all
// hoisted (ir.Func.HoistRegs; with unroll > 1, ptxas's loop body of unroll
// PTX bodies and the registers its launch bounds let ptxas take for them:
// Params.UnrolledHoistBound) within the estimate's own error
// (hoistSlackEighths); else regs less the two ptxas counts beyond its
// values (ir.estimateRegs), and at least what the PTX's order has live at
// once.
func hoistWords(fn *ir.Func, regs int, constBank bool, unroll int) int {
	if fn == nil || len(fn.LiveWords) == 0 {
		return 0
	}
	need := fn.HoistRegs
	if unroll > 1 {
		need += (unroll - 1) * fn.UnrolledLoadWords
		if lb := ir.LaunchBoundsRegs(fn); lb > ir.RegTarget && lb > regs {
			// ptxas takes up to lb registers to hoist them.
			regs = max(regs, min(need, lb))
		}
	}
	if 8*need <= (8+hoistSlackEighths)*regs {
		return 0
	}
	return max(regs-2, int(slices.Max(liveWords(fn, constBank))))
}

// liveWords is the liveness the hoisting bound counts for fn: without its
// constant-bank values with Params.ConstBankLive (ir.Func.LiveWordsConst),
// else in the PTX's order (ir.Func.LiveWords).
func liveWords(fn *ir.Func, constBank bool) []uint16 {
	if constBank && fn.LiveWordsConst != nil {
		return fn.LiveWordsConst
	}
	return fn.LiveWords
}

// hoistSlackEighths: a kernel whose loads all hoisted need at most 1/8
// more registers than it has, by the estimate's count, is taken to hoist
// them all — the estimate is that far from ptxas's count on most kernels
// (the fresh set: 7.8% mean error, three in four within 10%). mlp's p_dot
// (its 8 loads above its FFMAs in ptxas's SASS, 32 registers; 36 by the
// estimate's count of that order) is; wmma_f64's dgemm_wmma (39 against
// its 32; ptxas holds back 6 of 16 loads) is not. Chosen on those two,
// both of the study halves.
const hoistSlackEighths = 1

// blocksPerSM is how many blocks of a grid the block scheduler keeps
// resident on one SM: the occupancy calculator's limit (warps, registers,
// shared memory, blocks per SM), at least one; every block of a
// cooperative grid is resident at once (the runtime checked the grid
// against the occupancy calculator), so an SM then takes its share. (A
// cluster launch is placed cluster by cluster: cluster.go.)
func blocksPerSM(a *arch.Arch, blockThreads, regs, shared int, cooperative bool, blocks int) int {
	occ := a.Occupancy(arch.OccupancyInput{BlockSize: blockThreads, RegsPerThread: regs, StaticShared: shared})
	perSM := max(occ.BlocksPerSM, 1)
	if cooperative {
		perSM = max(perSM, (blocks+max(a.SMs, 1)-1)/max(a.SMs, 1))
	}
	return perSM
}

// blockT is one resident block: its engine slot and its warps' timing
// state.
type blockT struct {
	slot   *engine.BlockSlot
	sm     *smT
	warps  []*warpT
	linear int
	order  int // the block's place in launch order (clusters: cluster.go)
	live   int
	start  uint64
	// clReady is when the warps waiting for phase clPhase of the block's
	// cluster barrier go (cluster.go, clusterEvent); 0: none yet.
	clPhase, clReady uint64
	// draining counts its warps that exited but wait for their stores
	// (warpExit): the block is not retired before they are done; endAt
	// is when its last warp was done.
	draining int
	endAt    uint64
	// consts are the lines of constant bank 0 the block has asked for
	// (constbank.go): cold at its start.
	consts []constLine
	// starting: placed, not yet set up in the engine (startPending).
	starting bool
	// stale: taken from the device's blockPool, its warps' scoreboards
	// still those of an earlier grid (placeWarps clears them).
	stale bool
	// placing: placed, its warps not yet set up (placeWarps, from
	// startPending), with base (the SM's resident warps before it), age0
	// (the grid's warps placed before it), ready0 (when they may issue)
	// and issue0 (the cycle it was placed at).
	placing              bool
	base                 int
	age0, ready0, issue0 uint64
	// The first wave's blocks are made SM after SM (run): the pad keeps
	// the lines of one SM's block, written on its thread, from holding
	// another SM's (false sharing; cacheLinePad).
	_ cacheLinePad
}

// cacheLinePad ends a struct of per-SM state that the first wave makes for
// the SMs in turn, one after the other in memory, and that the SMs' threads
// write: a cache line of the host's that nothing reads or writes, so that
// no line holds two SMs' fields and a write on one SM's thread does not
// take the line from the core running another's (false sharing).
type cacheLinePad [64]byte

// smT is one SM: its sub-partitions, resident blocks, L1 and clock.
type smT struct {
	smQuantum
	id         int
	sps        []spT
	blocks     []*blockT
	free       []*blockT
	l1         *cache // nil: no L1 (or no block yet: used)
	l1q        queue
	used       bool      // the SM has had a block of the grid (useSM)
	stq        queue     // the port global stores leave by (StoreSectorCycles)
	shared     uint64    // cycle the shared-memory pipe is free
	dsmem      uint64    // cycle the path to the cluster's other SMs takes the next remote atomic lane
	atomics    uint64    // cycle the SM can send the next global atomic's addresses
	casScratch []uint64  // a CAS loop's sectors and words, as atomicReq logs them
	tmaps      [8]uint64 // the tensor maps the SM's TMA unit holds (StepRecord.TensorMap), round robin
	tmapNext   int
	printfWarm bool   // the SM has run vprintf's code in this grid (printf.go)
	resident   int    // resident warps
	now        uint64 // the SM's own clock (it runs a quantum at a time)
	wake       uint64 // the first cycle after its last quantum it can issue at
	retire     bool   // a warp finished: look for finished blocks
	lastT      uint64
	warpCyc    uint64
	activeCy   uint64
	// pending are the SM's blocks waiting for the block scheduler's
	// dispatch (in dispatch order, from pendHead on) and waiting their
	// warps: resident, but not yet launched, so not active.
	pending  []launch
	pendHead int
	waiting  int
	freeAt   uint64 // a retired block's slot is free for the next block
	// drainers are its warps that exited and wait for their stores
	// (warpExit); busyUntil is the last cycle another warp was in flight,
	// drainEnd the latest end of a drained warp (drained).
	drainers            int
	busyUntil, drainEnd uint64
	mbars               mbarsT   // mbarrier completions (mbarrier.go)
	fetch               *fetchT  // its instruction cache (fetch.go; nil: not modelled)
	constSecs           []uint64 // scratch: a constant load's blocks' sectors (constLoad)
	// inConst: the load being logged is a constant cache's miss
	// (constLoad), whose answer takes no side of the L2 (reqConstLoad).
	inConst bool

	// stLines are the 128-byte lines the store port's last stores wrote
	// (the line's number plus 1, shifted 4 bits, over a mask of its sectors
	// written) and stLeft when each leaves the SM: a ring of
	// StoreMergeLines (memory.go, mergeStore).
	stLines, stLeft [32]uint64
	stNext          int
}

// reset makes sm SM number id of a new grid: every field as a new smT's
// but the capacity of the slices it grew in an earlier grid (emptied; the
// blocks they held went back to the device's pool).
func (sm *smT) reset(id int, p *Params) {
	sps := sm.sps
	for k := range sps {
		sp := &sps[k]
		clear(sp.warps)
		*sp = spT{idx: k, warps: sp.warps[:0], scan: sp.scan[:0]}
	}
	clear(sm.blocks)
	clear(sm.free)
	for i := range sm.depWarps {
		clear(sm.depWarps[i])
		sm.depWarps[i] = sm.depWarps[i][:0]
	}
	*sm = smT{id: id, sps: sps, blocks: sm.blocks[:0], free: sm.free[:0],
		casScratch: sm.casScratch[:0], pending: sm.pending[:0], constSecs: sm.constSecs[:0],
		l1q: queue{bytesPerCycle: float64(p.L1BytesPerCycle)}, stq: queue{bytesPerCycle: 1},
		smQuantum: smQuantum{depWarps: sm.depWarps, retired: sm.retired[:0], aheadRetired: sm.aheadRetired[:0]}}
}

// launch is a block's dispatch: its cycle and its warps.
type launch struct {
	at    uint64
	warps int
}

// dispatchCycle is when block index (in launch order) is dispatched to an
// SM that had room for it at cycle t and whose last retired block freed
// its slot for the next one at freeAt: no sooner than the block
// scheduler's rate allows (one block per DispatchCycles device-wide) and
// than the SM has released the block before (BlockRetireCycles after its
// last warp exited).
func dispatchCycle(p *Params, t uint64, index, wave int, freeAt uint64) uint64 {
	rate := p.DispatchCycles
	if index < wave && p.FirstDispatchCycles > 0 {
		rate = p.FirstDispatchCycles
	}
	return max(t, uint64(float64(index)*rate), freeAt)
}

// startBlock places the next block on sm, its warps ready at cycle t plus
// the block launch latency.
func (s *gridState) startBlock(sm *smT, t uint64) {
	// A block's slot and timing state are reused for the SM's next block.
	// The scoreboard is not cleared: every cycle it holds from the last
	// block is before now, so it never delays the new one.
	var b *blockT
	if n := len(sm.free); n > 0 {
		b = sm.free[n-1]
		sm.free = sm.free[:n-1]
	} else if b = s.d.blocks.take(); b != nil {
		b.slot, b.sm = s.g.NewSlot(), sm
	} else {
		b = &blockT{slot: s.g.NewSlot(), sm: sm}
	}
	if !sm.used {
		s.useSM(sm)
	}
	s.touchSM(sm)
	linear := s.nextBlk
	if s.cl != nil {
		linear = s.cl.linear(linear)
	}
	// The engine sets the block up when its SM next runs (startPending):
	// on the SM's thread.
	b.starting = true
	b.linear, b.order, b.live, b.start, b.draining, b.endAt = linear, s.nextBlk, s.wpb, t, 0, 0
	b.consts = b.consts[:0]
	s.nextBlk++
	if s.nextBlk == s.limitBlk && !s.extend(t) {
		s.lastDispatch = t
	}
	// The block scheduler hands out blocks in order at a fixed rate.
	warps := uint64(s.wpb)
	dispatch := dispatchCycle(s.p, t, s.nextBlk-1, s.wave, sm.freeAt)
	start := dispatch + uint64(s.p.BlockLaunch)
	// Achieved occupancy (ncu's sm__warps_active) counts a warp from its
	// launch: the block's warps are not active while the block waits for
	// the block scheduler (short blocks retire faster than it replaces
	// them). An SM's dispatches come in order (t and the block index only
	// grow), so pending stays sorted.
	if dispatch > sm.lastT {
		if sm.pendHead == len(sm.pending) {
			sm.pending, sm.pendHead = sm.pending[:0], 0
		}
		sm.pending = append(sm.pending, launch{dispatch, int(warps)})
		sm.waiting += int(warps)
	}
	// Warps go to sub-partitions round-robin by their index in the SM.
	b.base, b.age0, b.ready0, b.issue0 = sm.resident, s.age, start, t
	s.age += uint64(s.wpb)
	for i := range min(s.wpb, len(sm.sps)) {
		sp := &sm.sps[(b.base+i)%len(sm.sps)]
		sp.check = min(sp.check, start)
	}
	sm.resident += s.wpb
	sm.blocks = append(sm.blocks, b)
	if s.workers <= 1 {
		s.placeWarps(sm, b)
	} else {
		// On the SM's thread (startPending), not in the serial part of
		// the quantum: the same warps in the same order.
		b.placing = true
	}
}

// placeWarps sets up the warps of block b, just placed on sm (startBlock):
// their state, and their place in their sub-partitions.
func (s *gridState) placeWarps(sm *smT, b *blockT) {
	if b.stale {
		// A block of an earlier grid (blockPool): its warps' scoreboards
		// start empty, as new ones do, with the kernel's entries.
		b.stale = false
		for _, w := range b.warps {
			if cap(w.regReady) < s.nslots || cap(w.regKind) < s.nslots {
				w.regReady, w.regKind = make([]uint64, s.nslots), make([]uint8, s.nslots)
				continue
			}
			w.regReady, w.regKind = w.regReady[:s.nslots], w.regKind[:s.nslots]
			clear(w.regReady)
			clear(w.regKind)
		}
	}
	if n := s.wpb - len(b.warps); n > 0 {
		// The block's warps and their scoreboards side by side in memory.
		ws, k := make([]warpT, n), s.nslots
		regs, kinds := make([]uint64, n*k), make([]uint8, n*k)
		for i := range ws {
			ws[i].regReady, ws[i].regKind = regs[i*k:(i+1)*k:(i+1)*k], kinds[i*k:(i+1)*k:(i+1)*k]
			b.warps = append(b.warps, &ws[i])
		}
	}
	b.warps = b.warps[:s.wpb]
	for i, w := range b.warps {
		*w = warpT{blk: b, idx: i, age: b.age0 + uint64(i) + 1, ready: b.ready0, readyWhy: stallDispatch, lastIssue: b.issue0,
			regReady: w.regReady, regKind: w.regKind, lazy: w.lazy[:0]}
		sp := &sm.sps[(b.base+i)%len(sm.sps)]
		if sp.scan == nil {
			sp.scan = make([]scanEntry, 0, (s.perSM*s.wpb+len(sm.sps)-1)/len(sm.sps))
		}
		w.sp, w.spi = sp, len(sp.warps)
		sp.warps = append(sp.warps, w)
		sp.scan = append(sp.scan, scanEntry{})
	}
}

// startPending sets up the blocks placed on sm since it last ran: their
// warps (placeWarps) and, in the engine, their state.
func (s *gridState) startPending(sm *smT) {
	for _, b := range sm.blocks {
		if b.placing {
			b.placing = false
			s.placeWarps(sm, b)
		}
		if b.starting {
			b.starting = false
			b.slot.Start(b.linear)
		}
	}
}

// useSM gives sm, about to get the grid's first block there, its L1 and
// instruction fetch state: both start empty in each grid, so an SM the grid
// never uses needs neither.
func (s *gridState) useSM(sm *smT) {
	sm.used = true
	if s.code != nil {
		sm.fetch = newFetch(s.code.lines, s.p)
	}
	if s.l1Bytes > 0 {
		sm.l1 = s.d.l1s.take(s.l1Bytes, 4)
	}
}

// touchSM accounts the SM's active warps up to now (achieved occupancy):
// its resident warps less those of blocks still waiting for their
// dispatch.
func (s *gridState) touchSM(sm *smT) {
	for sm.pendHead < len(sm.pending) && sm.pending[sm.pendHead].at <= sm.now {
		l := sm.pending[sm.pendHead]
		sm.account(l.at)
		sm.waiting -= l.warps
		sm.pendHead++
	}
	sm.account(sm.now)
}

// account adds the SM's active warps from its last account up to t.
func (sm *smT) account(t uint64) {
	if t > sm.lastT {
		dt := t - sm.lastT
		n := sm.resident - sm.waiting
		sm.warpCyc += uint64(n) * dt
		if n > 0 {
			sm.activeCy += dt
		}
		if n > sm.drainers {
			sm.busyUntil = t
		}
		sm.lastT = t
	}
}

// retireBlocks frees the slots of finished blocks; the grid hands the
// SM its next blocks at the quantum's end (dispense, in quantum.go).
func (s *gridState) retireBlocks(sm *smT) {
	for i := 0; i < len(sm.blocks); i++ {
		b := sm.blocks[i]
		if b.slot.Live() > 0 || b.draining > 0 {
			continue
		}
		s.touchSM(sm)
		for _, w := range b.warps {
			if !w.done {
				w.done = true
				w.changed()
				sm.resident--
			}
		}
		for k := range sm.sps {
			sp := &sm.sps[k]
			j := 0
			for i, w := range sp.warps {
				if w.blk != b {
					sp.warps[j], sp.scan[j] = w, sp.scan[i]
					w.spi = j
					j++
				}
			}
			sp.warps, sp.scan = sp.warps[:j], sp.scan[:j]
			sp.resetSkip()
			if sp.last != nil && sp.last.blk == b {
				sp.last = nil
			}
		}
		sm.blocks = append(sm.blocks[:i], sm.blocks[i+1:]...)
		sm.free = append(sm.free, b)
		i--
		// The SM takes its next block BlockRetireCycles after this one's
		// last warp was done (exited, its stores taken: warpExit; its
		// warps are gone, not active meanwhile).
		end := min(max(b.endAt, b.start), sm.now)
		sm.retired = append(sm.retired, retired{at: end, freeAt: end + uint64(s.p.BlockRetireCycles),
			order: b.order, span: engine.BlockSpan{Block: b.linear, SM: sm.id, Start: b.start, End: end}})
	}
}

// blockPool keeps the blocks of a finished grid's SMs, their warps with
// them (their scoreboards side by side, as placeWarps made them), for the
// device's next grids: a grid's first wave otherwise allocates every
// resident block's and warp's state and scoreboard anew (the reduce
// lesson's 2^20 ints: 528 blocks and 8,448 warps a launch).
type blockPool struct {
	mu    sync.Mutex
	free  []*blockT
	bytes int // what the kept blocks' warps hold in all (blockT.bytes)
}

// blockPoolBytes bounds what the pool keeps between grids: a wave of the
// H100's 132 SMs of 64 warps, with scoreboards of 200 entries, is 30 MiB.
const blockPoolBytes = 64 << 20

// take returns a kept block, as new but for its warps, which keep their
// last grid's scoreboards (placeWarps clears them: stale), or nil.
func (p *blockPool) take() *blockT {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.free)
	if n == 0 {
		return nil
	}
	b := p.free[n-1]
	p.free[n-1] = nil
	p.free = p.free[:n-1]
	p.bytes -= b.bytes()
	*b = blockT{warps: b.warps, consts: b.consts[:0], stale: true}
	return b
}

// bytes is what b's warps hold: their state and scoreboards.
func (b *blockT) bytes() int {
	n := 0
	for _, w := range b.warps {
		n += int(unsafe.Sizeof(*w)) + 8*cap(w.regReady) + cap(w.regKind) + int(unsafe.Sizeof(lazyParam{}))*cap(w.lazy)
	}
	return n
}

// put keeps the blocks of a finished grid (bs), within blockPoolBytes.
func (p *blockPool) put(bs []*blockT) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, b := range bs {
		// Its warps beyond the grid's blocks' (a grid of smaller blocks
		// than an earlier one's left them past len) are kept too: a grid
		// of larger blocks takes them (placeWarps).
		all := b.warps[:cap(b.warps)]
		for len(b.warps) < len(all) && all[len(b.warps)] != nil {
			b.warps = all[:len(b.warps)+1]
		}
		n := b.bytes()
		if p.bytes+n > blockPoolBytes {
			continue
		}
		// Nothing of the grid kept alive through them.
		for _, w := range b.warps {
			*w = warpT{regReady: w.regReady, regKind: w.regKind, lazy: w.lazy[:0]}
		}
		*b = blockT{warps: b.warps, consts: b.consts[:0]}
		p.free = append(p.free, b)
		p.bytes += n
	}
}
